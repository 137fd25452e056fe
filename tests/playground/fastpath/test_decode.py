"""The lean Llama sampler draws exactly the tokens `generate` draws, and follows weight updates."""

import pytest
import torch
from transformers import AutoModelForCausalLM, GenerationConfig

from playground.fastpath.decode import LlamaDecoder, supports


def hf_generate(model, prompt, rows, config, seed):
    ids = prompt.expand(rows, -1)
    torch.manual_seed(seed)
    with torch.no_grad():
        return model.generate(input_ids=ids, attention_mask=torch.ones_like(ids), generation_config=config)


def lean_generate(decoder, prompt, rows, config, seed):
    torch.manual_seed(seed)
    return decoder.generate(prompt, rows, config)


@pytest.fixture(scope="module")
def tiny_llama(tiny_model_dir):
    return AutoModelForCausalLM.from_pretrained(tiny_model_dir, dtype=torch.float32).eval()


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


def test_unsupported_options_and_models_fall_back(tiny_llama, tiny_model_dir):
    decoder = LlamaDecoder(tiny_llama)
    prompt = torch.randint(400, 2000, (5,))
    assert decoder.generate(prompt, 2, GenerationConfig(max_new_tokens=4, no_repeat_ngram_size=2)) is None
    assert decoder.generate(prompt, 2, GenerationConfig(max_new_tokens=4, num_beams=2)) is None
    # Options set to their off values (as a model's saved generation_config often has them) are fine.
    off = GenerationConfig(max_new_tokens=4, output_attentions=False, output_hidden_states=False, num_beams=1)
    assert decoder.generate(prompt, 2, off) is not None
    assert supports(tiny_llama)
    bf16 = AutoModelForCausalLM.from_pretrained(tiny_model_dir, dtype=torch.bfloat16)
    assert not supports(bf16)


def test_rollout_decoder_follows_lora_updates(tiny_model_dir):
    from playground.fastpath.trainer import RolloutModel
    from tests.playground.fastpath.test_fast import peft_model

    model = peft_model(tiny_model_dir)
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
