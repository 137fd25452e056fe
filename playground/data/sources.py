"""Prompt sources: built-in sets, user files (CSV, JSON, JSONL, Parquet) and Hugging Face Hub datasets.

`load_prompts(PromptSource(...))` returns a `datasets.Dataset` with a `prompt` column (plus the other columns, which
TRL passes to reward functions as keyword arguments) and a list of warnings. Every bad input becomes one `DataError`
whose message names the file, row, line or column at fault.
"""

from __future__ import annotations

import ast
import logging
import os
from dataclasses import asdict, dataclass, field, fields
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import datasets

from playground.data.chat import ROLES, to_messages
from playground.data.parsers import FILE_TYPES, Rows, first_line, json_kind, parse_jsonl, read_file
from playground.data.upload_worker import read_upload
from playground.errors import DataError
from playground.models import HUB_REPO_ID
from playground.settings import is_public
from playground.texts import msg
from playground.texts.help import FIELDS


logger = logging.getLogger(__name__)

MAX_PROMPT_CHARS = 20_000
KINDS = ("builtin", "file", "hub")

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
    if HUB_REPO_ID.fullmatch(name) and not name.startswith((".", "/", "~")):
        return "hub"
    return None


@dataclass
class PromptSource:
    """Where the prompts come from and how to read them."""

    kind: Literal["builtin", "file", "hub"] = field(default="builtin", metadata={"help": FIELDS["dataset_kind"][0]})
    name: str = field(default="writing", metadata={"help": FIELDS["dataset_name"][0]})
    config: str | None = field(default=None, metadata={"help": FIELDS["dataset_config"][0]})
    split: str = field(default="train", metadata={"help": FIELDS["dataset_split"][0]})
    prompt_column: str = field(default="prompt", metadata={"help": FIELDS["prompt_column"][0]})
    column_map: dict[str, str] = field(default_factory=dict, metadata={"help": FIELDS["column_map"][0]})
    system_prompt: str | None = field(default=None, metadata={"help": FIELDS["system_prompt"][0]})
    max_rows: int = field(default=10_000, metadata={"help": FIELDS["max_rows"][0]})

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
    def named(cls, name: str) -> PromptSource:
        """The source a typed name means: a built-in set name, an existing file, or else a Hub dataset id."""
        kind = guess_kind(name)
        if kind == "file" and not os.path.exists(os.path.expanduser(name)):
            kind = "hub"
        return cls(kind=kind or "hub", name=str(Path(name).expanduser()) if kind == "file" else name)

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
        rows, lines = read_upload(path, source.max_rows + 1) if is_public() else read_file(path, source.max_rows + 1)
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


def _read_builtin(name: str) -> Rows:
    if name not in BUILTIN_SETS:
        raise DataError("data.unknown_set", name=name, valid=", ".join(BUILTIN_SETS))
    source_text = resources.files("playground").joinpath("prompt_sets", f"{name}.jsonl").read_text(encoding="utf-8")
    return parse_jsonl(source_text, msg("data.what.builtin", name=name))


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
                "data.hub_failed_config", name=name, split=source.split, config=source.config, detail=first_line(e)
            ) from e
        raise DataError("data.hub_failed", name=name, split=source.split, detail=first_line(e)) from e


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
            raise DataError("data.prompt_type", at=at, kind=json_kind(prompt, article=True))
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
