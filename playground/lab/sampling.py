"""Sample G completions for each of several prompts in one batch (the dry run's generation).

The preview's sampler (`playground.fastpath.decode.LlamaDecoder`) continues one prompt. A dry run needs G
completions for each of N different prompts; N separate groups of 8 rows leave a CPU bound by reading the weights
once per token per group. Here the N prompts are left-padded into one batch of N * G rows (in chunks of at most
`max_rows`), so every decode step reads the weights once for all of them:

- each distinct prompt runs once through the decoder's fused, pre-packed layers (`LlamaDecoder.prefill`), and its
  K/V is copied right-aligned into a shared cache, to its G rows;
- every row then decodes at its own rotary position (its token count so far), with a key mask hiding the padding;
- a row that has ended leaves the batch (once an eighth of it has ended, the rest move to a smaller cache), instead
  of being decoded until the longest row ends; the random draws and every kept row's arithmetic are unchanged.

Models the decoder does not cover go through `model.generate` with left padding and an attention mask.
"""

from __future__ import annotations

import copy
import logging
import time
from dataclasses import dataclass

import torch
from torch.nn import functional as F

from playground.fastpath.decode import choose_next, stop_tokens


logger = logging.getLogger(__name__)

MAX_ROWS = 64  # rows decoded together; bounds the KV cache (about 7 MB per row of 150 positions for SmolLM2-135M)
COMPACT_SHARE = 8  # finished rows leave the batch once they are at least 1/8 of it (each move copies the cache)


@dataclass
class Sampled:
    """Completions per prompt: `texts[p][i]` and their token ids (cut at the first EOS), plus the time taken."""

    texts: list[list[str]]
    ids: list[list[list[int]]]
    seconds: float


def sample_prompts(
    model,
    tokenizer,
    prompt_texts: list[str],
    num_generations: int,
    *,
    max_new_tokens: int,
    temperature: float = 1.0,
    top_p: float = 1.0,
    seed: int = 0,
    max_rows: int = MAX_ROWS,
    progress=None,
) -> Sampled:
    """Sample `num_generations` completions of each rendered prompt text, in batches of at most `max_rows` rows."""
    config = copy.deepcopy(model.generation_config)
    config.update(
        do_sample=True,
        temperature=temperature,
        top_p=top_p,
        top_k=0,
        max_new_tokens=max_new_tokens,
        pad_token_id=tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.eos_token_id,
    )
    per_chunk = max(1, max_rows // num_generations)
    texts: list[list[str]] = []
    ids: list[list[list[int]]] = []
    start = time.perf_counter()
    with torch.random.fork_rng(devices=[]), torch.inference_mode():
        torch.manual_seed(seed)
        for first in range(0, len(prompt_texts), per_chunk):
            chunk = prompt_texts[first : first + per_chunk]
            prompts = [
                tokenizer(text, return_tensors="pt", add_special_tokens=False)["input_ids"][0].to(model.device)
                for text in chunk
            ]
            new = _sample_chunk(model, prompts, num_generations, config)
            for p in range(len(chunk)):
                rows = [
                    _until_eos(row.tolist(), config) for row in new[p * num_generations : (p + 1) * num_generations]
                ]
                ids.append(rows)
                texts.append(tokenizer.batch_decode(rows, skip_special_tokens=True))
            if progress is not None:
                progress(len(texts) / len(prompt_texts))
    seconds = time.perf_counter() - start
    logger.info("Sampled %d prompts x %d in %.1f s", len(prompt_texts), num_generations, seconds)
    return Sampled(texts=texts, ids=ids, seconds=seconds)


def _until_eos(ids: list[int], config) -> list[int]:
    eos = config.eos_token_id
    stops = set([] if eos is None else [eos] if isinstance(eos, int) else list(eos))
    stops |= {config.pad_token_id} - {None}
    for i, t in enumerate(ids):
        if t in stops:
            return ids[:i]
    return ids


def _sample_chunk(model, prompts: list[torch.Tensor], g: int, config) -> torch.Tensor:
    """New tokens (len(prompts) * g, <= max_new_tokens), rows grouped by prompt."""
    decoder = getattr(model, "playground_sampler", None)
    if decoder is not None and all(p.numel() >= 1 for p in prompts):
        from playground.fastpath.decode import _generation_options_supported

        if _generation_options_supported(config):
            return _decode(decoder, prompts, g, config)
    longest = max(p.numel() for p in prompts)
    pad = config.pad_token_id
    input_ids = torch.stack([F.pad(p, (longest - p.numel(), 0), value=pad) for p in prompts])
    mask = torch.stack([F.pad(torch.ones_like(p), (longest - p.numel(), 0)) for p in prompts])
    out = model.generate(
        input_ids=input_ids.repeat_interleave(g, dim=0),
        attention_mask=mask.repeat_interleave(g, dim=0),
        generation_config=config,
    )
    return out[:, longest:]


def _decode(
    decoder, prompts: list[torch.Tensor], g: int, config, compact: bool = True, counts: dict | None = None
) -> torch.Tensor:
    """The decoder's loop for left-padded prompts: per-row positions and a padding mask. With `compact`, rows that
    have finished stop being decoded (`compact=False` keeps them, as a reference for the tests); `counts` gets the
    number of row-steps decoded under "row_steps"."""
    model = decoder.model
    longest = max(p.numel() for p in prompts)
    new = config.max_new_tokens
    total = longest + new
    rows = len(prompts) * g
    pads = torch.tensor([longest - p.numel() for p in prompts]).repeat_interleave(g)
    shape = (rows, decoder.kv_heads, total, decoder.head_dim)
    keys = [torch.zeros(shape) for _ in decoder.layers]
    values = [torch.zeros(shape) for _ in decoder.layers]
    hidden = torch.empty(rows, model.config.hidden_size)
    for p, prompt in enumerate(prompts):
        last, cache = decoder.prefill(prompt, 1, prompt.numel())
        block = slice(p * g, (p + 1) * g)
        for i in range(len(decoder.layers)):
            keys[i][block, :, longest - prompt.numel() : longest] = cache.keys[i][0]
            values[i][block, :, longest - prompt.numel() : longest] = cache.values[i][0]
        hidden[block] = last[0]
    valid = torch.arange(total)[None, :] >= pads[:, None]  # (rows, total): key positions that are not padding
    processors = model._get_logits_processor(
        generation_config=config,
        input_ids_seq_length=longest,
        encoder_input_ids=None,
        device=hidden.device,
        model_kwargs={},
    )
    eos, pad = stop_tokens(config)
    ids = torch.stack([F.pad(p, (longest - p.numel(), 0), value=pad or 0) for p in prompts]).repeat_interleave(g, 0)
    unfinished = torch.ones(rows, dtype=torch.long)
    live = torch.arange(rows)  # the rows still decoded: finished ones leave the batch (see below)
    for step in range(new):
        logits = decoder.logits(hidden)
        if live.numel() < rows:  # rows that left score zeros: choose_next pads them, and draws the same random numbers
            logits = logits.new_zeros(rows, logits.shape[-1]).index_copy_(0, live, logits)
        scores = processors(ids, logits)
        next_tokens, unfinished = choose_next(scores, config, eos, pad, unfinished)
        ids = torch.cat([ids, next_tokens[:, None]], dim=-1)
        if eos.numel() and not unfinished.any():
            break
        if step == new - 1:
            break
        done = unfinished[live] == 0
        if compact and int(done.sum()) * COMPACT_SHARE >= live.numel():
            # A row past its EOS would be decoded to the end of the batch for nothing (completions of the embedded
            # model end well before the cap on average); once an eighth of the batch is done, the rest move to a
            # smaller cache. Each row's arithmetic is unchanged, so are its tokens (tests/lab/test_dryrun.py).
            keep = (~done).nonzero().squeeze(1)
            live, pads, valid = live[keep], pads[keep], valid[keep]
            keys = [k[keep] for k in keys]
            values = [v[keep] for v in values]
        hidden = _step(decoder, next_tokens[live], keys, values, longest + step, pads, valid)
        if counts is not None:
            counts["row_steps"] = counts.get("row_steps", 0) + live.numel()
    return ids[:, longest:]


def _step(decoder, tokens, keys, values, index: int, pads: torch.Tensor, valid: torch.Tensor) -> torch.Tensor:
    """One token per row at cache slot `index`; each row's rotary position is `index - pad`."""
    from transformers.models.llama.modeling_llama import apply_rotary_pos_emb

    heads, kv_heads, head_dim = decoder.heads, decoder.kv_heads, decoder.head_dim
    rows = tokens.numel()
    hidden = decoder.model.model.embed_tokens(tokens[:, None])
    cos, sin = decoder.model.model.rotary_emb(hidden, (index - pads)[:, None])
    mask = valid[:, None, None, : index + 1]
    for i, layer in enumerate(decoder.layers):
        qkv = decoder.packs[i, "qkv"](layer.input_layernorm(hidden))
        q, k, v = qkv.split([heads * head_dim, kv_heads * head_dim, kv_heads * head_dim], dim=-1)
        q = q.view(rows, 1, heads, head_dim).transpose(1, 2)
        k = k.view(rows, 1, kv_heads, head_dim).transpose(1, 2)
        v = v.view(rows, 1, kv_heads, head_dim).transpose(1, 2)
        q, k = apply_rotary_pos_emb(q, k, cos, sin)
        keys[i][:, :, index : index + 1] = k
        values[i][:, :, index : index + 1] = v
        out = F.scaled_dot_product_attention(
            q,
            keys[i][:, :, : index + 1],
            values[i][:, :, : index + 1],
            attn_mask=mask,
            scale=layer.self_attn.scaling,
            enable_gqa=heads != kv_heads,
        )
        hidden = hidden + decoder.packs[i, "o"](out.transpose(1, 2).reshape(rows, 1, heads * head_dim))
        gate, up = decoder.packs[i, "gate_up"](layer.post_attention_layernorm(hidden)).chunk(2, dim=-1)
        hidden = hidden + decoder.packs[i, "down"](F.silu(gate) * up)
    return decoder.model.model.norm(hidden[:, -1])
