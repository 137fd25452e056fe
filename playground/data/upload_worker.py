"""Public mode reads uploaded files in a worker process of their own, never in the app's.

`read_upload(path, max_rows)` starts `python -m playground.data.upload_worker` with a deadline
(`Caps.upload_parse_seconds`; killed past it); the worker caps its own address space (`Caps.upload_parse_memory_mb`)
and CPU time before it opens the file. It
prices the file with the admission gate as it reads it: each CSV or JSONL line's characters before the line is
parsed (`check_upload_lines`), then each row's columns, keys, nesting and value sizes (`check_upload_row`) and the
columns of all rows together. It sends back the rows as JSON, or the refusal's catalogue key and values, so the page
shows it in its language. A refusal is logged as one short line (the file's name and the key), never its content.
"""

from __future__ import annotations

import json
import logging
import resource
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

from playground.data.parsers import FILE_TYPES, Rows, max_file_bytes, read_file
from playground.errors import DataError, PlaygroundError


logger = logging.getLogger(__name__)

REPLY_SLACK = 4  # the reply (rows as JSON) is at most this many times the file's bytes, plus 1 MB


def read_upload(path: Path, max_rows: int | None = None, caps: Any = None) -> Rows:
    """The rows of uploaded file `path`, read and priced in a bounded worker process (public mode), with `caps` (an
    `admission.Caps`; the process's settings by default).

    The worker sets its own memory and CPU limits (`confine`) before it opens the file: the app is threaded, and a
    forked child that ran Python code before exec could wait forever on a lock another thread held at the fork (an
    SSL context freed in the child took OpenSSL's), out of reach of the deadline below."""
    from playground import admission

    caps = caps or admission.Caps.from_env()
    request = json.dumps({"path": str(path), "max_rows": max_rows, "caps": asdict(caps)})
    seconds = caps.upload_parse_seconds
    try:
        done = subprocess.run(
            [sys.executable, "-m", "playground.data.upload_worker"],
            input=request.encode(),
            capture_output=True,
            timeout=seconds,
            env=_worker_env(),
        )
    except subprocess.TimeoutExpired:
        logger.info("Upload %r refused: over %g s to read.", path.name, seconds)
        raise DataError(
            "admission.upload_timeout", name=path.name, seconds=f"{seconds:g}", env="PLAYGROUND_UPLOAD_PARSE_SECONDS"
        ) from None
    return _decode_reply(path, done, caps)


def _worker_env() -> dict[str, str]:
    """The sandbox workers' environment (no secret; the app's code importable), with the file size limit."""
    import tempfile

    from playground.sandbox.client import worker_env
    from playground.settings import current

    return {**worker_env(tempfile.gettempdir()), "PLAYGROUND_MAX_FILE_MB": repr(current().max_file_mb)}


def _decode_reply(path: Path, done: subprocess.CompletedProcess, caps: Any) -> Rows:
    reply: dict = {}
    if done.returncode == 0:
        try:
            reply = json.loads(done.stdout)
        except ValueError:
            reply = {}
    if "rows" in reply:
        return reply["rows"], reply.get("lines")
    if "key" in reply:
        logger.info("Upload %r refused: %s.", path.name, reply["key"])
        raise DataError(str(reply["key"]), **_texts_from_json(reply.get("values") or {}))
    if b"MemoryError" in done.stderr[-4000:] or done.returncode in (-9, 137):
        logger.info("Upload %r refused: over %d MB to read.", path.name, caps.upload_parse_memory_mb)
        raise DataError(
            "admission.upload_memory",
            name=path.name,
            mb=caps.upload_parse_memory_mb,
            env="PLAYGROUND_UPLOAD_PARSE_MEMORY_MB",
        )
    last = (done.stderr.decode("utf-8", "replace").strip().splitlines() or [f"exit {done.returncode}"])[-1]
    logger.info("Upload %r refused: the worker ended with %s.", path.name, last[:200])
    raise DataError("admission.upload_failed", name=path.name, detail=last[:200])


def _texts_to_json(values: dict[str, Any]) -> dict[str, Any]:
    """A refusal's values with each catalogue text (`Text`) as its key and values, so the app renders it in the
    page's language."""
    from playground.texts import Text

    def one(value: Any) -> Any:
        if isinstance(value, Text):
            return {"text_key": value.key, "text_values": _texts_to_json(value.values)}
        return value if isinstance(value, int | float | str | bool | None) else str(value)

    return {name: one(value) for name, value in values.items()}


def _texts_from_json(values: dict[str, Any]) -> dict[str, Any]:
    from playground.texts import msg

    def one(value: Any) -> Any:
        if isinstance(value, dict) and "text_key" in value:
            return msg(str(value["text_key"]), **_texts_from_json(value.get("text_values") or {}))
        return value

    return {str(name): one(value) for name, value in values.items()}


# --- the worker ------------------------------------------------------------------------------------------------------


def parse(path: Path, max_rows: int | None, caps: Any) -> Rows:
    """Read and price `path` with `caps` (an `admission.Caps`): lines before they are parsed, then every row."""
    from playground import admission

    kind = FILE_TYPES.get(path.suffix.lower())
    if kind in ("csv", "jsonl") and path.is_file() and path.stat().st_size <= max_file_bytes():
        admission.check_upload_lines(path.read_bytes().decode("utf-8", "replace"), caps)
    rows, lines = read_file(path, max_rows)
    for row in rows:
        admission.check_upload_row(row, caps)
    admission.check_upload_columns(rows, caps)
    return rows, lines


def confine(caps: Any) -> None:
    """Cap this worker's address space and CPU time as `caps` says, before it reads the file."""
    memory = caps.upload_parse_memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    cpu = int(caps.upload_parse_seconds) + 1
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))


def main() -> None:
    from playground.admission import Caps

    request = json.loads(sys.stdin.buffer.read())
    caps = Caps(**request["caps"])
    confine(caps)
    try:
        rows, lines = parse(Path(request["path"]), request["max_rows"], caps)
        reply: dict[str, Any] = {"rows": rows, "lines": lines}
    except PlaygroundError as exc:
        if exc.key is None:
            reply = {"key": "admission.upload_failed", "values": {"name": request["path"], "detail": str(exc)[:200]}}
        else:
            reply = {"key": exc.key, "values": _texts_to_json(exc.values)}
    sys.stdout.write(json.dumps(reply, ensure_ascii=False, default=str))


if __name__ == "__main__":
    main()
