"""Downloads of a run's weights: the LoRA adapter as a zip, and the base model with the adapter merged in."""

from __future__ import annotations

import json
import logging
import os
import shutil
import tempfile
from pathlib import Path

from playground.errors import PlaygroundError
from playground.export.common import export_model, zip_folder
from playground.export.model_card import KIND_ADAPTER, build_model_card
from playground.spec import RunSpec
from playground.training.store import Run


logger = logging.getLogger(__name__)

ADAPTER_CONFIG = "adapter_config.json"


def _require_adapter(run: Run) -> None:
    if not run.has_adapter:
        raise PlaygroundError("export.no_adapter", run=run.id)


def copy_adapter(run: Run, out_dir: str | Path) -> Path:
    """Copy the run's adapter files into `out_dir`, naming the base model as exports do (the Hub id, not the
    playground's cache folder of the embedded model) in `adapter_config.json`, with the model card of a Hub push as
    `README.md` (rewards and their code, spec, metrics, samples, how to load it)."""
    _require_adapter(run)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for item in sorted(run.adapter_dir.iterdir()):
        if item.is_file():
            shutil.copy2(item, out / item.name)
    config_path = out / ADAPTER_CONFIG
    config = json.loads(config_path.read_text(encoding="utf-8"))
    config["base_model_name_or_path"] = export_model(RunSpec.from_dict(run.spec())).name
    config_path.write_text(json.dumps(config, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    # The model card of a Hub push, for the folder as unzipped (PEFT's own README is an empty template).
    card = build_model_card(run, repo_id=f"./{out.name}", kind=KIND_ADAPTER)
    (out / "README.md").write_text(card, encoding="utf-8")
    return out


def export_adapter_zip(run: Run, out_path: str | Path) -> Path:
    """Zip the run's LoRA adapter into `out_path` (a `.zip` file, or a folder to put `<run id>-adapter.zip` in).

    The zip holds one folder, `<run id>-adapter/`, that `PeftModel.from_pretrained(base, folder)` loads.
    """
    _require_adapter(run)
    out = Path(out_path).expanduser()
    if out.is_dir() or out.suffix != ".zip":
        out = out / f"{run.id}-adapter.zip"
    out.parent.mkdir(parents=True, exist_ok=True)
    folder = f"{run.id}-adapter"
    with tempfile.TemporaryDirectory() as tmp:
        zip_folder(copy_adapter(run, Path(tmp) / folder), out)
    logger.info("Wrote %s", out)
    return out


def export_merged(run: Run, out_dir: str | Path) -> Path:
    """Merge the run's adapter into its base model (loaded in float32) and save model and tokenizer as safetensors.

    The result loads with `AutoModelForCausalLM.from_pretrained(out_dir)`, no PEFT needed. A run trained in 4-bit is
    merged into the full-precision base, so its outputs are close to, not equal to, base-in-4-bit plus adapter.
    """
    from peft import PeftModel

    from playground.models import load_model

    _require_adapter(run)
    out = Path(out_dir).expanduser().resolve()
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise PlaygroundError("export.folder_exists", folder=out)
    spec = RunSpec.from_dict(run.spec())
    model, tokenizer = load_model(spec.model.model_name_or_path, device="cpu", dtype="float32")
    merged = PeftModel.from_pretrained(model, str(run.adapter_dir)).merge_and_unload()
    merged.config.name_or_path = export_model(spec).name
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}.tmp-"))
    tmp.chmod(0o755)
    try:
        merged.save_pretrained(tmp)  # safetensors
        tokenizer.save_pretrained(tmp)
        os.replace(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    logger.info("Merged %s into %s", run.id, out)
    return out
