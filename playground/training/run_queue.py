"""The run queue: `JobManager` runs one job at a time per process, and in public mode queues the others, fairly and
within caps.

Outside public mode a start while a run goes is refused. In public mode (a Space) strangers share one machine that
trains one run at a time. A start while a run goes joins a FIFO queue (at most one queued run per browser and per
client address, `max_queued` in all) instead of being refused, and each run is held to caps that keep one visitor from
holding the machine: steps, wall time, the tokens one step generates (and each held-out eval and the warm-up's
examples), the LoRA rank, custom reward functions, and the reward time a step may take (custom functions × the
sandbox's per-call timeout). Each cap reads an environment variable. The queue is saved in the runs folder, so it
outlives the app process.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from playground.admission import Caps
from playground.errors import PlaygroundError
from playground.spec import RunSpec
from playground.texts import msg
from playground.training import retention
from playground.training.checkpoint import checkpoint_step
from playground.training.store import ACTIVE, SPEC, Run, RunStore
from playground.validation import validate_spec


if TYPE_CHECKING:
    from playground.training.job import TrainingJob


logger = logging.getLogger(__name__)

INTERRUPT_GRACE_SECONDS = 5.0  # after the wall time, how long a step may take to end before it is interrupted


@dataclass(frozen=True)
class PublicCaps(Caps):
    """Limits on one run in public mode: the run fields of the admission gate's one table (`playground.admission.Caps`:
    `max_steps`, `max_minutes`, `max_custom_functions`, `max_reward_seconds`, `max_queued`, `max_step_tokens`,
    `max_lora_r`, `max_queued_per_address`, each read from its `PLAYGROUND_MAX_*` variable by `from_env`)."""

    def check(self, spec: RunSpec, custom_names: list[str], call_timeout: float) -> None:
        """Refuse a run over a cap, with a message that names the cap, its variable and the value asked for."""
        steps = spec.grpo.max_steps
        if steps > self.max_steps:
            raise PlaygroundError("public.max_steps", cap=self.max_steps, steps=steps)
        if len(custom_names) > self.max_custom_functions:
            raise PlaygroundError(
                "public.custom_functions",
                cap=self.max_custom_functions,
                count=len(custom_names),
                names=", ".join(custom_names),
            )
        seconds = len(custom_names) * call_timeout
        if seconds > self.max_reward_seconds:
            raise PlaygroundError(
                "public.reward_seconds",
                cap=self.max_reward_seconds,
                count=len(custom_names),
                timeout=call_timeout,
                seconds=seconds,
            )
        self.check_size(spec)

    def check_size(self, spec: RunSpec) -> None:
        """The tokens a step, an eval and the warm-up generate, the warm-up's steps and the LoRA rank."""
        g = spec.grpo
        length = ("max_completion_length", g.max_completion_length)
        completions = max(spec.generation_batch_size(), spec.completions_per_step())
        sizes = [(msg("public.tokens.step"), msg("public.count.completions", n=completions), completions, length)]
        if g.eval_every:
            cap_name = "eval_max_completion_length" if g.eval_max_completion_length else "max_completion_length"
            sizes.append(
                (
                    msg("public.tokens.eval"),
                    msg("public.count.eval", prompts=g.eval_prompts, g=g.eval_num_generations),
                    g.eval_prompts * g.eval_num_generations,
                    (cap_name, spec.eval_completion_length()),
                )
            )
        if g.sft_warmup_steps and g.sft_examples.strip() == "auto":
            examples = msg("public.count.examples", n=g.sft_num_examples)
            sizes.append((msg("public.tokens.warmup"), examples, g.sft_num_examples, length))
        for what, count, n, (cap_name, tokens_each) in sizes:
            if n * tokens_each > self.max_step_tokens:
                raise PlaygroundError(
                    "public.step_tokens",
                    what=what,
                    cap=self.max_step_tokens,
                    count=count,
                    cap_name=cap_name,
                    length=tokens_each,
                    tokens=n * tokens_each,
                )
        if g.sft_warmup_steps > self.max_steps:
            raise PlaygroundError("public.warmup_steps", cap=self.max_steps, steps=g.sft_warmup_steps)
        if spec.lora.lora_r > self.max_lora_r:
            raise PlaygroundError("public.lora_r", cap=self.max_lora_r, value=spec.lora.lora_r)


def custom_reward_names(spec: RunSpec, custom_rewards: dict | None) -> list[str]:
    """The spec's rewards that are not library rewards: sandboxed custom code."""
    import rewards  # noqa: F401  (fills the registry)
    from rewards.registry import REGISTRY

    names = [choice.name for choice in spec.rewards if choice.name not in REGISTRY]
    return sorted(set(names) | set(custom_rewards or ()))


@dataclass
class Waiting:
    """One queued start: what `JobManager.start` was given, kept until the machine is free."""

    spec: RunSpec
    owner: str | None  # the browser's owner key (training/access.py)
    custom_rewards: dict | None
    address: str | None = None  # the client's address, as the web server saw it
    queued_at: float = field(default_factory=time.time)
    run: Run | None = None  # a run to continue (its folder), else None: a new run folder
    resume_from: Path | None = None  # the checkpoint of `run` it continues from


QUEUE_FILE = ".queue.json"  # in the runs folder (hidden entries are not runs): the queue outlives the app process


def save_queue(root: Path, waiting: list[Waiting]) -> None:
    """Write the queue to the runs folder, atomically. A start with compiled rewards cannot be written; it is left
    out (the app's own starts carry their code in the spec)."""
    from playground.training.files import dumps, write_atomic

    entries = [
        {
            "spec": w.spec.to_dict(),
            "owner": w.owner,
            "address": w.address,
            "queued_at": w.queued_at,
            "run": w.run.id if w.run is not None else None,
            "resume_from": str(w.resume_from) if w.resume_from is not None else None,
        }
        for w in waiting
        if not w.custom_rewards
    ]
    root.mkdir(parents=True, exist_ok=True)
    write_atomic(root / QUEUE_FILE, dumps(entries, indent=2))


def load_queue(store) -> list[Waiting]:
    """The queue a previous app process left in the store's folder; an entry that no longer reads is skipped."""
    import json
    import logging

    path = store.root / QUEUE_FILE
    try:
        entries = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return []
    except (OSError, ValueError) as exc:
        logging.getLogger(__name__).warning("The saved queue is unreadable (%s); starting with an empty queue", exc)
        return []
    waiting = []
    for entry in entries if isinstance(entries, list) else []:
        try:
            run = store.get(entry["run"]) if entry.get("run") else None
            resume = Path(entry["resume_from"]) if entry.get("resume_from") else None
            spec = RunSpec.from_dict(entry["spec"])
            owner, address = entry.get("owner"), entry.get("address")
            waiting.append(Waiting(spec, owner, None, address, entry["queued_at"], run=run, resume_from=resume))
        except (KeyError, TypeError, ValueError, PlaygroundError) as exc:
            logging.getLogger(__name__).warning("Skipping a saved queue entry: %s", exc)
    return waiting


def estimate_wait(
    current: dict[str, Any] | None, ahead: list[RunSpec], seconds_per_step: float | None
) -> float | None:
    """Seconds until a run behind `ahead` starts: the current run's ETA, then each queued run's steps at the current
    pace (seconds per step of the run going now, or of the last run). None while no pace is known."""
    if seconds_per_step is None:
        return None
    wait = 0.0
    if current is not None:
        remaining = current.get("eta")
        if remaining is None:
            remaining = max(int(current.get("max_steps") or 0) - int(current.get("step") or 0), 0) * seconds_per_step
        wait += float(remaining)
    return wait + sum(spec.grpo.max_steps for spec in ahead) * seconds_per_step


def _backend(spec: RunSpec, custom_rewards: dict | None = None):
    """This process's thread for one process (in chunks of GPU calls on ZeroGPU); `accelerate launch` in a
    subprocess for several."""
    from playground.training.chunks import chunked

    if spec.model.num_processes == 1 and not chunked():
        from playground.training.job import TrainingJob

        return TrainingJob
    if custom_rewards:
        raise PlaygroundError("job.compiled_rewards")
    if spec.model.num_processes == 1:
        from playground.training.chunks import ChunkedJob

        return ChunkedJob
    from playground.training.launcher import LaunchedJob

    return LaunchedJob


class JobManager:
    """At most one active job per process. Shared by all sessions; guarded by a lock.

    Outside public mode a start while a run goes is refused. In public mode (`public=True`) it joins a FIFO queue
    instead, at most one queued run per owner, and each run is held to `caps` (above): the
    next queued run starts when the current one ends, and a run past its wall time is stopped.
    """

    def __init__(
        self,
        store: RunStore,
        public: bool = False,
        caps: PublicCaps | None = None,
        uploaded: Callable[[str], int] | None = None,
    ):
        self.store = store
        self.public = public
        self.caps = caps or (PublicCaps.from_env() if public else PublicCaps())
        self.uploaded = uploaded  # bytes a browser's uploads hold (its owner key), for the disk quota
        self._lock = threading.Lock()
        self.current: TrainingJob | None = None
        self.waiting: list[Waiting] = []
        self.last_pace: float | None = None  # seconds per step of the last run that took a step
        if public:  # the queue a previous app process left: it goes on where it stopped
            threading.Thread(target=self._sweep, name="run-retention", daemon=True).start()
            self.waiting = load_queue(store)
            with self._lock:
                self._start_next()

    def start(
        self,
        spec: RunSpec,
        owner: str | None = None,
        custom_rewards: dict | None = None,
        address: str | None = None,
    ) -> TrainingJob | None:
        """Start a run now; in public mode, queue it while another goes (returns None then: see `position`).

        `owner` is the browser's owner key (training/access.py), `address` the client's address: in public mode each
        may have one run waiting."""
        # The fast checks, before a run folder exists (custom_rewards=None: the names in spec.custom_code, by parsing).
        validate_spec(spec, custom_rewards=set(custom_rewards) if custom_rewards else None)
        if self.public:
            from playground.sandbox.settings import code_policy

            self.caps.check(spec, custom_reward_names(spec, custom_rewards), code_policy(True).limits.timeout)
            self._check_disk(owner)
        with self._lock:
            job = self.current
            if job is not None and job.active:
                if not self.public:
                    raise PlaygroundError("job.in_progress", run=job.run.id, step=job.step, total=job.max_steps)
                return self._enqueue(Waiting(spec, owner, custom_rewards, address))
            return self._launch(Waiting(spec, owner, custom_rewards, address))

    def resume(
        self,
        target: str,
        owner: str | None = None,
        max_steps: int | None = None,
        address: str | None = None,
    ) -> TrainingJob | None:
        """Continue a run from its last checkpoint, in the same run folder: a run id, or (outside public mode) a run
        folder or a checkpoint folder. A run that ended before its first checkpoint starts over in its folder; a
        finished run needs one. `max_steps` trains a run further than its spec's. In public mode only the run's
        owner may continue it, and it is queued and capped like a new run (returns None when queued)."""
        run, checkpoint = self._checkpoint_of(target)
        status = run.status()
        if status.get("status") in ACTIVE:
            raise PlaygroundError("job.continue_active", run=run.id, status=status["status"])
        if self.public and (owner is None or status.get("owner") != owner):
            raise PlaygroundError("job.not_owner_continue")
        spec = RunSpec.from_dict(run.spec())
        if max_steps is not None:
            spec.grpo.max_steps = int(max_steps)
        if spec.model.num_processes > 1:
            raise PlaygroundError("job.continue_processes")
        if checkpoint is None and status.get("status") == "finished":
            raise PlaygroundError("job.no_checkpoint", run=run.id)
        step = checkpoint_step(checkpoint) if checkpoint is not None else 0  # none yet: it starts over, in its folder
        if step >= spec.grpo.max_steps:
            raise PlaygroundError("job.continue_done", run=run.id, step=step, total=spec.grpo.max_steps)
        validate_spec(spec)
        if self.public:
            from playground.sandbox.settings import code_policy

            self.caps.check(spec, custom_reward_names(spec, None), code_policy(True).limits.timeout)
            self._check_disk(owner)
        waiting = Waiting(spec, owner, None, address, run=run, resume_from=checkpoint)
        with self._lock:
            job = self.current
            if job is not None and job.active:
                if not self.public:
                    raise PlaygroundError("job.in_progress", run=job.run.id, step=job.step, total=job.max_steps)
                return self._enqueue(waiting)
            return self._launch(waiting)

    def _checkpoint_of(self, target: str) -> tuple[Run, Path | None]:
        """The run and the checkpoint to continue from: a checkpoint folder's own, else the run's newest."""
        from playground.training.checkpoint import TRAINER_STATE, last_checkpoint

        path = Path(target).expanduser()
        if not self.public and (path / TRAINER_STATE).is_file():
            return Run(path.resolve().parent.parent), path.resolve()
        run = Run(path) if not self.public and (path / SPEC).is_file() else self.store.get(target)
        return run, last_checkpoint(run.path)

    def _enqueue(self, waiting: Waiting) -> None:
        if waiting.owner is None:
            raise PlaygroundError("job.queue_session")
        mine = [i for i, w in enumerate(self.waiting) if w.owner == waiting.owner]
        if mine:
            raise PlaygroundError("job.queued_already", position=mine[0] + 1)
        here = [w for w in self.waiting if waiting.address is not None and w.address == waiting.address]
        if len(here) >= self.caps.max_queued_per_address:
            raise PlaygroundError("job.queued_address", count=len(here), cap=self.caps.max_queued_per_address)
        if len(self.waiting) >= self.caps.max_queued:
            raise PlaygroundError("job.queue_full", count=self.caps.max_queued)
        self.waiting.append(waiting)
        save_queue(self.store.root, self.waiting)
        logger.info("Queued a run (position %d)", len(self.waiting))
        return None

    def _launch(self, waiting: Waiting) -> TrainingJob:
        """Create the run folder and start the job (the lock is held)."""
        backend = _backend(waiting.spec, waiting.custom_rewards)
        if waiting.run is not None:  # a run continued: its folder, its spec (max_steps may be new)
            run = waiting.run
            run.write_spec(waiting.spec.to_dict())
            resume = {"resume_from": waiting.resume_from}
            if waiting.resume_from is None:  # no checkpoint: it starts over, so its rows go
                from playground.training.evaluation import EVAL_SAMPLES

                run.truncate(-1, others=(EVAL_SAMPLES,), warmup=False)
        else:
            run, resume = self.store.create(waiting.spec.to_dict(), owner=waiting.owner), {}
        job = backend(waiting.spec, run, owner=waiting.owner, custom_rewards=waiting.custom_rewards, **resume).start()
        self.current = job
        if self.public:
            threading.Thread(target=self._after, args=(job,), name=f"queue-{run.id}", daemon=True).start()
        return job

    def _after(self, job: TrainingJob) -> None:
        """Public mode: stop `job` at its wall time, then start the next queued run."""
        job.join(self.caps.max_minutes * 60)
        if job.active:
            logger.warning("Run %s reached the public wall-time limit; stopping it", job.run.id)
            job.write(wall_time_error=msg("job.wall_time", minutes=self.caps.max_minutes))
            job.stop()
            job.join(INTERRUPT_GRACE_SECONDS)
            if job.active and hasattr(job, "interrupt"):  # the step is still going: end it where it is
                job.interrupt()
            job.join()
        if job.step and job.started_at:
            self.last_pace = (time.time() - job.started_at) / job.step
        try:
            retention.thin_checkpoints(job.run.path)  # Continue needs the newest checkpoint only
            retention.expire_runs(self.store, self.caps.run_retention_hours)
        except Exception:  # the disk is tidied at the next run's end or sweep; the queue goes on
            logger.exception("Tidying up after run %s failed", job.run.id)
        with self._lock:
            self._start_next()

    def _check_disk(self, owner: str | None) -> None:
        """Public mode, before a run is queued: expired runs go, then the disk and the visitor's quota are checked."""
        retention.expire_runs(self.store, self.caps.run_retention_hours)
        retention.check_disk(self.store, owner, self.caps, self.uploaded)

    def _sweep(self) -> None:
        """Public mode: expired runs are deleted every `SWEEP_SECONDS`, Starts or not."""
        while True:
            try:
                retention.expire_runs(self.store, self.caps.run_retention_hours)
            except Exception:  # a sweep that failed is tried again later; the app goes on
                logger.exception("Expiring runs failed")
            time.sleep(retention.SWEEP_SECONDS)

    def _start_next(self) -> None:
        """Start the first queued run that starts, if the machine is free (the lock is held)."""
        while self.waiting and (self.current is None or not self.current.active):
            waiting = self.waiting.pop(0)
            save_queue(self.store.root, self.waiting)
            try:
                self._launch(waiting)
            except Exception as exc:  # its spec was checked when queued; a failure here must not stall the queue
                logger.error("A queued run could not start: %s", exc)

    def position(self, owner: str | None) -> dict[str, Any] | None:
        """The owner's queued run: {"position": 1-based, "waiting": total, "eta": seconds or None}, or None."""
        with self._lock:
            index = next((i for i, w in enumerate(self.waiting) if owner is not None and w.owner == owner), None)
            if index is None:
                return None
            job = self.current
            snap = job.snapshot() if job is not None and job.active else None
            pace = self.last_pace
            if snap and snap.get("step") and snap.get("elapsed"):
                pace = snap["elapsed"] / snap["step"]
            ahead = [w.spec for w in self.waiting[:index]]
            return {"position": index + 1, "waiting": len(self.waiting), "eta": estimate_wait(snap, ahead, pace)}

    def cancel(self, owner: str | None) -> Waiting:
        """Remove the owner's queued run (before it starts; a started run is stopped with `stop`)."""
        with self._lock:
            for i, waiting in enumerate(self.waiting):
                if owner is not None and waiting.owner == owner:
                    self.waiting.pop(i)
                    save_queue(self.store.root, self.waiting)
                    return waiting
        raise PlaygroundError("job.not_queued")

    def stop(self, owner: str | None = None) -> TrainingJob:
        with self._lock:
            job = self.current
            if job is None or not job.active:
                raise PlaygroundError("job.none_running")
            if job.owner is not None and owner != job.owner:
                raise PlaygroundError("job.not_owner")
            job.stop()
            return job

    def active_job(self) -> TrainingJob | None:
        job = self.current
        return job if job is not None and job.active else None
