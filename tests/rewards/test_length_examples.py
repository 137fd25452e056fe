"""The length reward's card examples agree with it at the demo's ideal_length (50) and at its default (100)."""

import pytest

from playground.spec import demo_spec
from rewards.registry import build_reward, get_spec


DEMO_IDEAL = next(c.params["ideal_length"] for c in demo_spec().rewards if c.name == "length")


@pytest.mark.parametrize("ideal_length", sorted({DEMO_IDEAL, get_spec("length").defaults()["ideal_length"]}))
def test_good_example_beats_bad_one(ideal_length):
    spec = get_spec("length")
    good, bad = build_reward("length", {"ideal_length": ideal_length})([spec.good.completion, spec.bad.completion])
    assert good > bad
    assert (ideal_length, good, bad) in {(50, -21.0, -177.0), (100, -29.0, -127.0)}
