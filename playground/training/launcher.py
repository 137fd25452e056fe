"""The second job backend: a run spec trained by N processes under `accelerate launch`, watched from this process.

`LaunchedJob` has the thread job's interface (`start`, `stop`, `join`, `active`, `snapshot`, `listeners`), so the
Train tab, the CLI and `JobManager` treat both alike. The processes run `playground.training.rank`, which builds the
thread job's own trainer from the run's spec.json; rank 0 writes the same run folder (status.json, metrics.jsonl,
samples.jsonl, adapter/) and this process only reads it:

- progress, listeners: new rows of metrics.jsonl and the status rank 0 writes, polled every `POLL_SECONDS`;
- time left: the phases rank 0 reports (GRPO steps, held-out evals) timed apart by a `PhaseClock` here, as the thread
  job times its own, so loading and evals do not count as GRPO step time;
- Stop: the file `stop` in the run folder; the ranks agree on it at the next step end and save the adapter;
- output of every rank goes to `launch.log` in the run folder; when the processes die without a final status, the run
  is marked failed with the log's last lines, as a failure in the thread is marked with its traceback.

On a CPU the processes talk over gloo (accelerate's `--multi_gpu` launcher is the one that starts several processes;
with `use_cpu` each becomes a CPU rank), on GPUs over NCCL, one process per GPU.
"""

from __future__ import annotations

import logging
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import playground
from playground.spec import RunSpec
from playground.texts import msg
from playground.training.progress import PhaseClock, eval_points, run_eta
from playground.training.state import JobState
from playground.training.store import ACTIVE, FINAL, Run


logger = logging.getLogger(__name__)

STOP_FILE = "stop"
LOG_FILE = "launch.log"
POLL_SECONDS = 0.5
LOG_TAIL_LINES = 15
# After rank 0 wrote a final status; a rank can hang in gloo's teardown (seen with TRL's trainer.end() on CPU).
EXIT_GRACE_SECONDS = 30


def batch_summary(spec: RunSpec) -> str:
    """The global batch in words, e.g. '8 completions per step = 4 per process × 2 processes × 1 accumulation
    (2 groups of num_generations=4)'."""
    g, n = spec.grpo, spec.model.num_processes
    total = spec.completions_per_step()
    groups = total / g.num_generations
    return (
        f"{total} completions per step = {g.per_device_train_batch_size} per process × {n} "
        f"process{'es' if n != 1 else ''} × {g.gradient_accumulation_steps} accumulation "
        f"({groups:g} group{'s' if groups != 1 else ''} of num_generations={g.num_generations})"
    )


def launch_command(run: Run, num_processes: int, config_file: str | Path | None = None) -> list[str]:
    """`accelerate launch` of `playground.training.rank` for `run`, with a free port of this machine."""
    cmd = [sys.executable, "-m", "accelerate.commands.launch", "--num_machines", "1", "--dynamo_backend", "no"]
    if config_file is not None:
        cmd += ["--config_file", str(config_file)]
    else:
        cmd += ["--mixed_precision", "no"]
        if num_processes > 1:
            cmd.append("--multi_gpu")  # accelerate's multi-process launcher; CPU ranks use gloo (see module doc)
    cmd += ["--num_processes", str(num_processes), "--main_process_port", str(free_port())]
    return [*cmd, "-m", "playground.training.rank", str(run.path)]


def launch_env(num_processes: int) -> dict[str, str]:
    """The ranks' environment: this checkout importable, and the CPU cores shared out between the processes."""
    env = dict(os.environ)
    root = str(Path(playground.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    env.setdefault("OMP_NUM_THREADS", str(max(1, (os.cpu_count() or 1) // num_processes)))
    env.setdefault("TOKENIZERS_PARALLELISM", "false")
    return env


def descendants(pid: int) -> list[int]:
    """The processes below `pid`, children first (from /proc; empty where there is none)."""
    children: dict[int, list[int]] = {}
    try:
        entries = [e.name for e in os.scandir("/proc") if e.name.isdigit()]
    except OSError:
        return []
    for name in entries:
        try:
            stat = Path(f"/proc/{name}/stat").read_text()
        except OSError:
            continue
        children.setdefault(int(stat[stat.rindex(")") + 2 :].split()[1]), []).append(int(name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def kill_tree(pid: int) -> None:
    """SIGKILL the process group `pid` leads and every process below it. The launcher's ranks are not in its group:
    torch's elastic agent starts each rank in a session of its own, so killing the group alone would orphan them."""
    below = descendants(pid)
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    for child in below:
        try:
            os.kill(child, signal.SIGKILL)
        except ProcessLookupError:
            pass


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LaunchedJob(JobState):
    """One run in `spec.model.num_processes` processes. `start()` returns at once; poll `snapshot()`.

    Rank 0 writes the run's status.json (as the thread job does); this job reads it back into the same fields.
    """

    def __init__(
        self,
        spec: RunSpec,
        run: Run,
        owner: str | None = None,
        custom_rewards: dict | None = None,
        config_file: str | Path | None = None,
    ):
        self.init_state(
            spec,
            run,
            owner,
            num_processes=spec.model.num_processes,
            completions_per_step=spec.completions_per_step(),
        )
        self.custom_rewards: dict = {}  # the ranks compile spec.custom_code themselves (JobManager refuses others)
        self.num_processes = spec.model.num_processes
        self.config_file = config_file
        self.process: subprocess.Popen | None = None
        self._stop_asked = False
        self._rows_seen = 0
        self._evals_seen = 0  # eval rows read: the held-out eval points done
        self.clock = PhaseClock()  # each phase's own step times, from what rank 0 reports (`_time_phases`)
        self._thread = threading.Thread(target=self._watch, name=f"launch-{run.id}", daemon=True)

    # --- control ---------------------------------------------------------------------------------------------------

    def start(self) -> LaunchedJob:
        self.started_at = time.time()
        cmd = launch_command(self.run, self.num_processes, self.config_file)
        logger.info("Run %s: %s; %s", self.run.id, " ".join(cmd), batch_summary(self.spec))
        with open(self.run.path / LOG_FILE, "ab") as log:
            # A session of its own: Ctrl-C in a terminal reaches this process, which asks the ranks to stop.
            self.process = subprocess.Popen(
                cmd, stdout=log, stderr=subprocess.STDOUT, env=launch_env(self.num_processes), start_new_session=True
            )
        self.write(status="loading", pid=self.process.pid)
        self._thread.start()
        return self

    def stop(self) -> None:
        if not self.active:
            return
        self._stop_asked = True
        (self.run.path / STOP_FILE).touch()  # read by rank 0 (or a chunk) at each step's end
        own = self.process.pid if self.process is not None else os.getpid()  # a chunked run has no launcher process
        self.write(status="stopping", pid=self.loaded.get("pid") or own)

    def join(self, timeout: float | None = None) -> None:
        self._thread.join(timeout)

    def eta(self, elapsed: float, since_step: float) -> tuple[float | None, float | None]:
        """(the current phase's time left, the run's): each phase by its own step times, as the thread job's."""
        g = self.spec.grpo
        evals = eval_points(self.max_steps, g.eval_every, bool(g.sft_warmup_steps))
        return run_eta(self.clock, warmup_steps=g.sft_warmup_steps, max_steps=self.max_steps, evals=evals)

    # --- watcher thread --------------------------------------------------------------------------------------------

    def _watch(self) -> None:
        done_at = None
        while True:
            code = self.process.poll()
            self.poll()
            if code is not None:
                break
            if self.loaded.get("status") in FINAL:
                done_at = done_at or time.monotonic()
                if time.monotonic() - done_at > EXIT_GRACE_SECONDS:
                    # Rank 0 saved and reported; a rank stuck on its way out must not hold the run open.
                    logger.warning("Run %s: the processes did not exit after the run ended; ending them.", self.run.id)
                    kill_tree(self.process.pid)
            time.sleep(POLL_SECONDS)
        self._finish(code)

    def poll(self) -> None:
        """Read what rank 0 wrote since the last poll, and time the phases by it."""
        step, warmup_step, evals = self.step, self.warmup_step or 0, self._evals_seen
        self._read_status()
        self._read_metrics()
        self._time_phases(step, warmup_step, evals)

    def _time_phases(self, step: int, warmup_step: int, evals: int) -> None:
        """Mark the steps finished since the last poll (GRPO steps, warm-up steps, eval points: an eval row is one
        point), then switch the clock to the phase rank 0 is in now (none once the run has ended)."""
        for _ in range(self.step - step):
            self.clock.step("grpo")
        for _ in range((self.warmup_step or 0) - warmup_step):
            self.clock.step("warmup")
        for _ in range(self._evals_seen - evals):
            self.clock.step("eval")
        phase = self.phase if self.loaded.get("status") in ("loading", "running") else None
        if phase != self.clock.phase:
            self.clock.enter(phase)

    def _read_status(self) -> None:
        status = self.run._read_status()
        if not status:
            return
        self.load(status)
        if status.get("status") in ACTIVE:
            # status.json may still say running for a moment after Stop (rank 0 rewrote it): Stop was asked.
            self.status = "stopping" if self._stop_asked else status["status"]

    def _read_metrics(self) -> None:
        rows = self.run.metrics()
        for row in rows[self._rows_seen :]:
            if row.get("phase") == "grpo" and isinstance(row.get("step"), int) and row["step"] > self.step:
                # Rank 0 appends a step's row before it rewrites status.json: the row already says the step is done.
                self.step, self.step_at = row["step"], time.time()
            self._evals_seen += row.get("phase") == "eval"
            for listener in list(self.listeners):
                listener(row)
        self._rows_seen = max(self._rows_seen, len(rows))

    def _finish(self, code: int) -> None:
        status = self.loaded.get("status")
        if status in FINAL and status != "interrupted":  # interrupted: a reader saw rank 0 gone; say why below
            self.status = status
            return
        error, lines = crash_report(log_tail(self.run.path / LOG_FILE))
        self.error = msg("job.processes_exited", count=self.num_processes, code=code, detail=str(error)[:420])
        logger.error("Run %s failed: %s", self.run.id, self.error)
        self.write(status="failed", error=self.error, traceback="\n".join(lines))


# An exception's last line, e.g. "playground.errors.PlaygroundError: ..." or "torch.OutOfMemoryError: ...".
ERROR_LINE = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|Interrupt|Exit)\b(:.*)?$")
LAUNCHER_SUMMARY = "torch.distributed.elastic"  # torch's launcher repeats that a child failed, after the child's own


def crash_report(lines: list[str]) -> tuple[str, list[str]]:
    """(the error line, the `LOG_TAIL_LINES` lines ending with it) of a failed launch's log: the rank's own exception,
    not the launcher's summary of it that follows; else the log's last line and lines."""
    for i in range(len(lines) - 1, -1, -1):
        line = lines[i].strip()
        if ERROR_LINE.match(line) and not line.startswith(LAUNCHER_SUMMARY):
            return line, lines[max(0, i + 1 - LOG_TAIL_LINES) : i + 1]
    last = next((line.strip() for line in reversed(lines) if line.strip()), "no output")
    return last, lines[-LOG_TAIL_LINES:]


def log_tail(path: Path, lines: int = 400) -> list[str]:
    """The last `lines` lines of a log file (read from its end, however long it grew)."""
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            f.seek(max(0, f.tell() - 256_000))
            text = f.read().decode("utf-8", errors="replace")
    except OSError:
        return []
    return text.splitlines()[-lines:]
