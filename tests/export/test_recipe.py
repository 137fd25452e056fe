"""The `trl grpo` recipe: TRL's own parser reads it back into the playground's config, and TRL's CLI trains it into
the very metrics the playground logged."""

import json
import zipfile
from pathlib import Path

import pytest
import yaml

from playground.errors import PlaygroundError
from playground.export import EMBEDDED_HUB_ID, available_reporters, export_recipe, export_script, zip_folder
from playground.export.recipe import CPU_FLAGS
from playground.export.settings import exported_grpo_config
from playground.scoring import RewardChoice
from playground.spec import RunSpec
from tests.export.conftest import tiny_spec, train_exported


CPU = CPU_FLAGS.split()


def parse_recipe(folder: Path, *extra: str):
    """(script args, GRPOConfig, ModelConfig, dataset mixture) exactly as `trl grpo` parses them."""
    from trl.scripts.grpo import make_parser

    return make_parser().parse_args_and_config(["--config", str(folder / "recipe.yaml"), *CPU, *extra])


@pytest.mark.parametrize(
    "overrides",
    [
        {},
        {"steps_per_generation": 2, "gradient_accumulation_steps": 2, "per_device_train_batch_size": 2},
        {"load_in_4bit": True, "lora_target_modules": "q_proj,v_proj", "beta": 0.0, "loss_type": "grpo"},
    ],
    ids=["default", "steps_per_generation", "4bit"],
)
def test_recipe_parses_back_into_the_playground_config(tiny_model_dir, tmp_path, overrides):
    from trl import get_peft_config, get_quantization_config

    spec = tiny_spec(tiny_model_dir, **overrides)
    folder = export_recipe(spec, tmp_path / "recipe")
    extra = ["--bnb_4bit_quant_storage", "float32"] if spec.model.load_in_4bit else []
    script, training, model, _ = parse_recipe(folder, *extra)  # unknown keys would raise here

    # Every GRPOConfig field, not only the ones the spec sets, equals the config the export promises.
    assert training.to_dict() == exported_grpo_config(spec).to_dict()
    assert training.reward_weights == [1.0, 0.5]
    assert (training.save_strategy, training.save_steps) == ("steps", 5)
    # ... which is the playground's own trainer config, but for checkpointing and progress bars.
    playground = spec.grpo_config("output").to_dict()
    differ = {k for k, v in training.to_dict().items() if playground[k] != v}
    assert differ <= {"save_strategy", "save_steps", "disable_tqdm"}

    assert get_peft_config(model).to_dict() == spec.lora_config().to_dict()
    quantization = get_quantization_config(model)
    expected = spec.bnb_config()
    assert (quantization and quantization.to_dict()) == (expected and expected.to_dict())
    assert model.model_name_or_path == str(tiny_model_dir)
    assert script.reward_funcs == ["rewards_module.reward_length", "rewards_module.reward_format"]
    assert (script.dataset_name, script.dataset_train_split) == ("data", "train")


def test_recipe_targets_a_gpu_and_names_the_embedded_model_by_its_hub_id(tmp_path, embedded_dir):
    spec = RunSpec()
    spec.rewards = [RewardChoice("length", 1.0, {"ideal_length": 50})]
    folder = export_recipe(spec, tmp_path / "recipe")
    text = (folder / "recipe.yaml").read_text()
    config = yaml.safe_load(text)
    assert config["model_name_or_path"] == EMBEDDED_HUB_ID == "HuggingFaceTB/SmolLM2-135M-Instruct"
    assert (config["bf16"], config["dtype"]) == (True, "bfloat16") and "use_cpu" not in config
    assert f"bf16: true  # on a CPU pass {CPU_FLAGS}" in text
    assert "# reward_funcs" not in text and "reward_funcs: [rewards_module.reward_length]" in text
    assert "reward_weights: [1.0]  # metrics: rewards/length(ideal_length=50)/mean" in text
    assert "learning_rate: 0.0005  # Initial AdamW learning rate" in text  # help text from the spec's metadata
    rows = [json.loads(line) for line in (folder / "data/train.jsonl").read_text().splitlines()]
    assert len(rows) == 30 and rows[0]["prompt"][0]["role"] == "user"  # SmolLM2 has a chat template
    readme = (folder / "README.md").read_text()
    assert "trl vllm-serve --model HuggingFaceTB/SmolLM2-135M-Instruct" in readme
    assert sorted(p.name for p in folder.iterdir()) == [
        "README.md",
        "data",
        "fsdp.yaml",
        "recipe.yaml",
        "rewards",
        "rewards_module.py",
        "zero2.yaml",
    ]
    zipped = zip_folder(folder)  # what the UI's download button serves
    assert zipped == tmp_path / "recipe.zip"
    assert "recipe/data/train.jsonl" in zipfile.ZipFile(zipped).namelist()


def test_report_to_is_carried_by_the_recipe_and_the_script(tiny_model_dir, tmp_path):
    assert "trackio" in available_reporters()  # requirements-dev installs the trackio extra
    spec = tiny_spec(tiny_model_dir)
    spec.set("report_to", "trackio")
    folder = export_recipe(spec, tmp_path / "recipe")
    assert "report_to: [trackio]" in (folder / "recipe.yaml").read_text()
    _, training, _, _ = parse_recipe(folder)
    assert training.report_to == ["trackio"]
    script = export_script(spec, tmp_path / "script")
    assert '"report_to": ["trackio"],' in (script / "train_grpo.py").read_text()
    spec.set("report_to", "none")  # TRL's spelling of no tracker
    assert "report_to: [trackio]" not in (export_recipe(spec, tmp_path / "plain") / "recipe.yaml").read_text()


def test_export_refuses_a_non_empty_folder_and_leaves_nothing_on_failure(tiny_model_dir, tmp_path):
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "keep.txt").write_text("mine")
    with pytest.raises(PlaygroundError, match="not empty"):
        export_recipe(tiny_spec(tiny_model_dir), tmp_path / "taken")
    spec = tiny_spec(tiny_model_dir)
    spec.rewards = [RewardChoice("no_such_reward")]
    with pytest.raises(PlaygroundError, match="Unknown reward 'no_such_reward'"):
        export_recipe(spec, tmp_path / "new")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taken"]


def test_multi_gpu_commands_of_the_readme_reach_accelerate(tiny_model_dir, tmp_path, monkeypatch):
    """`trl grpo` hands unknown flags to `accelerate launch`; check that the README's commands do what they say."""
    from accelerate.commands.config.config_args import load_config_from_file
    from accelerate.commands.launch import launch_command_parser
    from trl.cli import accelerate_launcher
    from trl.cli.main import main as trl_main

    folder = export_recipe(tiny_spec(tiny_model_dir), tmp_path / "recipe")
    readme = (folder / "README.md").read_text()
    launched = []
    monkeypatch.setattr(accelerate_launcher, "launch_training_script", lambda *a, **k: launched.append((a, k)))
    monkeypatch.chdir(folder)
    for config, kind in (("zero2.yaml", "DEEPSPEED"), ("fsdp.yaml", "FSDP")):
        command = f"trl grpo --config recipe.yaml --accelerate_config {config} --num_processes 4"
        assert command in readme
        assert trl_main([*command.split()[1:], *CPU]) == 0  # this machine has no GPU for TRL's own parse
        (), kwargs = launched.pop()
        args = launch_command_parser().parse_args(
            [*kwargs["launch_args"], "train.py", *kwargs["training_script_args"]]
        )
        assert (Path(args.config_file).name, args.num_processes) == (config, 4)
        assert kwargs["training_script_args"] == ["--config", "recipe.yaml", *CPU]  # the rest went to accelerate
        assert load_config_from_file(config).distributed_type.value == kind

    command = "accelerate launch --config_file zero2.yaml --num_processes 4 -m trl.scripts.grpo --config recipe.yaml"
    assert command in readme
    args = launch_command_parser().parse_args(command.split()[2:])
    assert (args.module, args.training_script, args.training_script_args) == (
        True,
        "trl.scripts.grpo",
        ["--config", "recipe.yaml"],
    )


@pytest.mark.slow
def test_trl_cli_trains_the_recipe_into_the_runs_metrics(trained_run, tmp_path):
    """The exported recipe, run by the real `trl grpo` on the CPU, logs the same rewards as the playground run.

    The command is the one README.md and the recipe's README give, run as a process (`python -m trl.cli.main` is the
    `trl` command); tests/test_doc_commands.py counts this test as that documented command's case."""
    import torch

    folder = export_recipe(trained_run, tmp_path / "recipe")
    command = "trl grpo --config recipe.yaml"
    assert f"\n{command}\n" in (folder / "README.md").read_text()
    out = train_exported(folder, "-m", "trl.cli.main", *command.split()[1:], *CPU)

    spec = RunSpec.from_dict(trained_run.spec())
    used = torch.load(out / "training_args.bin", weights_only=False).to_dict()
    expected = exported_grpo_config(spec).to_dict()
    differ = {k for k in expected if used[k] != expected[k]}
    assert differ == {"model_init_kwargs"}  # set by TRL's grpo script from the ModelConfig: dtype float32 on CPU
    assert used["model_init_kwargs"]["dtype"] == "float32"

    state = json.loads(next(out.glob("checkpoint-*/trainer_state.json")).read_text())
    cli_rows = [row for row in state["log_history"] if "reward" in row]
    run_rows = [row for row in trained_run.metrics() if "reward" in row]
    assert [r["step"] for r in cli_rows] == [r["step"] for r in run_rows] == [1, 2]
    for key in ("reward", "rewards/length(ideal_length=5)/mean", "rewards/format/mean", "completions/mean_length"):
        assert [r[key] for r in cli_rows] == pytest.approx([r[key] for r in run_rows], rel=1e-5, abs=1e-6), key
