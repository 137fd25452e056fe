"""What a reward returns, checked: one float or None per completion, with the messages the page shows.

The one check for every reward's values, in-process (`playground.scoring.call_reward`) and from a sandbox worker's
reply (`playground.sandbox.client`, `custom`); a leaf module, so the sandbox needs nothing from the scoring code.
"""

from __future__ import annotations

import numbers
from typing import Any

from playground.errors import RewardError


def check_values(name: str, values: Any, expected: int) -> list[float | None]:
    if isinstance(values, str | bytes | dict) or not hasattr(values, "__len__"):
        key = "reward.generator" if hasattr(values, "__next__") else "reward.not_a_list"
        raise RewardError(key, name=name, got=type(values).__name__)
    values = list(values.tolist() if hasattr(values, "tolist") else values)
    if len(values) != expected:
        raise RewardError("reward.count", name=name, count=len(values), n=expected)
    out: list[float | None] = []
    for i, v in enumerate(values):
        if hasattr(v, "item") and getattr(v, "ndim", 0) == 0:  # numpy or torch scalar
            v = v.item()
        if v is None:
            out.append(None)
        elif isinstance(v, numbers.Real) and not isinstance(v, bool | str):
            out.append(float(v))
        elif isinstance(v, bool):
            out.append(float(v))
        else:
            raise RewardError("reward.bad_value", name=name, kind=type(v).__name__, value=v, index=i + 1)
    return out
