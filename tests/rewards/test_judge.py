"""The judge reads the vocabulary's logits at the last position only (`logits_to_keep=1`) where its model's forward
takes it, and scores as it does with the logits of every position, which a model without it computes."""

import pytest
import torch

import rewards.judge as judge_module
from rewards.judge import get_judge_reward, keeps_last_logits, load_judge


COMPLETIONS = ["Thank you! Plants make food from sunlight.", "Go away.", "Sunlight, water and air: photosynthesis."]
PROMPTS = ["How do plants make food?"] * len(COMPLETIONS)


class EveryPositionsLogits(torch.nn.Module):
    """A causal LM whose forward takes no `logits_to_keep`: it returns the logits of every position."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    @property
    def device(self):
        return self.model.device

    def forward(self, input_ids, attention_mask):
        return self.model(input_ids=input_ids, attention_mask=attention_mask)


def _judge_with_logit_shapes(judge, model) -> tuple[list, list[tuple[int, ...]]]:
    """The judge's scores of `COMPLETIONS`, and the shape of the logits each forward pass of `model` returned."""
    shapes = []
    hook = model.register_forward_hook(lambda module, args, output: shapes.append(tuple(output.logits.shape)))
    try:
        return judge(COMPLETIONS, prompts=PROMPTS), shapes
    finally:
        hook.remove()


def test_the_judge_scores_from_the_last_positions_logits_alone_as_from_every_positions(
    tiny_full_vocab_dir, monkeypatch
):
    model, tokenizer = load_judge(str(tiny_full_vocab_dir))
    judge = get_judge_reward(model=str(tiny_full_vocab_dir), batch_size=2)  # rows of unequal length, left-padded
    assert keeps_last_logits(type(model)) and not keeps_last_logits(EveryPositionsLogits)

    fast, fast_shapes = _judge_with_logit_shapes(judge, model)
    vocabulary = len(tokenizer)
    assert fast_shapes == [(2, 1, vocabulary), (1, 1, vocabulary)]  # one position per row: the fast path

    full_model = EveryPositionsLogits(model)
    monkeypatch.setattr(judge_module, "load_judge", lambda model_id: (full_model, tokenizer))
    full, full_shapes = _judge_with_logit_shapes(judge, model)
    assert [shape[0] for shape in full_shapes] == [2, 1] and all(shape[1] > 20 for shape in full_shapes)

    assert all(0.0 < value < 1.0 for value in fast)
    assert len(set(fast)) == len(COMPLETIONS)  # the three completions score apart: the comparison can fail
    assert fast == pytest.approx(full, abs=1e-5)
