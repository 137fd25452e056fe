"""`train_grpo.py`: the spec's values as constants, and a real 2-step run with a custom reward on the CPU."""

import importlib.util
import json

import pytest

from playground.export import export_script
from playground.export.settings import exported_grpo_config
from playground.scoring import RewardChoice
from playground.spec import RunSpec
from tests.export.conftest import tiny_spec, train_exported


pytestmark = pytest.mark.slow  # each test trains the exported script in a subprocess


CUSTOM = '''\
def ends_with_period(completions, **kwargs):
    """1.0 when the completion ends with a period."""
    texts = [c if isinstance(c, str) else c[-1]["content"] for c in completions]
    return [1.0 if t.strip().endswith(".") else 0.0 for t in texts]
'''


def load_script(path):
    spec = importlib.util.spec_from_file_location(f"train_grpo_{abs(hash(path))}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # main() only runs under __main__
    return module


def test_script_constants_rebuild_the_specs_configs(tiny_model_dir, tmp_path):
    import torch
    from trl import GRPOConfig

    spec = tiny_spec(tiny_model_dir, load_in_4bit=True, lora_target_modules="q_proj,v_proj", top_p=0.9)
    folder = export_script(spec, tmp_path / "script")
    source = (folder / "train_grpo.py").read_text()
    assert source.index("MODEL = ") < source.index("def main()") < source.index("reward_length = build_reward(")
    assert '"top_p": 0.9,  # Nucleus sampling: keep the top tokens of this mass.' in source
    compile(source, "train_grpo.py", "exec")

    script = load_script(folder / "train_grpo.py")
    assert script.MODEL == str(tiny_model_dir) and script.USE_GPU is False  # no GPU here
    assert script.get_lora_config().to_dict() == spec.lora_config().to_dict()
    assert script.get_quantization_config(torch.float32).to_dict() == spec.bnb_config().to_dict()
    config = GRPOConfig(
        output_dir=script.OUTPUT_DIR, bf16=False, use_cpu=True, reward_weights=script.REWARD_WEIGHTS, **script.TRAINING
    )
    assert config.to_dict() == exported_grpo_config(spec).to_dict()
    assert [f.__name__ for f in script.REWARD_FUNCS] == ["length(ideal_length=5)", "format"]


def test_script_trains_two_steps_with_a_custom_reward(trained_run, tmp_path):
    import torch

    spec = RunSpec.from_dict(trained_run.spec())
    spec.custom_code = CUSTOM  # `RunSpec.custom_code` once the sandbox lands; exports read it with getattr
    spec.rewards.append(RewardChoice("ends_with_period", 0.25))
    folder = export_script(spec, tmp_path / "script")
    out = train_exported(folder, "train_grpo.py")

    used = torch.load(out / "training_args.bin", weights_only=False).to_dict()
    expected = exported_grpo_config(spec).to_dict()
    assert {k for k in expected if used[k] != expected[k]} == {"model_init_kwargs"}  # the script's dtype
    assert used["reward_weights"] == [1.0, 0.5, 0.25]

    state = json.loads(next(out.glob("checkpoint-*/trainer_state.json")).read_text())
    rows = [row for row in state["log_history"] if "reward" in row]
    assert [r["step"] for r in rows] == [1, 2]
    assert "rewards/ends_with_period/mean" in rows[0]
    # Same seed, same model before the first update: step 1 sampled what the playground sampled.
    first = next(row for row in trained_run.metrics() if row.get("step") == 1 and "reward" in row)
    key = "rewards/length(ideal_length=5)/mean"
    assert rows[0][key] == pytest.approx(first[key])
