"""A job's run state: the fields of `status.json` that a job reports, held in memory, and the one `snapshot()`.

Both jobs are `JobState`s. The in-process `TrainingJob` sets the fields as it trains and writes them to status.json
(`write`); the accelerate-launched `LaunchedJob` reads rank 0's status.json into the same fields (`load`). Pages and
the CLI read `snapshot()`, or status.json for a run no job of this process holds.
"""

from __future__ import annotations

import time
from typing import Any

from playground.spec import RunSpec
from playground.training.progress import eta_seconds
from playground.training.store import ACTIVE, Run


# status.json keys a job mirrors in memory, with their value before the first write.
FIELDS = {
    "status": "queued",
    "step": 0,
    "error": None,
    "phase": None,  # "warmup", then "grpo" ("eval" in status.json while a held-out eval runs)
    "warmup_step": 0,
    "alerts": [],  # the health alerts as of the last logged row (`playground.training.health`, computed by the job)
    "alert_log": [],  # every alert raised in the run, resolved ones kept (`playground.training.alert_log`)
    "fast_path_off": None,  # the parts of the CPU fast path that stepped aside in this install, and why
}


class JobState:
    """The state every job reports. Subclasses call `init_state` first in `__init__`."""

    spec: RunSpec
    run: Run

    def init_state(self, spec: RunSpec, run: Run, owner: str | None, **fields: Any) -> None:
        """Set the fields to their first values and write the run's first status.json (`fields` added to it)."""
        self.spec, self.run, self.owner = spec, run, owner
        for name, value in FIELDS.items():
            setattr(self, name, list(value) if isinstance(value, list) else value)
        self.max_steps = spec.grpo.max_steps
        self.started_at: float | None = None
        self.step_at: float | None = None  # when the latest step ended (the ETA counts down from there)
        self.listeners: list = []
        self.loaded: dict[str, Any] = {}  # the status.json last read by `load`
        self.run.write_status(
            **{"status": self.status, "step": 0, "max_steps": self.max_steps, "owner": owner, **fields}
        )

    @property
    def active(self) -> bool:
        return self.status in ACTIVE

    def write(self, **fields: Any) -> None:
        """Set the fields given in memory and in status.json at once (other keys go to status.json only)."""
        for name in FIELDS.keys() & fields.keys():
            setattr(self, name, fields[name])
        self.run.write_status(**fields)

    def load(self, status: dict[str, Any]) -> None:
        """Take the fields (but `status`) from a status.json that another process wrote; a new step restarts the ETA's
        countdown."""
        self.loaded = status
        step = max(int(status.get("step") or 0), self.step)  # a step only goes up (a row may have said it first)
        if step != self.step:
            self.step_at = time.time()
        for name in (FIELDS.keys() - {"status"}) & status.keys():  # the status itself is the watching job's call
            if status[name] is not None or name != "error":
                setattr(self, name, status[name])
        self.step = step
        self.alerts = list(self.alerts or [])
        self.alert_log = list(self.alert_log or [])

    def reward_errors(self) -> int:
        """Reward failures scored as None so far (reward_error_policy="none")."""
        return int(self.loaded.get("reward_errors") or 0)

    def eta(self, elapsed: float, since_step: float) -> tuple[float | None, float | None]:
        """(the current phase's time left, the run's): here the mean GRPO step time; a job that times each phase
        itself (the thread job's `PhaseClock`) overrides it."""
        return None, eta_seconds(elapsed, self.step, self.max_steps, since_step)

    def snapshot(self) -> dict[str, Any]:
        now = time.time()
        elapsed = now - self.started_at if self.started_at else 0.0
        since_step = now - self.step_at if self.step_at else elapsed
        phase_eta, eta = self.eta(elapsed, since_step)
        return {
            "run_id": self.run.id,
            "status": self.status,
            "step": self.step,
            "max_steps": self.max_steps,
            "elapsed": elapsed,
            "eta": eta,  # the run's time left
            "phase_eta": phase_eta,  # the current phase's time left (None where phases are not timed apart)
            "error": self.error,
            "reward_errors": self.reward_errors(),
            "phase": self.phase,
            "warmup_step": self.warmup_step,
            "warmup_steps": self.spec.grpo.sft_warmup_steps,
            "alerts": list(self.alerts),
            "alert_log": list(self.alert_log),
            "fast_path_off": self.fast_path_off,
            "num_processes": self.spec.model.num_processes,
            "completions_per_step": self.spec.completions_per_step(),
        }
