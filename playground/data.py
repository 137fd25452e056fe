"""Prompt sets: built-in sets, user files (CSV, JSON, JSONL, Parquet) and Hugging Face Hub datasets.

`load_prompts(PromptSource(...))` returns a `datasets.Dataset` with a `prompt` column (plus the other columns, which
TRL passes to reward functions as keyword arguments) and a list of warnings. Every bad input becomes one `DataError`
whose message names the file, row, line or column at fault.

Prompts are either standard (a string) or conversational (a list of `{"role", "content"}` messages), as in TRL.
"""

from __future__ import annotations

import ast
import csv
import io
import json
import logging
import os
import re
import stat
import threading
import time
from collections import OrderedDict
from dataclasses import asdict, dataclass, field, fields
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import datasets

from playground.errors import DataError
from playground.texts import msg


logger = logging.getLogger(__name__)

MB = 1024 * 1024
MAX_FILE_BYTES = 50 * MB  # overridable with the env var PLAYGROUND_MAX_FILE_MB
MAX_PROMPT_CHARS = 20_000
FILE_TYPES = {".csv": "csv", ".json": "json", ".jsonl": "jsonl", ".parquet": "parquet"}
KINDS = ("builtin", "file", "hub")
ROLES = ("system", "user", "assistant", "tool")

BUILTIN_SETS: dict[str, str] = {
    "writing": "Short English writing prompts; some ask for <intro>/<body>/<conclusion> structure.",
    "arithmetic": "Simple arithmetic word problems with the numeric answer in an `answer` column.",
    "chinese": "Short questions and instructions in Simplified Chinese.",
    "code": "Small Python programs (stdin to stdout) with test cases in a `tests` column, for code_tests.",
}

# Column names that usually hold the prompt, used to suggest a column mapping.
_LIKELY_PROMPT_COLUMNS = ("question", "problem", "instruction", "input", "query", "text", "messages", "conversation")


def list_builtin_sets() -> list[str]:
    return list(BUILTIN_SETS)


def parse_column_map(text: str | dict | None) -> dict[str, str]:
    """`column_map` as typed: `question=prompt, solution=answer` (the documented form); a JSON or Python dict such as
    `{'question': 'prompt'}` is read too. Raises `DataError` on anything else."""
    if isinstance(text, dict):
        return text
    text = (text or "").strip()
    if not text:
        return {}
    if text.startswith("{"):
        try:
            value = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            value = None
        if not isinstance(value, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
            raise DataError("data.column_map", text=text)
        return {k.strip(): v.strip() for k, v in value.items()}
    pairs = [item.split("=", 1) for item in text.split(",") if item.strip()]
    if not all(len(pair) == 2 and pair[0].strip() and pair[1].strip() for pair in pairs):
        raise DataError("data.column_map", text=text)
    return {k.strip(): v.strip() for k, v in pairs}


_HUB_DATASET_ID = re.compile(r"[A-Za-z0-9][\w.-]*/[\w.-]+")


def guess_kind(name: str, public: bool = False) -> str | None:
    """The source kind that `name`, as typed into `dataset_name`, most likely means: 'builtin' for a built-in set,
    'file' for an existing file or a name ending in a prompt-file type (never in public mode, where files must be
    uploaded), 'hub' for an `org/name` id; None when it reads as none of these."""
    name = (name or "").strip()
    if name in BUILTIN_SETS:
        return "builtin"
    path = Path(name).expanduser()
    if not public and (path.is_file() or path.suffix.lower() in FILE_TYPES):
        return "file"
    if _HUB_DATASET_ID.fullmatch(name) and not name.startswith((".", "/", "~")):
        return "hub"
    return None


@dataclass
class PromptSource:
    """Where the prompts come from and how to read them."""

    kind: Literal["builtin", "file", "hub"] = field(
        default="builtin", metadata={"help": "Where the prompts come from: 'builtin', 'file' or 'hub'."}
    )
    name: str = field(
        default="writing", metadata={"help": "Built-in set name, path of a local file, or Hugging Face dataset id."}
    )
    config: str | None = field(default=None, metadata={"help": "Hub dataset configuration (subset) name."})
    split: str = field(default="train", metadata={"help": "Hub dataset split."})
    prompt_column: str = field(
        default="prompt", metadata={"help": "Column holding the prompts; it is renamed to `prompt`."}
    )
    column_map: dict[str, str] = field(
        default_factory=dict,
        metadata={
            "help": "Column renames, as existing=new pairs separated by commas: solution=answer makes an `answer` "
            "column of `solution` (for rewards that read `answer`); question=prompt makes `question` the prompt."
        },
    )
    system_prompt: str | None = field(
        default=None, metadata={"help": "System message added to every prompt (prompts become conversational)."}
    )
    max_rows: int = field(default=10_000, metadata={"help": "Only the first `max_rows` rows are used."})

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise DataError("data.kind_unknown", kind=self.kind, valid=", ".join(KINDS))
        if not isinstance(self.name, str) or not self.name.strip():
            raise DataError("data.no_name")
        if isinstance(self.max_rows, bool) or not isinstance(self.max_rows, int) or self.max_rows < 1:
            raise DataError("data.max_rows", value=self.max_rows)
        if not isinstance(self.column_map, dict) or not all(
            isinstance(k, str) and isinstance(v, str) and k and v for k, v in self.column_map.items()
        ):
            raise DataError("data.column_map_type")
        if self.system_prompt is not None and not self.system_prompt.strip():
            self.system_prompt = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PromptSource:
        known = [f.name for f in fields(cls)]
        unknown = sorted(set(data) - set(known))
        if unknown:
            raise DataError("data.unknown_fields", names=", ".join(unknown), valid=", ".join(known))
        return cls(**data)


@dataclass
class PromptData:
    """Loaded prompts: a dataset with a `prompt` column, and warnings to show the user."""

    dataset: datasets.Dataset
    warnings: list[str] = field(default_factory=list)

    @property
    def conversational(self) -> bool:
        return len(self.dataset) > 0 and isinstance(self.dataset[0]["prompt"], list)


# --------------------------------------------------------------------------------------------------------------------
# Messages and rendering


def to_messages(prompt: str | list[dict[str, str]], system_prompt: str | None = None) -> list[dict[str, str]]:
    """Return `prompt` as chat messages; `system_prompt` is prepended unless the conversation already has one."""
    if isinstance(prompt, str):
        messages = [{"role": "user", "content": prompt}]
    else:
        messages = [{"role": m["role"], "content": m["content"]} for m in prompt]
    if system_prompt and not (messages and messages[0]["role"] == "system"):
        messages.insert(0, {"role": "system", "content": system_prompt})
    return messages


def render_prompt(tokenizer: Any, prompt: str | list[dict[str, str]], use_chat_template: bool = True) -> str:
    """The text the model sees for `prompt`.

    Conversational prompts always go through the tokenizer's chat template (with the generation prompt); plain prompts
    do too when `use_chat_template` is set, as a single user message. Without a chat template, plain prompts are used
    as-is and conversations are reduced to their message contents, one per line.
    """
    has_template = bool(getattr(tokenizer, "chat_template", None))
    if isinstance(prompt, str) and not (has_template and use_chat_template):
        return prompt
    if not has_template:
        return "\n".join(m["content"] for m in prompt)
    try:
        text = tokenizer.apply_chat_template(to_messages(prompt), add_generation_prompt=True, tokenize=False)
    except Exception as e:  # jinja errors, e.g. "roles must alternate"
        raise DataError("data.chat_template", detail=_first_line(e)) from e
    return text


# --------------------------------------------------------------------------------------------------------------------
# Public mode: a browser reads only the files it uploaded

UPLOAD_QUOTA_MB = 100  # per browser, all its uploads together; overridable with PLAYGROUND_UPLOAD_QUOTA_MB
UPLOAD_FILES = 20  # most files one browser may upload
# The same sentence whether the path is another visitor's upload or any other file: nothing tells them apart.
NOT_UPLOADED = "data.not_uploaded"


def upload_quota_bytes() -> int:
    value = os.environ.get("PLAYGROUND_UPLOAD_QUOTA_MB")
    try:
        return int(float(value) * MB) if value else UPLOAD_QUOTA_MB * MB
    except ValueError:
        logger.warning("Ignoring PLAYGROUND_UPLOAD_QUOTA_MB=%r: not a number.", value)
        return UPLOAD_QUOTA_MB * MB


def plain_file(path: str) -> str:
    """`path` made absolute, if it names a regular file reached through no symbolic link; else a `DataError`."""
    absolute = os.path.abspath(os.path.expanduser(path))
    try:
        info = os.lstat(absolute)
    except OSError:
        raise DataError("data.no_file", name=Path(absolute).name) from None
    if not stat.S_ISREG(info.st_mode) or os.path.realpath(absolute) != absolute:
        raise DataError("data.not_plain", name=Path(absolute).name)
    return absolute


UPLOAD_SECONDS = 24 * 3600  # Gradio removes an upload after a day (the app's `delete_cache`); so does its record


@dataclass
class _UploadRecord:
    address: str | None
    files: dict[str, int] = field(default_factory=dict)
    seen: float = 0.0


class Uploads:
    """The files each browser uploaded through the page: in public mode the only files the app reads for it.

    A record belongs to a browser's owner key (its server-issued token, never Gradio's session hash, which any client
    makes up afresh) and to the client's address. Each browser may upload `max_files` files and `quota_bytes` bytes in
    all. At most `max_owners` records are kept and at most `per_address` from one address: a new record first replaces
    records older than `max_age` seconds, then its own address's oldest; when neither frees room it is refused. So no
    client replaces another address's uploads, however many sessions or tokens it opens. Thread-safe.
    """

    def __init__(
        self,
        quota_bytes: int | None = None,
        max_files: int = UPLOAD_FILES,
        max_owners: int = 1000,
        per_address: int | None = None,
        max_age: float = UPLOAD_SECONDS,
    ):
        self.quota_bytes = upload_quota_bytes() if quota_bytes is None else quota_bytes
        self.max_files = max_files
        self.max_owners = max_owners
        self.per_address = max_owners if per_address is None else per_address
        self.max_age = max_age
        self._lock = threading.Lock()
        self._records: OrderedDict[str, _UploadRecord] = OrderedDict()

    def add(self, owner: str | None, path: str, address: str | None = None) -> str:
        """Record `path` as uploaded by `owner` from `address` (over the quota, or no room: a `DataError`); returns
        the path as recorded."""
        if not owner:
            raise DataError("data.upload_session")
        absolute = plain_file(path)
        size = os.lstat(absolute).st_size
        with self._lock:
            record = self._records.pop(owner, None) or self._make_room(address)
            record.seen = time.monotonic()
            self._records[owner] = record
            if absolute in record.files:
                return absolute
            if len(record.files) >= self.max_files or sum(record.files.values()) + size > self.quota_bytes:
                raise DataError("data.upload_quota", files=self.max_files, size=_size(self.quota_bytes))
            record.files[absolute] = size
        return absolute

    def _make_room(self, address: str | None) -> _UploadRecord:
        """A new record for `address`, once room is made for it without touching another address's live records."""
        cutoff = time.monotonic() - self.max_age
        for key in [key for key, record in self._records.items() if record.seen < cutoff]:
            del self._records[key]
        own = [key for key, record in self._records.items() if record.address == address]  # oldest first
        while own and (len(own) >= self.per_address or len(self._records) >= self.max_owners):
            del self._records[own.pop(0)]
        if len(own) >= self.per_address or len(self._records) >= self.max_owners:
            raise DataError("admission.uploads_full")
        return _UploadRecord(address)

    def check(self, owner: str | None, path: str) -> str:
        """`path` as recorded, if `owner` uploaded it and it is still a plain file; else a `DataError`."""
        absolute = os.path.abspath(os.path.expanduser(path or ""))
        with self._lock:
            record = self._records.get(owner) if owner else None
            uploaded = record is not None and absolute in record.files
        if not uploaded:
            raise DataError(NOT_UPLOADED)
        return plain_file(absolute)

    def __len__(self) -> int:
        return len(self._records)


def check_public_source(source: PromptSource, uploads: Uploads, owner: str | None) -> None:
    """Public mode's rule for a prompt source: a built-in set, a file this browser (`owner`) uploaded, or a Hub dataset
    id that names no path of the server (the `datasets` library would read a local folder of that name)."""
    name = source.name.strip()
    if source.kind == "file":
        uploads.check(owner, name)
    elif source.kind == "hub" and not is_hub_id(name):
        raise DataError("data.public_hub_id", name=name)


def is_hub_id(name: str) -> bool:
    """`org/name`, and not a path that exists here (relative to the working folder or the home folder)."""
    if not _HUB_DATASET_ID.fullmatch(name) or name.startswith((".", "/", "~")) or ".." in name:
        return False
    return not (os.path.lexists(name) or os.path.lexists(os.path.expanduser(name)))


# --------------------------------------------------------------------------------------------------------------------
# Loading


def load_prompts(source: PromptSource) -> PromptData:
    """Load, check and normalize the prompts described by `source`. Raises `DataError` on bad input."""
    warnings: list[str] = []
    if source.kind == "builtin":
        what = msg("data.what.builtin", name=source.name.strip())
        rows, lines = _read_builtin(source.name.strip())
    elif source.kind == "file":
        path = Path(source.name.strip()).expanduser()
        what = msg("data.what.file", name=path.name)
        rows, lines = _read_file(path, source.max_rows + 1)
    else:
        what = msg("data.what.dataset", name=source.name.strip())
        rows, lines = _read_hub(source), None
    total = len(rows)
    if total == 0:
        raise DataError("data.no_rows", what=what)
    if total > source.max_rows:
        rows = rows[: source.max_rows]
        # a file is read up to the cap
        count = msg("data.more_than", count=source.max_rows) if source.kind != "builtin" else f"{total:,}"
        warnings.append(msg("data.rows_capped", what=what, count=count, max=source.max_rows))
    columns = _columns(rows)
    rows, columns = _rename(rows, columns, source, what, warnings)
    _check_prompts(rows, lines, what)
    if source.system_prompt:
        for row in rows:
            row["prompt"] = to_messages(row["prompt"], source.system_prompt)
    else:
        for row in rows:
            if isinstance(row["prompt"], list):
                row["prompt"] = to_messages(row["prompt"])
    dataset = _to_dataset(rows, columns, what)
    logger.info("Loaded %d prompts from the %s (columns: %s).", len(dataset), what, ", ".join(columns))
    return PromptData(dataset=dataset, warnings=warnings)


def max_file_bytes() -> int:
    """The file size limit: env var PLAYGROUND_MAX_FILE_MB if set (in MB), else `MAX_FILE_BYTES`."""
    value = os.environ.get("PLAYGROUND_MAX_FILE_MB")
    if value:
        try:
            return int(float(value) * MB)
        except ValueError:
            logger.warning("Ignoring PLAYGROUND_MAX_FILE_MB=%r: not a number.", value)
    return MAX_FILE_BYTES


Rows = tuple[list[dict[str, Any]], list[int] | None]  # the rows, and each row's line number in a text file


def _read_builtin(name: str) -> Rows:
    if name not in BUILTIN_SETS:
        raise DataError("data.unknown_set", name=name, valid=", ".join(BUILTIN_SETS))
    source_text = resources.files("playground").joinpath("prompt_sets", f"{name}.jsonl").read_text(encoding="utf-8")
    return _parse_jsonl(source_text, msg("data.what.builtin", name=name))


def _read_file(path: Path, max_rows: int | None = None) -> Rows:
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
        raise DataError("data.file_size", label=label, size=_size(size), limit=_size(limit))
    if kind == "parquet":
        return _read_parquet(path, max_rows)
    text = _decode(path.read_bytes(), label, kind)
    parse = {"csv": _parse_csv, "json": _parse_json, "jsonl": _parse_jsonl}[kind]
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
        raise DataError("data.json_shape", what=what, kind=_kind(data))
    for i, item in enumerate(data):
        if not isinstance(item, dict):
            raise DataError("data.json_item", item=i + 1, what=what, kind=_kind(item, article=True))
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


def _parse_jsonl(text: str, what: str, max_rows: int | None = None) -> Rows:
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
            raise DataError("data.jsonl_item", line=lineno, what=what, kind=_kind(item, article=True))
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
                    "data.parquet_size", name=path.name, size=_size(decoded), limit=_size(MAX_PARQUET_DECODED_BYTES)
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
        raise DataError("data.parquet_invalid", name=path.name, detail=_first_line(e)) from None


def _read_hub(source: PromptSource) -> list[dict[str, Any]]:
    from datasets.exceptions import DatasetNotFoundError

    offline = bool(datasets.config.HF_HUB_OFFLINE)  # HF_HUB_OFFLINE or HF_DATASETS_OFFLINE
    name, limit = source.name.strip(), source.max_rows + 1
    try:
        if offline:  # streaming needs the network; the regular path can use the local cache
            ds = datasets.load_dataset(name, source.config, split=source.split)
            return ds.select(range(min(len(ds), limit))).to_list()
        # Stream so that a huge dataset is not downloaded for a few thousand prompts.
        ds = datasets.load_dataset(name, source.config, split=source.split, streaming=True)
        return list(ds.take(limit))
    except DatasetNotFoundError as e:
        raise DataError("data.hub_missing", name=name) from e
    except (ConnectionError, TimeoutError) as e:
        raise DataError("data.hub_offline" if offline else "data.hub_unreachable", name=name) from e
    except Exception as e:
        if source.config:
            raise DataError(
                "data.hub_failed_config", name=name, split=source.split, config=source.config, detail=_first_line(e)
            ) from e
        raise DataError("data.hub_failed", name=name, split=source.split, detail=_first_line(e)) from e


def _columns(rows: list[dict[str, Any]]) -> list[str]:
    columns: dict[str, None] = {}
    for row in rows:
        columns.update(dict.fromkeys(row))
    return list(columns)


def _rename(
    rows: list[dict[str, Any]], columns: list[str], source: PromptSource, what: str, warnings: list[str]
) -> tuple[list[dict[str, Any]], list[str]]:
    if not columns:
        raise DataError("data.no_columns", what=what)
    listed = ", ".join(columns)
    mapped_to_prompt = source.prompt_column == "prompt" and "prompt" in source.column_map.values()
    if source.prompt_column not in columns and not mapped_to_prompt:
        guess = next((c for c in _LIKELY_PROMPT_COLUMNS if c in columns), columns[0])
        raise DataError("data.no_prompt_column", what=what, column=source.prompt_column, columns=listed, guess=guess)
    mapping = dict(source.column_map)
    if source.prompt_column != "prompt":
        if mapping.get(source.prompt_column, "prompt") != "prompt":
            raise DataError(
                "data.prompt_and_mapped", column=source.prompt_column, target=mapping[source.prompt_column]
            )
        mapping[source.prompt_column] = "prompt"
    missing = [repr(c) for c in mapping if c not in columns]
    if missing:
        raise DataError("data.map_missing", names=", ".join(missing), what=what, columns=listed)
    targets = list(mapping.values())
    clash = sorted({t for t in targets if targets.count(t) > 1})
    if clash:
        raise DataError("data.map_clash", names=", ".join(map(repr, clash)))
    dropped = [t for t in targets if t in columns and t not in mapping]
    for t in dropped:
        source_col = next(c for c, v in mapping.items() if v == t)
        warnings.append(msg("data.column_replaced", new=t, old=source_col))
    if not mapping:
        return rows, columns
    new_columns = [mapping.get(c, c) for c in columns if c not in dropped]
    new_rows = [{mapping.get(k, k): v for k, v in row.items() if k not in dropped} for row in rows]
    return new_rows, new_columns


def _check_prompts(rows: list[dict[str, Any]], lines: list[int] | None, what: str) -> None:
    """Check every prompt; `lines` gives each row's line in a text file, so messages can say "line N"."""
    first_kind: tuple[str, str] | None = None
    for i, row in enumerate(rows):
        prompt = row.get("prompt")
        loc = msg("data.loc.line", line=lines[i]) if lines else msg("data.loc.row", row=i + 1)
        at = msg("data.at.line", line=lines[i], what=what) if lines else msg("data.at.row", row=i + 1, what=what)
        if prompt is None:
            raise DataError("data.prompt_missing", at=at)
        if isinstance(prompt, str):
            kind, length = "text", len(prompt)
            if not prompt.strip():
                raise DataError("data.prompt_empty", at=at)
        elif isinstance(prompt, list):
            kind, length = "messages", 0
            if not prompt:
                raise DataError("data.prompt_no_messages", at=at)
            for j, m in enumerate(prompt, start=1):
                if not (isinstance(m, dict) and isinstance(m.get("role"), str) and isinstance(m.get("content"), str)):
                    raise DataError("data.prompt_message_shape", at=at, index=j)
                if m["role"] not in ROLES:
                    raise DataError("data.prompt_role", at=at, index=j, role=m["role"], valid=", ".join(ROLES))
                length += len(m["content"])
        else:
            raise DataError("data.prompt_type", at=at, kind=_kind(prompt, article=True))
        if length > MAX_PROMPT_CHARS:
            raise DataError("data.prompt_length", at=at, length=length, max=MAX_PROMPT_CHARS)
        if first_kind is None:
            first_kind = (kind, loc)
        elif kind != first_kind[0]:
            raise DataError(
                "data.prompt_mixed",
                at=at,
                kind=msg(f"data.prompt_kind.{kind}"),
                first_at=first_kind[1],
                first_kind=msg(f"data.prompt_kind.{first_kind[0]}"),
            )


def _to_dataset(rows: list[dict[str, Any]], columns: list[str], what: str) -> datasets.Dataset:
    import pyarrow as pa

    data = {c: [row.get(c) for row in rows] for c in columns}
    try:
        return datasets.Dataset.from_dict(data)
    except (pa.ArrowException, TypeError, ValueError):
        for c, values in data.items():
            try:
                pa.array(values)
            except (pa.ArrowException, TypeError, ValueError):
                raise DataError("data.column_types", column=c, what=what) from None
        raise DataError("data.not_a_table", what=what) from None


def _kind(value: Any, article: bool = False) -> str:
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


def _size(n: int) -> str:
    return f"{n / MB:.1f} MB" if n >= MB else f"{n / 1024:.1f} KB" if n >= 1024 else f"{n} bytes"


def _json_error(e: json.JSONDecodeError) -> str:
    """'Expecting value at column 3', 'Unterminated string starting at column 12' (json's msg may end in 'at')."""
    return f"{e.msg} column {e.colno}" if e.msg.endswith(" at") else f"{e.msg} at column {e.colno}"


def _first_line(e: BaseException) -> str:
    text = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
    return text[:300].rstrip(".")
