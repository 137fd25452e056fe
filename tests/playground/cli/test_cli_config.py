"""`train --config`: TRL's parser reads the YAML `trl grpo` reads (an exported recipe included); flags override it."""

import json
import os

import pytest

from playground.cli.main import main
from playground.cli.train import parse_train
from playground.export import export_recipe
from playground.scoring import RewardChoice
from playground.spec import RunSpec, demo_spec
from tests.support.tiny_models import tiny_spec


CUSTOM = "def shouting(completions, **kwargs):\n    return [float(str(c).isupper()) for c in completions]\n"


def recipe_spec(model_dir) -> RunSpec:
    rewards = [
        RewardChoice("length", 1.0, {"ideal_length": 5}),
        RewardChoice("format", 0.5),
        RewardChoice("shouting", 0.25),
    ]
    return tiny_spec(
        model_dir,
        rewards,
        base=demo_spec(),
        custom_code=CUSTOM,
        max_steps=7,
        max_completion_length=6,
        learning_rate=3e-3,
        lora_r=4,
        dataset_name="arithmetic",
        device="cpu",
    )


@pytest.fixture(scope="module")
def recipe(tiny_model_dir, tmp_path_factory):
    return export_recipe(recipe_spec(tiny_model_dir), tmp_path_factory.mktemp("export") / "recipe") / "recipe.yaml"


def test_an_exported_recipe_reads_back_as_the_spec_it_came_from(recipe, tiny_model_dir):
    spec, _ = parse_train(["--config", str(recipe)])
    original = recipe_spec(tiny_model_dir)
    assert spec.grpo.max_steps == 7 and spec.grpo.learning_rate == 3e-3 and spec.grpo.num_generations == 4
    assert spec.lora.lora_r == 4 and spec.model.model_name_or_path == str(tiny_model_dir)
    assert spec.model.device == "cpu"  # the recipe pins the CPU with use_cpu
    assert [r.to_dict() for r in spec.rewards] == [r.to_dict() for r in original.rewards]
    assert "def shouting(completions, **kwargs):" in spec.custom_code
    assert spec.data.kind == "file" and spec.data.name == str(recipe.parent / "data" / "train.jsonl")


def test_flags_override_the_config_and_the_config_overrides_the_base_spec(recipe):
    spec, _ = parse_train(["--config", str(recipe), "--max_steps", "2", "--reward", "length:2"])
    assert spec.grpo.max_steps == 2 and spec.grpo.learning_rate == 3e-3
    assert [r.to_dict() for r in spec.rewards] == [{"name": "length", "weight": 2.0, "params": {}}]
    lesson, _ = parse_train(["--lesson", "format", "--beta", "0.0"])
    assert lesson.grpo.sft_warmup_steps > 0 and lesson.grpo.beta == 0.0  # the lesson's recipe, one field changed


def test_a_trl_config_with_a_key_the_playground_does_not_train_with_is_one_line_exit_2(tmp_path, capsys):
    config = tmp_path / "trl.yaml"
    config.write_text("learning_rate: 1.0e-4\nlogging_steps: 5\nwarmup_ratio: 0.1\n")
    with pytest.raises(SystemExit) as exc:
        main(["train", "--config", str(config)])
    lines = capsys.readouterr().err.strip().splitlines()
    assert exc.value.code == 2 and len(lines) == 1 and "warmup_ratio" in lines[0] and "logging_steps" not in lines[0]
    config.write_text("- not a mapping\n")
    assert main(["train", "--config", str(config)]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and "must hold a YAML mapping" in lines[0]


def test_flags_take_trl_spellings(tmp_path):
    spec, _ = parse_train(["--lora_target_modules", "q_proj,v_proj", "--load_in_4bit", "true", "--report_to", "none"])
    assert spec.lora.lora_target_modules == ["q_proj", "v_proj"] and spec.model.load_in_4bit is True
    assert spec.grpo.report_to == []
    (tmp_path / "p.jsonl").write_text('{"question": "1+1?"}\n')
    spec, _ = parse_train(["--dataset_name", str(tmp_path / "p.jsonl"), "--prompt_column", "question"])
    assert (spec.data.kind, spec.data.prompt_column) == ("file", "question")  # read as what it looks like


@pytest.mark.slow
def test_train_runs_one_step_from_an_exported_recipe(recipe, tmp_path, capsys):
    code = main(["train", "--config", str(recipe), "--max_steps", "1", "--out", str(tmp_path), "--json_log"])
    assert code == 0, capsys.readouterr().err
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["step"] for r in rows] == [1]
    assert {"rewards/length(ideal_length=5)/mean", "rewards/format/mean", "rewards/shouting/mean"} <= set(rows[0])
    (run,) = [p for p in tmp_path.iterdir() if p.is_dir()]
    saved = json.loads((run / "spec.json").read_text())
    assert saved["grpo"]["max_steps"] == 1 and saved["grpo"]["learning_rate"] == 3e-3
    assert json.loads((run / "status.json").read_text())["status"] == "finished"


def test_a_plain_trl_grpo_yaml_reads_with_trls_reward_names_and_a_hub_dataset(tmp_path, monkeypatch):
    monkeypatch.setenv("PLAYGROUND_CONFIG_PROBE", "unset")  # restored after the test
    config = tmp_path / "grpo.yaml"
    config.write_text(
        "model_name_or_path: Qwen/Qwen2.5-0.5B-Instruct\n"
        "dataset_name: trl-lib/DeepMath-103K\n"
        "dataset_train_split: train\n"
        "reward_funcs: [think_format_reward, accuracy_reward]\n"
        "reward_weights: [1.0, 2.0]\n"
        "learning_rate: 1.0e-5\n"
        "lora_target_modules: [q_proj, v_proj]\n"
        "output_dir: out\n"
        "bf16: true\n"
        "logging_steps: 10\n"
        "env:\n  PLAYGROUND_CONFIG_PROBE: set\n"
    )
    spec, _ = parse_train(["--config", str(config)])
    assert spec.model.model_name_or_path == "Qwen/Qwen2.5-0.5B-Instruct" and spec.grpo.learning_rate == 1e-5
    assert (spec.data.kind, spec.data.name, spec.data.split) == ("hub", "trl-lib/DeepMath-103K", "train")
    assert [(r.name, r.weight) for r in spec.rewards] == [("think_format", 1.0), ("accuracy", 2.0)]
    assert spec.lora.lora_target_modules == ["q_proj", "v_proj"]
    assert os.environ["PLAYGROUND_CONFIG_PROBE"] == "set"  # TRL's `env:` section, as `trl grpo` sets it
