"""What every export shares: the model id to write, the prompts as a data file, the reporters, the templates."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import logging
import os
import string
import tempfile
import zipfile
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from playground.errors import PlaygroundError
from playground.models import EMBEDDED, EMBEDDED_HUB_ID, ModelSource
from playground.spec import RunSpec, reporters
from playground.training.store import Run


logger = logging.getLogger(__name__)

TRL_VERSION = importlib.metadata.version("trl")  # exports pin the TRL they were made and tested with
DATA_FILE = "data/train.jsonl"
OUTPUT_DIR = "output"


def report_to(spec: RunSpec) -> list[str]:
    """The trackers the spec's `report_to` names (TRL's values; "none" and empty mean none)."""
    return reporters(spec.grpo.report_to)


def custom_code(spec: RunSpec) -> str | None:
    """The user's custom reward source, when the spec carries one."""
    return getattr(spec, "custom_code", None) or None


def spec_of(source: Run | RunSpec) -> tuple[RunSpec, str | None]:
    """(spec, run id) of a run or a bare spec."""
    if isinstance(source, RunSpec):
        return source, None
    return RunSpec.from_dict(source.spec()), source.id


@dataclass(frozen=True)
class ExportModel:
    """The model as an export names it: a Hub id, or a local folder that only works on this machine."""

    name: str
    note: str  # one line for a comment next to it

    @property
    def is_local(self) -> bool:
        return Path(self.name).is_absolute()


def export_model(spec: RunSpec) -> ExportModel:
    source = ModelSource.parse(spec.model.model_name_or_path) if _is_local_or_embedded(spec) else None
    if source is not None and source.kind == EMBEDDED:
        return ExportModel(EMBEDDED_HUB_ID, "the playground's embedded model (which runs a Q4_1 copy of it)")
    if source is not None and source.kind == "local":
        return ExportModel(source.name, "a local folder of the machine that exported this")
    return ExportModel(spec.model.model_name_or_path.strip(), "a Hugging Face Hub model id")


def machine_note() -> str:
    """The machine an export was made on, in a few words: its GPU, or its CPU and whether that computes bf16."""
    import torch

    from playground.fastpath.packing import cpu_has_native_bf16, cpu_model_name

    bf16 = "native bf16" if cpu_has_native_bf16() else "no native bf16"
    cpu = f"{cpu_model_name()} ({bf16})"
    if torch.cuda.is_available():
        return f"{torch.cuda.get_device_name(0)} (CUDA), CPU {cpu}"
    return f"no CUDA, CPU {cpu}"


def _is_local_or_embedded(spec: RunSpec) -> bool:
    name = (spec.model.model_name_or_path or "").strip()
    return name in ("", EMBEDDED) or Path(name).expanduser().is_dir()


def gpu_target(spec: RunSpec) -> bool:
    """Exports target a GPU unless the spec pins the CPU: the machine that exports is often not the one that trains."""
    return spec.model.device != "cpu"


# --- prompts ---------------------------------------------------------------------------------------------------------


@dataclass
class ExportedData:
    rows: int
    conversational: bool
    note: str  # where the prompts came from


def write_prompts(spec: RunSpec, path: Path) -> ExportedData:
    """Write the prompts the run trained on as JSON lines: renamed, capped at `max_rows`, as chat messages when the
    model has a chat template (as `playground.training.job.as_chat` does), so TRL sees the same data as the
    playground."""
    from playground.data.chat import to_messages
    from playground.data.sources import load_prompts

    dataset = load_prompts(spec.data).dataset
    chat = _has_chat_template(spec)
    path.parent.mkdir(parents=True, exist_ok=True)
    conversational = False
    with open(path, "w", encoding="utf-8") as f:
        for row in dataset.to_list():
            if chat and isinstance(row["prompt"], str):
                row["prompt"] = to_messages(row["prompt"])
            conversational = conversational or isinstance(row["prompt"], list)
            f.write(json.dumps(row, ensure_ascii=False, default=str) + "\n")
    src = spec.data
    what = {"builtin": "the built-in prompt set", "file": "the file", "hub": "the Hub dataset"}[src.kind]
    note = f"{what} {src.name!r}" + (f" (split {src.split!r})" if src.kind == "hub" else "")
    return ExportedData(len(dataset), conversational, note)


def _has_chat_template(spec: RunSpec) -> bool:
    from playground.models import load_tokenizer

    try:
        tokenizer = load_tokenizer(ModelSource.parse(spec.model.model_name_or_path))
    except PlaygroundError as exc:  # e.g. a Hub model offline: most have a chat template, and the playground used it
        logger.warning("Cannot load the tokenizer (%s); writing the prompts as chat messages.", exc)
        return True
    return bool(getattr(tokenizer, "chat_template", None))


# --- templates -------------------------------------------------------------------------------------------------------


def render(template: str, **values: Any) -> str:
    """Fill `playground/templates/<template>` (`string.Template`: `$name`, `$$` for a dollar sign)."""
    text = resources.files("playground").joinpath("templates", template).read_text(encoding="utf-8")
    return string.Template(text).substitute(**values)


def zip_folder(folder: str | Path, out_path: str | Path | None = None, arcname: str | None = None) -> Path:
    """Zip `folder` into `out_path` (default: `<folder>.zip`) as one top folder named `arcname` (default: the folder's
    name), for a download button. Written to a temporary file, then renamed into place."""
    folder = Path(folder)
    out = Path(out_path) if out_path is not None else folder.with_name(folder.name + ".zip")
    arcname = arcname or folder.name
    out.parent.mkdir(parents=True, exist_ok=True)
    fd, partial = tempfile.mkstemp(dir=out.parent, prefix=f".{out.name}.", suffix=".tmp")
    os.close(fd)
    try:
        with zipfile.ZipFile(partial, "w", compression=zipfile.ZIP_DEFLATED) as zf:
            for item in sorted(folder.rglob("*")):
                if item.is_file():
                    zf.write(item, f"{arcname}/{item.relative_to(folder).as_posix()}")
        os.chmod(partial, 0o644)
        os.replace(partial, out)
    except BaseException:
        Path(partial).unlink(missing_ok=True)
        raise
    return out
