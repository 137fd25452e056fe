"""A run trained in chunks of steps, each chunk one GPU call that continues from the previous chunk's checkpoint.

A ZeroGPU Space lends its GPU only inside `@spaces.GPU(duration=...)` calls of bounded length (`runtime.zerogpu`).
`ChunkedJob` trains a run as a series of such calls: each (`gpu_chunk.train_chunk`) builds the trainer, continues from
the run's last checkpoint (the whole training state, `playground.training.checkpoint`), trains until its `stop_at`
step, saves, and returns. The first chunk takes `FIRST_CHUNK_STEPS` steps; the next ones as many as fit in one call's
budget (`PLAYGROUND_GPU_SECONDS`) at the step and load times measured so far, and the call's duration is sized from
them. A run in chunks takes the same steps as a run in one piece (tests/playground/training/test_chunks.py).

The page shows one run: this job reads the run folder the chunks write (status.json, metrics.jsonl), as the
accelerate watcher does (`LaunchedJob`), and Stop is the same stop file, read by the chunk at each step's end.
`PLAYGROUND_CHUNK_STEPS` forces a chunk boundary every that many steps (off a Space too, where each chunk is a plain
call: `spaces.GPU` is a no-op there).
"""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path

from playground.runtime.zerogpu import gpu_call, on_zerogpu
from playground.settings import current
from playground.spec import RunSpec
from playground.texts import msg
from playground.training.checkpoint import checkpoint_step, last_checkpoint
from playground.training.launcher import POLL_SECONDS, STOP_FILE, LaunchedJob
from playground.training.progress import eval_points, run_eta
from playground.training.store import Run


logger = logging.getLogger(__name__)

FIRST_CHUNK_STEPS = 2  # before a step was timed
MARGIN = 1.25  # a call is asked for this much more time than the measured times say it takes


def chunked() -> bool:
    """Whether this process trains runs in chunks: on ZeroGPU, or when a chunk size is forced."""
    return on_zerogpu() or current().chunk_steps is not None


def plan_chunk(step_seconds: float | None, load_seconds: float, budget: float) -> tuple[int, float]:
    """(steps, duration in seconds) of the next chunk: as many steps as fit in `budget` at the measured times, and
    the call's duration for them; `FIRST_CHUNK_STEPS` and the whole budget before a step was timed."""
    forced = current().chunk_steps or 0  # `PLAYGROUND_CHUNK_STEPS`: a chunk boundary every this many steps
    if step_seconds is None:
        return forced or FIRST_CHUNK_STEPS, budget
    steps = forced or max(1, int((budget / MARGIN - load_seconds) / step_seconds))
    return steps, min(budget, MARGIN * (load_seconds + steps * step_seconds))


class ChunkedJob(LaunchedJob):
    """One run in chunks (module docstring). `start()` returns at once; poll `snapshot()`."""

    def __init__(
        self,
        spec: RunSpec,
        run: Run,
        owner: str | None = None,
        custom_rewards: dict | None = None,
        resume_from: str | Path | None = None,
    ):
        super().__init__(spec, run, owner=owner)
        self.resume_from = Path(resume_from) if resume_from is not None else None
        self.start_step = checkpoint_step(self.resume_from) if self.resume_from is not None else 0
        self.chunks = 0
        self._outcome: dict | None = None
        self._evals_before = 0
        self._runner = threading.Thread(target=self._train, name=f"chunks-{run.id}", daemon=True)

    def start(self) -> ChunkedJob:
        self.started_at = time.time()
        (self.run.path / STOP_FILE).unlink(missing_ok=True)  # a stopped run's, now continued
        if self.resume_from is not None:  # the rows past the checkpoint go now, so the watcher reads only new rows
            from playground.training.evaluation import EVAL_SAMPLES

            self.run.truncate(self.start_step, others=(EVAL_SAMPLES,))
            self.step = self.start_step
        rows = self.run.metrics()
        self._rows_seen, self._evals_before = len(rows), sum(r.get("phase") == "eval" for r in rows)
        self.write(status="loading", step=self.step, max_steps=self.max_steps)
        self._runner.start()
        self._thread.start()
        return self

    def eta(self, elapsed: float, since_step: float) -> tuple[float | None, float | None]:
        """As the thread job's: this process's clock counts what is left from where this job started."""
        g = self.spec.grpo
        evals = eval_points(self.max_steps, g.eval_every, bool(g.sft_warmup_steps)) - self._evals_before
        warmup = 0 if self.resume_from is not None else g.sft_warmup_steps
        left = self.max_steps - self.start_step
        return run_eta(self.clock, warmup_steps=warmup, max_steps=left, evals=max(0, evals))

    def _train(self) -> None:
        budget = current().gpu_seconds  # one GPU call's budget (ZeroGPU's `duration`)
        checkpoint = self.resume_from
        step_seconds, load_seconds = None, 0.0
        try:
            while True:
                step = checkpoint_step(checkpoint) if checkpoint is not None else 0
                steps, duration = plan_chunk(step_seconds, load_seconds, budget)
                stop_at = min(self.max_steps, step + steps)
                started = time.monotonic()
                arg = str(checkpoint) if checkpoint is not None else None
                outcome = gpu_call(
                    "playground.training.gpu_chunk:train_chunk", str(self.run.path), arg, stop_at, duration=duration
                )
                self.chunks += 1
                took, done = time.monotonic() - started, outcome["step"] - step
                logger.info(
                    "Run %s: chunk %d, steps %d-%d in %.1f s", self.run.id, self.chunks, step + 1, stop_at, took
                )
                if done > 0:
                    step_seconds = self._step_seconds(step) or took / done
                    load_seconds = max(0.0, took - done * step_seconds)
                if outcome["status"] != "running" or done <= 0 or (self.run.path / STOP_FILE).exists():
                    self._outcome = outcome
                    return
                checkpoint = last_checkpoint(self.run.path)
                self.write(status="running", step=outcome["step"])  # between chunks: this process holds the run
        except Exception as exc:  # the GPU call failed (e.g. a ZeroGPU quota): the run records why
            logger.exception("Run %s: a chunk failed", self.run.id)
            self._outcome = {
                "status": "failed",
                "error": msg("job.failed_with", error=type(exc).__name__, detail=str(exc)[:450]),
            }

    def _step_seconds(self, after: int) -> float | None:
        """The mean `step_time` TRL logged for the steps after `after`."""
        times = [
            r["step_time"]
            for r in self.run.metrics()
            if r.get("phase") == "grpo" and isinstance(r.get("step_time"), int | float) and r.get("step", 0) > after
        ]
        return sum(times) / len(times) if times else None

    def _watch(self) -> None:
        while self._runner.is_alive():
            self.poll()
            time.sleep(POLL_SECONDS)
        self.poll()
        outcome = self._outcome or {
            "status": "failed",
            "error": msg("job.processes_exited", count=1, code=1, detail="no outcome"),
        }
        if outcome["status"] == "running":  # stopped between two chunks
            outcome = {"status": "stopped", "step": outcome.get("step")}
        if outcome["status"] == "failed" and outcome.get("error") and self.loaded.get("status") != "failed":
            self.error = outcome["error"]
            self.write(status="failed", error=self.error)
        elif outcome["status"] == "stopped":
            # the chunk's own step count: the last poll may not have read the chunk's last step yet; and a chunk that
            # saw the stop before its first step wrote "stopped" with no step of its own: the run's steps are this
            # job's (every chunk before it finished and checkpointed them)
            self.step = max(self.step, outcome.get("step") or 0)
            if self.loaded.get("status") != "stopped" or int(self.loaded.get("step") or 0) < self.step:
                self.write(status="stopped", step=self.step)
        self.status = outcome["status"]
