"""The app side of the sandbox: `Sandbox` runs one source in a worker process, `SandboxedReward` is one of its rewards.

A `Sandbox` owns at most one worker at a time. A worker that times out, dies or breaks the protocol is killed, its
temporary folder removed, and a fresh one (with the same source loaded) starts on the next call. Calls are serialised
by a lock, and timeouts use `poll`, not signals, so rewards can be called from any thread (TRL calls them from the
training thread). While a worker runs, and after each call, its folder is held to the disk quota (`disk_mb`,
`disk_files`): past it the worker is stopped and its folder removed, with a message that says so. A worker that still
runs threads of its own once a call (or the loading) returns is stopped too: they would go on burning CPU.

The app never opens a path the worker can write or replace to read what it says: replies come over the worker's
stdout pipe (with a deadline and a size cap), and its stderr goes to an anonymous file the app opened before the
worker started and reads only through its own descriptor, at most `LOG_TAIL` bytes. The disk quota walks the folder
without following links (`runtime.tempdirs.folder_usage`) and counts the deleted files the worker holds open.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import re
import shutil
import signal
import site
import stat
import subprocess
import sys
import tempfile
import threading
import time
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playground.errors import PlaygroundError, RewardError
from playground.runtime.tempdirs import folder_usage, make_temp_dir
from playground.sandbox import protocol
from playground.sandbox.settings import SandboxLimits, check_confinement, require_custom_code
from playground.sandbox.worker import NETWORK_OFF
from playground.settings import current
from playground.texts import msg


logger = logging.getLogger(__name__)

REPO_ROOT = str(Path(__file__).resolve().parents[2])
STARTUP_TIMEOUT = 30.0  # a bare interpreter starts in about 50 ms; this is for a machine under heavy load
EXIT_WAIT = 1.0  # seconds to let a worker that closed its pipe finish exiting, to read its exit code
THREAD_WAIT = 0.2  # seconds a thread the user's code joined may take to leave the kernel's list after its last line
LOG_TAIL = 2000  # bytes of the worker's stderr shown when it fails
WORKER_MODULE = "playground.sandbox.worker"
SECRET_NAME = re.compile(r"TOKEN|SECRET|PASSW|CREDENTIAL|PRIVATE|AUTH|(^|_)(API)?KEYS?($|_)", re.IGNORECASE)
KEPT_NAMES = ("PATH", "LANG", "LANGUAGE", "TZ", "TERM", "PYTHONPATH", "PYTHONHASHSEED", "HF_HUB_OFFLINE")
ONE_THREAD = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "TOKENIZERS_PARALLELISM")
_warned: set[str] = set()


def near_cpu_limit(cpu: float, limit: float) -> bool:
    """Whether a worker that has used `cpu` seconds of its lifetime limit is recycled before its next call: when less
    than a tenth of the limit, or less than a second, is left (a call with less would likely meet the limit)."""
    return cpu > limit - max(0.1 * limit, 1.0)


class SandboxError(RewardError):
    """Custom code failed in the sandbox. `output` is what it printed, `line` the line of the user's code; for an
    exception the code raised, `error_type` is its type's name and `error_detail` its message (as the worker sent
    them)."""

    def __init__(
        self,
        message: str,
        /,
        *,
        output: str = "",
        line: int | None = None,
        traceback: str | None = None,
        error_type: str | None = None,
        error_detail: str | None = None,
        **values: Any,
    ):
        super().__init__(message, **values)
        self.output = output
        self.line = line
        self.traceback = traceback
        self.error_type = error_type
        self.error_detail = error_detail


@dataclass
class CallResult:
    values: list[float | None]
    output: str
    seconds: float


def hub_cache() -> str:
    return current().hub_cache()


def worker_env(workdir: str) -> dict[str, str]:
    """The worker's environment: locale, PATH and Python settings only, never a secret; HOME is its own folder."""
    env = {
        k: v for k, v in os.environ.items() if (k in KEPT_NAMES or k.startswith("LC_")) and not SECRET_NAME.search(k)
    }
    env["PYTHONPATH"] = os.pathsep.join(p for p in (REPO_ROOT, env.get("PYTHONPATH")) if p)
    env.update(HOME=workdir, TMPDIR=workdir, PYTHONUSERBASE=site.getuserbase(), HF_HUB_CACHE=hub_cache())
    env.update({name: "1" if name != "TOKENIZERS_PARALLELISM" else "false" for name in ONE_THREAD})
    return env


def _kill(proc: subprocess.Popen, workdir: str, log: int) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # its own session, so this reaches nothing else
    except (ProcessLookupError, PermissionError):
        pass
    proc.wait()
    for pipe in (proc.stdin, proc.stdout):
        if pipe is not None:
            pipe.close()
    os.close(log)
    shutil.rmtree(workdir, ignore_errors=True)


def read_tail(fd: int, size: int = LOG_TAIL) -> str:
    """The last `size` bytes of the regular file open as `fd` (the app's own descriptor, so no path is followed)."""
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return ""
        return os.pread(fd, size, max(info.st_size - size, 0)).decode("utf-8", "replace")
    except OSError:
        return ""


def held_files(pid: int) -> int:
    """Bytes of disk (or memory) used by deleted files process `pid` holds open: an unlinked file, an `O_TMPFILE`
    or a memfd stays allocated while open, out of sight of a walk of its folder. 0 where /proc is unavailable."""
    seen, used = set(), 0
    try:
        with os.scandir(f"/proc/{pid}/fd") as entries:
            for entry in entries:
                try:
                    info = entry.stat()  # stat only: never opens what the descriptor names
                except OSError:
                    continue
                if stat.S_ISREG(info.st_mode) and info.st_nlink == 0 and (info.st_dev, info.st_ino) not in seen:
                    seen.add((info.st_dev, info.st_ino))
                    used += info.st_blocks * 512
    except OSError:
        return 0
    return used


def thread_count(pid: int) -> int:
    """How many threads process `pid` runs, from the kernel's list (1 where /proc is unavailable)."""
    try:
        return len(os.listdir(f"/proc/{pid}/task"))
    except OSError:
        return 1


class Sandbox:
    """One user's custom code, run in a confined worker process.

    Args:
        source (`str`, *optional*):
            Python source defining the reward functions; loaded into every worker this sandbox starts.
        functions (`Sequence[str]`, *optional*):
            Names that must be callable once the source has run.
        limits (`SandboxLimits`, *optional*):
            Defaults to the limits of the current policy (`code_policy()`: public mode on a Space).
        own_code (`bool`, *optional*, defaults to `False`):
            The source is the playground's own (the visitor worker's scorer), not a user's: the custom-code switch
            and its fail-closed check do not stop it.
    """

    def __init__(
        self,
        source: str | None = None,
        functions: Sequence[str] = (),
        limits: SandboxLimits | None = None,
        *,
        own_code: bool = False,
    ):
        self.source = source
        self.functions = list(functions)
        self.own_code = own_code
        self.limits = limits or require_custom_code()
        self.features: dict[str, Any] = {}
        self.starts = 0
        self.last_output = ""
        self._proc: subprocess.Popen | None = None
        self._workdir: str | None = None
        self._log: int | None = None  # the app's descriptor of the worker's stderr
        self._finalizer: weakref.finalize | None = None
        self._kept: set[str] = set()  # what the folder held once the code was loaded: kept between calls
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"<Sandbox pid={self.pid} functions={self.functions}>"

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None and self._proc.poll() is None else None

    @property
    def workdir(self) -> str | None:
        return self._workdir

    # --- lifecycle -------------------------------------------------------------------------------------------------

    def load(self, source: str, functions: Sequence[str] = ()) -> None:
        """Replace the code: a fresh worker runs `source`, so nothing of the previous code survives."""
        with self._lock:
            self._stop()
            self.source, self.functions = source, list(functions)
            self._start()

    def start(self) -> None:
        """Start the worker now (it starts on the first call otherwise), loading the source."""
        with self._lock:
            if self.pid is None:
                self._start()

    def close(self) -> None:
        with self._lock:
            self._stop()

    def _start(self) -> None:
        self._stop()
        if not self.own_code:
            require_custom_code()
        workdir = make_temp_dir("sandbox")
        # An anonymous file (O_TMPFILE) outside the worker's folder: it has no name the worker could replace with a
        # link or a FIFO, and the app reads it only through this descriptor.
        with tempfile.TemporaryFile() as anonymous:
            log = os.dup(anonymous.fileno())
        try:
            proc = subprocess.Popen(
                [sys.executable, "-B", "-m", WORKER_MODULE],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=log,
                cwd=workdir,
                env=worker_env(workdir),
                start_new_session=True,
                bufsize=0,
            )
        except BaseException:
            os.close(log)
            shutil.rmtree(workdir, ignore_errors=True)
            raise
        self._proc, self._workdir, self._log = proc, workdir, log
        self._finalizer = weakref.finalize(self, _kill, proc, workdir, log)
        self.starts += 1
        for pipe in (proc.stdin, proc.stdout):
            os.set_blocking(pipe.fileno(), False)
        read_paths = [*self.limits.read_paths, *([hub_cache()] if self.limits.shared_reads else [])]
        init = {"op": "init", "repo_root": REPO_ROOT, "limits": {**self.limits.to_dict(), "read_paths": read_paths}}
        try:
            reply = self._request(init, STARTUP_TIMEOUT, msg("sandbox.what.worker"))
        except SandboxError as exc:
            last = exc.output.strip().splitlines()[-1:] or [str(exc)]
            raise SandboxError("sandbox.start_failed", detail=last[0], output=exc.output) from None
        self.features = reply.get("features") if isinstance(reply.get("features"), dict) else {}
        if self.limits.require_confinement:
            try:
                check_confinement(self.features)  # fail closed: the container refused what the kernel offers
            except PlaygroundError:
                self._stop()
                raise
        self._warn_missing()
        logger.info("Sandbox worker %d started (%s)", proc.pid, self.features)
        if self.source is not None:
            message = {"op": "load", "source": self.source, "functions": self.functions}
            reply = self._request(message, self.limits.load_timeout, msg("sandbox.what.load"))
            if not reply.get("ok"):
                self._stop()
                raise self._error(reply, msg("sandbox.what.load"), loading=True)
        if problem := self._over_quota() or self._threads_left():
            self._stop()
            raise SandboxError(
                "sandbox.problem", what=msg("sandbox.what.load"), problem=problem, output=self.last_output
            )
        self._kept = set(os.listdir(workdir))

    def disk_usage(self) -> tuple[int, int]:
        """(bytes, files and folders) the worker holds now: its folder, plus the deleted files it keeps open (its log
        among them); (0, 0) without a worker."""
        used, files, held = self._usage()
        return used + held, files

    def _usage(self) -> tuple[int, int, int]:
        """(bytes, files and folders) in the worker's folder, and bytes in deleted files it keeps open."""
        workdir, proc = self._workdir, self._proc
        if not workdir or proc is None:
            return 0, 0, 0
        return (*folder_usage(workdir, self.limits.disk_files), held_files(proc.pid))

    def _over_quota(self) -> str | None:
        used, files, held = self._usage()
        limits = self.limits
        if used + held <= limits.disk_mb << 20 and files <= limits.disk_files:
            return None
        held_text = msg("sandbox.disk_held", mb=held / 2**20) if held >= 1 << 20 else ""
        return msg(
            "sandbox.disk_quota",
            mb=limits.disk_mb,
            files=limits.disk_files,
            used_mb=used / 2**20,
            count=f"{files}{'+' if files > limits.disk_files else ''}",
            held=held_text,
        )

    def _threads_left(self) -> str | None:
        """A message when the worker runs more threads than its main one (after a grace for joined ones to go)."""
        proc = self._proc
        if proc is None:
            return None
        deadline = time.monotonic() + THREAD_WAIT
        while (count := thread_count(proc.pid)) > 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        if count <= 1:
            return None
        return msg("sandbox.thread_left") if count == 2 else msg("sandbox.threads_left", count=count - 1)

    def _clean(self) -> None:
        """Remove what the last call wrote in the worker's folder (what loading the code wrote stays)."""
        workdir = self._workdir
        if not workdir:
            return
        for name in set(os.listdir(workdir)) - self._kept:
            path = os.path.join(workdir, name)
            try:
                if stat.S_ISDIR(os.lstat(path).st_mode):
                    shutil.rmtree(path, ignore_errors=True)  # never follows links, even one swapped in meanwhile
                else:
                    os.unlink(path)
            except OSError:
                pass

    def _warn_missing(self) -> None:
        for step in ("seccomp", "landlock"):
            reason = self.features.get(step)
            if reason is not True and step not in _warned:
                _warned.add(step)
                logger.warning("Sandbox: %s is unavailable here (%s); the other limits still apply.", step, reason)

    def _stop(self) -> None:
        if self._finalizer is not None:
            self._finalizer()  # kills the worker, closes its log and removes its folder, once
        self._proc = self._workdir = self._log = self._finalizer = None

    # --- requests --------------------------------------------------------------------------------------------------

    def call(
        self, function: str, completions: Sequence[Any], /, *, shown_as: str | None = None, **kwargs: Any
    ) -> CallResult:
        """Call `function(completions=..., **kwargs)` in the worker; returns its checked values and printed output.
        Messages name the reward `shown_as` (default: `function`)."""
        what = msg("sandbox.what.reward", name=shown_as or function)
        wire, callables, namespaces = _encode_kwargs(kwargs)
        message = {
            "op": "call",
            "function": function,
            "completions": list(completions),
            "kwargs": wire,
            "callables": callables,
            "namespaces": namespaces,
            "timeout": self.limits.timeout,
        }
        start = time.perf_counter()
        with self._lock:
            if self.pid is None:
                self._start()
            reply = self._request(message, self.limits.timeout, what)
            if self._workdir and (problem := self._over_quota() or self._threads_left()):
                self._stop()
                raise SandboxError("sandbox.problem", what=what, problem=problem, output=self.last_output)
            if self.limits.clean_between_calls:
                self._clean()
        seconds = time.perf_counter() - start
        if "values" not in reply and not any(k in reply for k in ("bad_type", "bad_length", "bad_item")):
            raise self._error(reply, what)
        try:
            values = decode_values(shown_as or function, reply, len(message["completions"]))
        except RewardError as exc:
            raise SandboxError(exc.message, output=self.last_output) from None
        _replay_logs(reply.get("logs"), kwargs, callables)
        return CallResult(values, self.last_output, seconds)

    def _request(self, message: dict, timeout: float, what: str) -> dict:
        proc = self._proc
        assert proc is not None and proc.stdin is not None and proc.stdout is not None
        deadline = time.monotonic() + timeout
        try:
            protocol.send(proc.stdin.fileno(), message, deadline)
            reply = protocol.receive(proc.stdout.fileno(), deadline, watch=self._over_quota)
        except protocol.ProtocolError as exc:
            raise self._failure(what, exc, timeout) from None
        self.last_output = str(reply.get("output") or "")[: self.limits.output_bytes + 200]
        cpu = reply.get("cpu")
        if reply.get("fatal") or (isinstance(cpu, int | float) and near_cpu_limit(cpu, self.limits.cpu_seconds)):
            self._stop()  # after a MemoryError, or near its lifetime CPU limit: the next call gets a fresh worker
        return reply

    def _failure(self, what: str, exc: protocol.ProtocolError, timeout: float) -> SandboxError:
        """Stop the worker and say why it failed, from the timeout or from how the process ended."""
        proc = self._proc
        assert proc is not None
        log = read_tail(self._log) if self._log is not None else ""
        if exc.timed_out:
            self._stop()
            return SandboxError("sandbox.timed_out", what=what, seconds=timeout, output=log)
        if exc.watched:  # over the disk quota
            self._stop()
            return SandboxError("sandbox.problem", what=what, problem=exc.args[0], output=log)
        try:
            code = proc.wait(EXIT_WAIT) if exc.closed else proc.poll()  # a closed pipe: the worker is exiting
        except subprocess.TimeoutExpired:
            code = None
        self._stop()
        return SandboxError("sandbox.problem", what=what, problem=_how_it_ended(code, exc, self.limits), output=log)

    def _error(self, reply: dict, what: str, loading: bool = False) -> SandboxError:
        kind = reply.get("kind")
        output = self.last_output
        if kind == "memory":
            return SandboxError("sandbox.memory", what=what, mb=self.limits.memory_mb, output=output)
        if kind == "exit":
            key = "sandbox.exit_load" if loading else "sandbox.exit_call"
            return SandboxError(key, what=what, code=reply.get("code"), output=output)
        if kind == "not_callable":
            return SandboxError(
                "sandbox.not_callable", function=reply.get("function"), kind=reply.get("type"), output=output
            )
        if kind == "exception":
            line = reply.get("line") if isinstance(reply.get("line"), int) else None
            error, detail = str(reply.get("type"))[:100], str(reply.get("message"))[:1000]
            if detail == NETWORK_OFF:  # the worker's own refusal (it has no catalogue): the page's language
                detail = msg("sandbox.network_off")
            text = (
                msg("sandbox.raised_line", what=what, error=error, detail=detail, at_line=line)
                if line
                else msg("sandbox.raised", what=what, error=error, detail=detail)
            )
            trace = str(reply.get("traceback") or "")[:4000]
            return SandboxError(text, output=output, line=line, traceback=trace, error_type=error, error_detail=detail)
        return SandboxError("sandbox.failed", what=what, detail=str(reply.get("message") or kind)[:200])


def _how_it_ended(code: int | None, exc: protocol.ProtocolError, limits: SandboxLimits) -> str:
    if code is None:
        return msg("sandbox.protocol", detail=msg(exc.args[0], **exc.values))
    if code >= 0:
        return msg("sandbox.exited", code=code)
    sig = -code
    name = signal.Signals(sig).name if sig in signal.Signals._value2member_map_ else f"signal {sig}"
    if sig == signal.SIGXCPU:
        return msg("sandbox.cpu")
    if sig == signal.SIGKILL:
        return msg("sandbox.killed")
    if sig in (signal.SIGSEGV, signal.SIGBUS, signal.SIGABRT, signal.SIGILL):
        return msg("sandbox.crashed", signal=name)
    return msg("sandbox.stopped", signal=name)


def _encode_kwargs(kwargs: dict[str, Any]) -> tuple[dict[str, Any], list[str], list[str]]:
    """Keyword arguments as JSON: callables (TRL's `log_metric`, `log_extra`) are recorded in the worker and replayed
    here; a dataclass (TRL's `trainer_state`) is sent as its scalar fields; numpy values become lists."""
    wire: dict[str, Any] = {}
    callables, namespaces = [], []
    for key, value in kwargs.items():
        if callable(value):
            callables.append(key)
        elif dataclasses.is_dataclass(value) and not isinstance(value, type):
            namespaces.append(key)
            wire[key] = {
                f.name: getattr(value, f.name)
                for f in dataclasses.fields(value)
                if isinstance(getattr(value, f.name), int | float | str | bool | None)
            }
        else:
            wire[key] = value
    return wire, callables, namespaces


def _replay_logs(logs: Any, kwargs: dict[str, Any], callables: list[str]) -> None:
    if not isinstance(logs, list):
        return
    for entry in logs[:1000]:
        if not (isinstance(entry, list) and len(entry) >= 2 and entry[0] in callables and isinstance(entry[1], str)):
            continue
        name, args = entry[0], entry[1:3]
        # TRL's own: log_metric(name, float) and log_extra(column, list); what the worker sends is not trusted.
        if name == "log_metric" and not (len(args) == 2 and isinstance(args[1], int | float)):
            continue
        if name == "log_extra" and not (len(args) == 2 and isinstance(args[1], list)):
            continue
        kwargs[name](*args)


def decode_values(name: str, reply: dict, expected: int) -> list[float | None]:
    """The worker's values, checked with `check_values` semantics and the same messages."""
    from playground.sandbox.values import check_values

    if "bad_type" in reply:
        key = "reward.generator" if reply.get("generator") else "reward.not_a_list"
        raise RewardError(key, name=name, got=str(reply["bad_type"])[:100])
    if "bad_length" in reply:
        count = str(reply["bad_length"])[:20]
        raise RewardError("reward.count", name=name, count=count, n=expected)
    if "bad_item" in reply:
        index = reply["bad_item"] if isinstance(reply["bad_item"], int) else 0
        raise RewardError(
            "reward.bad_value_repr",
            name=name,
            kind=str(reply.get("item_type"))[:100],
            value=str(reply.get("item_repr"))[:100],
            index=index + 1,
        )
    values = reply.get("values")
    if not isinstance(values, list) or not all(v is None or type(v) in (float, int) for v in values):
        raise RewardError("sandbox.malformed", name=name)
    return check_values(name, values, expected)


class SandboxedReward:
    """A reward that runs in a `Sandbox`: what goes into `build_rewards(custom=...)` and the trainer.

    It has the user's function name as `__name__`, so TRL logs `rewards/<name>/mean`. Pickling keeps the source and
    limits, not the process: an unpickled copy starts its own worker on its first call.
    """

    def __init__(self, sandbox: Sandbox, name: str):
        self.sandbox = sandbox
        self.__name__ = name
        self.last_output = ""

    def __call__(self, completions: list, **kwargs: Any) -> list[float | None]:
        result = self.sandbox.call(self.__name__, completions, **kwargs)
        self.last_output = result.output
        return result.values

    def __repr__(self) -> str:
        return f"<sandboxed reward {self.__name__}>"

    def __getstate__(self) -> dict[str, Any]:
        sandbox = self.sandbox
        return {
            "name": self.__name__,
            "source": sandbox.source,
            "functions": sandbox.functions,
            "limits": sandbox.limits,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__name__ = state["name"]
        self.sandbox = Sandbox(state["source"], state["functions"], state["limits"])
        self.last_output = ""


def close_rewards(rewards: dict[str, Callable] | Sequence[Callable]) -> None:
    """Stop the workers behind sandboxed rewards (others are left alone)."""
    funcs = rewards.values() if isinstance(rewards, dict) else rewards
    for sandbox in {id(f.sandbox): f.sandbox for f in funcs if isinstance(f, SandboxedReward)}.values():
        sandbox.close()
