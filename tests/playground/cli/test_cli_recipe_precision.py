"""A recipe exported for a GPU (`bf16: true`, `dtype: bfloat16`) trains with `train --config` on a machine without
CUDA in what its CPU computes natively, and says so; `--bf16 true` on the command line is taken as asked.

The CPU's bf16 is decided by `playground.fastpath.packing.cpu_has_native_bf16`; each test sets it both ways, so
the path of a CPU without native bf16 (AVX2 only) runs here too."""

import json

import pytest
import yaml

from playground.cli.main import main
from playground.cli.train import parse_train
from playground.fastpath import packing


def _only_run(folder):
    (run,) = [p for p in folder.iterdir() if p.is_dir()]
    return run


@pytest.fixture(scope="module")
def gpu_recipe(tiny_model_dir, tmp_path_factory):
    """A 1-step run of the tiny model on this CPU (device auto), exported with `export --format trl-recipe`."""
    runs = tmp_path_factory.mktemp("runs")
    args = ["--model_name_or_path", str(tiny_model_dir), "--max_steps", "1", "--max_completion_length", "6"]
    args += ["--num_generations", "4", "--per_device_train_batch_size", "4", "--out", str(runs), "--json_log"]
    assert main(["train", *args]) == 0
    out = tmp_path_factory.mktemp("export") / "recipe"
    assert main(["export", "--run", str(_only_run(runs)), "--format", "trl-recipe", "--out", str(out)]) == 0
    return out / "recipe.yaml"


def test_the_export_targets_a_gpu_and_names_the_machine_it_was_made_on(gpu_recipe):
    text = gpu_recipe.read_text()
    config = yaml.safe_load(text)
    assert (config["bf16"], config["dtype"]) == (True, "bfloat16") and "use_cpu" not in config
    (line,) = [line for line in text.splitlines() if line.startswith("# Exported on: ")]
    assert f"CPU {packing.cpu_model_name()} (" in line
    assert ("(native bf16)" if packing.cpu_has_native_bf16() else "(no native bf16)") in line


@pytest.mark.parametrize("native", [True, False], ids=["native-bf16", "no-bf16"])
def test_a_gpu_recipe_reads_as_this_cpus_precision_with_one_line(gpu_recipe, monkeypatch, capsys, native):
    monkeypatch.setattr(packing, "cpu_has_native_bf16", lambda: native)
    spec, _ = parse_train(["--config", str(gpu_recipe)])
    assert spec.resolved_device() == "cpu" and spec.grpo.bf16 is native
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith(f"{gpu_recipe} sets bf16 for a GPU; no CUDA here")
    assert line.endswith("computes natively." if native else "training in fp32.")


@pytest.mark.parametrize("flag", [["--bf16", "true"], ["--bf16=true"], ["--bf16"]])
def test_bf16_asked_on_the_command_line_is_kept_and_refused_without_native_bf16(gpu_recipe, monkeypatch, capsys, flag):
    monkeypatch.setattr(packing, "cpu_has_native_bf16", lambda: False)
    spec, _ = parse_train(["--config", str(gpu_recipe), *flag])
    assert spec.grpo.bf16 is True and capsys.readouterr().err == ""
    code = main(["train", "--config", str(gpu_recipe), *flag, "--max_steps", "1"])
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and line.startswith("error: bf16 needs a CPU with native bf16"), line


def test_a_cpu_recipe_asking_for_bf16_is_kept(gpu_recipe, monkeypatch, capsys):
    config = gpu_recipe.with_name("cpu.yaml")  # beside rewards_module.py, which the recipe names
    config.write_text(gpu_recipe.read_text() + "use_cpu: true\n")
    monkeypatch.setattr(packing, "cpu_has_native_bf16", lambda: False)
    try:
        spec, _ = parse_train(["--config", str(config)])
    finally:
        config.unlink()
    assert spec.grpo.bf16 is True and spec.model.device == "cpu" and capsys.readouterr().err == ""


@pytest.mark.parametrize("native", [True, False], ids=["native-bf16", "no-bf16"])
def test_an_exported_gpu_recipe_trains_one_step_on_this_cpu(gpu_recipe, tmp_path, monkeypatch, capsys, native):
    monkeypatch.setattr(packing, "cpu_has_native_bf16", lambda: native)
    code = main(["train", "--config", str(gpu_recipe), "--max_steps", "1", "--out", str(tmp_path), "--json_log"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "sets bf16 for a GPU; no CUDA here" in err
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["step"] for r in rows] == [1] and rows[0]["num_tokens"] > 0
    saved = json.loads((_only_run(tmp_path) / "spec.json").read_text())
    assert saved["grpo"]["bf16"] is native and saved["grpo"]["max_steps"] == 1
