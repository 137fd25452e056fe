"""The training job: TRL's `GRPOTrainer` with LoRA (optionally 4-bit) in a background thread.

Everything it reports goes through the run folder (`playground.training.store`), so a page reload, another session or a
restarted process sees the same run. One job runs at a time per process: a machine has one accelerator.
"""

from __future__ import annotations

import gc
import logging
import math
import shutil
import threading
import time
import traceback
from collections.abc import Callable
from typing import Any

from transformers import PrinterCallback, TrainerCallback

from playground.errors import PlaygroundError
from playground.spec import RunSpec
from playground.training.store import ACTIVE, Run, RunStore
from playground.validation import validate_spec


logger = logging.getLogger(__name__)

TRACEBACK_LINES = 15


class PlaygroundCallback(TrainerCallback):
    """Pushes every TRL log row and the step's samples to the run folder, saves the adapter, and honours Stop."""

    def __init__(self, job: TrainingJob):
        self.job = job
        self.trainer = None  # set once the trainer exists; `_logs` holds the latest generation batch
        self._last_samples: tuple | None = None

    def on_step_end(self, args, state, control, **kwargs):
        self.job.step = state.global_step
        if self.job.stop_requested.is_set():
            control.should_training_stop = True
        elif state.global_step % self.job.spec.grpo.save_steps == 0 and state.global_step < state.max_steps:
            self.job.save_adapter(kwargs["model"])
        return control

    def on_log(self, args, state, control, logs=None, **kwargs):
        row = {"step": state.global_step}
        row.update({k: _clean(v) for k, v in (logs or {}).items()})
        self.job.run.append_metrics(row)
        if self.trainer is not None:
            self._log_samples(state.global_step)
        self.job.on_log(row)

    def _log_samples(self, step: int) -> None:
        from rewards._text import completion_text

        logs = self.trainer._logs
        completions = [completion_text(c) for c in logs["completion"]]
        key = tuple(completions)
        if not completions or key == self._last_samples:  # with steps_per_generation > 1 a batch spans steps
            return
        self._last_samples = key
        prompts = [completion_text(p) for p in logs["prompt"]]
        rewards = {name: list(values) for name, values in logs["rewards"].items()}
        advantages = list(logs["advantages"])
        rows = [
            {
                "step": step,
                "prompt": prompts[i],
                "completion": completions[i],
                "rewards": {name: _clean(values[i]) for name, values in rewards.items()},
                "advantage": _clean(advantages[i]) if i < len(advantages) else None,
            }
            for i in range(len(completions))
        ]
        self.job.run.append_samples(rows)


def _clean(value: Any) -> Any:
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


class TrainingJob:
    """One GRPO run. `start()` returns at once; poll `snapshot()` or read the run folder."""

    def __init__(self, spec: RunSpec, run: Run, owner: str | None = None, custom_rewards: dict | None = None):
        self.spec = spec
        self.run = run
        self.owner = owner
        self.custom_rewards = custom_rewards or {}
        self._own_rewards: dict = {}  # sandboxed rewards this job compiled from `spec.custom_code`; closed at the end
        self.guarded: list = []  # the GuardedRewards given to the trainer: they count errors under the "none" policy
        self.status = "queued"
        self.step = 0
        self.max_steps = spec.grpo.max_steps
        self.error: str | None = None
        self.started_at: float | None = None
        self.stop_requested = threading.Event()
        self.listeners: list[Callable[[dict], None]] = []
        self._thread = threading.Thread(target=self._main, name=f"grpo-{run.id}", daemon=True)
        self.run.write_status(status="queued", step=0, max_steps=self.max_steps, owner=owner)

    # --- control ---------------------------------------------------------------------------------------------------

    def start(self) -> TrainingJob:
        self.started_at = time.time()
        self._thread.start()
        return self

    def stop(self) -> None:
        if self.active:
            self.stop_requested.set()
            self._set_status("stopping")

    def join(self, timeout: float | None = None) -> None:
        self._thread.join(timeout)

    @property
    def active(self) -> bool:
        return self.status in ACTIVE

    def snapshot(self) -> dict[str, Any]:
        elapsed = time.time() - self.started_at if self.started_at else 0.0
        eta = elapsed / self.step * (self.max_steps - self.step) if self.step else None
        return {
            "run_id": self.run.id,
            "status": self.status,
            "step": self.step,
            "max_steps": self.max_steps,
            "elapsed": elapsed,
            "eta": eta,
            "error": self.error,
            "reward_errors": self.reward_errors(),
        }

    # --- thread ----------------------------------------------------------------------------------------------------

    def _set_status(self, status: str, **fields: Any) -> None:
        self.status = status
        self.run.write_status(status=status, step=self.step, max_steps=self.max_steps, **fields)

    def reward_errors(self) -> int:
        """Reward failures scored as None so far (reward_error_policy="none")."""
        return sum(g.errors for g in self.guarded)

    def _error_fields(self) -> dict[str, Any]:
        if not self.reward_errors():
            return {}
        last = next((g.last_error for g in reversed(self.guarded) if g.last_error), None)
        return {"reward_errors": self.reward_errors(), "last_reward_error": last}

    def on_log(self, row: dict) -> None:
        self.run.write_status(
            step=self.step, elapsed=round(time.time() - (self.started_at or time.time()), 1), **self._error_fields()
        )
        for listener in list(self.listeners):
            listener(row)

    def save_adapter(self, model) -> None:
        """Write the adapter atomically: a temporary folder, then a rename over the old one."""
        target = self.run.adapter_dir
        tmp = target.with_name(target.name + ".tmp")
        shutil.rmtree(tmp, ignore_errors=True)
        model.save_pretrained(tmp)
        old = target.with_name(target.name + ".old")
        if target.exists():
            target.rename(old)
        tmp.rename(target)
        shutil.rmtree(old, ignore_errors=True)
        logger.info("Saved adapter of %s at step %d", self.run.id, self.step)

    def _main(self) -> None:
        trainer = model = None
        try:
            self._set_status("loading", started_at=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
            trainer = self._build_trainer()
            model = trainer.model
            if not self.stop_requested.is_set():
                self._set_status("running")
                trainer.train()
            self.save_adapter(trainer.model)
            self.step = trainer.state.global_step
            self._set_status("stopped" if self.stop_requested.is_set() else "finished", **self._error_fields())
        except Exception as exc:  # the process must live on; the run records why it failed
            self.error = _describe(exc)
            tb = traceback.format_exc().strip().splitlines()[-TRACEBACK_LINES:]
            logger.error("Run %s failed: %s", self.run.id, self.error)
            self._save_after_failure(trainer)
            self._set_status("failed", error=self.error, traceback="\n".join(tb))
        finally:
            if self._own_rewards:
                from playground.sandbox import close_rewards

                close_rewards(self._own_rewards)
            del trainer, model
            _free_memory()

    def _save_after_failure(self, trainer) -> None:
        """Keep what was learned before a failure: the adapter as of the last finished step."""
        if trainer is None or trainer.state.global_step < 1:
            return
        try:
            self.step = trainer.state.global_step
            self.save_adapter(trainer.model)
        except Exception:  # the original failure is what the user needs to see
            logger.exception("Could not save the adapter of failed run %s", self.run.id)

    def _build_trainer(self):
        from playground.data import load_prompts
        from playground.fastpath.trainer import FastGRPOTrainer
        from playground.scoring import GuardedReward, build_rewards

        spec = self.spec
        data = load_prompts(spec.data)
        if not self.custom_rewards and spec.custom_code:  # the spec's own code, run in a sandbox worker
            from playground.sandbox import custom_rewards_for

            self.custom_rewards = self._own_rewards = custom_rewards_for(spec)
        validate_spec(spec, columns=data.dataset.column_names, custom_rewards=set(self.custom_rewards) or None)
        funcs, _ = build_rewards(spec.rewards, self.custom_rewards)
        # A failing reward fails the run with its name in the message, or scores None under reward_error_policy=none.
        self.guarded = [GuardedReward(f, on_error=spec.grpo.reward_error_policy) for f in funcs]
        funcs = list(self.guarded)
        model, tokenizer = load_training_model(spec)
        dataset = as_chat(data.dataset, tokenizer)
        callback = PlaygroundCallback(self)
        fast = spec.grpo.fast_rollout
        trainer = FastGRPOTrainer(
            model=model,
            rollout=fast != "off",
            tune_allocator=fast != "off",
            rollout_dtype=fast if fast != "off" else "auto",
            reward_funcs=funcs,
            args=spec.grpo_config(output_dir=str(self.run.path / "trainer")),
            train_dataset=dataset,
            processing_class=tokenizer,
            peft_config=spec.lora_config(),
            callbacks=[callback],
        )
        callback.trainer = trainer
        trainer.remove_callback(PrinterCallback)  # the run folder and our listeners carry the logs
        return trainer


def as_chat(dataset, tokenizer):
    """Plain prompts become one user message when the model has a chat template, as the preview renders them."""
    from playground.data import to_messages

    if not getattr(tokenizer, "chat_template", None) or not isinstance(dataset[0]["prompt"], str):
        return dataset
    return dataset.map(lambda row: {"prompt": to_messages(row["prompt"])})


def load_training_model(spec: RunSpec):
    """The base model and tokenizer for training: fp32 on CPU, bf16 on CUDA, or quantized by bitsandbytes."""
    from playground.models import load_model

    device = spec.resolved_device()
    dtype = "float32" if device == "cpu" else "bfloat16"
    return load_model(spec.model.model_name_or_path, device=device, dtype=dtype, quantization_config=spec.bnb_config())


def _describe(exc: BaseException) -> str:
    if isinstance(exc, PlaygroundError):
        return str(exc)
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"Training failed with {type(exc).__name__}: {text}"[:500]


def _free_memory() -> None:
    gc.collect()
    try:
        import torch

        if torch.cuda.is_available():
            torch.cuda.empty_cache()
    except ImportError:
        pass


class JobManager:
    """At most one active job per process. Shared by all sessions; guarded by a lock."""

    def __init__(self, store: RunStore):
        self.store = store
        self._lock = threading.Lock()
        self.current: TrainingJob | None = None

    def start(self, spec: RunSpec, owner: str | None = None, custom_rewards: dict | None = None) -> TrainingJob:
        # The fast checks, before a run folder exists (custom_rewards=None: the names in spec.custom_code, by parsing).
        validate_spec(spec, custom_rewards=set(custom_rewards) if custom_rewards else None)
        with self._lock:
            job = self.current
            if job is not None and job.active:
                raise PlaygroundError(
                    f"A training run is already in progress ({job.run.id}, step {job.step} of {job.max_steps}); "
                    "wait for it to finish or stop it first."
                )
            run = self.store.create(spec.to_dict())
            self.current = TrainingJob(spec, run, owner=owner, custom_rewards=custom_rewards).start()
            return self.current

    def stop(self, owner: str | None = None) -> TrainingJob:
        with self._lock:
            job = self.current
            if job is None or not job.active:
                raise PlaygroundError("No training run is in progress.")
            if job.owner is not None and owner != job.owner:
                raise PlaygroundError("Only the session that started this run can stop it.")
            job.stop()
            return job

    def active_job(self) -> TrainingJob | None:
        job = self.current
        return job if job is not None and job.active else None
