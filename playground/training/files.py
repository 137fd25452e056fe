"""The run folder's files on disk: JSON written atomically, JSON lines appended whole, and a lock on a folder for a
read-modify-write that threads and processes share."""

from __future__ import annotations

import json
import logging
import math
import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any


try:
    import fcntl
except ImportError:  # not on Windows: writes to one folder are not serialised there
    fcntl = None

logger = logging.getLogger(__name__)

TMP_PREFIX = "."  # hidden entries (runs being created, temporary files) are not runs


def json_safe(value: Any) -> Any:
    """JSON-safe copy: NaN and inf become None, numpy/torch scalars become Python numbers, tuples become lists."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(v) for v in value]
    if not isinstance(value, str | bytes | int) and callable(getattr(value, "item", None)):
        try:
            return json_safe(value.item())
        except (TypeError, ValueError):
            return str(value)
    return value


def dumps(value: Any, indent: int | None = None) -> str:
    return json.dumps(json_safe(value), ensure_ascii=False, allow_nan=False, default=str, indent=indent)


def write_atomic(path: Path, text: str) -> None:
    """Write `text` to a temporary file in the same folder, fsync it, then `os.replace` it over `path`."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f"{TMP_PREFIX}{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


@contextmanager
def locked(folder: Path):
    """Hold an exclusive lock on `folder` (flock on its descriptor): a read-modify-write of a file in it is not
    interleaved with another thread's or process's."""
    if fcntl is None:
        yield
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases its lock


def append_lines(path: Path, rows: list[dict]) -> None:
    """Append rows as JSON lines with one `write` on an O_APPEND descriptor, then fsync.

    A line left half-written by a killed process is closed with a newline first, so the new rows stay readable.
    """
    if not rows:
        return
    data = "".join(dumps(row) + "\n" for row in rows).encode("utf-8")
    fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        size = os.fstat(fd).st_size
        if size and os.pread(fd, 1, size - 1) != b"\n":
            data = b"\n" + data
        while data:
            written = os.write(fd, data)
            data = data[written:]
        os.fsync(fd)
    finally:
        os.close(fd)


def read_lines(path: Path) -> list[dict]:
    """The JSON objects of a .jsonl file; unreadable lines are skipped with a warning. A missing file is empty."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return []
    rows, bad = [], []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError:
            row = None
        if isinstance(row, dict):
            rows.append(row)
        else:
            bad.append(number)
    if bad:
        logger.warning("Skipped %d unreadable line(s) of %s (line %s).", len(bad), path, ", ".join(map(str, bad)))
    return rows


def keep_lines(path: Path, keep) -> list[dict]:
    """The rows of a .jsonl file that `keep` accepts; the file is rewritten (atomically) when it held others."""
    rows = read_lines(path)
    kept = [row for row in rows if keep(row)]
    if len(kept) != len(rows):
        write_atomic(path, "".join(dumps(row) + "\n" for row in kept))
    return kept


def read_json_object(path: Path) -> dict:
    """Parse a JSON object; raises FileNotFoundError when missing and ValueError when it is not a JSON object."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"{path.name} is not a JSON object")
    return data
