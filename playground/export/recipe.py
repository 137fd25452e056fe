"""Export a run as a `trl grpo` recipe folder, or as one standalone `train_grpo.py` script.

Recipe folder (`trl grpo --config recipe.yaml`, run from inside the folder):

- `recipe.yaml`        TRL's `ScriptArguments`, `ModelConfig` and `GRPOConfig` fields, with `reward_funcs` as dotted
                       paths into `rewards_module.py` and their `reward_weights`;
- `rewards_module.py`  the chosen rewards, imported from `rewards/` (the reward library, copied as it is: no
                       playground needed), plus the user's custom code;
- `data/train.jsonl`   the prompts the run trained on (TRL loads the folder `data` as a local dataset);
- `zero2.yaml`, `fsdp.yaml`  accelerate configs (DeepSpeed ZeRO-2, FSDP2) for several GPUs;
- `README.md`          the exact commands.

The script folder holds `train_grpo.py` (the same settings and rewards, `GRPOTrainer` called directly), the reward
library, the data and the accelerate configs.
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from playground.errors import PlaygroundError, SpecError
from playground.export.common import (
    DATA_FILE,
    OUTPUT_DIR,
    TRL_VERSION,
    ExportedData,
    custom_code,
    export_model,
    gpu_target,
    machine_note,
    render,
    spec_of,
    write_prompts,
)
from playground.export.reward_code import RewardsCode, copy_library, py_literal, rewards_code
from playground.export.settings import (
    device_args,
    help_text,
    lora_args,
    model_args,
    quantization_args,
    training_args,
)
from playground.spec import RunSpec
from playground.training.launcher import batch_summary
from playground.training.store import Run


logger = logging.getLogger(__name__)

RECIPE, REWARDS_MODULE, SCRIPT, README = "recipe.yaml", "rewards_module.py", "train_grpo.py", "README.md"
WARMUP_FILE = "data/warmup.jsonl"  # the SFT warm-up's prompt/completion rows
ACCELERATE_CONFIGS = {"zero2.yaml": "zero2.yaml", "fsdp.yaml": "fsdp2.yaml"}  # ours -> TRL's shipped file
CPU_FLAGS = "--use_cpu true --bf16 false --dtype float32"


def export_recipe(source: Run | RunSpec, out_dir: str | Path) -> Path:
    """Write a `trl grpo` recipe folder for a run (or a bare spec) into `out_dir`, which must be new or empty."""
    spec, run_id = spec_of(source)
    _refuse_cold_start(spec)
    code = rewards_code(spec.rewards, custom_code(spec), spec.grpo.completions_as_text)

    def write(folder: Path) -> None:
        data = write_prompts(spec, folder / DATA_FILE)
        doc = f"Reward functions for `trl grpo --config {RECIPE}` (dotted paths `rewards_module.<name>`)."
        (folder / REWARDS_MODULE).write_text(code.source(doc), encoding="utf-8")
        copy_library(folder)
        (folder / RECIPE).write_text(recipe_yaml(spec, code, data, run_id), encoding="utf-8")
        _write_accelerate_configs(folder)
        (folder / README).write_text(_readme("recipe_README.md", spec, code, data, run_id), encoding="utf-8")

    return _write_folder(out_dir, write)


def export_script(source: Run | RunSpec, out_dir: str | Path) -> Path:
    """Write `train_grpo.py` (plus its data file and accelerate configs) into `out_dir`, which must be new or empty."""
    spec, run_id = spec_of(source)
    code = rewards_code(spec.rewards, custom_code(spec), spec.grpo.completions_as_text)

    def write(folder: Path) -> None:
        data = write_prompts(spec, folder / DATA_FILE)
        _write_warmup_examples(source, spec, folder)
        (folder / SCRIPT).write_text(script_source(spec, code, data, run_id), encoding="utf-8")
        copy_library(folder)
        _write_accelerate_configs(folder)
        (folder / README).write_text(_readme("script_README.md", spec, code, data, run_id), encoding="utf-8")

    return _write_folder(out_dir, write)


# --- recipe.yaml -----------------------------------------------------------------------------------------------------


def recipe_yaml(spec: RunSpec, code: RewardsCode, data: ExportedData, run_id: str | None = None) -> str:
    model = export_model(spec)
    margs = model_args(spec)
    targs = training_args(spec)
    gpu = gpu_target(spec)
    where = f"run {run_id}" if run_id else "a run spec"
    lines = [
        f"# GRPO recipe exported by the GRPO Reward Playground from {where}, for TRL {TRL_VERSION}.",
        f"# Exported on: {machine_note()}. `grpo-playground train --config {RECIPE}` fits the precision to the",
        "# machine that trains (bf16 on CUDA, else what its CPU computes natively); `trl grpo` takes it as written.",
        f"# Run it from this folder:  trl grpo --config {RECIPE}",
        "# Keys are TRL's own: ScriptArguments, ModelConfig and GRPOConfig. Any key can be overridden on the command",
        "# line, e.g. `--max_steps 500`. See README.md for several GPUs and vLLM.",
        "",
        "# --- Model (TRL ModelConfig) ---",
        _line("model_name_or_path", margs.pop("model_name_or_path"), model.note),
        _line("dtype", margs.pop("dtype"), f"the base model's dtype; on a CPU pass {CPU_FLAGS}"),
        *(_line(k, v) for k, v in margs.items()),
        "",
        "# --- Data ---",
        _line("dataset_name", str(Path(DATA_FILE).parent), f"the folder holding {DATA_FILE}: {data.note}"),
        _line("dataset_train_split", "train"),
        "",
        "# --- Rewards: functions in rewards_module.py, and their weights in the same order ---",
        _line("reward_funcs", [f"{Path(REWARDS_MODULE).stem}.{n}" for n in code.names]),
        _line("reward_weights", code.weights, "metrics: " + ", ".join(f"rewards/{m}/mean" for m in code.metric_names)),
        "",
        "# --- GRPO (TRL GRPOConfig) ---",
        _line("output_dir", OUTPUT_DIR, "the adapter and checkpoints"),
        *(_line(k, v) for k, v in targs.items()),
        f"# Global batch with the {_processes(spec)} the playground used: {batch_summary(spec)}.",
        "",
        f"# --- Precision: this recipe targets a {'GPU' if gpu else 'CPU'} ---",
        *(
            _line(k, v, f"on a CPU pass {CPU_FLAGS}" if gpu and k == "bf16" else None)
            for k, v in device_args(spec).items()
            if v or k == "bf16"
        ),
        "",
        "# --- Optional ---",
        "# use_vllm: true  # generate with vLLM; start `trl vllm-serve` first, see README.md",
        "# vllm_mode: server",
    ]
    if "report_to" not in targs:
        lines.append("# report_to: [trackio]  # also log to trackio (pip install trackio); wandb, tensorboard alike")
    return "\n".join(lines) + "\n"


def _line(key: str, value: Any, comment: str | None = None) -> str:
    text = yaml.safe_dump(value, default_flow_style=True, width=10**6, allow_unicode=True, sort_keys=False)
    text = text.strip().removesuffix("...").strip()
    comment = help_text(key) if comment is None else comment
    return f"{key}: {text}" + (f"  # {comment}" if comment else "")


# --- train_grpo.py ---------------------------------------------------------------------------------------------------


def script_source(spec: RunSpec, code: RewardsCode, data: ExportedData, run_id: str | None = None) -> str:
    model = export_model(spec)
    gpu = gpu_target(spec)
    return render(
        "train_grpo.py.tmpl",
        origin=f"run ({run_id})" if run_id else "run spec",
        trl_version=TRL_VERSION,
        reward_imports="\n\n".join(code.imports),
        model=py_literal(model.name),
        model_note=model.note,
        data_file=py_literal(DATA_FILE),
        data_note=f"{data.rows} prompts from {data.note}" + (", as chat messages" if data.conversational else ""),
        output_dir=py_literal(OUTPUT_DIR),
        use_gpu="torch.cuda.is_available()" if gpu else "False  # the run spec pins the CPU",
        training=_py_dict(training_args(spec), comments=True),
        lora=_py_dict(lora_args(spec)),
        quantization=_py_dict(q) if (q := quantization_args(spec)) else "None",
        completion_prefix=py_literal(spec.grpo.completion_prefix),
        warmup=_warmup_settings(spec),
        rewards=_script_rewards(code),
    )


def _warmup_settings(spec: RunSpec) -> str:
    g = spec.grpo
    if not g.sft_warmup_steps:
        return "None"
    return _py_dict({"steps": g.sft_warmup_steps, "learning_rate": g.sft_learning_rate, "examples": WARMUP_FILE})


def _write_warmup_examples(source: Run | RunSpec, spec: RunSpec, folder: Path) -> None:
    """The warm-up's examples: the run's own (built or given), or the spec's file ('auto' needs a started run)."""
    from playground.training.warmup import EXAMPLES_FILE

    if not spec.grpo.sft_warmup_steps:
        return
    if isinstance(source, Run) and (source.path / EXAMPLES_FILE).is_file():
        origin = source.path / EXAMPLES_FILE
    elif spec.grpo.sft_examples != "auto":
        origin = Path(spec.grpo.sft_examples)
    else:
        raise SpecError("sft_examples", "export.sft_auto")
    (folder / WARMUP_FILE).parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(origin, folder / WARMUP_FILE)


def recipe_blocker(spec: RunSpec) -> str | None:
    """The field that keeps a run from a `trl grpo` recipe: `trl grpo` has no SFT warm-up and no completion
    prefix; None when the recipe can be exported."""
    g = spec.grpo
    for name, value in (("sft_warmup_steps", g.sft_warmup_steps), ("completion_prefix", g.completion_prefix)):
        if value:
            return name
    return None


def _refuse_cold_start(spec: RunSpec) -> None:
    """Say why instead of exporting a different recipe (`recipe_blocker`)."""
    if (name := recipe_blocker(spec)) is not None:
        raise SpecError(name, "export.cold_start", name=name)


def _py_dict(values: dict[str, Any], comments: bool = False) -> str:
    if not comments:
        return "{" + ", ".join(f"{py_literal(k)}: {py_literal(v)}" for k, v in values.items()) + "}"
    lines = []
    for key, value in values.items():
        text = help_text(key)
        lines.append(f"    {py_literal(key)}: {py_literal(value)}," + (f"  # {text}" if text else ""))
    return "{\n" + "\n".join(lines) + "\n}"


def _script_rewards(code: RewardsCode) -> str:
    parts = []
    if code.custom:
        parts += ["# " + "-" * 40 + " Your custom reward code", code.custom]
    parts += ["# " + "-" * 40 + " The rewards of this run, named as the playground's metrics", code.wiring]
    return "\n\n\n".join(p.strip("\n") for p in parts if p.strip())


# --- shared files ----------------------------------------------------------------------------------------------------


def _write_accelerate_configs(folder: Path) -> None:
    for ours, trls in ACCELERATE_CONFIGS.items():
        text = resources.files("trl.accelerate_configs").joinpath(trls).read_text(encoding="utf-8")
        text = text.replace("num_processes: 8", "num_processes: 8  # your GPU count, or pass --num_processes N")
        header = f"# From TRL {TRL_VERSION} (trl/accelerate_configs/{trls}), exported by the GRPO Reward Playground\n"
        (folder / ours).write_text(header + text, encoding="utf-8")


def _readme(template: str, spec: RunSpec, code: RewardsCode, data: ExportedData, run_id: str | None) -> str:
    model = export_model(spec)
    rows = "\n".join(
        f"| `{metric}` | {weight:g} | `{name}` |"
        for metric, weight, name in zip(code.metric_names, code.weights, code.names, strict=True)
    )
    local = (
        f"\n> The model is a local folder (`{model.name}`): on another machine, set `model_name_or_path` to a Hub id "
        "or a copy of that folder.\n"
        if model.is_local
        else ""
    )
    return render(
        template,
        origin=f"run `{run_id}`" if run_id else "a run spec",
        trl_version=TRL_VERSION,
        model=model.name,
        local_note=local,
        data_note=f"{data.rows} prompts from {data.note}" + (", as chat messages" if data.conversational else ""),
        rewards_table=rows,
        cpu_flags=CPU_FLAGS,
        max_steps=spec.grpo.max_steps,
        processes=_processes(spec),
        num_processes=spec.model.num_processes,
        batch=batch_summary(spec),
    )


def _processes(spec: RunSpec) -> str:
    n = spec.model.num_processes
    return f"{n} process" + ("es" if n != 1 else "")


def _write_folder(out_dir: str | Path, write) -> Path:
    """Build the export in a hidden sibling folder, then rename it into place: a failed export leaves nothing."""
    out = Path(out_dir).expanduser().resolve()
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise PlaygroundError("export.folder_exists", folder=out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}.tmp-"))
    tmp.chmod(0o755)  # mkdtemp makes it private
    try:
        write(tmp)
        os.replace(tmp, out)  # replaces an empty folder atomically on POSIX
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    logger.info("Exported %s", out)
    return out
