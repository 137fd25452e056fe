"""The run spec: JSON round trip, TRL names into GRPOConfig/LoraConfig/BitsAndBytesConfig, and validation."""

from dataclasses import fields

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


# --- bounds in field metadata, one validator --------------------------------------------------------------------


@pytest.mark.parametrize(
    "metadata,value,key,english,chinese",
    [
        ({"min": 2}, 1, "spec.bound.min", "x must be at least 2, got 1.", "x 至少为 2，实际为 1。"),
        ({"gt": 0}, 0.0, "spec.bound.gt", "x must be above 0, got 0.0.", "x 必须大于 0，实际为 0.0。"),
        ({"min": 1, "max": 4}, 5, "spec.bound.min_max", "x must be between 1 and 4, got 5.", None),
        ({"gt": 0, "max": 1}, 2.0, "spec.bound.gt_max", "x must be above 0 and at most 1, got 2.0.", None),
        ({"gt": 0, "lt": 1}, 1.0, "spec.bound.gt_lt", "x must be between 0 and 1, both excluded, got 1.0.", None),
        ({"min": 0, "lt": 1}, 1.0, "spec.bound.min_lt", "x must be in [0, 1), got 1.0.", None),
        ({"min": 0, "max": 1}, float("nan"), "spec.bound.min_max", "x must be between 0 and 1, got nan.", None),
        ({"choices": ("a", "b")}, "c", "spec.bound.choices", "x must be one of a, b, got 'c'.", None),
        ({"nonempty": True}, [], "spec.bound.nonempty", "x must not be empty.", "x 不能为空。"),
        ({"max_chars": 2}, "abc", "spec.bound.max_chars", "x must be at most 2 characters, got 3.", None),
    ],
)
def test_one_validator_reads_each_kind_of_bound(metadata, value, key, english, chinese):
    from playground.validation import check_field

    with pytest.raises(SpecError) as info:
        check_field("x", value, metadata)
    assert (info.value.key, info.value.field, str(info.value)) == (key, "x", english)
    assert chinese is None or info.value.render("zh") == chinese
    check_field("x", None, metadata)  # an optional field left empty passes


def test_every_surfaced_bound_is_a_kind_the_validator_knows_and_the_recipe_passes():
    from playground.spec import RECIPE, flat_fields
    from playground.texts import catalogue
    from playground.validation import BOUNDS, check_field

    kinds = set(BOUNDS) | {"help", "choices", "nonempty", "max_chars"}
    table = catalogue()
    for section, f in flat_fields():
        assert set(f.metadata) <= kinds | {"metadata"}, f.name  # TRL's own metadata may carry more
        check_field(f.name, getattr(getattr(demo_spec(), section), f.name), f.metadata)
        bounds = "_".join(k for k in BOUNDS if k in f.metadata)
        assert not bounds or all(table[lang][f"spec.bound.{bounds}"] for lang in ("en", "zh")), f.name
    spec = demo_spec()
    surfaced = {f.name: getattr(getattr(spec, s), f.name) for s, f in flat_fields()}
    assert {k: surfaced[k] for k in RECIPE if k in surfaced} == {k: v for k, v in RECIPE.items() if k in surfaced}
    assert len(set(RECIPE) & set(surfaced)) == 11  # the rest are trainer settings the form does not show


def test_the_spec_is_trls_classes_plus_the_playgrounds_own_fields(tmp_path):
    from trl import GRPOConfig, ModelConfig

    from playground.spec import SECTIONS, MachineArgs, PlaygroundConfig

    own = set(PlaygroundConfig.__dataclass_fields__) - set(GRPOConfig.__dataclass_fields__)
    assert own == {f.name for f in fields(SECTIONS["grpo"])} - set(GRPOConfig.__dataclass_fields__)
    model = {f.name for s in ("model", "lora") for f in fields(SECTIONS[s])} - set(MachineArgs.__dataclass_fields__)
    assert model <= set(ModelConfig.__dataclass_fields__)
    spec = demo_spec()
    spec.set("lora_r", "8")
    config = spec.model_config(gpu=False)
    assert (config.lora_r, config.use_peft, config.dtype, config.model_name_or_path) == (
        8,
        True,
        "float32",
        "embedded",
    )
    assert isinstance(PlaygroundConfig(output_dir=str(tmp_path), use_cpu=True, sft_warmup_steps=3), GRPOConfig)


def test_the_preview_settings_meet_the_run_fields_bounds():
    from playground.preview import MAX_GENERATIONS, GenerationSettings
    from playground.spec import SECTIONS

    temperature = next(f for f in fields(SECTIONS["grpo"]) if f.name == "temperature").metadata
    with pytest.raises(SpecError) as info:
        GenerationSettings(temperature=temperature["max"] * 2).validate()  # the run field's own bound
    assert (info.value.key, info.value.field) == ("spec.bound.gt_max", "temperature")
    with pytest.raises(SpecError, match=f"num_generations must be between 2 and {MAX_GENERATIONS}, got 1"):
        GenerationSettings(num_generations=1).validate()
    GenerationSettings().validate()
