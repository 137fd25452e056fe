"""Checkpoints that hold a run's whole training state, and what continuing a run from one needs.

The checkpoint is the `transformers.Trainer`'s own (`_save_checkpoint`): the adapter, the optimizer, the scheduler,
the RNG states (`rng_state.pth`) and `trainer_state.json` (the step counter). `RunTrainer` (run_trainer.py) adds
what TRL's `GRPOTrainer` holds between steps and its checkpoint leaves out: its micro-step counter `_step` and the
generations buffered for `steps_per_generation` (`_buffered_inputs`), in `grpo_state.pt`. With these the run
continues with the same tokens, rewards and losses as if it had never stopped.

Layout: `<run>/trainer/checkpoint-<step>/`, the newest `KEEP_CHECKPOINTS` kept (TRL's `save_total_limit`). A
checkpoint is written into `<run>/trainer/.staging/`, fsynced, then renamed into place, so a process killed while it
saves leaves the previous checkpoint whole and readable.

The fast path's sampling (`playground.fastpath.decode`) draws from torch's global RNG, which the checkpoint restores.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

from playground.errors import PlaygroundError


TRAINER_DIR = "trainer"  # the trainer's output_dir inside the run folder
KEEP_CHECKPOINTS = 2  # TRL's save_total_limit: the newest two; disk stays bounded
GRPO_STATE = "grpo_state.pt"
TRAINER_STATE = "trainer_state.json"
STAGING = ".staging"
PREFIX_CHECKPOINT_DIR = "checkpoint"  # transformers' name: checkpoint-<step>
_CHECKPOINT = re.compile(rf"^{PREFIX_CHECKPOINT_DIR}-(\d+)$")


def checkpoint_root(run_path: Path) -> Path:
    return Path(run_path) / TRAINER_DIR


def last_checkpoint(run_path: Path) -> Path | None:
    """The newest complete checkpoint of a run folder, or None."""
    root = checkpoint_root(run_path)
    if not root.is_dir():
        return None
    found = [(int(m.group(1)), p) for p in root.iterdir() if (m := _CHECKPOINT.match(p.name)) and p.is_dir()]
    found = [(step, p) for step, p in found if (p / TRAINER_STATE).is_file()]
    return max(found)[1] if found else None


def checkpoint_step(checkpoint: Path) -> int:
    """The global step a checkpoint holds (its trainer_state.json)."""
    try:
        state = json.loads((Path(checkpoint) / TRAINER_STATE).read_text(encoding="utf-8"))
        return int(state["global_step"])
    except (OSError, ValueError, KeyError, TypeError):
        raise PlaygroundError("job.no_checkpoint", run=Path(checkpoint).parent.parent.name) from None


def drop_later_checkpoints(run_path: Path, step: int) -> None:
    """Delete checkpoints past `step` (a run continued from an earlier one leaves them behind) and a stale staging
    folder."""
    root = checkpoint_root(run_path)
    shutil.rmtree(root / STAGING, ignore_errors=True)
    for path in root.glob(f"{PREFIX_CHECKPOINT_DIR}-*"):
        match = _CHECKPOINT.match(path.name)
        if match and int(match.group(1)) > step:
            shutil.rmtree(path, ignore_errors=True)


def fsync_path(path: Path) -> None:
    """fsync a file or a folder (a folder's entries: a rename in it)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def fsync_tree(folder: Path) -> None:
    for path in [*folder.rglob("*"), folder]:
        fsync_path(path)
