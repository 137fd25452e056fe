"""The training job: TRL's `GRPOTrainer` with LoRA (optionally 4-bit) in a background thread.

Everything it reports goes through the run folder (`playground.training.store`), so a page reload, another session or a
restarted process sees the same run. One job runs at a time per process (`JobManager`, in `run_queue.py`): a machine
has one accelerator.
"""

from __future__ import annotations

import ctypes
import gc
import logging
import shutil
import threading
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from transformers import PrinterCallback, TrainerCallback

from playground.errors import PlaygroundError, RewardError
from playground.spec import RunSpec
from playground.texts import msg
from playground.training.alert_log import log_alerts, log_up_to
from playground.training.checkpoint import KEEP_CHECKPOINTS, checkpoint_root, checkpoint_step
from playground.training.files import json_safe
from playground.training.progress import PhaseClock, eval_points, run_eta
from playground.training.state import JobState
from playground.training.store import Run
from playground.validation import validate_spec


logger = logging.getLogger(__name__)

TRACEBACK_LINES = 15


class RunStopped(BaseException):
    """Raised inside the training thread to end a run in the middle of a step (the public wall-time cap).

    A `BaseException`, like `KeyboardInterrupt`, so that no library's `except Exception` swallows it."""


def _rng_state() -> dict:
    import random

    import numpy as np
    import torch

    state = {"python": random.getstate(), "numpy": np.random.get_state(), "cpu": torch.get_rng_state()}
    if torch.cuda.is_available() and torch.cuda.is_initialized():
        state["cuda"] = torch.cuda.get_rng_state_all()
    return state


def _set_rng_state(state: dict | None) -> None:
    import random

    import numpy as np
    import torch

    if not state:
        return
    random.setstate(state["python"])
    np.random.set_state(state["numpy"])
    torch.set_rng_state(state["cpu"])
    if "cuda" in state:
        torch.cuda.set_rng_state_all(state["cuda"])


class PlaygroundCallback(TrainerCallback):
    """Pushes every TRL log row and the step's samples to the run folder, saves the adapter, and honours Stop."""

    def __init__(self, job: TrainingJob):
        self.job = job
        self.trainer = None  # set once the trainer exists; `_logs` holds the latest generation batch
        self._last_samples: tuple | None = None

    def on_train_begin(self, args, state, control, **kwargs):
        job, every = self.job, self.job.spec.grpo.eval_every
        job.evaluate(kwargs["model"], 0, "warmup" if job.warmed_up else "base")
        if job.start_step and every and job.start_step % every == 0:  # Stop at an eval point skipped its eval
            job.evaluate(kwargs["model"], job.start_step, "grpo")  # (done already: `evaluate` skips it)

    def on_step_begin(self, args, state, control, **kwargs):
        self.job.rng_at_step = _rng_state()  # what a checkpoint saved at the last finished step holds (Stop in a step)

    def on_step_end(self, args, state, control, **kwargs):
        self.job.step = state.global_step
        self.job.step_at = time.time()
        self.job.clock.step("grpo")
        if self.job.stop_requested.is_set():
            control.should_training_stop = True
            control.should_save = True  # the whole training state, so the run can be continued
            return control
        if state.global_step >= state.max_steps:
            control.should_save = True  # the final state, so the run can be trained further
        elif self.job.stop_at is not None and state.global_step >= self.job.stop_at:
            control.should_training_stop = control.should_save = True  # a chunk's end: the next chunk continues
        if state.global_step % self.job.spec.grpo.save_steps == 0 and state.global_step < state.max_steps:
            self.job.save_adapter(kwargs["model"])
        every = self.job.spec.grpo.eval_every
        if every and (state.global_step % every == 0 or state.global_step == state.max_steps):
            self.job.evaluate(kwargs["model"], state.global_step, "grpo")
        return control

    def on_log(self, args, state, control, logs=None, **kwargs):
        row = {"step": state.global_step, "phase": "grpo"}
        row.update({k: json_safe(v) for k, v in (logs or {}).items()})
        self.job.run.append_metrics(row)
        if self.trainer is not None:
            self._log_samples(state.global_step)
        self.job.on_log(row)

    def _log_samples(self, step: int) -> None:
        from rewards._text import completion_text

        logs = self.trainer._logs
        prefix = self.job.spec.grpo.completion_prefix  # the samples show what rewards scored: prefix + continuation
        completions = [prefix + completion_text(c) for c in logs["completion"]]
        key = tuple(completions)
        if not completions or key == self._last_samples:  # with steps_per_generation > 1 a batch spans steps
            return
        self._last_samples = key
        shown = self.job.shown_prompts  # with a completion prefix, the rendered prompt -> the user's own text
        prompts = [shown.get(text, text) for text in (completion_text(p) for p in logs["prompt"])]
        rewards = {name: list(values) for name, values in logs["rewards"].items()}
        advantages = list(logs["advantages"])
        rows = [
            {
                "step": step,
                "prompt": prompts[i],
                "completion": completions[i],
                "rewards": {name: json_safe(values[i]) for name, values in rewards.items()},
                "advantage": json_safe(advantages[i]) if i < len(advantages) else None,
            }
            for i in range(len(completions))
        ]
        self.job.run.append_samples(rows)


class WarmupCallback(TrainerCallback):
    """The SFT warm-up's rows (`phase: "warmup"`, TRL's SFT names under `warmup/`) and progress (Stop: warmup.py)."""

    def __init__(self, job: TrainingJob):
        self.job = job

    def on_step_end(self, args, state, control, **kwargs):
        self.job.warmup_step = state.global_step
        self.job.clock.step("warmup")

    def on_log(self, args, state, control, logs=None, **kwargs):
        row = {"step": state.global_step, "phase": "warmup"}
        row.update({f"warmup/{k}": json_safe(v) for k, v in (logs or {}).items()})
        self.job.run.append_metrics(row)
        self.job.on_log(row)


class TrainingJob(JobState):
    """One GRPO run. `start()` returns at once; poll `snapshot()` or read the run folder."""

    def __init__(
        self,
        spec: RunSpec,
        run: Run,
        owner: str | None = None,
        custom_rewards: dict | None = None,
        resume_from: str | Path | None = None,
        stop_at: int | None = None,
    ):
        """`resume_from`: a checkpoint folder of `run` to continue from (`playground.training.checkpoint`).
        `stop_at`: end this process's training at that step, checkpointed, with the run still "running" (one chunk of
        a chunked run, `playground.training.chunks`)."""
        self.resume_from = Path(resume_from) if resume_from is not None else None
        self.stop_at = stop_at
        self.start_step = checkpoint_step(self.resume_from) if self.resume_from is not None else 0
        self.init_state(spec, run, owner, **({"step": self.start_step} if self.resume_from else {}))
        self.step = self.start_step
        self.custom_rewards = custom_rewards or {}
        self._own_rewards: dict = {}  # sandboxed rewards this job compiled from `spec.custom_code`; closed at the end
        self._library_rewards: list = []  # the library rewards it built: in public mode, its visitor worker's
        self.guarded: list = []  # the GuardedRewards given to the trainer: they count errors under the "none" policy
        self.weights: dict[str, float] = {}  # metric name -> weight of the rewards the trainer got (health checks)
        self.clock = PhaseClock()  # each phase's own step times, for the time left
        self.stop_requested = threading.Event()
        self.warmed_up = False
        self._rows: list[dict] = []
        self._evaluator = None
        self._eval_rollout = None  # the evals' own sampling copy, before the trainer (and its rollout copy) exists
        self._trainer = None
        self._evaluated: set[tuple[int, str]] = set()
        self.shown_prompts: dict[str, str] = {}  # the samples show the user's prompt, not the chat template
        self._interrupt_lock = threading.Lock()
        self._interruptible = False  # True while the thread builds and trains: `interrupt` may raise RunStopped
        self._thread = threading.Thread(target=self._main, name=f"grpo-{run.id}", daemon=True)

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

    def stop_asked(self) -> bool:
        """Whether Stop was pressed, asked within a step (an eval's prompts, the warm-up's examples): unlike
        `stop_requested.is_set()`, it never waits for other processes of a multi-process run."""
        return self.stop_requested.is_set()

    def interrupt(self) -> bool:
        """End the run inside its current step: `RunStopped` is raised in the training thread at its next Python
        instruction (a decoding loop reaches one every token). The adapter saved at the last `save_steps` stays;
        the half-done step is not saved. Returns whether the thread was interrupted."""
        with self._interrupt_lock:
            ident = self._thread.ident
            if not self._interruptible or ident is None:
                return False
            hit = ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident), ctypes.py_object(RunStopped))
        return hit == 1

    def eta(self, elapsed: float, since_step: float) -> tuple[float | None, float | None]:
        """(the current phase's time left, the run's): each phase by its own step times (`PhaseClock`)."""
        g = self.spec.grpo
        evals = eval_points(self.max_steps, g.eval_every, bool(g.sft_warmup_steps)) if self._evaluator else 0
        warmup = 0 if self.resume_from is not None else g.sft_warmup_steps  # a continued run has done it
        # The clock times this process's steps: a continued run counts what is left from its checkpoint.
        evals = max(0, evals - len(self._evaluated)) if self.resume_from is not None else evals
        return run_eta(self.clock, warmup_steps=warmup, max_steps=self.max_steps - self.start_step, evals=evals)

    # --- thread ----------------------------------------------------------------------------------------------------

    def _set_status(self, status: str, **fields: Any) -> None:
        self.write(status=status, step=self.step, max_steps=self.max_steps, **fields)

    def reward_errors(self) -> int:
        """Reward failures scored as None so far (reward_error_policy="none")."""
        return sum(g.errors for g in self.guarded)

    def _error_fields(self) -> dict[str, Any]:
        if not self.reward_errors():
            return {}
        last = next((g.last_error for g in reversed(self.guarded) if g.last_error), None)
        return {"reward_errors": self.reward_errors(), "last_reward_error": last}

    def on_log(self, row: dict) -> None:
        self._rows.append(row)
        if row.get("phase") in ("grpo", "eval"):
            self.alerts = self._health()
            self.alert_log = log_alerts(self.alert_log, self.alerts, int(row.get("step") or self.step))
        self.write(
            step=self.step,
            phase=self.phase,
            warmup_step=self.warmup_step,
            warmup_steps=self.spec.grpo.sft_warmup_steps,
            alerts=self.alerts,
            alert_log=self.alert_log,
            **self._error_fields(),
        )
        for listener in list(self.listeners):
            listener(row)

    def _health(self) -> list[dict]:
        """The health alerts of the rows so far: computed here, once, and read by every view from the status."""
        from playground.training.health import alert_record, health_alerts

        aggregation = self.spec.grpo.multi_objective_aggregation
        alerts = health_alerts(self._rows, weights=self.weights or None, aggregation=aggregation)
        return [alert_record(a) for a in alerts]

    def _set_phase(self, phase: str) -> None:
        self.write(phase=phase, warmup_steps=self.spec.grpo.sft_warmup_steps)

    # --- held-out eval -----------------------------------------------------------------------------------------------

    def evaluate(self, model, step: int, eval_of: str) -> None:
        """Score the held-out prompts with the model as it is now; the row goes to metrics.jsonl and the listeners,
        the completions to eval_samples.jsonl."""
        from playground.training.evaluation import append_eval_samples

        if self._evaluator is None or (step, eval_of) in self._evaluated or self.stop_asked():
            return
        self._evaluated.add((step, eval_of))
        phase, clock_phase = self.phase, self.clock.enter("eval")
        self.write(phase="eval")  # the snapshot and status.json agree on the phase
        sampler = self._eval_model(model)
        try:
            row = self._evaluator.evaluate(sampler, step, eval_of, should_stop=self.stop_asked)
        finally:
            if sampler is model:
                model.train()
            self.clock.enter(clock_phase)
            self.write(phase=phase)
        if row is None:  # stopped part-way: a partial eval would not be comparable with the others
            return
        self.clock.step("eval")
        self.run.append_metrics(row)
        append_eval_samples(self.run.path, self._evaluator.samples)
        self.on_log(row)

    def _eval_model(self, model):
        """A sampling copy with the adapter merged on CPU, else the model itself.

        Once the trainer exists, its fp32 rollout copy (synced to the policy as it is now) serves the evals too: one
        copy of the weights, not two. Before (the base and warm-up evals of a run with an SFT warm-up), or where the
        rollout copy is bf16, the evals build their own fp32 copy.
        """
        import torch

        from playground.fastpath.trainer import RolloutModel

        if self.spec.grpo.fast_rollout == "off" or next(model.parameters()).device.type != "cpu":
            return model.eval()
        shared = self._trainer.sampling_model() if self._trainer is not None else None
        if shared is not None:
            self._eval_rollout = None
            return shared
        if self._eval_rollout is None:
            self._eval_rollout = RolloutModel(model, torch.float32)
        else:
            self._eval_rollout.sync()
        return self._eval_rollout.for_sampling()

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
            with self._interrupt_lock:
                self._interruptible = True
            self._set_status("loading", started_at=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
            if self.resume_from is not None:
                self._continue_records()
            trainer = self._build_trainer()
            model = trainer.model
            if not self.stop_requested.is_set():
                self.phase = "grpo"
                self._set_status("running", phase="grpo")
                self.clock.enter("grpo")
                self._train(trainer)
            with self._interrupt_lock:
                self._interruptible = False
            self.save_adapter(trainer.model)
            self.step = trainer.state.global_step
            if self.stop_requested.is_set():
                self._set_status("stopped", **self._error_fields())
            else:
                self._set_status("finished" if self.step >= self.max_steps else "running", **self._error_fields())
        except RunStopped:
            with self._interrupt_lock:
                self._interruptible = False
            logger.warning("Run %s was interrupted inside step %d", self.run.id, self.step + 1)
            self._set_status("stopped", **self._error_fields())
        except Exception as exc:  # the process must live on; the run records why it failed
            self.error = _describe(exc)
            tb = traceback.format_exc().strip().splitlines()[-TRACEBACK_LINES:]
            logger.error("Run %s failed: %s", self.run.id, self.error)
            self._save_after_failure(trainer)
            self._set_status("failed", error=self.error, traceback="\n".join(tb))
        finally:
            self.clock.enter(None)
            if self._own_rewards:
                from playground.sandbox import close_rewards

                close_rewards(self._own_rewards)
            if self._library_rewards:
                from playground.isolation.visitor import close_workers

                close_workers(self._library_rewards)
            self._trainer = self._eval_rollout = None
            del trainer, model
            _free_memory()

    def rollout_stop(self):
        """What ends a generation inside a step (`stopping.stop_rollouts_when`): Stop, asked at every decode step,
        without a collective (an `AgreedStop`'s own `asked`, as a forked GPU worker's stop file)."""
        return getattr(self.stop_requested, "asked", self.stop_requested.is_set)

    def _train(self, trainer) -> None:
        """`trainer.train`, with Stop taking effect inside a rollout: the step under way is dropped at its next decode
        step (before its optimizer step), and the last finished step is saved as a checkpoint to continue from."""
        from playground.fastpath.stopping import RolloutStopped, stop_rollouts_when
        from playground.training.checkpoint import PREFIX_CHECKPOINT_DIR, checkpoint_root

        try:
            with stop_rollouts_when(self.rollout_stop()):
                trainer.train(resume_from_checkpoint=str(self.resume_from) if self.resume_from else None)
        except RolloutStopped:
            step = trainer.state.global_step
            logger.info("Run %s stopped inside step %d; keeping step %d", self.run.id, step + 1, step)
            saved = checkpoint_root(self.run.path) / f"{PREFIX_CHECKPOINT_DIR}-{step}"
            if step > self.start_step and not saved.exists():
                # The random state as the step began, not as its rollout left it: a continued run draws the tokens
                # the uninterrupted run drew.
                _set_rng_state(getattr(self, "rng_at_step", None))
                trainer._save_checkpoint(trainer.model, trial=None)  # the whole state, so the run can be continued

    def _continue_records(self) -> None:
        """Before continuing from the checkpoint: drop the rows, samples and checkpoints past its step (steps the
        interrupted process took after it, which the continued run takes again), and take the rows up to it back
        into the health checks and the evals done."""
        from playground.training.checkpoint import drop_later_checkpoints
        from playground.training.evaluation import EVAL_SAMPLES

        step = self.start_step
        rows = self.run.truncate(step, others=(EVAL_SAMPLES,))
        drop_later_checkpoints(self.run.path, step)
        self._rows = [r for r in rows if r.get("phase") in ("grpo", "eval", "warmup")]
        self._evaluated = {(r["step"], r.get("eval_of")) for r in rows if r.get("phase") == "eval"}
        self.warmed_up = bool(self.spec.grpo.sft_warmup_steps)
        self.alerts = self._health()
        self.alert_log = log_up_to(self.run.status().get("alert_log") or [], step, self.alerts)
        logger.info("Continuing run %s from step %d of %d", self.run.id, step, self.max_steps)

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
        from playground.data.completion_prefix import with_prefix
        from playground.data.sources import load_prompts
        from playground.isolation.visitor import reward_executor
        from playground.scoring import GuardedReward, build_rewards, reward_name
        from playground.training.evaluation import Evaluator, split_eval
        from playground.training.run_trainer import RunTrainer

        spec = self.spec
        data = load_prompts(spec.data)
        if not self.custom_rewards and spec.custom_code:  # the spec's own code, run in a sandbox worker
            from playground.sandbox import custom_rewards_for

            self.custom_rewards = self._own_rewards = custom_rewards_for(spec)
        validate_spec(spec, columns=data.dataset.column_names, custom_rewards=set(self.custom_rewards) or None)
        g = spec.grpo
        from playground.sandbox.custom import as_the_spec_asks

        funcs, weights = build_rewards(
            spec.rewards, as_the_spec_asks(self.custom_rewards, spec), executor=reward_executor()
        )
        self._library_rewards = funcs
        self.weights = {reward_name(f): w for f, w in zip(funcs, weights, strict=True)}
        # A failing reward fails the run with its name in the message, or scores None under reward_error_policy=none.
        # With a completion prefix, rewards see the prefix plus the sampled continuation (data/completion_prefix.py).
        guarded = [GuardedReward(f, on_error=g.reward_error_policy) for f in with_prefix(funcs, g.completion_prefix)]
        # A reward model goes to TRL as its id or folder: TRL loads it and scores prompt + completion itself.
        models = [trl_reward_model(f) for f in funcs]
        reward_funcs = [m if m is not None else f for m, f in zip(models, guarded, strict=True)]
        self.guarded = [f for m, f in zip(models, guarded, strict=True) if m is None]
        model, tokenizer = load_training_model(spec)
        train_rows, eval_rows = split_eval(data.dataset, g.eval_prompts) if g.eval_every else (data.dataset, None)
        if eval_rows is not None:
            self._evaluator = Evaluator(spec, eval_rows, funcs, weights, tokenizer)
        peft_config = spec.lora_config()
        if g.sft_warmup_steps and self.resume_from is not None:
            model, peft_config = self._warmed_up_model(model, peft_config), None
        elif g.sft_warmup_steps:
            # The warm-up trains the adapter GRPO goes on with, so the adapter exists before the GRPO trainer does.
            # With beta > 0, TRL copies it as the reference (the "ref" adapter): KL is measured to the warmed-up model.
            from peft import get_peft_model
            from transformers import set_seed

            set_seed(g.seed)
            model, peft_config = get_peft_model(model, peft_config), None
            self.evaluate(model, 0, "base")
            self._warmup(model, tokenizer, train_rows)
        dataset = as_chat(train_rows, tokenizer, g.completion_prefix)
        if g.completion_prefix:
            from rewards._text import completion_text

            own = (completion_text(p) for p in train_rows["prompt"])
            self.shown_prompts = dict(zip(dataset["prompt"], own, strict=True))
        callback = PlaygroundCallback(self)
        fast = spec.grpo.fast_rollout
        args = spec.grpo_config(
            output_dir=str(checkpoint_root(self.run.path)),
            run_name=self.run.id,
            save_strategy="steps",  # the whole training state every save_steps, and at Stop and the end (callback)
            save_steps=g.save_steps,
            save_total_limit=KEEP_CHECKPOINTS,
        )
        trainer = RunTrainer(
            model=model,
            rollout=fast != "off",
            tune_allocator=fast != "off",
            rollout_dtype=fast if fast != "off" else "auto",
            reward_funcs=reward_funcs,
            args=args,
            train_dataset=dataset,
            processing_class=tokenizer,
            peft_config=peft_config,
            callbacks=[callback],
        )
        # TRL names a reward model's metrics after its folder; keep the playground's names (rewards/<name>/mean, as
        # the preview, dry run, health checks and Compare read them). Callables keep theirs: the same names.
        trainer.reward_func_names = [reward_name(f) for f in funcs]
        callback.trainer = self._trainer = trainer
        if trainer.fast_path_off:  # the parts of the fast path that stepped aside in this install, for the Train tab
            self.write(fast_path_off="; ".join(f"{part}: {why}" for part, why in trainer.fast_path_off.items()))
        trainer.remove_callback(PrinterCallback)  # the run folder and our listeners carry the logs
        return trainer

    def _warmed_up_model(self, model, peft_config):
        """A continued run with an SFT warm-up: the PEFT model with the warmed-up adapter as "default" (TRL copies it
        as the "ref" adapter KL is measured to; the trainer then loads the checkpoint's adapter over "default")."""
        from peft import get_peft_model, set_peft_model_state_dict
        from safetensors.torch import load_file

        model = get_peft_model(model, peft_config)
        ref = self.resume_from / "ref" / "adapter_model.safetensors"
        if ref.is_file():
            set_peft_model_state_dict(model, load_file(str(ref)))
        return model

    def _warmup(self, model, tokenizer, train_rows) -> None:
        """The SFT warm-up phase: examples (built or read), then `sft_warmup_steps` SFTTrainer steps on `model`."""
        from playground.training.warmup import EXAMPLES_FILE, examples_for, run_warmup, write_examples

        self._set_phase("warmup")
        # A run scored on correctness gets rejection-sampled examples (only right answers), when its column is there.
        column = next((r.params.get("column", "answer") for r in self.spec.rewards if r.name == "correctness"), None)
        answers = list(train_rows[column]) if column in train_rows.column_names else None
        stop = self.stop_requested.is_set
        if stop():
            return
        prompts = list(train_rows["prompt"])
        examples = examples_for(self.spec, prompts, tokenizer, answers=answers, should_stop=self.stop_asked)
        if stop():
            return
        write_examples(self.run.path / EXAMPLES_FILE, examples)
        started = time.time()
        self.clock.enter("warmup")
        callbacks = [WarmupCallback(self)]
        run_warmup(self.spec, model, tokenizer, examples, str(self.run.path / "warmup"), callbacks, should_stop=stop)
        self.warmed_up = True
        self.write(warmup_seconds=round(time.time() - started, 1), warmup_examples=len(examples))
        self.evaluate(model, 0, "warmup")


def trl_reward_model(func: Callable) -> str | None:
    """The model id or folder to put in TRL's `reward_funcs` for a reward-model reward (its `trl_reward_func`), else
    None: TRL then gets the callable."""
    model = getattr(getattr(func, "func", func), "trl_reward_func", None)
    if model is None:
        return None
    if not model:
        raise RewardError("reward.model_missing")
    return model


def as_chat(dataset, tokenizer, prefix: str = ""):
    """Plain prompts become one user message when the model has a chat template, as the preview renders them.

    With a completion prefix every prompt becomes the rendered text plus the prefix, so generation continues after it.
    """
    from playground.data.chat import to_messages

    if prefix:
        from playground.data.completion_prefix import prompt_with_prefix

        return dataset.map(lambda row: {"prompt": prompt_with_prefix(tokenizer, row["prompt"], prefix)})
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
    """Why a run failed: a `PlaygroundError`'s message (a catalogue `Text` when it has a key), else the exception's
    first line."""
    if isinstance(exc, PlaygroundError):
        return exc.message
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return msg("job.failed_with", error=type(exc).__name__, detail=text[:450])


def _free_memory() -> None:
    gc.collect()
    try:
        import torch

        if torch.cuda.is_available():
            torch.cuda.empty_cache()
    except ImportError:
        pass
