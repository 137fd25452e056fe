"""TRL's fused LM head, run the CPU-friendly way.

TRL's fused head (`trl.trainer.utils.add_fused_lm_head`) scores a completion token without materializing its
(tokens x vocabulary) logits: it projects the hidden states through the LM head in vocabulary tiles and folds each tile
into online-logsumexp statistics, and its backward recomputes each tile and turns it into the logits' gradient. On
devices without Triton the folding is plain torch (`trl.kernels.chunked_logprob._forward_tile`, `_backward_tile`).
Three things make that slow on a CPU, and `cpu_lm_head` changes them for the duration of a block:

- **Which positions, and how wide a tile.** Off Triton, TRL projects every position (to keep tile shapes fixed for
  compilers such as Neuron's): on a CPU the 49,152-wide head then also runs, forward and backward, over every prompt
  and padding position only to be masked out. Its tiles are 32,768 columns wide, tens of MB at a few hundred tokens, so
  each element-wise pass streams through memory; 2,048 columns was measured fastest (of 1,024 to 32,768).
- **Passes over the tile.** TRL's torch tiles allocate a fresh (tokens x columns) tensor at each of about ten
  element-wise steps. `forward_tile` and `backward_tile` do TRL's arithmetic in place in the tile TRL hands them
  (scratch that TRL overwrites with the next tile anyway), in about half the passes: on a GRPO group of the embedded
  model the head's forward and backward took 0.29 s against TRL's tiles' 0.35 s (`python bench/head_tiles.py`, two
  threads, Intel Xeon with AMX), and the SFT warm-up's step 1.03 s against 1.09 s (`bench/warmup_step.py`).
- **Subnormal exponentials.** `exp` of a logit far below its row's maximum (a probability under about 1e-38) is a
  subnormal float, which x86 computes through a slow microcode path: `torch.exp` on such a tile ran 100x slower than on
  ordinary values (same bench). SmolLM2 at temperature 0.9 stays above that (its least likely token about e^-63), but a
  sharper head or a low temperature does not, so the exponent is clamped at `EXP_FLOOR`: a probability below 1.6e-38
  counts as 1.6e-38, which no sum over the vocabulary and no gradient can tell apart.

Both equal TRL's tiles to float rounding (tests/playground/fastpath/test_lm_head.py). Cases they do not cover
(soft-capped logits, the entropy's own gradient, the optional outputs neither the GRPO nor the SFT trainer asks
for) go to TRL's tiles unchanged. TRL's names are reached through `playground.fastpath.internals`; where they do not
match what this module expects, its blocks change nothing and TRL's head runs as TRL wrote it.
"""

from __future__ import annotations

import math
from contextlib import contextmanager

import torch

from playground.fastpath import internals


CPU_LM_HEAD_CHUNK = 2048
# log of float32's smallest normal number (1.18e-38): exp of anything at or above it stays a normal float
EXP_FLOOR = -87.0


def forward_tile(
    tile,
    tile_stride,
    targets,
    running_max,
    sum_exp,
    x_sum_exp,
    sq_sum_exp,
    z_sum,
    max_before_target,
    target_logit,
    vocab_start,
    n_cols,
    logit_scale,
    softcap,
    inv_t,
    HAS_SOFTCAP,  # noqa: N803 - TRL's parameter names
    HAS_ENTROPY,  # noqa: N803
    HAS_LOG_SUM_SQ_PROBS,  # noqa: N803
    HAS_MEAN_LOGITS,  # noqa: N803
    HAS_IS_TOP1,  # noqa: N803
    BLOCK_SIZE,  # noqa: N803
):
    """TRL's `_forward_tile` (one tile into the running logsumexp, the entropy's sum and the target's logit), with
    the exponent clamped at `EXP_FLOOR` and the tile scaled and shifted in place."""
    if HAS_SOFTCAP or HAS_LOG_SUM_SQ_PROBS or HAS_MEAN_LOGITS:
        return _TRL_TILES[0](
            tile, tile_stride, targets, running_max, sum_exp, x_sum_exp, sq_sum_exp, z_sum, max_before_target,
            target_logit, vocab_start, n_cols, logit_scale, softcap, inv_t, HAS_SOFTCAP, HAS_ENTROPY,
            HAS_LOG_SUM_SQ_PROBS, HAS_MEAN_LOGITS, HAS_IS_TOP1, BLOCK_SIZE,
        )  # fmt: skip
    z = tile.float()  # the tile itself when it is fp32 (its buffer is scratch); a copy under bf16 autocast
    z.mul_(logit_scale * inv_t)
    local = targets - vocab_start
    in_tile = (local >= 0) & (local < n_cols)
    target_z = z.gather(-1, local.clamp(0, n_cols - 1).unsqueeze(-1)).squeeze(-1)
    target_logit.copy_(torch.where(in_tile, target_z, target_logit))
    tile_max = z.amax(-1)
    if HAS_IS_TOP1:  # the largest logit before the target's column (SFTTrainer's `mean_token_accuracy`)
        before = torch.where(local >= n_cols, tile_max, -math.inf)  # the target comes after this whole tile
        rows = in_tile.nonzero().squeeze(-1)
        if rows.numel():
            columns = torch.arange(n_cols) < local[rows].unsqueeze(-1)
            before[rows] = z[rows].masked_fill(~columns, -math.inf).amax(-1)
        max_before_target.copy_(torch.maximum(max_before_target, before))
    new_m = torch.maximum(running_max, tile_max)
    rescale = torch.exp((running_max - new_m).clamp_(min=EXP_FLOOR))
    z.sub_(new_m.unsqueeze(-1)).clamp_(min=EXP_FLOOR)  # z - max, at most 0
    e = torch.exp(z)
    e_sum = e.sum(-1)
    sum_exp.mul_(rescale).add_(e_sum)
    if HAS_ENTROPY:  # sum(e * logit) = sum(e * (logit - max)) + max * sum(e)
        x_sum_exp.mul_(rescale).add_(torch.linalg.vecdot(e, z) + new_m * e_sum)
    running_max.copy_(new_m)


def backward_tile(
    tile,
    tile_stride,
    targets,
    log_z,
    entropy,
    grad_logprobs,
    grad_entropy,
    vocab_start,
    n_cols,
    logit_scale,
    softcap,
    inv_t,
    HAS_SOFTCAP,  # noqa: N803 - TRL's parameter names
    HAS_LOGPROB_GRAD,  # noqa: N803
    HAS_ENTROPY_GRAD,  # noqa: N803
    BLOCK_SIZE,  # noqa: N803
):
    """TRL's `_backward_tile`: the tile's logits become their gradient, g * (1[target] - p) scaled as the logits
    were, in place, with the exponent clamped at `EXP_FLOOR`."""
    if HAS_SOFTCAP or HAS_ENTROPY_GRAD or not HAS_LOGPROB_GRAD:
        return _TRL_TILES[1](
            tile, tile_stride, targets, log_z, entropy, grad_logprobs, grad_entropy, vocab_start, n_cols,
            logit_scale, softcap, inv_t, HAS_SOFTCAP, HAS_LOGPROB_GRAD, HAS_ENTROPY_GRAD, BLOCK_SIZE,
        )  # fmt: skip
    z = tile.float()
    z.mul_(logit_scale * inv_t).sub_(log_z.unsqueeze(-1)).clamp_(min=EXP_FLOOR).exp_()  # p
    scale = grad_logprobs * (inv_t * logit_scale)
    z.mul_(scale.neg().unsqueeze(-1))
    local = targets - vocab_start
    rows = ((local >= 0) & (local < n_cols)).nonzero().squeeze(-1)
    z[rows, local[rows]] += scale[rows]
    if z is not tile:
        tile.copy_(z)


# TRL's own torch tiles, for the cases the ones above hand back to them: read when a block first replaces them
_TRL_TILES: list = []


@contextmanager
def tiles(lean: bool = True):
    """Within the block, TRL's fused head folds its tiles with `forward_tile` and `backward_tile` (with `lean=False`,
    with TRL's own). TRL looks its tile functions up when it runs them, and its backward runs at `loss.backward()`,
    after the forward's `cpu_lm_head` block has ended: a training loop holds this around whole steps, so that the
    backward's tiles are the lean ones too."""
    if not internals.works("lm_head"):
        yield  # this TRL's tiles are not the ones these replace: TRL's own run
        return
    saved = internals.trl_tiles()
    if saved[0] is not forward_tile:  # TRL's, as they are now (an outer block may have put the lean ones in)
        _TRL_TILES[:] = saved
    internals.set_trl_tiles(*((forward_tile, backward_tile) if lean else _TRL_TILES))
    try:
        yield
    finally:
        internals.set_trl_tiles(*saved)


@contextmanager
def cpu_lm_head(lean_tiles: bool = True):
    """Within the block, TRL's fused head projects only completion positions, in `CPU_LM_HEAD_CHUNK`-column tiles,
    folded by `forward_tile` and `backward_tile` (with `lean_tiles=False`, by TRL's own). Results equal TRL's up to
    float summation order."""
    if not internals.works("lm_head"):
        yield  # this TRL's head is not the one this block tunes: TRL's own runs
        return
    saved = internals.trl_head_switches()
    original_use_triton = saved[0]
    internals.set_trl_head_switches(
        lambda device: device.type == "cpu" or original_use_triton(device), CPU_LM_HEAD_CHUNK
    )
    try:
        with tiles(lean_tiles):
            yield
    finally:
        internals.set_trl_head_switches(*saved)
