"""The run store: one folder per training run, readable while the run is live and after it was killed.

Layout of `<root>/<run_id>/`:

- `spec.json`     the run spec, opaque to the store (only the model id and reward names are read, for `RunInfo`).
- `status.json`   `{"status": ..., "pid": ..., "host": ..., "updated_at": ..., ...}`, always replaced atomically; the
                  wall time as `pieces` (seconds of the first run and of each continue) and `elapsed` (their sum),
                  the job's `alerts` (holding now) and `alert_log` (every alert raised, resolved ones marked).
- `metrics.jsonl` one JSON object per logged step, appended with one `write` and fsynced.
- `samples.jsonl` one JSON object per sample row.
- `adapter/`      the PEFT adapter the trainer saves; the store only exposes its path.

A run is created in a hidden temporary folder and renamed into place, so a listing never sees it half-made. A status
in `ACTIVE` whose process is gone (killed, crashed, machine rebooted) is reported, and rewritten, as "interrupted".
Listing never raises: a corrupt run is skipped, or shown as interrupted, with a warning in the log.
"""

from __future__ import annotations

import logging
import math
import os
import re
import secrets
import shutil
import socket
import tempfile
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from playground.errors import PlaygroundError
from playground.settings import current
from playground.texts import Text, msg
from playground.training.files import (
    TMP_PREFIX,
    append_lines,
    dumps,
    json_safe,
    keep_lines,
    locked,
    read_json_object,
    read_lines,
    write_atomic,
)


logger = logging.getLogger(__name__)

ACTIVE = ("queued", "loading", "running", "stopping")
FINAL = ("finished", "failed", "stopped", "interrupted")
STATUSES = ACTIVE + FINAL
DEAD_PROCESS_ERROR = msg("job.dead_process")
UNREADABLE_STATUS_ERROR = msg("job.status_unreadable")
MISSING_STATUS_ERROR = msg("job.status_missing")
SPEC, STATUS, METRICS, SAMPLES, ADAPTER = "spec.json", "status.json", "metrics.jsonl", "samples.jsonl", "adapter"


# --- small helpers -------------------------------------------------------------------------------------------------


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


def _iso_from_timestamp(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).isoformat(timespec="microseconds")


def _error_text_out(status: dict) -> dict:
    """A catalogue `error` keeps its key and values beside its English, as `error_text`, for the page's language."""
    error = status.get("error")
    if isinstance(error, Text):
        return {**status, "error_text": error.to_json()}
    return {k: v for k, v in status.items() if k != "error_text"}


def _error_text_in(status: dict) -> dict:
    """The status as written: its `error` a `Text` again when `error_text` holds its key and values."""
    try:
        text = Text.from_json(status.get("error_text"))
        if isinstance(text, Text) and text.render("zh"):  # its values fill both languages' templates
            return {**status, "error": text}
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        logger.warning("status.json holds an unreadable error_text; showing its English error")
    return status


def _slug(name: str | None) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", (name or "").lower()).strip("-")[:32].strip("-")
    return slug or secrets.token_hex(3)


def _check_id(run_id: str) -> None:
    bad = (
        not isinstance(run_id, str)
        or not run_id.strip()
        or run_id.startswith(TMP_PREFIX)
        or ".." in run_id
        or any(sep in run_id for sep in ("/", "\\", "\0", os.sep, os.altsep or "/"))
    )
    if bad:
        raise PlaygroundError("job.bad_run_name", run=run_id)


# --- run times -----------------------------------------------------------------------------------------------------


def _run_times(before: dict, after: dict) -> dict:
    """`started_at` when the run first leaves the queue, `finished_at` when it first reaches a final status (both
    ISO times in UTC): the run's own duration, whenever and however often it is read. A run that goes again after a
    final status keeps its earlier segments' time in `earlier_seconds` and starts a new segment."""
    times = {}
    if after.get("status") not in ("queued", *FINAL) and not after.get("started_at"):
        times["started_at"] = after["updated_at"]
    if after.get("status") in FINAL and (before.get("status") not in FINAL or not after.get("finished_at")):
        times["finished_at"] = after["updated_at"]
        if not after.get("started_at"):  # ended before it started (stopped in the queue): no time was spent
            times["started_at"] = after["updated_at"]
    elif after.get("status") in ACTIVE and after.get("finished_at"):
        # going again (a continued run): what its earlier segments trained, not the time it then waited, carries over
        times["finished_at"] = None
        times["pieces"] = [*_with_durations({**before, "status": "finished"}).get("pieces", []), 0.0]
        times["earlier_seconds"] = round(sum(times["pieces"]), 1)
        times["started_at"] = after["updated_at"]
    return times


def _with_durations(status: dict) -> dict:
    """The status with its wall time in pieces: `pieces` holds the seconds of each segment the run trained (the
    first run, then each continue; the last is the current one, counted to `finished_at`, or to `updated_at` while it
    is active), `elapsed` their sum (the run's whole wall time) and `earlier_seconds` the sum of all but the last."""
    start = _parse_time(status.get("started_at"))
    end = _parse_time(status.get("finished_at") or status.get("updated_at"))
    if start is None or end is None:
        return status
    pieces = status.get("pieces")
    if not (isinstance(pieces, list) and pieces and all(_seconds(p) is not None for p in pieces)):
        earlier = _seconds(status.get("earlier_seconds"))
        pieces = [earlier, 0.0] if earlier else [0.0]  # a status written before pieces were kept
    pieces = [*pieces[:-1], round(max(0.0, (end - start).total_seconds()), 1)]
    return {
        **status,
        "pieces": pieces,
        "elapsed": round(sum(pieces), 1),
        "earlier_seconds": round(sum(pieces[:-1]), 1),
    }


def _seconds(value: Any) -> float | None:
    valid = isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value) and value >= 0
    return float(value) if valid else None


def _parse_time(value: Any) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def run_seconds(status: dict, now: datetime | None = None) -> float | None:
    """How long the run of `status` has trained: from `started_at` to `finished_at`, or to `now` (default: this
    moment) while it is active, plus `earlier_seconds` (what the earlier segments of a continued run trained, the
    time between them not counted); None before it started, or for a run written without these times."""
    start = _parse_time(status.get("started_at"))
    end = _parse_time(status.get("finished_at"))
    if end is None and status.get("status") in ACTIVE:
        end = now or datetime.now(UTC)
    if start is None or end is None:
        return None
    earlier = status.get("earlier_seconds")
    earlier = float(earlier) if isinstance(earlier, int | float) and earlier > 0 else 0.0
    return max(0.0, (end - start).total_seconds()) + earlier


def run_pieces(status: dict, now: datetime | None = None) -> list[float]:
    """The seconds of each piece the run of `status` trained (the first run, then each continue), the current one
    counted to `now` while it is active; [] before it started. They add up to `run_seconds`."""
    total = run_seconds(status, now)
    if total is None:
        return []
    pieces = _with_durations(status).get("pieces") or [total]
    return [*pieces[:-1], round(max(0.0, total - sum(pieces[:-1])), 1)]


# --- process liveness ----------------------------------------------------------------------------------------------


def _proc_stat(pid: int) -> tuple[str, str] | None:
    """(state, start time in clock ticks since boot) from /proc on Linux; None where /proc is not available."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rfind(")") + 2 :].split()  # the command name in parentheses may contain spaces
    return (fields[0], fields[19]) if len(fields) > 19 else None


def _process_start(pid: int) -> str | None:
    stat = _proc_stat(pid)
    return stat[1] if stat else None


def _pid_alive(pid: Any, started: Any = None) -> bool:
    """Whether `pid` is a live process on this machine, and the same one (same start time) when `started` is known."""
    if isinstance(pid, bool) or not isinstance(pid, int) or pid <= 0:
        return False
    if os.name == "nt":  # os.kill(pid, 0) would terminate the process on Windows; treat as unknown, i.e. alive
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # exists, owned by another user
    except OSError:
        return False
    stat = _proc_stat(pid)
    if stat is None:
        return True
    state, start = stat
    if state == "Z":  # exited, not yet reaped by its parent
        return False
    return started is None or str(started) == start  # a different start time means the pid was reused


def _owned_by_live_process(status: dict) -> bool:
    """True when the status's process is alive, or runs on another host (which this machine cannot check)."""
    host = status.get("host")
    if host and host != socket.gethostname():
        return True
    return _pid_alive(status.get("pid"), status.get("pid_start"))


# --- runs ----------------------------------------------------------------------------------------------------------


@dataclass
class RunInfo:
    id: str
    status: str
    step: int
    max_steps: int | None
    created_at: str
    model: str | None
    rewards: list[str] = field(default_factory=list)
    final_reward: float | None = None
    error: str | None = None
    owner: str | None = field(default=None, repr=False)  # the hash of the starter's browser token (training/access.py)
    published: bool = False  # the owner made it readable by everyone (public mode)
    seconds: float | None = None  # the wall time it trained, every piece together (`run_seconds`)
    pieces: list[float] = field(default_factory=list)  # each piece's seconds: the first run, then each continue


class Run:
    """One run folder. Several `Run` objects (in one or several processes) may point at the same folder."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.id = self.path.name

    def __repr__(self) -> str:
        return f"Run({str(self.path)!r})"

    # --- spec and status ---------------------------------------------------------------------------------------------

    def spec(self) -> dict:
        try:
            return read_json_object(self.path / SPEC)
        except FileNotFoundError:
            raise PlaygroundError("job.no_spec", run=self.id) from None
        except (OSError, ValueError) as exc:
            raise PlaygroundError("job.bad_spec", run=self.id, error=str(exc)) from None

    def write_spec(self, spec: dict) -> None:
        """Replace spec.json atomically (a run continued with a new `max_steps`)."""
        write_atomic(self.path / SPEC, dumps(spec, indent=2))

    def _read_status(self) -> dict:
        """The status as stored, without recovery. Missing -> interrupted (or {} for a bare folder); corrupt -> {}."""
        try:
            return _error_text_in(read_json_object(self.path / STATUS))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            logger.warning("Run '%s': status.json is unreadable (%s); showing the run as interrupted.", self.id, exc)
            return {"status": "interrupted", "error": UNREADABLE_STATUS_ERROR}

    def status(self) -> dict:
        """The current status. An ACTIVE status whose local process is gone is rewritten as "interrupted"."""
        path = self.path / STATUS
        if not path.exists():
            return {"status": "interrupted", "error": MISSING_STATUS_ERROR}
        status = self._read_status()
        if status.get("status") in ACTIVE and not _owned_by_live_process(status):
            status = self._recover(status)
        return status

    def _recover(self, status: dict) -> dict:
        recovered = {**status, "status": "interrupted", "error": DEAD_PROCESS_ERROR, "updated_at": _now()}
        # The process was last seen at its last write: the run ended after that, and that is as near as is known.
        recovered.update(_run_times(status, {**recovered, "updated_at": status.get("updated_at") or _now()}))
        recovered = _with_durations(recovered)
        logger.warning(
            "Run '%s' was %s but its process %s is gone; marking it interrupted.",
            self.id,
            status.get("status"),
            status.get("pid"),
        )
        try:
            with locked(self.path):
                if self._read_status() == status:  # not rewritten meanwhile by a live process
                    write_atomic(self.path / STATUS, dumps(_error_text_out(recovered), indent=2))
        except OSError as exc:
            logger.warning("Run '%s': could not rewrite status.json (%s).", self.id, exc)
        return recovered

    def write_status(self, **fields: Any) -> dict:
        """Merge `fields` into the stored status and replace status.json atomically; returns the new status.

        An ACTIVE status always records the process that owns the run: this one (`pid`, its start time `pid_start`,
        and `host`), unless `pid` is passed, e.g. by a UI process asking a training subprocess to stop.
        """
        with locked(self.path):  # the training thread, public mode's wall-time watcher and Stop all write it
            before = self._read_status()
            status = {**before, **fields, "updated_at": _now()}
            if status.get("status") not in STATUSES:
                raise ValueError(f"Invalid run status {status.get('status')!r}; must be one of {STATUSES}.")
            status.update(_run_times(before, status))
            status = _with_durations(status)
            if status["status"] in ACTIVE:
                pid = fields.get("pid", os.getpid())
                status.update(pid=pid, pid_start=_process_start(pid), host=socket.gethostname())
            status = json_safe(_error_text_out(status))
            write_atomic(self.path / STATUS, dumps(status, indent=2))
        return status

    # --- metrics and samples -----------------------------------------------------------------------------------------

    def append_metrics(self, row: dict) -> None:
        append_lines(self.path / METRICS, [row])

    def metrics(self) -> list[dict]:
        return read_lines(self.path / METRICS)

    def append_samples(self, rows: list[dict]) -> None:
        append_lines(self.path / SAMPLES, list(rows))

    def samples(self, last_step_only: bool = False) -> list[dict]:
        rows = read_lines(self.path / SAMPLES)
        if not last_step_only:
            return rows
        steps = [r["step"] for r in rows if isinstance(r.get("step"), int | float)]
        if not steps:
            return rows
        last = max(steps)
        return [r for r in rows if r.get("step") == last]

    def truncate(self, step: int, others: tuple[str, ...] = (), warmup: bool = True) -> list[dict]:
        """Keep only the rows of steps up to `step` (and the warm-up's, with `warmup`) in metrics.jsonl,
        samples.jsonl and the `others` .jsonl files, each rewritten atomically; returns the metrics rows kept. A run
        continued from the checkpoint of `step` takes the later steps again."""

        def kept(row: dict) -> bool:
            if row.get("phase") == "warmup":
                return warmup
            return not isinstance(row.get("step"), int) or row["step"] <= step

        for name in (SAMPLES, *others):
            keep_lines(self.path / name, kept)
        return keep_lines(self.path / METRICS, kept)

    # --- adapter -----------------------------------------------------------------------------------------------------

    @property
    def adapter_dir(self) -> Path:
        return self.path / ADAPTER

    @property
    def has_adapter(self) -> bool:
        return (self.adapter_dir / "adapter_config.json").is_file()

    # --- summary -----------------------------------------------------------------------------------------------------

    def info(self) -> RunInfo:
        """A summary for the run list. Raises PlaygroundError when spec.json is missing or unreadable."""
        spec = self.spec()
        status = self.status()
        metrics = self.metrics()
        return RunInfo(
            id=self.id,
            status=str(status.get("status")),
            step=_grpo_step(status, metrics),
            max_steps=_int(status.get("max_steps")) or _int(_get(spec, "grpo", "max_steps")),
            created_at=str(status.get("created_at") or _iso_from_timestamp((self.path / SPEC).stat().st_mtime)),
            model=_str(_get(spec, "model", "model_name_or_path")),
            rewards=_reward_names(spec),
            final_reward=_final_reward(metrics),
            error=status["error"] if isinstance(status.get("error"), Text) else _str(status.get("error")),
            owner=_str(status.get("owner")),
            published=bool(status.get("published")),
            seconds=run_seconds(status),
            pieces=run_pieces(status),
        )

    def publish(self, published: bool = True) -> dict:
        """Make the run readable by everyone in public mode (read-only), or private again."""
        return self.write_status(published=published, **({"pid": self.status().get("pid")} if self.active else {}))

    @property
    def active(self) -> bool:
        return self.status().get("status") in ACTIVE


def _get(data: Any, *keys: str) -> Any:
    for key in keys:
        if not isinstance(data, dict):
            return None
        data = data.get(key)
    return data


def _int(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    return int(value)


def _str(value: Any) -> str | None:
    return None if value is None else str(value)


def _reward_names(spec: dict) -> list[str]:
    rewards = spec.get("rewards")
    if not isinstance(rewards, list):
        return []
    return [str(r["name"]) for r in rewards if isinstance(r, dict) and r.get("name") is not None]


def _grpo_step(status: dict, metrics: list[dict]) -> int:
    """The GRPO steps done: the status's step (0 for a run stopped in its warm-up), else the last GRPO row's step (the
    warm-up's SFT rows count their own steps)."""
    step = _int(status.get("step"))
    return step if step is not None else _last_step([row for row in metrics if row.get("phase") != "warmup"])


def _last_step(metrics: list[dict]) -> int:
    steps = [_int(row.get("step")) for row in metrics]
    return next((s for s in reversed(steps) if s is not None), 0)


def _final_reward(metrics: list[dict]) -> float | None:
    for row in reversed(metrics):
        value = row.get("reward")
        if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
            return float(value)
    return None


# --- the store -----------------------------------------------------------------------------------------------------


class RunStore:
    def __init__(self, root: str | Path | None = None):
        self.root = Path(root if root is not None else current().runs).expanduser()

    def __repr__(self) -> str:
        return f"RunStore({str(self.root)!r})"

    def create(self, spec: dict, name: str | None = None, owner: str | None = None) -> Run:
        """Make a new run folder with spec.json and a "queued" status.json; its id is `<UTC time>-<slug>`.

        `owner` (the hash of the starter's browser token, `access.owner_key`; never the token) is in the first
        status.json, so that a public app never lists the run as ownerless (readable by all).
        """
        self.root.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(dir=self.root, prefix=f"{TMP_PREFIX}creating-"))
        try:
            write_atomic(tmp / SPEC, dumps(spec, indent=2))
            Run(tmp).write_status(status="queued", created_at=_now(), step=0, owner=owner)
            return Run(self._move_into_place(tmp, name))
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise

    def _move_into_place(self, tmp: Path, name: str | None) -> Path:
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        run_id = f"{stamp}-{_slug(name)}"
        for _ in range(20):
            target = self.root / run_id
            if not target.exists():
                try:
                    os.rename(tmp, target)  # fails when another process took the name (non-empty folder)
                    return target
                except OSError:
                    pass
            run_id = f"{stamp}-{_slug(name)}-{secrets.token_hex(2)}"
        raise PlaygroundError("job.no_free_name", root=self.root)

    def get(self, run_id: str) -> Run:
        _check_id(run_id)
        path = self.root / run_id
        if not path.is_dir():
            raise PlaygroundError("job.no_run", run=run_id, root=self.root)
        return Run(path)

    def list(self) -> list[RunInfo]:
        """All readable runs, newest first. Never raises: unreadable entries are skipped with a warning."""
        try:
            entries = sorted(self.root.iterdir())
        except FileNotFoundError:
            return []
        except OSError as exc:
            logger.warning("Cannot list runs in %s (%s).", self.root, exc)
            return []
        infos = [info for entry in entries if (info := self._info(entry)) is not None]
        return sorted(infos, key=lambda i: (i.created_at, i.id), reverse=True)

    def _info(self, entry: Path) -> RunInfo | None:
        if entry.name.startswith(TMP_PREFIX):
            return None
        if not entry.is_dir():
            logger.warning("Skipping %s: not a run folder.", entry)
            return None
        try:
            return Run(entry).info()
        except Exception as exc:  # one broken run must not break the list
            logger.warning("Skipping run '%s': %s", entry.name, exc)
            return None

    def delete(self, run_id: str) -> None:
        """Delete a run folder. Refused while the run is active and its process is alive (or on another host)."""
        run = self.get(run_id)
        status = run.status()
        if status.get("status") in ACTIVE:
            where = status.get("host") if status.get("host") not in (None, socket.gethostname()) else None
            where = where or msg("job.this_machine")
            raise PlaygroundError(
                "job.still_active", run=run_id, status=status["status"], pid=status.get("pid"), host=where
            )
        try:
            with locked(run.path):  # the queue's checkpoint thinning of this run is not halfway through
                shutil.rmtree(run.path)
        except FileNotFoundError:  # deleted meanwhile (another Delete, or the retention sweep)
            raise PlaygroundError("job.no_run", run=run_id, root=self.root) from None
        logger.info("Deleted run '%s'.", run_id)
