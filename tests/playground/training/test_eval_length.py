"""The held-out eval's own length cap (`eval_max_completion_length`): answers judged on what they wrote, not on where
the training cap cut them."""

from __future__ import annotations

import pytest

from playground.errors import SpecError
from playground.spec import MAX_COMPLETION_LENGTH, RunSpec
from playground.training.evaluation import Evaluator
from playground.validation import validate_spec


def n_tokens(completions, completion_ids, **kwargs):
    return [float(len(ids)) for ids in completion_ids]


def _evaluate(tiny, model_dir, training_cap: int, eval_cap: int):
    model, tokenizer = tiny
    spec = RunSpec()
    spec.set("model_name_or_path", str(model_dir))
    spec.set("max_completion_length", training_cap)
    spec.set("eval_max_completion_length", eval_cap)
    spec.set("eval_num_generations", 2)
    spec.set("temperature", 1.0)
    rows = [{"prompt": "Write about tea."}, {"prompt": "Write about rain."}]
    evaluator = Evaluator(spec, rows, [n_tokens], [1.0], tokenizer)
    row = evaluator.evaluate(model, step=0, eval_of="base")
    return row, evaluator.samples


def test_the_eval_samples_up_to_its_own_cap_with_the_same_draws(tiny, tiny_model_dir):
    row, short = _evaluate(tiny, tiny_model_dir, training_cap=3, eval_cap=0)  # 0: the training cap
    lengths = [s["rewards"]["n_tokens"] for s in short]
    assert max(lengths) == 3 and row["eval_rewards/n_tokens/mean"] == pytest.approx(sum(lengths) / len(lengths))

    _, long = _evaluate(tiny, tiny_model_dir, training_cap=3, eval_cap=12)
    long_lengths = [s["rewards"]["n_tokens"] for s in long]
    assert max(long_lengths) == 12 and all(n <= 12 for n in long_lengths)
    # the same seeds draw the same first tokens: each capped answer begins the uncapped one
    assert [(s["prompt"], s["seed"]) for s in short] == [(s["prompt"], s["seed"]) for s in long]
    for a, b in zip(short, long, strict=True):
        assert b["completion"].startswith(a["completion"])
    assert sum(b["completion"] != a["completion"] for a, b in zip(short, long, strict=True)) >= 1


@pytest.mark.parametrize("value", [-1, MAX_COMPLETION_LENGTH + 1])
def test_an_eval_cap_out_of_range_is_refused(value):
    spec = RunSpec()
    spec.set("eval_max_completion_length", value)
    with pytest.raises(SpecError) as err:
        validate_spec(spec)
    assert str(err.value) == (
        f"eval_max_completion_length must be between 0 and {MAX_COMPLETION_LENGTH}, got {value}."
    )


def test_the_eval_cap_stays_out_of_grpo_config(tmp_path):
    spec = RunSpec()
    spec.set("eval_max_completion_length", 160)
    config = spec.grpo_config(str(tmp_path))
    assert config.max_completion_length == spec.grpo.max_completion_length
    assert not hasattr(config, "eval_max_completion_length")
