"""The bf16 rollout's run-spec fields: TRL's importance-sampling fields reach GRPOConfig, and validation names them."""

from dataclasses import fields

import pytest

from playground.errors import SpecError
from playground.spec import GRPOArgs, demo_spec
from playground.validation import validate_spec


IS_FIELDS = (
    "vllm_importance_sampling_correction",
    "vllm_importance_sampling_mode",
    "vllm_importance_sampling_clip_max",
    "off_policy_mask_threshold",
)


def test_defaults_are_trls_and_values_reach_grpo_config(tmp_path):
    from trl import GRPOConfig

    trl_defaults = {f.name: f.default for f in fields(GRPOConfig)}
    spec_defaults = {f.name: f.default for f in fields(GRPOArgs)}
    assert {name: spec_defaults[name] for name in IS_FIELDS} == {name: trl_defaults[name] for name in IS_FIELDS}
    spec = demo_spec()
    for name, value in dict(
        fast_rollout="bfloat16",
        vllm_importance_sampling_correction="false",
        vllm_importance_sampling_mode="token_truncate",
        vllm_importance_sampling_clip_max="2.5",
        off_policy_mask_threshold="0.5",
    ).items():
        spec.set(name, value)
    config = spec.grpo_config(str(tmp_path))
    assert config.vllm_importance_sampling_correction is False
    assert config.vllm_importance_sampling_mode == "token_truncate"
    assert config.vllm_importance_sampling_clip_max == 2.5 and config.off_policy_mask_threshold == 0.5
    assert config.use_vllm is False  # the fast trainer, not the config, turns TRL's correction on for its sampler


@pytest.mark.parametrize(
    "settings,field,message",
    [
        (dict(vllm_importance_sampling_mode="token"), "vllm_importance_sampling_mode", "one of token_truncate"),
        (dict(vllm_importance_sampling_clip_max=0.5), "vllm_importance_sampling_clip_max", "must be above 1, got 0.5"),
        (dict(off_policy_mask_threshold=-1.0), "off_policy_mask_threshold", "must be above 0, got -1.0"),
        (dict(fast_rollout="bfloat16", loss_type="vespo"), "vllm_importance_sampling_mode", "token-level"),
    ],
)
def test_validation_names_the_field(settings, field, message, monkeypatch):
    import playground.fastpath.packing as packing

    monkeypatch.setattr(packing, "cpu_has_native_bf16", lambda: True)
    spec = demo_spec()
    for name, value in settings.items():
        spec.set(name, value)
    with pytest.raises(SpecError, match=message) as info:
        validate_spec(spec)
    assert info.value.field == field


def test_bf16_rollout_only_where_the_cpu_has_native_bf16(monkeypatch):
    import playground.fastpath.packing as packing

    spec = demo_spec()
    spec.set("fast_rollout", "bfloat16")
    monkeypatch.setattr(packing, "cpu_has_native_bf16", lambda: True)
    validate_spec(spec)
    spec.set("loss_type", "vespo")
    spec.set("vllm_importance_sampling_mode", "token_mask")  # vespo with a token-level correction is fine
    validate_spec(spec)
    monkeypatch.setattr(packing, "cpu_has_native_bf16", lambda: False)
    with pytest.raises(SpecError, match="needs a CPU with native bf16") as info:
        validate_spec(spec)
    assert info.value.field == "fast_rollout"
    spec.set("fast_rollout", "auto")
    validate_spec(spec)
