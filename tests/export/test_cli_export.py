"""`python -m playground export` and `push`."""

import zipfile

import pytest
import yaml

from playground.cli.main import main
from tests.export.conftest import tiny_spec


def test_export_formats_of_a_run(trained_run, tmp_path, capsys):
    assert main(["export", "--run", str(trained_run.path), "--format", "adapter", "--out", str(tmp_path)]) == 0
    zipped = tmp_path / f"{trained_run.id}-adapter.zip"
    assert capsys.readouterr().out.strip() == str(zipped)
    assert f"{trained_run.id}-adapter/adapter_model.safetensors" in zipfile.ZipFile(zipped).namelist()

    runs = str(trained_run.path.parent)
    out = tmp_path / "recipe"
    assert main(["export", "--run", trained_run.id, "--runs", runs, "--format", "trl-recipe", "--out", str(out)]) == 0
    assert yaml.safe_load((out / "recipe.yaml").read_text())["reward_weights"] == [1.0, 0.5]


def test_export_of_a_spec_file(tiny_model_dir, tmp_path):
    spec_file = tmp_path / "spec.json"
    spec_file.write_text(tiny_spec(tiny_model_dir, max_steps=7).to_json())
    assert main(["export", "--spec", str(spec_file), "--format", "script", "--out", str(tmp_path / "s")]) == 0
    assert '    "max_steps": 7,  # Optimizer steps to train.' in (tmp_path / "s" / "train_grpo.py").read_text()


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--format", "script"], "error: Give either --run or --spec."),
        (
            ["--spec", "s.json", "--format", "merged"],
            "error: --format merged needs a trained run (--run), not a spec.",
        ),
        (["--run", "nope", "--format", "adapter"], "error: No run named 'nope' in"),
    ],
)
def test_export_errors_are_one_line(argv, message, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["export", *argv, "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(message) and err.count("\n") == 1


def test_push_offline_is_one_line_and_hides_the_token(trained_run, capsys, monkeypatch):
    token = "hf_cliTestToken9876543210"
    monkeypatch.setenv("HF_TOKEN", token)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    assert main(["push", "--run", str(trained_run.path), "--repo_id", "alice/tiny-grpo"]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("error: The Hugging Face Hub cannot be reached in offline mode")
    assert captured.err.count("\n") == 1 and token not in captured.err + captured.out
