"""Sample G completions for each of several prompts in one batch (the dry run's generation).

The preview's sampler (`playground.fastpath.decode.LlamaDecoder`) continues one prompt. A dry run needs G
completions for each of N different prompts; N separate groups of 8 rows leave a CPU bound by reading the weights
once per token per group. Here the N prompts are left-padded into one batch of N * G rows (in chunks of at most
`max_rows`), so every decode step reads the weights once for all of them (`playground.fastpath.decode.decode_prompts`):

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

from playground.fastpath.decode import decode_prompts


logger = logging.getLogger(__name__)

MAX_ROWS = 64  # rows decoded together; bounds the KV cache (about 7 MB per row of 150 positions for SmolLM2-135M)


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
            return decode_prompts(decoder, prompts, g, config)
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
