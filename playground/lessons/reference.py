"""Each lesson's reference run: what `bench/lessons.py --reference` measured, shipped as `reference/<lesson>.jsonl`; a
lesson with a trap (`Lesson.trap`) ships the trap's run beside it as `reference/<lesson>_trap.jsonl`.

One JSON object per line, told apart by `type`:
- `run`: the summary (lesson, wall_s, warmup_s, max_steps, seed, cpu, cores, eval_samples, load_avg_1min);
- `metrics`: a GRPO step's chartable metrics, under TRL's names (`reward`, `rewards/<fn>/mean`, `kl`, ...);
- `eval`: an eval point (`step`, `of`: base / warmup / grpo, `eval_reward`, one mean per reward function, and for tag
  layouts `empty_section_rate`, the share of answers with an empty section, and `sentence_rate`, the share with a
  sentence in every tag);
- `answer`: a held-out answer at an eval point (`step`, `eval_of`, `prompt`, `completion`, `rewards`).

The Learn tab shows these at once, with no compute; `python -m playground lessons --json` prints them.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


logger = logging.getLogger(__name__)

FOLDER = Path(__file__).with_name("reference")
# The 1-minute load average per core above which a reference run's machine was shared: its times are not a quiet
# machine's (its eval values do not depend on load)
BUSY_LOAD_PER_CORE = 1.5


@dataclass(frozen=True)
class Reference:
    run: dict[str, Any]
    metrics: list[dict[str, Any]] = field(default_factory=list)
    eval: list[dict[str, Any]] = field(default_factory=list)
    answers: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"run": self.run, "eval": self.eval, "metrics": self.metrics, "answers": self.answers}

    @property
    def busy(self) -> bool:
        """Whether the machine was shared with other work as the run started (load average above
        `BUSY_LOAD_PER_CORE` per core): its wall time is not a quiet machine's."""
        load, cores = self.run.get("load_avg_1min"), self.run.get("cores")
        valid = isinstance(load, int | float) and isinstance(cores, int) and cores > 0
        return valid and load > BUSY_LOAD_PER_CORE * cores

    @property
    def fewer_threads(self) -> int | None:
        """The threads the run used where it recorded fewer than the machine's cores (`threads`, `cores`), else
        None."""
        threads, cores = self.run.get("threads"), self.run.get("cores")
        return threads if isinstance(threads, int) and isinstance(cores, int) and 0 < threads < cores else None

    @property
    def quiet_time(self) -> bool:
        """Whether the run's wall time is what a quiet machine takes with all its cores: not `busy`, and not run on
        `fewer_threads` (two runs side by side at one thread each take longer than one alone)."""
        return not self.busy and self.fewer_threads is None

    def point(self, of: str, last: bool = False) -> dict[str, Any] | None:
        """The first (or `last`) eval row of model `of` ("base", "warmup", "grpo")."""
        rows = [row for row in self.eval if row.get("of") == of]
        return (rows[-1] if last else rows[0]) if rows else None

    def shares(self, metric: str) -> dict[str, float] | None:
        """How much of `metric` (a reward name or `eval_reward`) the warm-up and GRPO each added: {"base", "warmup",
        "final", "from_warmup", "from_grpo"}; None when a point is missing. Without a warm-up, "warmup" is the base."""
        base, final = self.point("base"), self.point("grpo", last=True)
        warm = self.point("warmup") or base
        if base is None or final is None or any(row.get(metric) is None for row in (base, warm, final)):
            return None
        b, w, f = (float(row[metric]) for row in (base, warm, final))
        return {"base": b, "warmup": w, "final": f, "from_warmup": w - b, "from_grpo": f - w}

    def answers_by_prompt(self) -> list[dict[str, Any]]:
        """One row per prompt: its answer before training, after the warm-up and after the last GRPO point."""
        final_step = max((a["step"] for a in self.answers if a.get("eval_of") == "grpo"), default=None)
        rows: dict[str, dict[str, Any]] = {}
        for a in self.answers:
            if a.get("eval_of") == "grpo" and a.get("step") != final_step:
                continue
            row = rows.setdefault(a["prompt"], {"prompt": a["prompt"]})
            row.setdefault(a["eval_of"], a)
        return list(rows.values())


def load_reference(lesson_id: str, folder: Path | None = None) -> Reference | None:
    """The lesson's reference run, or None when none is shipped (or its file cannot be read)."""
    path = (folder or FOLDER) / f"{lesson_id}.jsonl"
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return None
    except OSError as exc:
        logger.warning("Cannot read the reference run %s: %s", path, exc)
        return None
    parts: dict[str, list[dict[str, Any]]] = {"run": [], "metrics": [], "eval": [], "answer": []}
    for line in lines:
        try:
            row = json.loads(line)
        except ValueError:
            continue
        if isinstance(row, dict) and row.get("type") in parts:
            kind = row.pop("type")
            parts[kind].append(row)
    if not parts["run"]:
        return None
    return Reference(run=parts["run"][0], metrics=parts["metrics"], eval=parts["eval"], answers=parts["answer"])
