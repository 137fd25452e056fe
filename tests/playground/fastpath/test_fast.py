"""The fast rollout path: the merged copy samples from the same policy, and learning matches bare TRL."""

import math

import pytest
import torch

from playground.fastpath.packing import bf16_matmul_is_native, int8_linear_available
from playground.fastpath.trainer import RolloutModel
from tests.playground.training.test_job import rank_correlation


def peft_model(path, four_bit=False):
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM, BitsAndBytesConfig

    kwargs = {"dtype": torch.float32}
    if four_bit:
        kwargs["quantization_config"] = BitsAndBytesConfig(
            load_in_4bit=True, bnb_4bit_quant_type="nf4", bnb_4bit_compute_dtype=torch.float32
        )
    model = AutoModelForCausalLM.from_pretrained(path, **kwargs)
    config = LoraConfig(
        r=8, lora_alpha=16, target_modules="all-linear", init_lora_weights=False, task_type="CAUSAL_LM"
    )
    torch.manual_seed(0)
    return get_peft_model(model, config)


@pytest.mark.parametrize(
    "four_bit,dtype,tol", [(False, torch.float32, 1e-5), (False, torch.bfloat16, 3e-2), (True, torch.float32, 1e-4)]
)
def test_rollout_logits_match_policy(tiny_full_vocab_dir, tmp_path, four_bit, dtype, tol):
    path = tiny_full_vocab_dir
    model = peft_model(path, four_bit)
    # In eval mode without grad, bitsandbytes repacks 4-bit weights for its CPU kernel, which rejects tiny layers;
    # train mode (as during GRPO, no dropout here) takes the dequantizing path.
    model.train(four_bit)
    x = torch.randint(3, 2000, (2, 10))
    with torch.no_grad():
        expected = model(x).logits
        rollout = RolloutModel(model, dtype)
        assert not any(hasattr(m, "lora_A") for m in rollout.model.modules())
        got = rollout.model(x).logits.float()
        assert (got - expected).abs().max().item() < tol * expected.abs().max().item()
        # After an optimizer-like update of the LoRA weights, sync() follows the policy.
        for name, p in model.named_parameters():
            if "lora_B" in name:
                p.add_(0.05)
        updated = model(x).logits
        assert (rollout.model(x).logits.float() - updated).abs().max() > tol * updated.abs().max()
        rollout.sync()
        assert (rollout.model(x).logits.float() - updated).abs().max().item() < tol * updated.abs().max().item()


def _train(char_model_dir, tmp_path, fast_rollout, beta=0.0, max_steps=12, **fields):
    from playground.scoring import RewardChoice
    from playground.training.run_queue import JobManager
    from playground.training.store import RunStore
    from tests.support.tiny_models import tiny_spec, vowel_fraction

    spec = tiny_spec(
        char_model_dir,
        [RewardChoice("vowels")],
        max_steps=max_steps,
        num_generations=8,
        per_device_train_batch_size=8,
        max_completion_length=16,
        learning_rate=1e-2,
        beta=beta,
        fast_rollout=fast_rollout,
        **fields,
    )
    job = JobManager(RunStore(tmp_path / fast_rollout)).start(spec, custom_rewards={"vowels": vowel_fraction})
    job.join(600)
    assert job.status == "finished", job.error
    return [m for m in job.run.metrics() if "reward" in m]


def test_fp32_rollout_reproduces_bare_trl_exactly(char_model_dir, tmp_path, caplog):
    """With an fp32 copy the fast path samples the very same completions as TRL's generate, step after step, and its
    reference pass gives the same kl (up to float rounding)."""
    import logging
    import re

    bare = _train(char_model_dir, tmp_path, "off", beta=0.04)
    with caplog.at_level(logging.INFO, logger="playground.fastpath.trainer"):
        fast = _train(char_model_dir, tmp_path, "float32", beta=0.04)
    # ...through the fast path: 12 steps, each scored by the policy and the reference, each one rollout.
    summary = re.search(
        r"(\d+) scoring passes shared their prompts; (\d+) rollouts came from the lean sampler", caplog.text
    )
    assert summary and summary.groups() == ("24", "12"), caplog.text
    assert [round(m["reward"], 4) for m in fast] == [round(m["reward"], 4) for m in bare]
    assert [m["kl"] for m in fast] == pytest.approx([m["kl"] for m in bare], rel=1e-3, abs=1e-6)
    assert max(m["kl"] for m in fast) > 0
    assert all(m["timing/rollout"] > 0 for m in fast)
    assert not any(name.startswith("sampling/") for m in fast for name in m)  # no correction for an exact sampler


def test_packed_reference_copy_gives_the_same_kl(char_model_dir, tmp_path, monkeypatch):
    """`pack_reference=True` (a pre-packed copy of the base scores the reference) reproduces TRL's run as well."""
    from playground.fastpath.trainer import FastGRPOTrainer

    bare = _train(char_model_dir, tmp_path / "bare", "off", beta=0.04)
    monkeypatch.setattr(FastGRPOTrainer, "pack_reference", True)
    packed = _train(char_model_dir, tmp_path / "packed", "float32", beta=0.04)
    assert [round(m["reward"], 4) for m in packed] == [round(m["reward"], 4) for m in bare]
    assert [m["kl"] for m in packed] == pytest.approx([m["kl"] for m in bare], rel=1e-3, abs=1e-6)


IS_METRICS = (
    "sampling/importance_sampling_ratio/min",
    "sampling/importance_sampling_ratio/mean",
    "sampling/importance_sampling_ratio/max",
    "sampling/sampling_logp_difference/mean",
    "sampling/sampling_logp_difference/max",
)


@pytest.mark.skipif(not bf16_matmul_is_native(), reason="no native bf16 on this CPU")
def test_bf16_rollout_learns_under_trls_importance_sampling_correction(char_model_dir, tmp_path, caplog):
    """bf16 sampling hands TRL the sampler's log-probs: TRL's own correction runs and logs its metrics at every step.

    The policy is fp32 and the sampler its bf16 copy, so the ratio stays near 1: bf16 rounding only, measured on this
    peaky model as a mean per-token log-prob gap of 0.020-0.029 nats (max 0.21) and per-step mean sequence ratios of
    0.88-1.04."""
    import logging

    with caplog.at_level(logging.INFO, logger="playground.fastpath.trainer"):
        rows = _train(char_model_dir, tmp_path, "bfloat16")
    assert "12 rollouts came from the lean sampler" in caplog.text  # the bf16 copy sampled every round
    ratios = []
    for row in rows:
        values = {name: row[name] for name in IS_METRICS}
        assert all(math.isfinite(v) for v in values.values()), values
        # TRL's default sequence_mask: one ratio per completion (exp of its summed per-token gaps), none masked
        assert 0.75 < values["sampling/importance_sampling_ratio/mean"] < 1.33, values
        assert (
            0.5 < values["sampling/importance_sampling_ratio/min"] <= values["sampling/importance_sampling_ratio/max"]
        )
        assert values["sampling/importance_sampling_ratio/max"] < 2, values
        assert 0 < values["sampling/sampling_logp_difference/mean"] < 0.05, values  # not 0: bf16 is not fp32
        assert values["sampling/sampling_logp_difference/max"] < 0.5, values
        ratios.append(values["sampling/importance_sampling_ratio/mean"])
    assert sum(ratios) / len(ratios) == pytest.approx(1, abs=0.05)  # no drift: rounding, not a biased sampler
    # It learns: the reward trends up. One seed's 12 steps are one draw of a CPU's rounding, so the check is a rank
    # statistic far below what the draws give (bench/learning_margins.py --steps 12 --set fast_rollout=bfloat16, seeds
    # 42, 0, 1 at OMP_NUM_THREADS=1 and 2: rank correlation 0.76-0.91, last-3 minus first-3 gain 0.04-0.17); the
    # multi-seed learning test is test_job.py's, the fp32 vs bf16 comparison bench/bf16_learning.py.
    reward = [row["reward"] for row in rows]
    assert rank_correlation(reward) > 0.3, reward


def test_inference_model_samples_what_the_plain_model_samples(tiny_model_dir):
    from playground.fastpath.packing import PackedLinear, pack_linears, packed_linear_available
    from playground.models import load_model
    from playground.preview import GenerationSettings, generate_group

    if not packed_linear_available():
        pytest.skip("oneDNN linear packing is not available in this torch build")
    plain, tokenizer = load_model(str(tiny_model_dir))
    fast, _ = load_model(str(tiny_model_dir), inference=True)
    assert fast.playground_sampler is not None  # a Llama model gets the lean sampler, and uses it:
    fast.generate = lambda *args, **kwargs: pytest.fail("the preview fell back to generate")
    settings = GenerationSettings(num_generations=4, max_new_tokens=12, seed=3)
    expected = generate_group(plain, tokenizer, "hello there", settings).completion_ids
    assert generate_group(fast, tokenizer, "hello there", settings).completion_ids == expected
    assert len({tuple(ids) for ids in expected}) > 1

    # Other architectures get pre-packed linear layers: same logits, same samples.
    packed = pack_linears(load_model(str(tiny_model_dir))[0])
    assert isinstance(packed.lm_head, PackedLinear) and isinstance(packed.model.layers[0].mlp.up_proj, PackedLinear)
    x = tokenizer(["hello there", "a b c d e f"], return_tensors="pt", padding=True)
    with torch.no_grad():
        torch.testing.assert_close(packed(**x).logits, plain(**x).logits, rtol=1e-4, atol=1e-5)
        outs = []
        for model in (plain, packed):
            torch.manual_seed(3)
            outs.append(model.generate(**x, do_sample=True, max_new_tokens=12, top_k=0, pad_token_id=0).tolist())
    assert outs[0] == outs[1]


@pytest.mark.skipif(not bf16_matmul_is_native(), reason="no native bf16 on this CPU")
@pytest.mark.parametrize("mode", ["sequence_mask", "token_truncate"])
def test_on_policy_correction_from_the_training_forward_equals_trls_extra_forward(
    char_model_dir, tmp_path, monkeypatch, caplog, mode
):
    """On-policy, the ratio computed from the training forward's detached log-probs is TRL's ratio: the same rewards,
    importance-sampling metrics, loss and kl at every step as TRL's vLLM-path code with its gradient-free forward,
    and one policy scoring pass fewer per step."""
    import logging
    import re

    from playground.fastpath.trainer import FastGRPOTrainer

    def run(defer):
        monkeypatch.setattr(FastGRPOTrainer, "defer_correction", defer)
        caplog.clear()
        with caplog.at_level(logging.INFO, logger="playground.fastpath.trainer"):
            rows = _train(
                char_model_dir,
                tmp_path / f"{mode}-{defer}",
                "bfloat16",
                beta=0.04,
                max_steps=4,
                vllm_importance_sampling_mode=mode,
            )
        passes = re.search(r"(\d+) scoring passes shared their prompts", caplog.text)
        return rows, int(passes.group(1))

    trl_rows, trl_passes = run(False)
    rows, passes = run(True)
    assert (trl_passes, passes) == (12, 8)  # policy + reference + loss a step, against reference + loss
    assert [round(m["reward"], 5) for m in rows] == [round(m["reward"], 5) for m in trl_rows]
    for name in (*IS_METRICS, "loss", "kl"):
        assert [m[name] for m in rows] == pytest.approx([m[name] for m in trl_rows], rel=1e-4, abs=1e-6), name
    assert any(m["sampling/sampling_logp_difference/mean"] > 0 for m in rows)


@pytest.mark.skipif(not bf16_matmul_is_native(), reason="no native bf16 on this CPU")
def test_bf16_training_autocasts_the_forward_and_keeps_fp32_lora_weights(char_model_dir, tmp_path):
    """bf16=True on a CPU with native bf16: TRL's trainer runs under bf16 autocast, the LoRA weights stay fp32 and
    move, and the run learns like the fp32 one (same first rollout, rewards within noise after 12 steps)."""
    from playground.spec import RunSpec

    spec = RunSpec()
    spec.set("bf16", True)
    config = spec.grpo_config(str(tmp_path / "config"))
    assert config.bf16 and config.use_cpu
    assert not RunSpec().grpo_config(str(tmp_path / "fp32")).bf16  # fp32 stays the CPU default

    fp32 = _train(char_model_dir, tmp_path / "fp32", "float32")
    bf16 = _train(char_model_dir, tmp_path / "bf16", "float32", bf16=True)
    assert bf16[0]["reward"] == pytest.approx(fp32[0]["reward"], abs=1e-6)  # same model, same seed, same samples
    assert [m["loss"] for m in bf16] != [m["loss"] for m in fp32]  # bf16 autocast did change the arithmetic
    # The reward trends up (bench/learning_margins.py --steps 12 --set bf16=true, seeds 42, 0, 1 at OMP_NUM_THREADS=1
    # and 2: rank correlation 0.76-0.92, gain 0.09-0.26): a rank statistic, not one CPU's rounding of one seed.
    reward = [row["reward"] for row in bf16]
    assert rank_correlation(reward) > 0.3, reward


def test_bf16_training_is_refused_without_native_bf16(monkeypatch):
    from playground import validation
    from playground.fastpath import packing
    from playground.spec import RunSpec

    monkeypatch.setattr(packing, "cpu_has_native_bf16", lambda: False)
    spec = RunSpec()
    spec.set("bf16", True)
    with pytest.raises(Exception, match="bf16 needs a CPU with native bf16"):
        validation.validate_spec(spec)


needs_int8 = pytest.mark.skipif(not int8_linear_available(), reason="no int8 quantized engine in this torch")


@needs_int8
def test_int8_rollout_copy_follows_the_policy(tiny_full_vocab_dir):
    """The int8 copy's sampler packs every linear (the LM head too) in int8: its next-token logits are the policy's
    within int8 rounding, and after an optimizer-like update `sync()` re-quantizes them, so they follow the policy."""
    from playground.fastpath.packing import Int8Linear

    model = peft_model(tiny_full_vocab_dir).eval()
    prompt = torch.randint(3, 2000, (10,))

    def sampler_logits(rollout):
        hidden, _ = rollout.decoder.prefill(prompt, 1, prompt.numel() + 1)
        return rollout.decoder.logits(hidden)[0]

    with torch.no_grad():
        expected = model(prompt[None]).logits[0, -1]
        rollout = RolloutModel(model, torch.float32, lean=True, int8=True)
        assert rollout.decoder.int8 and all(isinstance(p, Int8Linear) for p in rollout.decoder.packs.values())
        before = sampler_logits(rollout)
        scale = expected.abs().max().item()
        assert 0 < (before - expected).abs().max().item() < 0.05 * scale  # close, not equal: int8 is not fp32
        for name, p in model.named_parameters():
            if "lora_B" in name:
                p.add_(0.05)
        updated = model(prompt[None]).logits[0, -1]
        assert (updated - expected).abs().max().item() > 0.2 * scale  # the update moved the policy well past that
        assert torch.equal(sampler_logits(rollout), before)  # not yet synced
        rollout.sync()
        after = sampler_logits(rollout)
        assert (after - updated).abs().max().item() < 0.05 * scale


@needs_int8
def test_int8_rollout_learns_under_trls_importance_sampling_correction(char_model_dir, tmp_path, caplog):
    """The int8 sampler hands TRL its log-probs: TRL's correction runs and logs its metrics at every step, the
    rollout copy re-quantized after each optimizer step (its samples follow the policy and the ratio stays near 1)."""
    import logging

    with caplog.at_level(logging.INFO, logger="playground.fastpath.trainer"):
        rows = _train(char_model_dir, tmp_path, "int8")
    assert "12 rollouts came from the lean sampler" in caplog.text  # the int8 copy sampled every round
    for row in rows:
        values = {name: row[name] for name in IS_METRICS}
        assert all(math.isfinite(v) for v in values.values()), values
        assert 0.5 < values["sampling/importance_sampling_ratio/mean"] < 2, values
        assert 0 < values["sampling/sampling_logp_difference/mean"] < 0.2, values  # not 0: int8 is not fp32
    ratios = [row["sampling/importance_sampling_ratio/mean"] for row in rows]
    assert sum(ratios) / len(ratios) == pytest.approx(1, abs=0.1), ratios  # 0.95 on the AMD EPYC: no drift
    reward = [row["reward"] for row in rows]
    assert rank_correlation(reward) > 0.3, reward


def test_int8_rollout_is_refused_without_the_correction(char_model_dir, tmp_path):
    """Validation names the correction's field, and the trainer itself refuses an uncorrected int8 rollout."""
    from playground.errors import SpecError
    from playground.fastpath.trainer import FastGRPOTrainer
    from playground.validation import validate_spec
    from tests.support.tiny_models import tiny_spec

    spec = tiny_spec(char_model_dir, fast_rollout="int8", vllm_importance_sampling_correction=False)
    with pytest.raises(SpecError, match="needs vllm_importance_sampling_correction on") as info:
        validate_spec(spec)
    assert info.value.field == "vllm_importance_sampling_correction"
    from playground.data.sources import load_prompts
    from playground.scoring import LOCAL, build_rewards
    from playground.training.job import as_chat, load_training_model

    model, tokenizer = load_training_model(spec)
    funcs, _ = build_rewards(spec.rewards, executor=LOCAL)
    with pytest.raises(ValueError, match="int8 rollout needs TRL's importance-sampling correction"):
        FastGRPOTrainer(
            model=model,
            reward_funcs=funcs,
            args=spec.grpo_config(str(tmp_path)),
            train_dataset=as_chat(load_prompts(spec.data).dataset, tokenizer),
            processing_class=tokenizer,
            peft_config=spec.lora_config(),
            rollout_dtype="int8",
        )
    spec.set("vllm_importance_sampling_correction", True)
    validate_spec(spec)
