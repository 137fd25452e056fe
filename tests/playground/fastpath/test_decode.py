"""The lean Llama sampler draws exactly the tokens `generate` draws, and follows weight updates."""

import pytest
import torch
from transformers import AutoModelForCausalLM, GenerationConfig

from playground.fastpath.decode import LlamaDecoder, supports
from playground.fastpath.packing import bf16_matmul_is_native
from playground.fastpath.prefix import generate_with_logps


def hf_generate(model, prompt, rows, config, seed):
    ids = prompt.expand(rows, -1)
    torch.manual_seed(seed)
    with torch.no_grad():
        return model.generate(input_ids=ids, attention_mask=torch.ones_like(ids), generation_config=config)


def lean_generate(decoder, prompt, rows, config, seed):
    torch.manual_seed(seed)
    return decoder.generate(prompt, rows, config)


@pytest.fixture(scope="module")
def tiny_llama(tiny_full_vocab_dir):
    return AutoModelForCausalLM.from_pretrained(tiny_full_vocab_dir, dtype=torch.float32).eval()


@pytest.mark.parametrize(
    "options",
    [
        dict(do_sample=True, temperature=1.0, top_k=0, top_p=1.0),  # TRL's defaults
        dict(do_sample=True, temperature=0.7, top_k=50, top_p=0.9, repetition_penalty=1.2),
        dict(do_sample=False),
    ],
)
def test_same_tokens_as_generate_including_early_eos(tiny_llama, options):
    # Many EOS ids, so that some rows finish early and get padded while others go on.
    config = GenerationConfig(max_new_tokens=20, pad_token_id=0, eos_token_id=list(range(3, 400)), **options)
    decoder = LlamaDecoder(tiny_llama)
    prompt = torch.randint(400, 2000, (11,))
    for seed in range(3):
        expected = hf_generate(tiny_llama, prompt, 6, config, seed)
        got = lean_generate(decoder, prompt, 6, config, seed)
        assert got.shape == expected.shape
        assert torch.equal(got, expected)
    finished_early = (expected[:, 11:] == 0).any(dim=1)
    if options["do_sample"]:
        assert finished_early.any(), "the test needs rows that stop before the others"


def test_one_token_prompt_and_full_length(tiny_llama):
    config = GenerationConfig(max_new_tokens=7, do_sample=True, top_k=0, pad_token_id=0, eos_token_id=None)
    prompt = torch.tensor([5])
    got = lean_generate(LlamaDecoder(tiny_llama), prompt, 3, config, 0)
    assert got.shape == (3, 8)
    assert torch.equal(got, hf_generate(tiny_llama, prompt, 3, config, 0))


def test_unsupported_options_and_models_fall_back(tiny_llama, tiny_full_vocab_dir):
    decoder = LlamaDecoder(tiny_llama)
    prompt = torch.randint(400, 2000, (5,))
    assert decoder.generate(prompt, 2, GenerationConfig(max_new_tokens=4, no_repeat_ngram_size=2)) is None
    assert decoder.generate(prompt, 2, GenerationConfig(max_new_tokens=4, num_beams=2)) is None
    # Options set to their off values (as a model's saved generation_config often has them) are fine.
    off = GenerationConfig(max_new_tokens=4, output_attentions=False, output_hidden_states=False, num_beams=1)
    assert decoder.generate(prompt, 2, off) is not None
    assert supports(tiny_llama)
    bf16 = AutoModelForCausalLM.from_pretrained(tiny_full_vocab_dir, dtype=torch.bfloat16)
    assert supports(bf16) == bf16_matmul_is_native()  # bf16 only where the CPU has native bf16
    mixed = AutoModelForCausalLM.from_pretrained(tiny_full_vocab_dir, dtype=torch.float32)
    mixed.lm_head.to(torch.bfloat16)
    mixed.model.layers[0].mlp.to(torch.bfloat16)
    assert not supports(mixed)


def test_rollout_decoder_follows_lora_updates(tiny_full_vocab_dir):
    from playground.fastpath.trainer import RolloutModel
    from tests.playground.fastpath.test_fast import peft_model

    model = peft_model(tiny_full_vocab_dir)
    rollout = RolloutModel(model)
    assert rollout.decoder is not None
    reference = RolloutModel(model, merge_lora=False, skip=("lm_head",), sampling=False)
    assert reference.decoder is None
    config = GenerationConfig(max_new_tokens=10, do_sample=True, top_k=0, pad_token_id=0, eos_token_id=None)
    prompt = torch.randint(400, 2000, (6,))
    before = lean_generate(rollout.decoder, prompt, 4, config, 1)
    with torch.no_grad():
        for name, p in model.named_parameters():
            if "lora_B" in name:
                p.add_(0.5)
    rollout.sync()
    after = lean_generate(rollout.decoder, prompt, 4, config, 1)
    assert not torch.equal(before, after)
    assert torch.equal(after, hf_generate(rollout.model, prompt, 4, config, 1))
    # ...and the synced copy is the merged policy: its greedy tokens are the PEFT model's.
    greedy = GenerationConfig(max_new_tokens=10, do_sample=False, pad_token_id=0, eos_token_id=None)
    model.eval()
    assert torch.equal(lean_generate(rollout.decoder, prompt, 2, greedy, 0), hf_generate(model, prompt, 2, greedy, 0))


def _sampled_logps(model, ids, prompt_length, temperature):
    """The plain forward's log-probs of the tokens after the prompt, as TRL computes them (logits / temperature)."""
    with torch.no_grad():
        logits = model(ids).logits[:, prompt_length - 1 : -1].float() / temperature
    return logits.log_softmax(dim=-1).gather(-1, ids[:, prompt_length:, None]).squeeze(-1)


def _before_eos(new_tokens, eos):
    """Each row's tokens up to and including its first EOS (the ones TRL keeps)."""
    is_eos = torch.isin(new_tokens, eos).int()
    return (torch.cumsum(is_eos, dim=1) - is_eos) == 0


# Sampling with a temperature and no top-k/top-p: the processed distribution is softmax(logits / T), which a forward
# pass gives too. Many EOS ids, so that rows finish early.
SAMPLING = dict(do_sample=True, temperature=0.7, top_k=0, top_p=1.0, pad_token_id=0, max_new_tokens=16)


def test_fp32_sampler_logps_are_the_policy_logps_and_leave_the_tokens_alone(tiny_llama):
    config = GenerationConfig(eos_token_id=list(range(3, 400)), **SAMPLING)
    decoder = LlamaDecoder(tiny_llama)
    prompt = torch.randint(400, 2000, (9,))
    torch.manual_seed(5)
    ids, logps = decoder.generate(prompt, 6, config, with_logps=True)
    assert torch.equal(ids, lean_generate(decoder, prompt, 6, config, 5))  # asking for log-probs draws no RNG
    assert logps.shape == (6, ids.size(1) - 9)
    keep = _before_eos(ids[:, 9:], torch.arange(3, 400))
    assert keep.sum() > 12 and not keep.all()  # some rows stopped early, enough tokens to compare
    expected = _sampled_logps(tiny_llama, ids, 9, 0.7)
    torch.testing.assert_close(logps[keep], expected[keep], rtol=0, atol=1e-4)
    # `generate` (the path for models the lean sampler does not cover) returns the same tokens and log-probs.
    torch.manual_seed(5)
    hf_ids, hf_logps = generate_with_logps(
        tiny_llama, config, input_ids=prompt.expand(6, -1), attention_mask=torch.ones(6, 9, dtype=torch.long)
    )
    assert torch.equal(hf_ids, ids)
    torch.testing.assert_close(hf_logps[keep], logps[keep], rtol=0, atol=1e-4)


@pytest.mark.skipif(not bf16_matmul_is_native(), reason="no native bf16 on this CPU")
def test_bf16_sampler_logps_are_a_bf16_forward_logps(tiny_full_vocab_dir):
    """The bf16 copy returns the log-probs of the distribution it sampled from: a bf16 forward's, at temperature 0.7.

    Tolerance 0.02 nats: the incremental decode and the full forward round differently in bf16 (8-bit mantissa);
    the largest difference measured on this model is ~1.5e-3. With top-p the log-probs are the renormalised ones."""
    bf16 = AutoModelForCausalLM.from_pretrained(tiny_full_vocab_dir, dtype=torch.bfloat16).eval()
    decoder = LlamaDecoder(bf16)
    assert decoder.packs["lm_head"].dtype == torch.bfloat16
    prompt = torch.randint(400, 2000, (9,))
    config = GenerationConfig(eos_token_id=list(range(3, 400)), **SAMPLING)
    torch.manual_seed(2)
    ids, logps = decoder.generate(prompt, 6, config, with_logps=True)
    keep = _before_eos(ids[:, 9:], torch.arange(3, 400))
    assert keep.sum() > 12
    expected = _sampled_logps(bf16, ids, 9, 0.7)
    assert (logps[keep] - expected[keep]).abs().max().item() < 0.02
    # Nucleus sampling draws from the top tokens only, renormalised: each sampled token's log-prob is at least the
    # unprocessed one, and higher where the nucleus cut the tail.
    nucleus = GenerationConfig(eos_token_id=None, **(SAMPLING | dict(top_p=0.5)))
    torch.manual_seed(2)
    ids, logps = decoder.generate(prompt, 4, nucleus, with_logps=True)
    raw = _sampled_logps(bf16, ids, 9, 0.7)
    assert (logps - raw).min().item() > -0.02
    assert (logps - raw).max().item() > 0.1


def test_lean_rollout_copy_keeps_one_copy_of_the_weights_and_rebuilds_them_for_generate(tiny_full_vocab_dir):
    """The trainer's rollout copy: the packs are the only copy of the layers' linears, frozen tensors are the
    policy's own, and it samples exactly what a full copy samples, before and after a LoRA update."""
    from playground.fastpath.trainer import RolloutModel
    from tests.playground.fastpath.test_fast import peft_model

    model = peft_model(tiny_full_vocab_dir)
    lean, full = RolloutModel(model, lean=True), RolloutModel(model)
    base = model.get_base_model()
    q_proj = "model.layers.0.self_attn.q_proj"
    assert lean.dropped and lean.model.get_submodule(q_proj).weight.is_meta  # never built
    assert not any(p.is_meta for p in full.model.parameters())
    # Embedding (tied LM head) and norms: the policy's storage, not a copy.
    assert lean.model.model.embed_tokens.weight.data_ptr() == base.model.embed_tokens.weight.data_ptr()
    assert lean.model.lm_head.weight.data_ptr() == base.model.embed_tokens.weight.data_ptr()
    assert lean.model.model.norm.weight.data_ptr() == base.model.norm.weight.data_ptr()
    frozen = {n: p.clone() for n, p in base.named_parameters() if not p.requires_grad}
    config = GenerationConfig(max_new_tokens=10, do_sample=True, top_k=0, pad_token_id=0, eos_token_id=None)
    prompt = torch.randint(400, 2000, (6,))
    for _ in range(2):
        expected = lean_generate(full.decoder, prompt, 4, config, 3)
        assert torch.equal(lean_generate(lean.decoder, prompt, 4, config, 3), expected)
        with torch.no_grad():
            for name, p in model.named_parameters():
                if "lora_B" in name:
                    p.add_(0.5)
        lean.sync()
        full.sync()
    assert not torch.equal(lean_generate(lean.decoder, prompt, 4, config, 3), expected)  # it followed the update
    # `generate` (a batch or options the decoder does not cover) gets the dense weights back, merged and current.
    lean.ensure_dense()
    assert not lean.dropped and lean.model.get_submodule(q_proj).weight.shape == (32, 32)
    assert torch.equal(
        hf_generate(lean.model, prompt, 4, config, 3), lean_generate(full.decoder, prompt, 4, config, 3)
    )
    lean.sync()  # dense again: synced in place like a full copy
    assert all(torch.equal(p, frozen[n]) for n, p in base.named_parameters() if not p.requires_grad)


@pytest.mark.parametrize("path", ["decoder", "decode_prompts", "generate"])
def test_stop_ends_a_generation_at_the_decode_step_it_is_asked_at(tiny_llama, path):
    """Under `stop_rollouts_when`, every decode step asks once; the generation raises at the step where the answer
    turns yes (the fourth of 50), on the lean decoder, its batched loop and `generate` alike."""
    from playground.fastpath.decode import decode_prompts
    from playground.fastpath.prefix import shared_prefix_generate
    from playground.fastpath.stopping import RolloutStopped, stop_rollouts_when

    config = GenerationConfig(max_new_tokens=50, do_sample=True, top_k=0, pad_token_id=0, eos_token_id=None)
    prompt = torch.randint(400, 2000, (7,))
    asked = []

    def should_stop() -> bool:
        asked.append(True)
        return len(asked) == 4

    run = {
        "decoder": lambda: LlamaDecoder(tiny_llama).generate(prompt, 3, config),
        "decode_prompts": lambda: decode_prompts(LlamaDecoder(tiny_llama), [prompt, prompt[:5]], 2, config),
        "generate": lambda: shared_prefix_generate(
            tiny_llama, prompt.expand(3, -1), torch.ones(3, 7, dtype=torch.long), config
        ),
    }[path]
    with stop_rollouts_when(should_stop), pytest.raises(RolloutStopped):
        run()
    assert len(asked) == 4
    assert run().shape[-1] in (50, 57)  # outside the block nothing asks: all 50 new tokens
