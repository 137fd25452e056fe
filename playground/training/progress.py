"""Progress of a run, shared by the thread job and the accelerate backend: the time left, per phase.

A run goes through phases whose steps take very different times: loading, the SFT warm-up's steps, GRPO's steps and
the held-out evals (one pass over the eval prompts each). Dividing all the time elapsed by the GRPO steps done counts
loading, the warm-up and the evals as GRPO time, so `PhaseClock` keeps each phase's own clock: it runs only while
the run is in that phase, and each phase's time left is its mean step time times its steps left.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable


def eta_seconds(elapsed: float, step: int, total: int, since_step: float) -> float | None:
    """Time left: the mean time of the finished steps times the steps left, less the time since the latest step
    ended (so it counts down within a step instead of growing with it); None before the first step."""
    if not step:
        return None
    per_step = (elapsed - since_step) / step
    return max(0.0, per_step * (total - step) - since_step)


def eval_points(max_steps: int, eval_every: int, warmup: bool) -> int:
    """How many held-out evals a run makes: the base model, the warmed-up one, then every `eval_every` GRPO steps
    and at the last step (as `PlaygroundCallback.on_step_end` does)."""
    if not eval_every or max_steps < 1:
        return 0
    grpo = max_steps // eval_every + (max_steps % eval_every != 0)
    return 1 + int(warmup) + grpo


class PhaseClock:
    """Each phase's time and finished steps; `enter(phase)` switches the clock, `step()` marks a step of the current
    phase as finished. `clock` is injectable for tests (seconds, monotonic)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic):
        self._now = clock
        self.phase: str | None = None
        self._since = 0.0  # when the current phase was (re-)entered
        self._spent: dict[str, float] = {}  # seconds spent in each phase before it was last entered
        self.steps: dict[str, int] = {}
        self._at_step: dict[str, float] = {}  # the phase's own time when its latest step ended

    def enter(self, phase: str | None) -> str | None:
        """Switch to `phase` (None: no phase, e.g. after the run); returns the phase it left, to come back to."""
        now = self._now()
        left = self.phase
        if left is not None:
            self._spent[left] = self.spent(left, now)
        self.phase, self._since = phase, now
        return left

    def spent(self, phase: str, now: float | None = None) -> float:
        """Seconds the run has spent in `phase` so far."""
        seconds = self._spent.get(phase, 0.0)
        if phase == self.phase:
            seconds += (self._now() if now is None else now) - self._since
        return seconds

    def step(self, phase: str | None = None) -> None:
        """A step of `phase` (default: the current one) has finished."""
        phase = phase or self.phase
        if phase is None:
            return
        self.steps[phase] = self.steps.get(phase, 0) + 1
        self._at_step[phase] = self.spent(phase)

    def step_seconds(self, phase: str) -> float | None:
        """The mean time of a finished step of `phase`; None before its first."""
        done = self.steps.get(phase, 0)
        return self._at_step[phase] / done if done else None

    def left(self, phase: str, total: int) -> float | None:
        """Time left in `phase` of `total` steps: its mean step time times its steps left, less the time since its
        latest step ended (it counts down within a step); 0 when all are done, None before its first step."""
        done = self.steps.get(phase, 0)
        if done >= total:
            return 0.0
        per_step = self.step_seconds(phase)
        if per_step is None:
            return None
        since = self.spent(phase) - self._at_step[phase]
        return max(0.0, per_step * (total - done) - since)


def run_eta(clock: PhaseClock, *, warmup_steps: int, max_steps: int, evals: int) -> tuple[float | None, float | None]:
    """(time left in the current phase, time left in the run). Each is None while a step time it needs is unknown:
    the run's before its first GRPO step, the phase's before that phase's first step."""
    parts = {
        "warmup": clock.left("warmup", warmup_steps) if warmup_steps else 0.0,
        "grpo": clock.left("grpo", max_steps),
        "eval": clock.left("eval", evals) if evals else 0.0,
    }
    phase = parts.get(clock.phase) if clock.phase in parts else None
    known = [v for v in parts.values() if v is not None]
    total = sum(known) if len(known) == len(parts) else None
    return phase, total if total is None or math.isfinite(total) else None


def whole_run(
    *,
    status: str,
    elapsed: float,
    eta: float | None,
    reference_s: float | None = None,
    warmup_step: int = 0,
    warmup_steps: int = 0,
    step: int = 0,
    max_steps: int = 1,
) -> tuple[float | None, float]:
    """(the whole run's time left, the share of the whole run done), whatever phase it is in: the warm-up, the
    evals and GRPO together, so that neither number starts again when a phase ends.

    `elapsed` is the run's wall time so far (every piece of a continued run); `eta` the run's own time left once its
    step times tell it (`run_eta`'s second value); before that, `reference_s` (the wall time of the lesson reference
    run it repeats) less `elapsed`. The share done is the time spent over the time spent and left while the time left
    is known; else the steps done (warm-up and GRPO) over all of them. A run that is not going has no time left, and a
    finished one is done.

    >>> whole_run(status="running", elapsed=60.0, eta=None, reference_s=300.0, warmup_step=5, warmup_steps=20)
    (240.0, 0.2)
    >>> whole_run(status="running", elapsed=150.0, eta=50.0, step=15, max_steps=20)
    (50.0, 0.75)
    """
    going = status in ("loading", "running")
    left = eta if going else None
    if going and left is None and reference_s and reference_s > elapsed:
        left = reference_s - elapsed
    if status == "finished":
        return None, 1.0
    if left is not None and elapsed + left > 0:
        return left, min(1.0, max(0.0, elapsed / (elapsed + left)))
    total = max(1, int(warmup_steps or 0) + int(max_steps or 0))
    return left, min(1.0, max(0.0, (int(warmup_step or 0) + int(step or 0)) / total))
