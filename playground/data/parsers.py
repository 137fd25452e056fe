"""Prompt files as rows: the CSV, JSON, JSONL and Parquet readers, each bad input one `DataError` naming the file and
its line or row.

`read_file(path, max_rows)` checks the file's type and size (`max_file_bytes()`, PLAYGROUND_MAX_FILE_MB), decodes it
and returns its rows with each row's line number in a text file. A file is read up to `max_rows`: a small file that
holds millions of rows is never materialized whole.
"""

from __future__ import annotations

import csv
import io
import json
import logging
from pathlib import Path
from typing import Any

from playground.errors import DataError
from playground.settings import current
from playground.texts import msg


logger = logging.getLogger(__name__)

MB = 1024 * 1024
FILE_TYPES = {".csv": "csv", ".json": "json", ".jsonl": "jsonl", ".parquet": "parquet"}


def max_file_bytes() -> int:
    """The file size limit: `PLAYGROUND_MAX_FILE_MB` (the settings'), in bytes."""
    return int(current().max_file_mb * MB)


Rows = tuple[list[dict[str, Any]], list[int] | None]  # the rows, and each row's line number in a text file


def read_file(path: Path, max_rows: int | None = None) -> Rows:
    label = repr(path.name)
    if not path.exists():
        raise DataError("data.file_missing", label=label)
    if not path.is_file():
        raise DataError("data.file_folder", label=label)
    kind = FILE_TYPES.get(path.suffix.lower())
    if kind is None:
        allowed = ", ".join(FILE_TYPES)
        suffix = repr(path.suffix) if path.suffix else msg("data.no_extension")
        raise DataError("data.file_type", label=label, suffix=suffix, allowed=allowed)
    size, limit = path.stat().st_size, max_file_bytes()
    if size > limit:
        raise DataError("data.file_size", label=label, size=size_text(size), limit=size_text(limit))
    if kind == "parquet":
        return _read_parquet(path, max_rows)
    text = _decode(path.read_bytes(), label, kind)
    parse = {"csv": _parse_csv, "json": _parse_json, "jsonl": parse_jsonl}[kind]
    return parse(text, f"file {label}", max_rows)


def _decode(raw: bytes, label: str, kind: str) -> str:
    kind = kind.upper()
    if raw[:2] in (b"\xff\xfe", b"\xfe\xff"):
        raise DataError("data.utf16", label=label, kind=kind)
    if b"\x00" in raw[:8192]:
        raise DataError("data.binary", label=label, kind=kind)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        byte = raw[e.start : e.start + 1].hex().upper()
        raise DataError("data.not_utf8", label=label, byte=byte, position=e.start, kind=kind) from None


def _parse_csv(text: str, what: str, max_rows: int | None = None) -> Rows:
    # The default 128 KiB field limit would reject a long prompt with a confusing message; the file size and
    # MAX_PROMPT_CHARS are the real limits. This only ever raises the process-wide csv limit.
    if csv.field_size_limit() < len(text) + 1:
        csv.field_size_limit(len(text) + 1)
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    header: list[str] | None = None
    rows: list[dict[str, Any]] = []
    lines: list[int] = []
    try:
        while True:
            start = reader.line_num + 1
            record = next(reader, None)
            if record is None:
                break
            if not record:
                continue
            if header is None:
                header = [h.strip() for h in record]
                duplicates = sorted({h for h in header if header.count(h) > 1})
                if duplicates:
                    raise DataError("data.csv_duplicates", what=what, names=", ".join(duplicates))
                continue
            if len(record) != len(header):
                raise DataError("data.csv_fields", line=start, what=what, count=len(record), header=len(header))
            rows.append(dict(zip(header, record, strict=True)))
            lines.append(start)
            if max_rows is not None and len(rows) >= max_rows:
                break
    except csv.Error as e:
        raise DataError("data.csv_invalid", what=what, line=reader.line_num, detail=str(e)) from None
    return rows, lines


def _parse_json(text: str, what: str, max_rows: int | None = None) -> Rows:
    try:
        data = _json_list_head(text, max_rows) if text.lstrip().startswith("[") else json.loads(text)
    except json.JSONDecodeError as e:
        raise DataError("data.json_invalid", what=what, line=e.lineno, column=e.colno, detail=e.msg) from None
    if isinstance(data, dict) and isinstance(data.get("data"), list):
        data = data["data"]
    if not isinstance(data, list):
        raise DataError("data.json_shape", what=what, kind=json_kind(data))
    for i, item in enumerate(data):
        if not isinstance(item, dict):
            raise DataError("data.json_item", item=i + 1, what=what, kind=json_kind(item, article=True))
    return data, None


def _json_list_head(text: str, max_rows: int | None) -> list:
    """The items of a top-level JSON list, decoded one by one and only up to `max_rows`: a list of millions of `{}`
    in a small file is not materialized. A malformed list raises what `json.loads` raises on it."""
    decoder, items = json.JSONDecoder(), []
    try:
        i = _skip_space(text, text.index("[") + 1)
        if text[i : i + 1] == "]":
            return json.loads(text)  # an empty list (and whatever follows it) as json.loads reads it
        while max_rows is None or len(items) < max_rows:
            item, i = decoder.raw_decode(text, i)
            items.append(item)
            i = _skip_space(text, i)
            if text[i : i + 1] == ",":
                i = _skip_space(text, i + 1)
            elif text[i : i + 1] == "]" and not text[i + 1 :].strip():
                return items
            else:
                raise json.JSONDecodeError("malformed list", text, i)
        return items
    except json.JSONDecodeError:
        return json.loads(text)  # raises the same error json.loads gives (the items before it are few)


def _skip_space(text: str, i: int) -> int:
    while i < len(text) and text[i] in " \t\n\r":
        i += 1
    return i


def parse_jsonl(text: str, what: str, max_rows: int | None = None) -> Rows:
    rows, lines = [], []
    for lineno, line in enumerate(io.StringIO(text, newline=None), start=1):  # lazily: \n, \r\n or \r
        if max_rows is not None and len(rows) >= max_rows:
            break
        line = line.removesuffix("\n")
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as e:
            raise DataError("data.jsonl_invalid", line=lineno, what=what, detail=_json_error(e)) from None
        if not isinstance(item, dict):
            raise DataError("data.jsonl_item", line=lineno, what=what, kind=json_kind(item, article=True))
        rows.append(item)
        lines.append(lineno)
    return rows, lines


# Parquet compresses well: a 94 KB file can hold millions of rows or one huge value. Only the rows asked for are
# decoded, in batches, and a file whose decoded columns would pass this many bytes is refused before any is read.
MAX_PARQUET_DECODED_BYTES = 256 * MB
_PARQUET_BATCH_ROWS = 1024


def _read_parquet(path: Path, max_rows: int | None = None) -> Rows:
    import pyarrow.parquet as pq

    try:
        with pq.ParquetFile(path) as parquet:
            meta = parquet.metadata
            decoded = sum(meta.row_group(i).total_byte_size for i in range(meta.num_row_groups))
            if decoded > MAX_PARQUET_DECODED_BYTES:
                raise DataError(
                    "data.parquet_size",
                    name=path.name,
                    size=size_text(decoded),
                    limit=size_text(MAX_PARQUET_DECODED_BYTES),
                )
            rows: list[dict[str, Any]] = []
            for batch in parquet.iter_batches(batch_size=_PARQUET_BATCH_ROWS):
                rows.extend(batch.to_pylist())
                if max_rows is not None and len(rows) >= max_rows:
                    return rows[:max_rows], None
            return rows, None
    except DataError:
        raise
    except Exception as e:  # ArrowInvalid, OSError, ...
        raise DataError("data.parquet_invalid", name=path.name, detail=first_line(e)) from None


def json_kind(value: Any, article: bool = False) -> str:
    """The JSON kind of `value` in words ("number (3)"; "a list" with `article`), as a catalogue phrase."""
    if isinstance(value, bool):
        name = msg("data.kind.boolean")
    elif isinstance(value, int | float):
        name = msg("data.kind.number", value=value)
    elif isinstance(value, str):
        name = msg("data.kind.string")
    elif isinstance(value, list):
        name = msg("data.kind.list")
    elif isinstance(value, dict):
        name = msg("data.kind.object")
    elif value is None:
        return msg("data.kind.null")
    else:
        name = msg("data.kind.other", name=type(value).__name__)
    if not article:
        return name
    return msg("data.article.an" if name[0] in "aeiou" else "data.article.a", kind=name)


def size_text(n: int) -> str:
    return f"{n / MB:.1f} MB" if n >= MB else f"{n / 1024:.1f} KB" if n >= 1024 else f"{n} bytes"


def _json_error(e: json.JSONDecodeError) -> str:
    """'Expecting value at column 3', 'Unterminated string starting at column 12' (json's msg may end in 'at')."""
    return f"{e.msg} column {e.colno}" if e.msg.endswith(" at") else f"{e.msg} at column {e.colno}"


def first_line(e: BaseException) -> str:
    text = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
    return text[:300].rstrip(".")
