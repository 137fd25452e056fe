"""Messages between the app and a sandbox worker: a 4-byte big-endian length, then UTF-8 JSON.

JSON, never pickle, in both directions: unpickling what the worker sends would run the worker's code in the app. The
app side reads with a deadline and a size cap, and treats every reply as untrusted.
"""

from __future__ import annotations

import json
import os
import select
import struct
import time
from collections.abc import Callable
from typing import Any


HEADER = struct.Struct(">I")
MAX_REPLY_BYTES = 16 * 1024 * 1024  # values and capped output fit in far less; more means a broken or hostile worker
WATCH_SECONDS = 0.1  # how often `receive` runs its `watch` while it waits (the disk quota check)


class ProtocolError(Exception):
    """The worker closed the pipe, was too slow, or sent something that is not a message.

    `reason` is a catalogue key (`sandbox.wire.*`, filled with `values` by the client: the worker imports this module
    and stays free of the catalogue), or the message of the `watch` that stopped the wait.
    """

    def __init__(
        self, reason: str, timed_out: bool = False, closed: bool = False, watched: bool = False, **values: Any
    ):
        super().__init__(reason)
        self.timed_out = timed_out
        self.closed = closed
        self.watched = watched  # the `watch` given to `receive` stopped the wait; `reason` is its message
        self.values = values


def _json_default(value: Any) -> Any:
    """numpy and torch values as plain numbers or lists; anything else as its text."""
    if hasattr(value, "tolist"):
        return value.tolist()
    if hasattr(value, "item"):
        return value.item()
    return str(value)


def encode(message: dict) -> bytes:
    body = json.dumps(message, default=_json_default, ensure_ascii=False).encode("utf-8", "surrogatepass")
    return HEADER.pack(len(body)) + body


# --- worker side: blocking ------------------------------------------------------------------------------------------


def read_blocking(fd: int) -> dict | None:
    """The next message, or None when the app closed the pipe."""
    header = _read_exact_blocking(fd, HEADER.size)
    if header is None:
        return None
    body = _read_exact_blocking(fd, HEADER.unpack(header)[0])
    return None if body is None else json.loads(body)


def _read_exact_blocking(fd: int, n: int) -> bytes | None:
    chunks, left = [], n
    while left:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def write_blocking(fd: int, message: dict) -> None:
    write_all(fd, encode(message))


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


# --- app side: non-blocking, with a deadline ------------------------------------------------------------------------


def send(fd: int, message: dict, deadline: float) -> None:
    """Write one message to a non-blocking pipe before `deadline` (a `time.monotonic()` value)."""
    view = memoryview(encode(message))
    while view:
        _wait(fd, deadline, write=True)
        try:
            view = view[os.write(fd, view) :]
        except BlockingIOError:
            continue
        except BrokenPipeError:
            raise ProtocolError("sandbox.wire.closed_input", closed=True) from None


def receive(
    fd: int, deadline: float, max_bytes: int = MAX_REPLY_BYTES, watch: Callable[[], str | None] | None = None
) -> dict:
    """Read one message from a non-blocking pipe before `deadline`; it must be a JSON object.

    While it waits for the reply to start, `watch()` runs every `WATCH_SECONDS`; a message from it ends the wait.
    """
    (size,) = HEADER.unpack(_read_exact(fd, HEADER.size, deadline, watch))
    if size > max_bytes:
        raise ProtocolError("sandbox.wire.too_big", size=size, max=max_bytes)
    body = _read_exact(fd, size, deadline)
    try:
        message = json.loads(body)
    except (UnicodeDecodeError, ValueError, RecursionError):  # RecursionError: hostile nesting like [[[[...]]]]
        raise ProtocolError("sandbox.wire.malformed") from None
    if not isinstance(message, dict):
        raise ProtocolError("sandbox.wire.malformed")
    return message


def _read_exact(fd: int, n: int, deadline: float, watch: Callable[[], str | None] | None = None) -> bytes:
    chunks, left = [], n
    while left:
        _wait(fd, deadline, write=False, watch=watch)
        try:
            chunk = os.read(fd, min(left, 1 << 20))
        except BlockingIOError:
            continue
        if not chunk:
            raise ProtocolError("sandbox.wire.closed_output", closed=True)
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _wait(fd: int, deadline: float, write: bool, watch: Callable[[], str | None] | None = None) -> None:
    poller = select.poll()  # not select.select: a busy app can hold file descriptors above 1024
    poller.register(fd, select.POLLOUT if write else select.POLLIN)
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise ProtocolError("sandbox.wire.timed_out", timed_out=True)
        if poller.poll(min(remaining, WATCH_SECONDS if watch else remaining) * 1000):
            return
        reason = watch() if watch else None
        if reason:
            raise ProtocolError(reason, watched=True)
