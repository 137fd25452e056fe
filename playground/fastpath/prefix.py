"""Score and sample a GRPO group once per prompt, not once per completion.

Every completion of a GRPO group continues the same prompt, and TRL runs that prompt through the model once per
completion: G times in the rollout's prefill, G times in the policy's forward and backward, G times in the reference
forward. With short completions (as in a playground) the prompt is about half the tokens of a batch. Here the prompt
(all but its last token) runs once with a KV cache, the cache is repeated for the G rows, and only the completions
run per row. With a causal model this is the same computation, term by term; gradients flow back through the cache
into the shared prompt pass.

`prompt_groups` finds the rows that share a prompt; `shared_prefix_logps` is a drop-in for TRL's per-token
log-probabilities (through TRL's own fused LM head); `shared_prefix_generate` is a drop-in for `model.generate` on
left-padded repeated prompts. Both are checked against the plain computation in
tests/playground/fastpath/test_prefix.py.
"""

from __future__ import annotations

from contextlib import nullcontext

import torch

from playground.fastpath.stopping import stopping_criteria


def prompt_groups(input_ids: torch.Tensor, attention_mask: torch.Tensor) -> list[tuple[torch.Tensor, torch.Tensor]]:
    """`(rows, prompt)` for each distinct left-padded prompt: the row indices that share it, and its real tokens.

    Returns [] when a prompt is not a contiguous block at the right end of its row (not TRL's left padding); the
    caller then takes the plain path.
    """
    mask = attention_mask.bool()
    contiguous = (mask.int().diff(dim=1) >= 0).all() and mask[:, -1].all()
    if not contiguous or input_ids.size(1) < 2:
        return []
    key = input_ids.masked_fill(~mask, -1)
    unique, inverse = torch.unique(key, dim=0, return_inverse=True)
    groups = []
    for index in range(unique.size(0)):
        rows = (inverse == index).nonzero().flatten()
        first = int(rows[0])
        groups.append((rows, input_ids[first][mask[first]]))
    return groups


def _prefill(model, prompt: torch.Tensor, rows: int):
    """The KV cache of `prompt[:-1]` (at least 2 tokens; callers check), run once and repeated for `rows` rows."""
    out = model(input_ids=prompt[None, :-1], use_cache=True, logits_to_keep=1)
    cache = out.cache
    cache.batch_repeat_interleave(rows)
    return cache


def shared_prefix_logps(model, input_ids, attention_mask, logits_to_keep, compute_entropy=False, autocast=None):
    """Per-token log-probs (and entropies) of the last `logits_to_keep` tokens, like TRL's, or None if not shareable.

    `model` carries TRL's fused LM head (`add_fused_lm_head`). Each row must be a left-padded prompt followed by a
    right-padded completion, as TRL builds them.
    """
    prompts, completions = input_ids[:, :-logits_to_keep], input_ids[:, -logits_to_keep:]
    prompt_mask, completion_mask = attention_mask[:, :-logits_to_keep], attention_mask[:, -logits_to_keep:]
    groups = prompt_groups(prompts, prompt_mask)
    if not groups or any(prompt.numel() < 2 for _, prompt in groups):
        return None
    autocast = autocast or nullcontext
    order, logps, entropies = [], [], []
    for rows, prompt in groups:
        length = max(int(completion_mask[rows].sum(dim=1).max()), 1)
        labels = completions[rows, :length].masked_fill(completion_mask[rows, :length] == 0, -100)
        # Position t predicts completion token t: the first comes from the prompt's last token.
        tokens = torch.cat([prompt[-1:].expand(len(rows), 1), completions[rows, : length - 1]], dim=1)
        with autocast():
            cache = _prefill(model, prompt, len(rows))
            out = model(input_ids=tokens, cache=cache, shift_labels=labels, fused_lm_head=True)
        pad = (0, logits_to_keep - length)
        logps.append(torch.nn.functional.pad(out.log_probs, pad))
        if compute_entropy:
            entropies.append(torch.nn.functional.pad(out.entropy, pad))
        order.append(rows)
    inverse = torch.empty_like(torch.cat(order))
    inverse[torch.cat(order)] = torch.arange(inverse.numel())
    entropy = torch.cat(entropies)[inverse] if compute_entropy else None
    return torch.cat(logps)[inverse], entropy


@torch.no_grad()
def shared_prefix_generate(
    model, input_ids, attention_mask, generation_config, decoder=None, with_logps=False, fallback=True
):
    """`model.generate` on left-padded prompts that are all the same prompt, prefilling it once; else None.

    With a `decoder` (playground/fastpath/decode.py) that covers the generation options, it samples instead of
    `generate`.
    Returns the full sequences (prompt + new tokens), as `generate` does; with `with_logps`, `(sequences, logps)`
    where `logps` (rows, new) are the sampled tokens' log-probabilities under the processed scores (see
    `generate_with_logps`). With `fallback=False` it returns None where the decoder does not serve (before drawing
    any random number), instead of running `generate`.
    """
    groups = prompt_groups(input_ids, attention_mask)
    if len(groups) != 1 or groups[0][1].numel() < 2:
        return None
    prompt = groups[0][1]
    rows = input_ids.size(0)
    out = decoder.generate(prompt, rows, generation_config, with_logps) if decoder is not None else None
    if out is None and not fallback:
        return None
    if out is None:
        cache = _prefill(model, prompt, rows)
        ids = prompt.expand(rows, -1)
        run = generate_with_logps if with_logps else _generate
        out = run(model, generation_config, input_ids=ids, attention_mask=torch.ones_like(ids), cache=cache)
    out, logps = out if with_logps else (out, None)
    pad = input_ids.size(1) - prompt.numel()
    out = torch.cat([input_ids[:, :pad], out], dim=1) if pad else out
    return (out, logps) if with_logps else out


def _generate(model, generation_config, **inputs) -> torch.Tensor:
    return model.generate(**inputs, generation_config=generation_config, **stopping_criteria())


@torch.no_grad()
def generate_with_logps(model, generation_config, **inputs) -> tuple[torch.Tensor, torch.Tensor]:
    """`model.generate`, and each new token's log-probability under the processed scores it was sampled from.

    `generate`'s `scores` are the logits after the logits processors (temperature, top-k, top-p): the distribution
    the token was drawn from, as vLLM's `processed_logprobs` that TRL's importance-sampling correction expects.
    """
    import copy

    config = copy.deepcopy(generation_config)
    config.update(output_scores=True, return_dict_in_generate=True)
    out = model.generate(**inputs, generation_config=config, **stopping_criteria())
    new = out.sequences[:, inputs["input_ids"].size(1) :]
    logps = [s.float().log_softmax(dim=-1).gather(1, new[:, i, None]) for i, s in enumerate(out.scores)]
    return out.sequences, torch.cat(logps, dim=1)
