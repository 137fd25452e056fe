"""`multinomial.draw` against `torch.multinomial`: the same index for every row and the same generator state after, on
distributions shaped like a sampler's (flat, peaked, top-k zeros), and the same errors for rows that are not one."""

import pytest
import torch

from playground.fastpath import multinomial


def _distributions(seed: int) -> list[torch.Tensor]:
    g = torch.Generator().manual_seed(seed)
    logits = torch.randn(4, 49_152, generator=g) * 3
    topk = torch.full_like(logits, float("-inf")).scatter(1, logits.topk(50).indices, logits.topk(50).values)
    return [
        torch.softmax(logits, dim=-1),  # a vocabulary-wide distribution at temperature 1
        torch.softmax(logits / 0.1, dim=-1),  # peaked
        torch.softmax(topk, dim=-1),  # 50 entries, the rest exactly 0
        torch.rand(3, 7, generator=g),  # unnormalized weights, as torch.multinomial takes them
    ]


def test_the_fast_path_holds_on_the_pinned_torch():
    # requirements.txt pins torch; where a release changes its exponential kernel, draw falls back to
    # torch.multinomial (still exact, no faster) and this test says so.
    assert multinomial.exact()


@pytest.mark.parametrize("seed", range(6))
def test_draw_is_torch_multinomial(seed):
    for probs in _distributions(seed):
        ours, theirs = torch.Generator().manual_seed(seed), torch.Generator().manual_seed(seed)
        for _ in range(20):
            a = multinomial.draw(probs, ours)
            b = torch.multinomial(probs, num_samples=1, generator=theirs)
            assert a.shape == b.shape == (probs.shape[0], 1)
            assert torch.equal(a, b)
        assert torch.equal(ours.get_state(), theirs.get_state())


def test_draw_from_the_default_generator():
    probs = _distributions(7)[0]
    torch.manual_seed(11)
    a = multinomial.draw(probs)
    after = torch.get_rng_state()
    torch.manual_seed(11)
    b = torch.multinomial(probs, num_samples=1)
    assert torch.equal(a, b) and torch.equal(after, torch.get_rng_state())


@pytest.mark.parametrize(
    "row", [[0.5, float("nan"), 0.5], [0.5, float("inf"), 0.5], [0.5, -0.1, 0.6], [0.0, 0.0, 0.0]], ids=str
)
def test_rows_that_are_not_a_distribution_raise_torchs_error(row):
    probs = torch.tensor([[0.2, 0.3, 0.5], row])
    with pytest.raises(RuntimeError) as ours:
        multinomial.draw(probs, torch.Generator().manual_seed(0))
    with pytest.raises(RuntimeError) as theirs:
        torch.multinomial(probs, 1, generator=torch.Generator().manual_seed(0))
    assert str(ours.value) == str(theirs.value)


def test_probabilities_that_carry_a_gradient():  # a model's softmax outside no_grad, as torch.multinomial takes it
    logits = torch.randn(4, 1000, generator=torch.Generator().manual_seed(2), requires_grad=True)
    probs = torch.softmax(logits, dim=-1)
    a = multinomial.draw(probs, torch.Generator().manual_seed(9))
    b = torch.multinomial(probs, 1, generator=torch.Generator().manual_seed(9))
    assert torch.equal(a, b) and not a.requires_grad


def test_other_dtypes_go_to_torch_multinomial():
    probs = _distributions(3)[0].double()
    a = multinomial.draw(probs, torch.Generator().manual_seed(5))
    b = torch.multinomial(probs, 1, generator=torch.Generator().manual_seed(5))
    assert torch.equal(a, b)
