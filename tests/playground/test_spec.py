"""The run spec: JSON round trip, TRL names into GRPOConfig/LoraConfig/BitsAndBytesConfig, and validation."""

import pytest

from playground.errors import SpecError
from playground.scoring import RewardChoice
from playground.spec import RunSpec, demo_spec, field_help
from playground.validation import validate_spec


def test_json_round_trip_and_flat_set():
    spec = demo_spec()
    spec.set("learning_rate", "1e-4")
    spec.set("lora_target_modules", "q_proj,v_proj")
    spec.set("load_in_4bit", "true")
    spec.set("dataset_name", "arithmetic")
    spec.set("column_map", "answer=solution")
    spec.rewards = [RewardChoice("correctness", 2.0, {"column": "solution"})]
    again = RunSpec.from_json(spec.to_json())
    assert again.to_dict() == spec.to_dict()
    assert again.grpo.learning_rate == 1e-4 and again.lora.lora_target_modules == ["q_proj", "v_proj"]
    assert again.model.load_in_4bit is True and again.data.name == "arithmetic"
    assert again.data.column_map == {"answer": "solution"}


def test_grpo_config_uses_trl_names_and_cpu_settings(tmp_path):
    spec = demo_spec()
    spec.set("num_generations", 4)
    spec.set("per_device_train_batch_size", 8)
    config = spec.grpo_config(str(tmp_path))
    assert config.num_generations == 4 and config.generation_batch_size == 8
    assert config.logging_steps == 1 and config.beta == 0.04 and config.loss_type == "dapo"
    assert config.bf16 is False and config.use_cpu is True
    assert config.reward_weights == [1.0]
    assert config.multi_objective_aggregation == "sum_then_normalize"  # TRL's default, the spec's too
    spec.set("multi_objective_aggregation", "normalize_then_sum")
    assert spec.grpo_config(str(tmp_path)).multi_objective_aggregation == "normalize_then_sum"
    assert RunSpec.from_json(spec.to_json()).grpo.multi_objective_aggregation == "normalize_then_sum"  # spec.json
    assert spec.lora_config().target_modules == "all-linear"
    spec.set("load_in_4bit", True)
    bnb = spec.bnb_config()
    assert bnb.load_in_4bit and bnb.bnb_4bit_quant_type == "nf4"


@pytest.mark.parametrize(
    "name,value,field,message",
    [
        ("num_generations", 1, "num_generations", "at least 2"),
        ("per_device_train_batch_size", 6, "per_device_train_batch_size", r"divisible by num_generations \(8\)"),
        ("learning_rate", -1e-4, "learning_rate", "above 0"),
        ("learning_rate", 0.5, "learning_rate", "at most 0.01"),
        ("beta", -0.1, "beta", "between 0 and 10"),
        ("max_steps", 0, "max_steps", "at least 1"),
        ("max_completion_length", 10**6, "max_completion_length", "between 1 and 4096"),
        ("loss_type", "ppo", "loss_type", "loss_type must be one of grpo, .*, got 'ppo'"),
        ("scale_rewards", "rank", "scale_rewards", "one of group, batch, none"),
        (
            "multi_objective_aggregation",
            "sum",
            "multi_objective_aggregation",
            "one of sum_then_normalize, normalize_then_sum, got 'sum'",
        ),
        ("load_in_8bit", True, "load_in_8bit", "needs a CUDA GPU"),
        ("use_vllm", True, "use_vllm", "needs a CUDA GPU"),
        ("device", "cuda", "device", "no CUDA GPU"),
        ("model_name_or_path", "./no/such/folder", "model_name_or_path", "does not exist"),
    ],
)
def test_validation_names_the_field(name, value, field, message):
    spec = demo_spec()
    spec.set(name, value)
    with pytest.raises(SpecError, match=message) as info:
        validate_spec(spec)
    assert info.value.field == field


def test_reward_column_checked_against_data():
    spec = demo_spec()
    spec.rewards = [RewardChoice("correctness")]
    with pytest.raises(SpecError, match="needs the dataset column 'answer', but the data has only: prompt"):
        validate_spec(spec, columns=["prompt"])
    validate_spec(spec, columns=["prompt", "answer"])


def test_bad_values_and_unknown_fields():
    spec = demo_spec()
    with pytest.raises(SpecError, match="max_steps must be int"):
        spec.set("max_steps", "ten")
    with pytest.raises(SpecError, match="Unknown run spec field 'num_generation'"):
        spec.set("num_generation", 8)  # the seed article's typo
    with pytest.raises(SpecError, match="Unknown run spec field"):
        RunSpec.from_dict({"grpo": {"max_prompt_length": 128}})  # removed from TRL


def test_help_is_written_once_in_metadata():
    assert "KL penalty" in field_help("beta") and "TRL's default is 0.0" in field_help("beta")
