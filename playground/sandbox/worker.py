"""The sandbox worker process: `python -m playground.sandbox.worker`, started and spoken to by `Sandbox`.

It keeps the protocol on private copies of stdin and stdout, points fds 0 and 1 at /dev/null, reads an `init` message,
confines itself (`confine.py`), then answers `load` and `call` messages one at a time. The user's prints are captured
per message and capped. It imports only the standard library, so it starts in about 50 ms; torch is imported only if
the user's code does.
"""

from __future__ import annotations

import io
import numbers
import os
import resource
import sys
import traceback
import types
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from playground.sandbox import confine, protocol


FILENAME = "custom_reward.py"  # the name tracebacks show for the user's code
TRACEBACK_CHARS = 4000
# How native libraries report a failed allocation under RLIMIT_AS: C++ (torch), and the loader mapping a library.
MEMORY_SIGNS = ("std::bad_alloc", "failed to map segment from shared object", "Cannot allocate memory")


class Capture(io.TextIOBase):
    """A text stream that keeps the first `limit` characters written to it and counts the rest."""

    def __init__(self, limit: int):
        self.limit = limit
        self.parts: list[str] = []
        self.kept = 0
        self.dropped = 0

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        room = max(self.limit - self.kept, 0)
        if room:
            self.parts.append(text[:room])
            self.kept += min(room, len(text))
        self.dropped += max(len(text) - room, 0)
        return len(text)

    def text(self) -> str:
        out = "".join(self.parts)
        if self.dropped:
            out += f"\n[output truncated: {self.dropped} more characters]"
        return out


@contextmanager
def captured(capture: Capture) -> Iterator[None]:
    old = sys.stdout, sys.stderr
    sys.stdout = sys.stderr = capture
    try:
        yield
    finally:
        sys.stdout, sys.stderr = old


def cpu_used() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def describe_error(exc: BaseException) -> dict[str, Any]:
    """The reply for an exception raised by user code: its kind, type, message and the user's line."""
    if isinstance(exc, MemoryError) or any(sign in str(exc) for sign in MEMORY_SIGNS):
        return {"kind": "memory", "fatal": True}
    if isinstance(exc, SystemExit):
        return {"kind": "exit", "code": exc.code if isinstance(exc.code, int | None) else str(exc.code)}
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == FILENAME]
    if isinstance(exc, SyntaxError) and exc.filename == FILENAME:
        line = exc.lineno
    else:
        line = frames[-1].lineno if frames else None
    trace = "".join(traceback.format_list(frames)) + "".join(traceback.format_exception_only(exc))
    return {
        "kind": "exception",
        "type": type(exc).__name__,
        "message": str(exc)[:1000],
        "line": line,
        "traceback": trace[-TRACEBACK_CHARS:],
    }


def to_wire(values: Any, expected: int) -> dict[str, Any]:
    """A reward's result as plain floats or None, converted here so numpy or torch never cross the pipe."""
    if isinstance(values, str | bytes | dict) or not hasattr(values, "__len__"):
        return {"bad_type": type(values).__name__, "generator": hasattr(values, "__next__")}
    items = values.tolist() if hasattr(values, "tolist") else list(values)
    if not isinstance(items, list):  # a 0-d array
        return {"bad_type": type(values).__name__, "generator": False}
    if len(items) != expected:
        return {"bad_length": len(items)}
    out: list[float | None] = []
    for i, v in enumerate(items):
        if hasattr(v, "item") and getattr(v, "ndim", 0) == 0:  # numpy or torch scalar
            v = v.item()
        if v is None:
            out.append(None)
            continue
        if isinstance(v, numbers.Real) and not isinstance(v, str):
            try:
                out.append(float(v))
                continue
            except (OverflowError, ValueError):
                pass
        return {"bad_item": i, "item_type": type(v).__name__, "item_repr": repr(v)[:80]}
    return {"values": out}


class Worker:
    def __init__(self, limits: dict[str, Any]):
        self.limits = limits
        self.namespace: dict[str, Any] = {}

    def handle(self, message: dict[str, Any]) -> dict[str, Any]:
        op = message.get("op")
        capture = Capture(self.limits["output_bytes"])
        confine.allow_cpu(message.get("timeout", self.limits["timeout"]))
        try:
            with captured(capture):
                if op == "load":
                    reply = self.load(message["source"], message.get("functions", []))
                elif op == "call":
                    reply = self.call(message)
                else:
                    reply = {"kind": "protocol", "message": f"unknown op {op!r}"}
        except BaseException as exc:  # the user's code failed; describe it, the worker lives on unless fatal
            reply = describe_error(exc)
        reply.update(output=capture.text(), cpu=cpu_used())
        return reply

    def load(self, source: str, functions: list[str]) -> dict[str, Any]:
        module = types.ModuleType("custom_reward")
        module.__file__ = os.path.join(os.getcwd(), FILENAME)
        sys.modules["custom_reward"] = module
        exec(compile(source, FILENAME, "exec"), module.__dict__)
        self.namespace = module.__dict__
        for name in functions:
            if not callable(self.namespace.get(name)):
                return {"kind": "not_callable", "function": name, "type": type(self.namespace.get(name)).__name__}
        return {"ok": True}

    def call(self, message: dict[str, Any]) -> dict[str, Any]:
        func = self.namespace.get(message["function"])
        if not callable(func):
            return {"kind": "not_callable", "function": message["function"], "type": type(func).__name__}
        kwargs = dict(message.get("kwargs") or {})
        logs: list[list[Any]] = []
        for name in message.get("callables", []):  # TRL's log_metric and log_extra: recorded, replayed by the app
            kwargs[name] = _recorder(name, logs)
        for name in message.get("namespaces", []):  # trainer_state: its simple fields, read as attributes
            kwargs[name] = types.SimpleNamespace(**kwargs[name])
        completions = message["completions"]
        expected = len(completions)  # before the reward runs: it may mutate the list it gets
        result = func(completions=completions, **kwargs)
        if hasattr(result, "__await__"):
            import asyncio

            result = asyncio.run(_await(result))
        reply = to_wire(result, expected)
        if logs:
            reply["logs"] = logs
        return reply


NETWORK_OFF = (
    "Network access is off in the public sandbox: a reward cannot open sockets or look up hosts "
    "(seccomp refuses socket() for every family)."
)
NETWORK_EVENTS = ("socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyaddr", "socket.sethostname")


def refuse_network(event: str, args: tuple) -> None:
    """An audit hook: the clear message for what seccomp refuses anyway (a bare EPERM otherwise).

    Wrapping an existing descriptor (the socket pair asyncio makes) passes: `socket.socket.__init__` gets a fileno.
    """
    if event == "socket.__new__":
        caller = sys._getframe(1)
        if caller.f_code.co_name == "__init__" and caller.f_locals.get("fileno") is not None:
            return
        raise PermissionError(NETWORK_OFF)
    if event in NETWORK_EVENTS:
        raise PermissionError(NETWORK_OFF)


async def _await(awaitable):
    return await awaitable


def _recorder(name: str, logs: list[list[Any]]):
    def record(*args: Any) -> None:
        logs.append([name, *args])

    return record


def main() -> None:
    proto_in, proto_out = os.dup(0), os.dup(1)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)  # user code reading stdin gets EOF, and its C-level prints cannot corrupt the protocol
    os.dup2(devnull, 1)
    init = protocol.read_blocking(proto_in)
    if init is None:
        return
    limits = init["limits"]
    if limits.get("nice"):
        os.setpriority(os.PRIO_PROCESS, 0, int(limits["nice"]))  # before seccomp, which refuses setpriority
    features = confine.confine(
        os.getcwd(),
        init["repo_root"],
        limits["memory_mb"],
        limits["cpu_seconds"],
        min(limits["file_mb"], limits.get("disk_mb", limits["file_mb"])),
        limits.get("read_paths", ()),
        max_abi=limits.get("landlock_abi", 0),
        network=limits.get("network", True),
        shared=limits.get("shared_reads", True),
        parent=limits.get("children", False),
    )
    if not limits.get("network", True):
        sys.addaudithook(refuse_network)
    protocol.write_blocking(proto_out, {"ok": True, "pid": os.getpid(), "features": features})
    worker = Worker(limits)
    while (message := protocol.read_blocking(proto_in)) is not None:
        reply = worker.handle(message)
        try:
            data = protocol.encode(reply)
        except (TypeError, ValueError, RecursionError) as exc:  # e.g. a circular list given to log_extra
            data = protocol.encode({**describe_error(exc), "cpu": cpu_used()})
        protocol.write_all(proto_out, data)
        if reply.get("fatal"):  # after a MemoryError the interpreter's state is not worth trusting
            os._exit(0)


if __name__ == "__main__":
    main()
