"""Checkpoints that hold a run's whole training state, and what continuing a run from one needs.

The checkpoint is the `transformers.Trainer`'s own (`_save_checkpoint`): the adapter, the optimizer, the scheduler,
the RNG states (`rng_state.pth`) and `trainer_state.json` (the step counter). `RunTrainer` adds what TRL's
`GRPOTrainer` holds between steps and its checkpoint leaves out: its micro-step counter `_step` and the generations
buffered for `steps_per_generation` (`_buffered_inputs`), in `grpo_state.pt`. With these the run continues with the
same tokens, rewards and losses as if it had never stopped.

Layout: `<run>/trainer/checkpoint-<step>/`, the newest `KEEP_CHECKPOINTS` kept (TRL's `save_total_limit`). A
checkpoint is written into `<run>/trainer/.staging/`, fsynced, then renamed into place, so a process killed while it
saves leaves the previous checkpoint whole and readable.

The fast path's sampling (`playground.fastpath.decode`) draws from torch's global RNG, which the checkpoint restores.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import time
from pathlib import Path

import torch
from transformers.trainer_utils import PREFIX_CHECKPOINT_DIR, get_last_checkpoint, rotate_checkpoints

from playground.errors import PlaygroundError
from playground.fastpath.trainer import FastGRPOTrainer


logger = logging.getLogger(__name__)

TRAINER_DIR = "trainer"  # the trainer's output_dir inside the run folder
KEEP_CHECKPOINTS = 2  # TRL's save_total_limit: the newest two; disk stays bounded
GRPO_STATE = "grpo_state.pt"
TRAINER_STATE = "trainer_state.json"
STAGING = ".staging"


def checkpoint_root(run_path: Path) -> Path:
    return Path(run_path) / TRAINER_DIR


def last_checkpoint(run_path: Path) -> Path | None:
    """The newest complete checkpoint of a run folder, or None."""
    root = checkpoint_root(run_path)
    if not root.is_dir():
        return None
    found = get_last_checkpoint(str(root))
    return Path(found) if found and (Path(found) / TRAINER_STATE).is_file() else None


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
        suffix = path.name.removeprefix(f"{PREFIX_CHECKPOINT_DIR}-")
        if suffix.isdigit() and int(suffix) > step:
            shutil.rmtree(path, ignore_errors=True)


def _fsync_dir(path: Path) -> None:
    """fsync a file or a folder (a folder's entries: a rename in it)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_tree(folder: Path) -> None:
    for path in [*folder.rglob("*"), folder]:
        _fsync_dir(path)


class RunTrainer(FastGRPOTrainer):
    """The playground's trainer: the fast path, plus checkpoints written atomically that hold TRL's buffers."""

    _staging: Path | None = None
    last_save_seconds: float | None = None  # how long the latest checkpoint took to write (bench/continue.py)

    def _get_output_dir(self, trial):
        return str(self._staging) if self._staging is not None else super()._get_output_dir(trial)

    def _save_checkpoint(self, model, trial):
        started = time.perf_counter()
        root = Path(super()._get_output_dir(trial))
        name = f"{PREFIX_CHECKPOINT_DIR}-{self.state.global_step}"
        staging = root / STAGING
        if self.args.should_save:
            shutil.rmtree(staging, ignore_errors=True)  # what a killed save left
        self.accelerator.wait_for_everyone()
        self._staging = staging
        try:
            super()._save_checkpoint(model, trial)
            if self.args.should_save:
                torch.save({"step": self._step, "buffered_inputs": self._buffered_inputs}, staging / name / GRPO_STATE)
        finally:
            self._staging = None
        self.accelerator.wait_for_everyone()  # every rank wrote its RNG state
        if not self.args.should_save:
            return
        _fsync_tree(staging / name)
        target = root / name
        if target.exists():  # Stop at a save step: the same step saved twice
            shutil.rmtree(target)
        os.rename(staging / name, target)
        _fsync_dir(root)
        rotate_checkpoints(str(root), save_total_limit=self.args.save_total_limit, use_mtime=False)
        shutil.rmtree(staging, ignore_errors=True)
        self.last_save_seconds = time.perf_counter() - started
        logger.info("Saved checkpoint %s in %.2f s", target, self.last_save_seconds)

    def _load_optimizer_and_scheduler(self, checkpoint):
        super()._load_optimizer_and_scheduler(checkpoint)
        if checkpoint is None:
            return
        self._schedule_learning_rate()
        path = Path(checkpoint) / GRPO_STATE
        if path.is_file():
            state = torch.load(path, weights_only=True)
            self._step, self._buffered_inputs = state["step"], state["buffered_inputs"]

    def _schedule_learning_rate(self) -> None:
        """Set the learning rate the restored scheduler gives at the restored step, over this run's `max_steps`.

        The optimizer's state holds the rate its last step left for the next, which a run trained further (a larger
        `max_steps`) must not keep: a linear schedule over 5 steps leaves 0. Continued with the same `max_steps`, the
        value is the one stored (the same formula, the same step)."""
        from torch.optim.lr_scheduler import LambdaLR

        scheduler = getattr(self.lr_scheduler, "scheduler", self.lr_scheduler)
        if not isinstance(scheduler, LambdaLR):
            return
        step = scheduler.last_epoch
        rates = [base * rule(step) for base, rule in zip(scheduler.base_lrs, scheduler.lr_lambdas, strict=True)]
        for group, rate in zip(self.optimizer.param_groups, rates, strict=True):
            group["lr"] = rate
        scheduler._last_lr = rates
