"""A recipe exported from the embedded model names it by its Hub id; with the Hub out of reach that id is the
embedded model, so the recipe reruns offline through the playground's own `train --config`."""

import json

import pytest
import yaml

from playground.export import EMBEDDED_HUB_ID, export_recipe
from playground.models import ModelSource, in_hub_cache, resolve_path
from playground.scoring import RewardChoice
from playground.spec import RunSpec


@pytest.fixture
def hub_id_not_cached():
    if in_hub_cache(EMBEDDED_HUB_ID):
        pytest.skip(f"{EMBEDDED_HUB_ID} is in this machine's Hugging Face cache: an offline load finds it there")


def test_the_hub_id_resolves_to_the_embedded_model_offline(embedded_dir, hub_id_not_cached, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    assert resolve_path(ModelSource.parse(EMBEDDED_HUB_ID)) == str(embedded_dir)
    assert resolve_path(ModelSource.parse("someone/another-model")) == "someone/another-model"  # only that id


@pytest.mark.slow
def test_an_exported_embedded_recipe_trains_offline(embedded_dir, hub_id_not_cached, tmp_path, monkeypatch, capsys):
    from playground.cli.main import main

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    spec = RunSpec()
    spec.rewards = [RewardChoice("length", 1.0, {"ideal_length": 5})]
    folder = export_recipe(spec, tmp_path / "recipe")
    assert yaml.safe_load((folder / "recipe.yaml").read_text())["model_name_or_path"] == EMBEDDED_HUB_ID
    small = ["--max_steps", "1", "--num_generations", "2", "--per_device_train_batch_size", "2"]
    small += ["--max_completion_length", "4", "--bf16", "false"]
    monkeypatch.chdir(folder)  # `grpo-playground train --config recipe.yaml` in the recipe's folder, in this process
    code = main(["train", "--config", "recipe.yaml", *small, "--out", str(tmp_path / "runs")])
    assert code == 0, capsys.readouterr().err[-3000:]
    (run_dir,) = [p for p in (tmp_path / "runs").iterdir() if p.is_dir()]
    status = json.loads((run_dir / "status.json").read_text())
    assert status["status"] == "finished" and status["step"] == 1
    assert (run_dir / "adapter" / "adapter_config.json").is_file()
