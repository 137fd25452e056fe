"""Shared-prompt scoring and sampling give what the plain per-row computation gives."""

import pytest
import torch

from playground.fastpath.prefix import prompt_groups, shared_prefix_generate, shared_prefix_logps


def fused_peft_model(path):
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM
    from trl.trainer.utils import add_fused_lm_head

    model = AutoModelForCausalLM.from_pretrained(path, dtype=torch.float32)
    add_fused_lm_head(model, temperature=0.7, outputs=("log_probs", "entropy"))
    config = LoraConfig(
        r=8, lora_alpha=16, target_modules="all-linear", init_lora_weights=False, task_type="CAUSAL_LM"
    )
    torch.manual_seed(0)
    return get_peft_model(model, config).train()


def batch():
    """Two prompts of different lengths (left-padded), three completions each, right-padded to 6 tokens."""
    torch.manual_seed(1)
    short, long = torch.randint(3, 2000, (4,)), torch.randint(3, 2000, (7,))
    prompts = torch.zeros(6, 7, dtype=torch.long)
    prompt_mask = torch.zeros(6, 7, dtype=torch.long)
    for row in range(6):
        prompt = short if row % 2 else long
        prompts[row, 7 - prompt.numel() :] = prompt
        prompt_mask[row, 7 - prompt.numel() :] = 1
    completions = torch.randint(3, 2000, (6, 6))
    lengths = torch.tensor([6, 1, 3, 4, 2, 5])
    completion_mask = (torch.arange(6)[None] < lengths[:, None]).long()
    completions = completions.masked_fill(completion_mask == 0, 0)
    return torch.cat([prompts, completions], 1), torch.cat([prompt_mask, completion_mask], 1), completion_mask


def plain_logps(model, input_ids, attention_mask, keep):
    labels = input_ids.masked_fill(attention_mask == 0, -100)
    labels[:, :-keep] = -100
    out = model(input_ids=input_ids, attention_mask=attention_mask, labels=labels, fused_lm_head=True)
    return out.log_probs[:, -keep:], out.entropy[:, -keep:]


def lora_grads(model):
    return {n: p.grad.clone() for n, p in model.named_parameters() if p.grad is not None}


def test_prompt_groups_finds_rows_that_share_a_prompt():
    input_ids, attention_mask, _ = batch()
    groups = prompt_groups(input_ids[:, :7], attention_mask[:, :7])
    assert sorted(rows.tolist() for rows, _ in groups) == [[0, 2, 4], [1, 3, 5]]
    assert sorted(prompt.numel() for _, prompt in groups) == [4, 7]
    holes = attention_mask[:, :7].clone()
    holes[0, -2] = 0  # a gap inside a prompt is not TRL's left padding
    assert prompt_groups(input_ids[:, :7], holes) == []


def test_shared_logps_entropy_and_gradients_equal_the_plain_forward(tiny_full_vocab_dir):
    model = fused_peft_model(tiny_full_vocab_dir)
    input_ids, attention_mask, completion_mask = batch()

    expected_lp, expected_ent = plain_logps(model, input_ids, attention_mask, 6)
    (expected_lp * completion_mask).sum().backward()
    expected_grads = lora_grads(model)
    model.zero_grad()

    got_lp, got_ent = shared_prefix_logps(model, input_ids, attention_mask, 6, compute_entropy=True)
    (got_lp * completion_mask).sum().backward()
    got_grads = lora_grads(model)

    mask = completion_mask.bool()
    assert got_lp.shape == expected_lp.shape == (6, 6)
    assert torch.allclose(got_lp[mask], expected_lp[mask], atol=1e-5)
    assert torch.allclose(got_ent[mask], expected_ent[mask], atol=1e-5)
    assert (got_lp[~mask] == 0).all()
    assert expected_grads.keys() == got_grads.keys() and len(got_grads) > 0
    for name, grad in expected_grads.items():
        assert torch.allclose(got_grads[name], grad, rtol=1e-4, atol=1e-6), name


def test_one_token_prompt_is_not_shared(tiny_full_vocab_dir):
    model = fused_peft_model(tiny_full_vocab_dir)
    input_ids = torch.randint(3, 2000, (2, 4))
    assert shared_prefix_logps(model, input_ids, torch.ones_like(input_ids), 3) is None


@pytest.mark.parametrize("do_sample", [False, True])
def test_shared_generate_samples_the_same_tokens(tiny_full_vocab_dir, do_sample):
    from transformers import AutoModelForCausalLM, GenerationConfig

    model = AutoModelForCausalLM.from_pretrained(tiny_full_vocab_dir, dtype=torch.float32).eval()
    config = GenerationConfig(
        max_new_tokens=12, do_sample=do_sample, temperature=0.9, top_k=0, top_p=1.0, pad_token_id=0, eos_token_id=None
    )
    prompt = torch.randint(3, 2000, (9,))
    input_ids = prompt.expand(5, -1)
    mask = torch.ones_like(input_ids)
    torch.manual_seed(3)
    with torch.no_grad():
        expected = model.generate(input_ids=input_ids, attention_mask=mask, generation_config=config)
    torch.manual_seed(3)
    got = shared_prefix_generate(model, input_ids, mask, config)
    assert got.shape == (5, 21)
    assert torch.equal(got, expected)
    two_prompts = torch.cat([input_ids[:2], torch.randint(3, 2000, (1, 9))])
    assert shared_prefix_generate(model, two_prompts, torch.ones_like(two_prompts), config) is None
