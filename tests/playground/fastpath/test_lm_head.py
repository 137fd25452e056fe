"""The CPU tiles of TRL's fused LM head give TRL's log-probs, entropies, top-1 flags and gradients."""

import pytest
import torch
import trl.kernels.chunked_logprob as chunked
from trl.kernels import ChunkedLogProbFunction

from playground.fastpath.lm_head import EXP_FLOOR, cpu_lm_head


VOCAB, HIDDEN, TOKENS = 5000, 32, 40
OUTPUTS = ("log_probs", "entropy")


def spread_inputs():
    """Logits spread over ~300 nats, as a trained LM head's are: most probabilities in a row are subnormal."""
    torch.manual_seed(0)
    hidden = torch.randn(TOKENS, HIDDEN) * 3
    weight = torch.randn(VOCAB, HIDDEN) * 2
    targets = torch.randint(0, VOCAB, (TOKENS,))
    targets[:5] = (hidden[:5] @ weight.t()).argmax(-1)  # some targets the row's most likely token
    return hidden, weight, targets


def fused(hidden, weight, targets, chunk=1024, temperature=0.7, entropy_grad=False):
    hidden = hidden.detach().clone().requires_grad_()
    weight = weight.detach().clone().requires_grad_()
    logps, entropy, *_ = ChunkedLogProbFunction.apply(
        hidden, weight, None, targets, temperature, chunk, None, 1.0, OUTPUTS
    )
    torch.manual_seed(1)
    loss = (logps * torch.randn_like(logps)).sum()
    if entropy_grad:
        loss = loss + (entropy * torch.randn_like(entropy)).sum()
    loss.backward()
    return logps.detach(), entropy.detach(), hidden.grad, weight.grad


def test_the_inputs_reach_the_subnormal_range():
    hidden, weight, targets = spread_inputs()
    log_p = torch.log_softmax(hidden @ weight.t() / 0.7, dim=-1)
    assert (log_p < EXP_FLOOR).float().mean() > 0.3


@pytest.mark.parametrize("entropy_grad", [False, True])
def test_lean_tiles_equal_trls(entropy_grad):
    inputs = spread_inputs()
    with cpu_lm_head(lean_tiles=False):
        expected = fused(*inputs, entropy_grad=entropy_grad)
    with cpu_lm_head():
        assert chunked._forward_tile.__module__ == "playground.fastpath.lm_head"
        got = fused(*inputs, entropy_grad=entropy_grad)
    assert chunked._forward_tile.__module__ == chunked.__name__  # restored on leaving
    names = ("log_probs", "entropy", "grad hidden", "grad weight")
    for name, a, b in zip(names, expected, got, strict=True):
        # the entropy is log Z (hundreds of nats here) less a sum of the same size: its rounding is ~1e-5
        atol = 1e-4 if name == "entropy" else 1e-5
        # with the entropy's gradient (TRL's tile), the saved entropy's rounding reaches the gradients
        if entropy_grad and name.startswith("grad"):
            atol = 1e-3
        torch.testing.assert_close(b, a, rtol=1e-5, atol=atol, msg=name)
    # and the same as the plain log-softmax
    hidden, weight, targets = inputs
    plain = torch.log_softmax(hidden @ weight.t() / 0.7, dim=-1).gather(1, targets[:, None]).squeeze(1)
    torch.testing.assert_close(got[0], plain, rtol=1e-5, atol=1e-4)


def test_lean_tiles_under_bf16_autocast_equal_trls():
    inputs = spread_inputs()
    results = []
    for lean in (False, True):
        with cpu_lm_head(lean_tiles=lean), torch.autocast("cpu", dtype=torch.bfloat16):
            results.append(fused(*inputs))
    for a, b in zip(*results, strict=True):
        torch.testing.assert_close(b, a, rtol=2e-2, atol=2e-2)


def test_a_tile_split_across_chunks_keeps_the_running_maximum():
    """The row's maximum in a later tile than the target: the running logsumexp rescales what came before."""
    inputs = spread_inputs()
    with cpu_lm_head():
        wide = fused(*inputs, chunk=VOCAB)
        narrow = fused(*inputs, chunk=256)
    for a, b in zip(wide, narrow, strict=True):
        torch.testing.assert_close(b, a, rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("chunk", [256, VOCAB])
def test_is_top1_as_sft_asks_for_it_equals_trls(chunk):
    """SFTTrainer's `mean_token_accuracy`: whether the label is the row's first most likely token, ties included."""
    hidden, weight, targets = spread_inputs()
    logits = hidden @ weight.t()
    weight[targets[5]] = weight[logits[5].argmax()]  # row 5: its label ties the top token, and comes first or not
    targets[6] = logits[6].argmax()
    outputs = ("log_probs", "entropy", "is_top1")
    results = []
    for lean in (False, True):
        with cpu_lm_head(lean_tiles=lean), torch.no_grad():
            results.append(ChunkedLogProbFunction.apply(hidden, weight, None, targets, 0.7, chunk, None, 1.0, outputs))
    trl_top1, lean_top1 = results[0][4], results[1][4]
    assert lean_top1.tolist() == trl_top1.tolist()
    assert lean_top1[:5].all() and lean_top1[6] and 0 < lean_top1.sum() < TOKENS
    torch.testing.assert_close(results[1][0], results[0][0], rtol=1e-5, atol=1e-5)


def test_a_backward_after_the_forwards_block_runs_the_tiles_of_the_enclosing_block():
    # A trainer's loss.backward() comes after the forward's cpu_lm_head block; TRL looks its tile up then. The
    # fast-path trainer holds `tiles()` around training, so the backward folds with the lean tile too.
    from playground.fastpath import lm_head

    trl_backward_tile = chunked._backward_tile
    hidden, weight, targets = spread_inputs()
    hidden.requires_grad_()
    with lm_head.tiles():
        with cpu_lm_head():
            logps, *_ = ChunkedLogProbFunction.apply(hidden, weight, None, targets, 0.7, 1024, None, 1.0, OUTPUTS)
        assert chunked._backward_tile is lm_head.backward_tile
        logps.sum().backward()
    assert chunked._backward_tile is trl_backward_tile  # restored on leaving
    with cpu_lm_head():
        pass
    assert chunked._backward_tile is trl_backward_tile  # alone, the forward's block leaves TRL's tile behind
    plain = hidden.detach().clone().requires_grad_()
    torch.log_softmax(plain @ weight.t() / 0.7, dim=-1).gather(1, targets[:, None]).sum().backward()
    torch.testing.assert_close(hidden.grad, plain.grad, rtol=1e-4, atol=1e-4)
