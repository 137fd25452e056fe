"""Public mode's limits on training runs, and the fair queue's bookkeeping (`JobManager` in `job.py` uses both).

In public mode (a Space) strangers share one machine that trains one run at a time. A start while a run goes joins a
FIFO queue (at most one queued run per browser and per client address, `max_queued` in all) instead of being refused,
and each run is held to caps that keep one visitor from holding the machine: steps, wall time, the tokens one step
generates (and each held-out eval and the warm-up's examples), the LoRA rank, custom reward functions, and the reward
time a step may take (custom functions × the sandbox's per-call timeout). Each cap reads an environment variable.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from playground.admission import Caps
from playground.errors import PlaygroundError
from playground.spec import RunSpec
from playground.texts import msg


if TYPE_CHECKING:
    from playground.training.store import Run


@dataclass(frozen=True)
class PublicCaps(Caps):
    """Limits on one run in public mode: the run fields of the admission gate's one table (`playground.admission.Caps`:
    `max_steps`, `max_minutes`, `max_custom_functions`, `max_reward_seconds`, `max_queued`, `max_step_tokens`,
    `max_lora_r`, `max_queued_per_address`, each read from its `PLAYGROUND_MAX_*` variable by `from_env`)."""

    def check(self, spec: RunSpec, custom_names: list[str], call_timeout: float) -> None:
        """Refuse a run over a cap, with a message that names the cap, its variable and the value asked for."""
        steps = spec.grpo.max_steps
        if steps > self.max_steps:
            raise PlaygroundError("public.max_steps", cap=self.max_steps, steps=steps)
        if len(custom_names) > self.max_custom_functions:
            raise PlaygroundError(
                "public.custom_functions",
                cap=self.max_custom_functions,
                count=len(custom_names),
                names=", ".join(custom_names),
            )
        seconds = len(custom_names) * call_timeout
        if seconds > self.max_reward_seconds:
            raise PlaygroundError(
                "public.reward_seconds",
                cap=self.max_reward_seconds,
                count=len(custom_names),
                timeout=call_timeout,
                seconds=seconds,
            )
        self.check_size(spec)

    def check_size(self, spec: RunSpec) -> None:
        """The tokens a step, an eval and the warm-up generate, the warm-up's steps and the LoRA rank."""
        g = spec.grpo
        length = ("max_completion_length", g.max_completion_length)
        completions = max(spec.generation_batch_size(), spec.completions_per_step())
        sizes = [(msg("public.tokens.step"), msg("public.count.completions", n=completions), completions, length)]
        if g.eval_every:
            cap_name = "eval_max_completion_length" if g.eval_max_completion_length else "max_completion_length"
            sizes.append(
                (
                    msg("public.tokens.eval"),
                    msg("public.count.eval", prompts=g.eval_prompts, g=g.eval_num_generations),
                    g.eval_prompts * g.eval_num_generations,
                    (cap_name, spec.eval_completion_length()),
                )
            )
        if g.sft_warmup_steps and g.sft_examples.strip() == "auto":
            examples = msg("public.count.examples", n=g.sft_num_examples)
            sizes.append((msg("public.tokens.warmup"), examples, g.sft_num_examples, length))
        for what, count, n, (cap_name, tokens_each) in sizes:
            if n * tokens_each > self.max_step_tokens:
                raise PlaygroundError(
                    "public.step_tokens",
                    what=what,
                    cap=self.max_step_tokens,
                    count=count,
                    cap_name=cap_name,
                    length=tokens_each,
                    tokens=n * tokens_each,
                )
        if g.sft_warmup_steps > self.max_steps:
            raise PlaygroundError("public.warmup_steps", cap=self.max_steps, steps=g.sft_warmup_steps)
        if spec.lora.lora_r > self.max_lora_r:
            raise PlaygroundError("public.lora_r", cap=self.max_lora_r, value=spec.lora.lora_r)


def custom_reward_names(spec: RunSpec, custom_rewards: dict | None) -> list[str]:
    """The spec's rewards that are not library rewards: sandboxed custom code."""
    import rewards  # noqa: F401  (fills the registry)
    from rewards.registry import REGISTRY

    names = [choice.name for choice in spec.rewards if choice.name not in REGISTRY]
    return sorted(set(names) | set(custom_rewards or ()))


@dataclass
class Waiting:
    """One queued start: what `JobManager.start` was given, kept until the machine is free."""

    spec: RunSpec
    owner: str | None  # the browser's owner key (training/access.py)
    custom_rewards: dict | None
    address: str | None = None  # the client's address, as the web server saw it
    queued_at: float = field(default_factory=time.time)
    run: Run | None = None  # a run to continue (its folder), else None: a new run folder
    resume_from: Path | None = None  # the checkpoint of `run` it continues from


QUEUE_FILE = ".queue.json"  # in the runs folder (hidden entries are not runs): the queue outlives the app process


def save_queue(root: Path, waiting: list[Waiting]) -> None:
    """Write the queue to the runs folder, atomically. A start with compiled rewards cannot be written; it is left
    out (the app's own starts carry their code in the spec)."""
    from playground.training.store import _dumps, _write_atomic

    entries = [
        {
            "spec": w.spec.to_dict(),
            "owner": w.owner,
            "address": w.address,
            "queued_at": w.queued_at,
            "run": w.run.id if w.run is not None else None,
            "resume_from": str(w.resume_from) if w.resume_from is not None else None,
        }
        for w in waiting
        if not w.custom_rewards
    ]
    root.mkdir(parents=True, exist_ok=True)
    _write_atomic(root / QUEUE_FILE, _dumps(entries, indent=2))


def load_queue(store) -> list[Waiting]:
    """The queue a previous app process left in the store's folder; an entry that no longer reads is skipped."""
    import json
    import logging

    path = store.root / QUEUE_FILE
    try:
        entries = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return []
    except (OSError, ValueError) as exc:
        logging.getLogger(__name__).warning("The saved queue is unreadable (%s); starting with an empty queue", exc)
        return []
    waiting = []
    for entry in entries if isinstance(entries, list) else []:
        try:
            run = store.get(entry["run"]) if entry.get("run") else None
            resume = Path(entry["resume_from"]) if entry.get("resume_from") else None
            spec = RunSpec.from_dict(entry["spec"])
            owner, address = entry.get("owner"), entry.get("address")
            waiting.append(Waiting(spec, owner, None, address, entry["queued_at"], run=run, resume_from=resume))
        except (KeyError, TypeError, ValueError, PlaygroundError) as exc:
            logging.getLogger(__name__).warning("Skipping a saved queue entry: %s", exc)
    return waiting


def estimate_wait(
    current: dict[str, Any] | None, ahead: list[RunSpec], seconds_per_step: float | None
) -> float | None:
    """Seconds until a run behind `ahead` starts: the current run's ETA, then each queued run's steps at the current
    pace (seconds per step of the run going now, or of the last run). None while no pace is known."""
    if seconds_per_step is None:
        return None
    wait = 0.0
    if current is not None:
        remaining = current.get("eta")
        if remaining is None:
            remaining = max(int(current.get("max_steps") or 0) - int(current.get("step") or 0), 0) * seconds_per_step
        wait += float(remaining)
    return wait + sum(spec.grpo.max_steps for spec in ahead) * seconds_per_step
