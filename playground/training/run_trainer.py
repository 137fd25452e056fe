"""The playground's trainer: the CPU fast path (`FastGRPOTrainer`) with checkpoints that hold the whole training state,
written atomically (playground/training/checkpoint.py says what and where)."""

from __future__ import annotations

import logging
import os
import shutil
import time
from pathlib import Path

import torch
from transformers.trainer_utils import rotate_checkpoints

from playground.fastpath.trainer import FastGRPOTrainer
from playground.training.checkpoint import GRPO_STATE, PREFIX_CHECKPOINT_DIR, STAGING, fsync_path, fsync_tree


logger = logging.getLogger(__name__)

# The prefix of the group diagnostics logged each step: `no_signal` (the share of groups without a spread), and per
# reward `share/<fn>` (its share of the within-group spread; 0 where none varies) and `flat/<fn>` (1: it gave every
# completion of each group one score while the total varied).
DIAGNOSTICS = "diagnostics/"


class RunTrainer(FastGRPOTrainer):
    """The playground's trainer: the fast path, plus checkpoints written atomically that hold TRL's buffers."""

    _staging: Path | None = None
    last_save_seconds: float | None = None  # how long the latest checkpoint took to write (bench/continue.py)

    def _calculate_rewards(self, inputs, prompts, completions, completion_ids_list):
        """TRL's rewards (every completion of the batch, gathered), and the playground's group diagnostics of them
        logged beside TRL's metrics: the one reading (`advantages.diagnose`) the Rewards tab, the Preview and the lab
        show, which the run's health alerts then read (`health.py`)."""
        rewards_per_func = super()._calculate_rewards(inputs, prompts, completions, completion_ids_list)
        if self.model.training:
            try:
                self._log_diagnostics(rewards_per_func)
            except Exception:  # a reading for the alerts must never end a run
                logger.exception("Group diagnostics failed; the alerts read TRL's metrics alone")
        return rewards_per_func

    def _log_diagnostics(self, rewards_per_func: torch.Tensor) -> None:
        from playground.advantages import diagnose

        found = diagnose(
            rewards_per_func.detach().float().cpu(),
            self.reward_func_names,
            self.reward_weights.tolist(),
            self.num_generations,
            self.multi_objective_aggregation,
        )
        metrics = self._metrics["train"]
        metrics[DIAGNOSTICS + "no_signal"].append(sum(found.no_signal) / max(len(found.no_signal), 1))
        for name in self.reward_func_names:
            metrics[f"{DIAGNOSTICS}share/{name}"].append(found.shares.get(name, 0.0))
            metrics[f"{DIAGNOSTICS}flat/{name}"].append(1.0 if name in found.flat else 0.0)

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
        fsync_tree(staging / name)
        target = root / name
        if target.exists():  # Stop at a save step: the same step saved twice
            shutil.rmtree(target)
        os.rename(staging / name, target)
        fsync_path(root)
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
