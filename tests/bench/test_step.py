"""bench/step.py's bare TRL rows: TRL's defaults (gradient checkpointing on) and the fairest bare TRL a user could
configure (checkpointing off, as the playground trains, under the same allocator settings), both in every run."""

from pathlib import Path

from trl import GRPOConfig

from bench import step


def test_the_bare_rows_differ_from_trl_defaults_only_where_they_say(tmp_path: Path, monkeypatch):
    spec = step.bench_spec(steps=2, four_bit=False, model="/a/model")
    assert spec.model.model_name_or_path == "/a/model"
    default = step.bare_config(spec, tmp_path)
    assert default.gradient_checkpointing is GRPOConfig.__dataclass_fields__["gradient_checkpointing"].default is True
    tuned = step.bare_config(spec, tmp_path, gradient_checkpointing=step.BARE["bare-no-checkpointing"][1])
    assert tuned.gradient_checkpointing is False and spec.grpo_config("x").gradient_checkpointing is False
    differ = {k for k, v in tuned.to_dict().items() if default.to_dict()[k] != v}
    assert differ == {"gradient_checkpointing", "activation_checkpointing"}  # the second is its newer name
    assert step.BARE == {"bare": (False, None), "bare-allocator": (True, None), "bare-no-checkpointing": (True, False)}
    # a bench that sets BARE_OVERRIDES (bench/train_overhead.py) still gets them; an explicit argument wins
    monkeypatch.setitem(step.BARE_OVERRIDES, "gradient_checkpointing", False)
    assert step.bare_config(spec, tmp_path).gradient_checkpointing is False
    assert step.bare_config(spec, tmp_path, gradient_checkpointing=True).gradient_checkpointing is True
