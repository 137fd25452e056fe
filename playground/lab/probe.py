"""Reward-hacking probe: degenerate texts a policy could drift to, scored against the real completions.

A GRPO policy finds whatever the reward pays for. Before training, score a battery of degenerate completions (empty,
whitespace, tags with empty sections, tag stuffing, repetition, over-long filler, a copy of the prompt, the answer
alone or repeated, a wrong answer in the right format) and the best real completion damaged on purpose (sections
emptied, truncated, words reversed, filler of the same length). Any of them that scores at or above the best real
completion is a finding, said in the words of the reward's family (what "gamed" means for a format, a length, an
accuracy or a content reward).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from playground.errors import RewardError
from playground.scoring import call_reward, reward_name


logger = logging.getLogger(__name__)

OVERLONG_WORDS = 400


@dataclass
class Finding:
    reward: str
    text: str
    score: float
    why: str

    def to_json(self) -> dict[str, Any]:
        return {"reward": self.reward, "text": self.text, "score": self.score, "why": self.why}


@dataclass
class ProbeReport:
    findings: list[Finding]
    tried: int  # degenerate texts scored per reward
    best: dict[str, float] = field(default_factory=dict)  # best real score per reward

    def to_json(self) -> dict[str, Any]:
        return {"findings": [f.to_json() for f in self.findings]}


# What "gamed" means, per reward family; `{label}`, `{score}`, `{best}` are filled in.
_GAMED = {
    "format": "the format reward checks the tags, not that the sections say anything",
    "length": "the length reward counts characters, so filler of the right length earns as much as content",
    "accuracy": "the accuracy reward checks the final answer only, so text without reasoning earns full marks",
    "content": "the content reward matches words or patterns, not whether they are used sensibly",
    "similarity": "the similarity reward measures overlap with the reference, which copying or stuffing can inflate",
    "model": "the reward model prefers this degenerate text; it is an exploitable blind spot",
    "judge": "the judge model rates this degenerate text as highly; a small judge is easy to fool",
    "formula": "the formula's parts let this degenerate text through",
}
_GENERIC = "the reward does not tell this degenerate text from a real answer"


def battery(prompt: str = "", answer: str | None = None, best: str | None = None) -> list[tuple[str, str]]:
    """(label, text) pairs: degenerate completions, then the best real completion damaged on purpose."""
    items = [
        ("empty text", ""),
        ("whitespace only", "   \n\t  \n"),
        ("tags with empty sections", "<intro></intro><body></body><conclusion></conclusion>"),
        ("think/answer tags with nothing inside", "<think>\n\n</think>\n<answer>\n\n</answer>"),
        (
            "tag stuffing",
            "<intro><body><conclusion><think><answer>" * 4 + "</answer></think></conclusion></body></intro>",
        ),
        ("one word repeated", "the " * 25),
        ("over-long filler", "word " * OVERLONG_WORDS),
    ]
    if prompt.strip():
        items.append(("a copy of the prompt", prompt))
    if answer:
        wrong = _wrong(answer)
        items += [
            ("the answer alone", answer),
            ("the answer repeated", " ".join([answer] * 10)),
            ("a wrong answer, well formatted", f"<think>\nI computed it.\n</think>\n<answer>\n{wrong}\n</answer>\n"),
            ("a wrong answer after ####", f"I computed it.\n#### {wrong}"),
        ]
    items.append(
        (
            "well formatted but off-topic",
            "<intro>Hello.</intro><body>Bananas are yellow.</body><conclusion>Bye.</conclusion>",
        )
    )
    if best and best.strip():
        emptied = re.sub(r">[^<]+<", "><", best)
        if emptied != best:
            items.append(("the best completion with its sections emptied", emptied))
        items += [
            ("the best completion cut in half", best[: len(best) // 2]),
            ("the best completion with its words reversed", " ".join(reversed(best.split()))),
            ("filler as long as the best completion", "." * len(best)),
            ("the best completion three times", "\n".join([best] * 3)),
        ]
    return items


def _wrong(answer: str) -> str:
    try:
        value = float(answer.replace(",", ""))
    except ValueError:
        return "I don't know"
    return str(int(value) + 1) if value.is_integer() else str(value + 1)


def probe(
    choices: Sequence[Any],
    funcs: Sequence[Callable],
    *,
    prompt: str = "",
    columns: dict[str, Any] | None = None,
    completions: Sequence[str] | None = None,
) -> ProbeReport:
    """Probe each reward. `completions` are real ones (e.g. a preview group); without them each library reward's
    good example stands in, with its dataset columns when `columns` has none."""
    from rewards.registry import REGISTRY

    specs = [REGISTRY.get(getattr(c, "name", "")) for c in choices]
    columns = dict(columns or {})
    if not columns:
        for spec in specs:
            if spec is not None and spec.good is not None:
                columns.update(spec.good.kwargs)
    answer = _answer(columns)
    findings: list[Finding] = []
    best_scores: dict[str, float] = {}
    tried = 0
    for func, spec in zip(funcs, specs, strict=True):
        name = reward_name(func)
        real = list(completions or [])
        if not real and spec is not None and spec.good is not None:
            real = [spec.good.completion]
        if not real:
            logger.info("No real completion to compare %s with; skipped", name)
            continue
        real_scores = _score(func, real, prompt, columns)
        scored = [(s, t) for s, t in zip(real_scores, real, strict=True) if s is not None]
        if not scored:
            continue
        best_score, best_text = max(scored, key=lambda st: st[0])
        best_scores[name] = best_score
        items = battery(prompt, answer, best_text)
        tried = max(tried, len(items))
        values = _score(func, [text for _, text in items], prompt, columns)
        family = spec.family if spec is not None else "custom"
        everything = [v for v in values + real_scores if v is not None]
        if everything and max(everything) == min(everything):
            findings.append(
                Finding(
                    name,
                    "",
                    best_score,
                    f"gives {best_score:g} to every text tried, real or degenerate: it "
                    "cannot tell them apart, so it gives no learning signal.",
                )
            )
            continue
        for (label, text), value in zip(items, values, strict=True):
            if value is not None and value >= best_score:
                relation = "more than" if value > best_score else "as much as"
                why = (
                    f"A degenerate text ({label}) scores {value:g}, {relation} the best real completion "
                    f"({best_score:g}): {_GAMED.get(family, _GENERIC)}."
                )
                findings.append(Finding(name, text, value, why))
    return ProbeReport(findings=findings, tried=tried, best=best_scores)


def _answer(columns: dict[str, Any]) -> str | None:
    for key in ("answer", "solution", "reference", "ground_truth"):
        if columns.get(key) not in (None, ""):
            text = str(columns[key])
            return text.rsplit("####", 1)[-1].strip() if "####" in text else text.strip()
    return None


def _score(func: Callable, texts: list[str], prompt: str, columns: dict[str, Any]) -> list[float | None]:
    """Scores of `texts`, with the prompt and columns repeated; a text the reward raises on scores None."""
    n = len(texts)
    kwargs = {k: [v] * n for k, v in columns.items()}
    kwargs["prompts"] = [prompt] * n
    try:
        return call_reward(func, texts, **kwargs)
    except RewardError:
        out: list[float | None] = []
        for text in texts:
            try:
                one = {k: v[:1] for k, v in kwargs.items()}
                out.append(call_reward(func, [text], **one)[0])
            except RewardError as exc:
                logger.info("Reward %s raised on a probe text: %s", reward_name(func), exc)
                out.append(None)
        return out
