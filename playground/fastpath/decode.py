"""A lean sampler for Llama-architecture models on CPU (training rollouts, the group preview, compare).

At decode batch sizes a CPU step is bound by reading the weights and by per-call overhead. `transformers`'
`generate` is general: per token it rebuilds masks, grows the KV cache by concatenation and runs every projection
as its own call. For a Llama-architecture model (SmolLM2 and most small chat models) this module instead keeps

- the q/k/v and the gate/up projections fused into one pre-packed oneDNN matrix each (4 matmuls a layer, not 7),
- a KV cache allocated once for the whole rollout (the prompt runs once and is copied to every row),
- the rotary tables computed once,

and samples with the logits processors `generate` would build from the same `GenerationConfig`, drawing from the
same RNG in the same order, so a fixed seed gives the same tokens (tests/playground/fastpath/test_decode.py checks it;
`multinomial.draw` is `torch.multinomial`'s draw, vectorized).
Anything it does not cover (other architectures, biases, other dtypes, generation options such as beams) is left
to `generate`: `supports` says no, or `LlamaDecoder.generate` returns None.

A bf16 model (the bf16 rollout copy, where oneDNN has bf16 kernels) runs the same loop in bf16 as `generate` on that
model would: bf16 weights, activations and KV cache, logits cast to fp32 before the logits processors. With
`with_logps=True` it also returns each sampled token's log-probability under the distribution it was drawn from (the
processed scores: after temperature, top-k/top-p), which is what TRL's importance-sampling correction expects of a
sampler (vLLM's `processed_logprobs`). The int8 rollout copy runs the fp32 loop over int8 packs (`Int8Linear`).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

import torch
from torch.nn import functional as F

from playground.fastpath import internals, multinomial
from playground.fastpath.packing import (
    Int8Linear,
    PackedLinear,
    bf16_matmul_is_native,
    pack_linears,
    packed_linear_available,
)
from playground.fastpath.prefix import shared_prefix_generate
from playground.fastpath.stopping import check, stopping_criteria


# GenerationConfig fields the loop handles itself; any other non-default field means "use generate".
_HANDLED = {"max_new_tokens", "do_sample", "pad_token_id", "eos_token_id", "bos_token_id"}
_PROCESSORS = {"temperature", "top_k", "top_p", "min_p", "repetition_penalty", "min_new_tokens"}
_IGNORED = {"cache_implementation", "disable_compile", "transformers_version", "_from_model_config", "use_cache"}
# Saved generation configs often spell out options at their "off" value; those change nothing here.
_OFF = {"num_beams": 1, "num_beam_groups": 1, "num_return_sequences": 1, "length_penalty": 1.0}


def supports(model) -> bool:
    """True for a plain Llama-architecture causal LM in fp32 (which this sampler reproduces exactly) or in bf16 where
    oneDNN has bf16 kernels."""
    config = model.config
    dtypes = {p.dtype for p in model.parameters()}
    return (
        packed_linear_available()
        and internals.works("decode")  # transformers' logits processors, through their private builder
        and config.model_type == "llama"
        and not getattr(config, "attention_bias", False)
        and not getattr(config, "mlp_bias", False)
        and config.hidden_act == "silu"
        and (dtypes == {torch.float32} or (dtypes == {torch.bfloat16} and bf16_matmul_is_native()))
    )


def _generation_options_supported(config) -> bool:
    from transformers import GenerationConfig

    default = GenerationConfig()
    for key, value in config.to_diff_dict().items():
        if key in _HANDLED or key in _PROCESSORS or key in _IGNORED or value in (None, False):
            continue
        if value != _OFF.get(key, getattr(default, key, None)):
            return False  # an option this loop does not implement is on
    return config.max_new_tokens is not None


# The projections that share an input, packed as one matrix each.
_GROUPS = {
    "qkv": ("self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj"),
    "o": ("self_attn.o_proj",),
    "gate_up": ("mlp.gate_proj", "mlp.up_proj"),
    "down": ("mlp.down_proj",),
}


def layer_linears(model) -> list[str]:
    """The names of the decoder layers' linear modules (what `LlamaDecoder` packs, besides the LM head)."""
    return [
        f"model.layers.{i}.{member}"
        for i in range(len(model.model.layers))
        for members in _GROUPS.values()
        for member in members
    ]


class LlamaDecoder:
    """Fused, pre-packed weights of a Llama model for sampling; `refresh()` after its weights change.

    `weights(name)`: where the model does not hold its linears' weights, gives them (see `refresh`). `int8=True` (an
    fp32 model only) packs them as `Int8Linear`s instead (the int8 rollout: int8 weights, fp32 activations and KV
    cache), for the layers and the LM head alike; `int8_lm_head=False` keeps the head fp32.
    """

    int8_lm_head = True

    def __init__(self, model, weights=None, int8: bool = False):
        self.model = model
        self.layers = model.model.layers
        config = model.config
        self.heads, self.kv_heads = config.num_attention_heads, config.num_key_value_heads
        self.head_dim = getattr(config, "head_dim", None) or config.hidden_size // self.heads
        self.dtype = model.lm_head.weight.dtype
        if int8 and self.dtype != torch.float32:
            raise ValueError("The int8 sampler quantizes an fp32 model's weights.")
        self.int8 = int8
        # pack key -> the module names whose weights it holds, stacked
        self.groups = {"lm_head": ("lm_head",)}
        for i in range(len(self.layers)):
            for group, members in _GROUPS.items():
                self.groups[i, group] = tuple(f"model.layers.{i}.{member}" for member in members)
        self.samples = 0  # generate() calls it served (the rest fell back to `generate`)
        self.packs = {}
        self.refresh(weights=weights)

    @torch.no_grad()
    def refresh(self, changed: set[str] | None = None, weights=None) -> None:
        """Re-pack the fused weights; with `changed` (module names in the model), only the groups that hold one.

        `weights(name)` gives a module's weight where the model no longer holds it (default: the model's own).
        """
        weight_of = weights or (lambda name: self.model.get_submodule(name).weight)
        for key, members in self.groups.items():
            if changed is None or changed.intersection(members):
                int8 = self.int8 and (key != "lm_head" or self.int8_lm_head)
                self.packs[key] = _pack(*(weight_of(name).to(self.dtype) for name in members), int8=int8)

    def prefill(self, prompt: torch.Tensor, rows: int, total: int) -> tuple[torch.Tensor, _Cache]:
        """Run the 1-D `prompt` once into a KV cache for `total` positions, copied to `rows` rows.

        Returns the prompt's last hidden state per row (the input of the LM head) and the cache.
        """
        shape = (1, self.kv_heads, total, self.head_dim)
        keys = [torch.empty(shape, dtype=self.dtype) for _ in self.layers]
        values = [torch.empty(shape, dtype=self.dtype) for _ in self.layers]
        cos, sin = self.model.model.rotary_emb(keys[0], torch.arange(total)[None])
        half = self.head_dim // 2
        cache = _Cache(keys, values, cos, torch.cat([-sin[..., :half], sin[..., half:]], dim=-1))
        hidden = self.step(prompt[None], cache)
        cache.keys = [k.expand(rows, -1, -1, -1).clone() for k in keys]
        cache.values = [v.expand(rows, -1, -1, -1).clone() for v in values]
        return hidden.expand(rows, -1), cache

    def step(self, tokens: torch.Tensor, cache: _Cache) -> torch.Tensor:
        """Run `tokens` (rows, T) at the cache's next positions, writing their K/V; returns the last hidden states.

        The same arithmetic as the model's own forward, in fewer calls (a decode step is dozens of tiny ops a
        layer): `torch.rms_norm` for the fp32 RMSNorm (see `_rms_norm`), and
        the rotary embedding applied to q and k at once as `x * cos + swap_halves(x) * signed_sin`, the same
        products and sum as `apply_rotary_pos_emb`'s `x * cos + rotate_half(x) * sin`.
        """
        heads, kv_heads, head_dim = self.heads, self.kv_heads, self.head_dim
        rows, length = tokens.shape
        start, end = cache.length, cache.length + length
        hidden = self.model.model.embed_tokens(tokens)
        cos, sin = cache.cos[:, start:end, None], cache.signed_sin[:, start:end, None]  # (1, T, 1, head_dim)
        rotated = heads + kv_heads
        for i, layer in enumerate(self.layers):
            qkv = self.packs[i, "qkv"](_rms_norm(layer.input_layernorm, hidden))
            qk = qkv[..., : rotated * head_dim].view(rows, length, rotated, head_dim)
            swapped = qk.view(rows, length, rotated, 2, head_dim // 2).flip(-2).view_as(qk)
            qk = qk * cos + swapped * sin
            cache.keys[i][:, :, start:end] = qk[:, :, heads:].transpose(1, 2)
            cache.values[i][:, :, start:end] = (
                qkv[..., rotated * head_dim :].view(rows, length, kv_heads, head_dim).transpose(1, 2)
            )
            out = F.scaled_dot_product_attention(
                qk[:, :, :heads].transpose(1, 2),
                cache.keys[i][:, :, :end],
                cache.values[i][:, :, :end],
                is_causal=length > 1,
                scale=layer.self_attn.scaling,
                enable_gqa=heads != kv_heads,
            )
            hidden = hidden + self.packs[i, "o"](out.transpose(1, 2).reshape(rows, length, heads * head_dim))
            gate, up = self.packs[i, "gate_up"](_rms_norm(layer.post_attention_layernorm, hidden)).chunk(2, dim=-1)
            hidden = hidden + self.packs[i, "down"](F.silu(gate) * up)
        cache.length = end
        return _rms_norm(self.model.model.norm, hidden[:, -1])

    def logits(self, hidden: torch.Tensor) -> torch.Tensor:
        return self.packs["lm_head"](hidden).to(copy=True, dtype=torch.float32)

    @torch.no_grad()
    def generate(self, prompt: torch.Tensor, rows: int, generation_config, with_logps: bool = False):
        """Sample `rows` continuations of the 1-D `prompt`; (rows, len(prompt) + new) like `generate`, or None.

        With `with_logps`, returns `(ids, logps)`: `logps` (rows, new) holds each new token's log-probability under
        the processed scores it was sampled from (rows past their EOS hold the pad token's, to be masked).
        """
        if prompt.numel() < 1 or not _generation_options_supported(generation_config):
            return None
        new = generation_config.max_new_tokens
        total = prompt.numel() + new
        processors = internals.logits_processor(
            self.model,
            generation_config=generation_config,
            input_ids_seq_length=prompt.numel(),
            encoder_input_ids=prompt[None],
            device=prompt.device,
            model_kwargs={},
        )
        eos, pad = stop_tokens(generation_config)
        hidden, cache = self.prefill(prompt, rows, total)
        ids = prompt[None].expand(rows, -1)
        unfinished = torch.ones(rows, dtype=torch.long)
        logps = []
        for _ in range(new):
            check()  # the page's Stop, within one decode step (playground/fastpath/stopping.py)
            scores = processors(ids, self.logits(hidden))
            next_tokens, unfinished = choose_next(scores, generation_config, eos, pad, unfinished)
            ids = torch.cat([ids, next_tokens[:, None]], dim=-1)
            if with_logps:
                logps.append(scores.log_softmax(dim=-1).gather(1, next_tokens[:, None]))
            if eos.numel() and not unfinished.any():
                break
            if ids.size(1) == total:
                break
            hidden = self.step(next_tokens[:, None], cache)
        self.samples += 1
        return (ids, torch.cat(logps, dim=1)) if with_logps else ids


COMPACT_SHARE = 8  # finished rows leave the batch once they are at least 1/8 of it (each move copies the cache)


def decode_prompts(
    decoder: LlamaDecoder,
    prompts: list[torch.Tensor],
    g: int,
    config,
    *,
    generators: list[torch.Generator] | None = None,
    compact: bool = True,
    counts: dict | None = None,
) -> torch.Tensor:
    """New tokens (len(prompts) * g, <= max_new_tokens) for `g` continuations of each 1-D prompt, rows grouped by
    prompt, in one batch: the prompts left-padded, each row at its own rotary position behind a padding mask.

    Random draws come from the default generator, as `generate` on the left-padded batch would draw them; with one
    `generators[p]` per prompt, prompt p's rows draw from it alone, so each group gets the tokens it would get sampled
    on its own with that seed. With `compact`, rows that have finished stop being decoded (`compact=False` keeps
    them, as a reference for the tests); `counts` gets the number of row-steps decoded under "row_steps".
    """
    model = decoder.model
    longest = max(p.numel() for p in prompts)
    new = config.max_new_tokens
    total = longest + new
    rows = len(prompts) * g
    pads = torch.tensor([longest - p.numel() for p in prompts]).repeat_interleave(g)
    shape = (rows, decoder.kv_heads, total, decoder.head_dim)
    keys = [torch.zeros(shape, dtype=decoder.dtype) for _ in decoder.layers]
    values = [torch.zeros(shape, dtype=decoder.dtype) for _ in decoder.layers]
    hidden = torch.empty(rows, model.config.hidden_size, dtype=decoder.dtype)
    for p, prompt in enumerate(prompts):
        last, cache = decoder.prefill(prompt, 1, prompt.numel())
        block = slice(p * g, (p + 1) * g)
        for i in range(len(decoder.layers)):
            keys[i][block, :, longest - prompt.numel() : longest] = cache.keys[i][0]
            values[i][block, :, longest - prompt.numel() : longest] = cache.values[i][0]
        hidden[block] = last[0]
    valid = torch.arange(total)[None, :] >= pads[:, None]  # (rows, total): key positions that are not padding
    processors = internals.logits_processor(
        model,
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
        check()
        logits = decoder.logits(hidden)
        if live.numel() < rows:  # rows that left score zeros: choose_next pads them, and draws the same random numbers
            logits = logits.new_zeros(rows, logits.shape[-1]).index_copy_(0, live, logits)
        scores = processors(ids, logits)
        next_tokens, unfinished = choose_next(scores, config, eos, pad, unfinished, generators)
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
        hidden = _step_rows(decoder, next_tokens[live], keys, values, longest + step, pads, valid)
        if counts is not None:
            counts["row_steps"] = counts.get("row_steps", 0) + live.numel()
    return ids[:, longest:]


def _step_rows(decoder, tokens, keys, values, index: int, pads: torch.Tensor, valid: torch.Tensor) -> torch.Tensor:
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


def stop_tokens(generation_config) -> tuple[torch.Tensor, int | None]:
    """`generate`'s end-of-sequence ids (as a tensor, possibly empty) and its pad id."""
    eos = generation_config.eos_token_id
    eos = torch.tensor([] if eos is None else [eos] if isinstance(eos, int) else list(eos))
    return eos, generation_config.pad_token_id


def choose_next(
    scores: torch.Tensor,
    generation_config,
    eos: torch.Tensor,
    pad: int | None,
    unfinished: torch.Tensor,
    generators: list[torch.Generator] | None = None,
) -> tuple[torch.Tensor, torch.Tensor]:
    """One token per row as `generate` draws it (same RNG call), padded after a row's EOS; and the rows still open.

    With `generators`, the rows are that many equal blocks, each drawn from its own generator."""
    if generation_config.do_sample and generators:
        blocks = F.softmax(scores, dim=-1).split(scores.size(0) // len(generators))
        draws = [multinomial.draw(b, gen) for b, gen in zip(blocks, generators, strict=True)]
        next_tokens = torch.cat(draws).squeeze(1)
    elif generation_config.do_sample:
        next_tokens = multinomial.draw(F.softmax(scores, dim=-1)).squeeze(1)
    else:
        next_tokens = torch.argmax(scores, dim=-1)
    if eos.numel() and pad is not None:
        next_tokens = next_tokens * unfinished + pad * (1 - unfinished)
    if eos.numel():
        unfinished = unfinished & ~torch.isin(next_tokens, eos)
    return next_tokens, unfinished


def _rms_norm(norm, hidden: torch.Tensor) -> torch.Tensor:
    """`norm(hidden)` for a `LlamaRMSNorm`: in fp32 as one `torch.rms_norm` call (bit-equal, one call instead of six);
    in bf16 the module itself, which rounds to bf16 before the weight product where `torch.rms_norm` does not."""
    if hidden.dtype != torch.float32:
        return norm(hidden)
    return torch.rms_norm(hidden, norm.weight.shape, norm.weight, norm.variance_epsilon)


@dataclass
class _Cache:
    """Per-layer K/V buffers for every position of a rollout, the rotary tables, and how many positions are filled.

    `signed_sin` is the sine table with its first half negated (what `rotate_half` folds into the product).
    """

    keys: list[torch.Tensor]
    values: list[torch.Tensor]
    cos: torch.Tensor
    signed_sin: torch.Tensor
    length: int = 0


def _pack(*weights: torch.Tensor, int8: bool = False) -> PackedLinear | Int8Linear:
    weight = torch.cat([w.detach() for w in weights]) if len(weights) > 1 else weights[0]
    return Int8Linear(weight, None) if int8 else PackedLinear(weight, None)


def prepare_for_sampling(model):
    """Make an inference-only CPU model fast to sample: a `LlamaDecoder` where it applies, else pre-packed linears."""
    if supports(model):
        model.playground_sampler = LlamaDecoder(model)
    else:
        pack_linears(model)
    return model


@torch.no_grad()
def sample(model, input_ids: torch.Tensor, **generate_kwargs) -> torch.Tensor:
    """`model.generate(input_ids=..., **generate_kwargs)` for unpadded rows, the same tokens for the same seed.

    Rows that repeat one prompt go through `shared_prefix_generate`: the model's `LlamaDecoder` (see
    `prepare_for_sampling`) when it has one and it covers the options, else `generate` with the prompt run once (after
    `model.playground_ensure_dense()`, where a lean rollout copy sets it).
    """
    config = copy.deepcopy(model.generation_config)
    config.update(**generate_kwargs)
    mask = torch.ones_like(input_ids)
    decoder = getattr(model, "playground_sampler", None)
    out = shared_prefix_generate(model, input_ids, mask, config, decoder, fallback=decoder is None)
    if out is None and decoder is not None:
        ensure_dense = getattr(model, "playground_ensure_dense", None)
        if ensure_dense is not None:  # a lean copy (the trainer's rollout copy) holds its linears only packed
            ensure_dense()
        out = shared_prefix_generate(model, input_ids, mask, config)
    if out is None:
        out = model.generate(input_ids=input_ids, attention_mask=mask, generation_config=config, **stopping_criteria())
    return out
