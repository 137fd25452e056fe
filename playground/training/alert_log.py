"""A run's alert log: every health alert raised in the run, with the steps it was seen at, kept after it clears.

`health.health_alerts` answers "what is wrong now"; a teacher who looks at step 20 also needs to know that at step 12
only one reward varied. The log is that record. One entry per alert code, in the order the codes were first raised:

- the alert's fields as `health.alert_record` stores them (`code`, `message`, `advice`, `step`, `texts`), from the
  latest time it was raised;
- `first_step` and `last_step`: the first and the latest step it was raised at;
- `resolved_step`: the step of the first logged row at which it was no longer raised, None while it holds. An alert
  raised again after it cleared is open again (its `first_step` stays);
- `superseded_by`: where it stopped because a broader alert took its place at that step (`health.SUPERSEDED_BY`: a
  reward that never varied leaves "nothing to weigh" until `constant_reward` names it), that alert's code. The
  condition did not clear: the page says it was replaced, not resolved.

The job keeps the log in status.json under `alert_log`, beside `alerts` (the alerts that hold now).
"""

from __future__ import annotations

from typing import Any

from playground.training.health import SUPERSEDED_BY


def log_alerts(log: list[dict], current: list[dict], step: int) -> list[dict]:
    """The log `log` after a row of step `step` whose alerts are `current` (alert records): new codes are added,
    raised ones updated, and those no longer raised marked resolved at `step`. `log` itself is not changed.

    >>> log = log_alerts([], [{"code": "no_signal", "message": "m", "advice": "a", "step": 12}], 12)
    >>> [(e["code"], e["first_step"], e["last_step"], e["resolved_step"]) for e in log_alerts(log, [], 13)]
    [('no_signal', 12, 12, 13)]
    """
    entries = {entry["code"]: dict(entry) for entry in log if isinstance(entry, dict) and "code" in entry}
    raised = set()
    for alert in current:
        code = alert["code"]
        raised.add(code)
        seen = int(alert.get("step") or step)
        entry = entries.get(code)
        first = seen if entry is None else min(int(entry.get("first_step", seen)), seen)
        entries[code] = {**alert, "first_step": first, "last_step": seen, "resolved_step": None}
    for code, entry in entries.items():
        if code not in raised and entry.get("resolved_step") is None:
            entry["resolved_step"] = step
            broader = [other for other in SUPERSEDED_BY.get(code, ()) if other in raised]
            if broader:
                entry["superseded_by"] = broader[0]
    return list(entries.values())


def log_up_to(log: list[dict], step: int, current: list[dict]) -> list[dict]:
    """The log of a run continued from the checkpoint of `step`: the entries first raised after it are dropped (the
    continued run takes those steps again), the others brought to `current`, the alerts of the rows kept."""
    kept = [dict(entry) for entry in log if isinstance(entry, dict) and _int(entry.get("first_step"), step) <= step]
    for entry in kept:
        entry["last_step"] = min(_int(entry.get("last_step"), step), step)
        if _int(entry.get("resolved_step"), 0) > step:
            entry["resolved_step"] = None
            entry.pop("superseded_by", None)
    return log_alerts(kept, current, step)


def open_alerts(log: list[dict]) -> list[dict]:
    """The entries that hold now."""
    return [entry for entry in log if entry.get("resolved_step") is None]


def _int(value: Any, default: int) -> int:
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else default
