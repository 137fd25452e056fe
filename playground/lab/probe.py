"""Reward-hacking probe: degenerate texts a policy could drift to, scored against the real completions.

A GRPO policy finds whatever the reward pays for. Before training, score a battery of degenerate completions (empty,
whitespace, tags with empty sections, sections holding only their own opening tag, tag stuffing, repetition, over-long
filler, a copy of the prompt, the answer alone or repeated, a wrong answer in the right format) and the best real
completion damaged on purpose (sections emptied, truncated, words reversed, filler of the same length). What scores
above the best real completion is one finding per reward, and what ties it another (each naming every kind of text it
covers), said in the words of the reward's family (what "gamed" means for a format, a length, an accuracy or a content
reward). Ties at the lowest score seen say nothing (a strict format gives 0 to untagged real answers and to most
degenerate texts alike), so they are left out.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from playground.advantages import AdvantageSettings
from playground.errors import RewardError
from playground.scoring import call_reward, reward_name
from playground.texts import Text, msg


logger = logging.getLogger(__name__)

OVERLONG_WORDS = 400
# Every section holds its own opening tag and no text: what a `.+` regex (the seed article's) pays 1.0 for.
NESTED_TAGS = "<intro><intro></intro><body><body></body><conclusion><conclusion></conclusion>"


@dataclass
class Finding:
    reward: str
    text: str
    score: float
    why: str  # a catalogue `Text` (`explain`)
    # "degenerate" (texts of the battery that beat or tie the best), "constant", or "recipe" (a text whose advantage
    # beside the real completions, under the recipe's weights and settings, beats theirs: `score` and `best` are
    # advantages then)
    kind: str = "degenerate"
    label: str = ""  # the key of `LABELS` of `text`, the highest-scoring text of the finding
    family: str = "custom"  # the reward's family: what "gamed" means for it (`FAMILIES`)
    best: float = 0.0  # the best real completion's score
    labels: list[str] = field(default_factory=list)  # every kind of text the finding covers (keys of `LABELS`)

    def to_json(self) -> dict[str, Any]:
        return {"reward": self.reward, "text": self.text, "score": self.score, "why": str(self.why)}


@dataclass
class ProbeReport:
    findings: list[Finding]
    tried: int  # degenerate texts scored per reward
    best: dict[str, float] = field(default_factory=dict)  # best real score per reward

    def to_json(self) -> dict[str, Any]:
        return {"findings": [f.to_json() for f in self.findings]}


# The kinds of family whose "gamed" has its own text (`lab_engine.gamed.<family>`); any other reads "generic".
FAMILIES = ("format", "length", "accuracy", "content", "similarity", "model", "judge", "formula")
# The battery's texts, by key (`lab_engine.label.<key>` names each in the catalogue).
LABELS = (
    "empty",
    "whitespace",
    "empty_sections",
    "nested_tags",
    "empty_think_answer",
    "tag_stuffing",
    "repeated_word",
    "overlong",
    "prompt_copy",
    "answer_alone",
    "answer_repeated",
    "wrong_formatted",
    "wrong_after_hashes",
    "off_topic",
    "best_emptied",
    "best_halved",
    "best_reversed",
    "best_filler",
    "best_tripled",
)


def label_text(key: str) -> Text:
    """The name of a kind of degenerate text (a key of `LABELS`)."""
    return msg(f"lab_engine.label.{key}")


def explain(finding: Finding) -> Text:
    """The finding's "why": English as a `str` (the CLI and the JSON API print it), rendered in the page's language
    by the page."""
    if finding.kind == "constant":
        return msg("lab_engine.probe.constant", best=f"{finding.best:g}")
    if finding.kind == "recipe":
        keys = finding.labels or [finding.label]
        listed = label_text(keys[0])
        for key in keys[1:]:
            listed = msg("lab_engine.label.join", first=listed, then=label_text(key))
        return msg("lab_engine.probe.recipe", label=listed, score=f"{finding.score:+.2f}", best=f"{finding.best:+.2f}")
    keys = finding.labels or [finding.label]
    listed = label_text(keys[0])
    for key in keys[1:]:
        listed = msg("lab_engine.label.join", first=listed, then=label_text(key))
    family = finding.family if finding.family in FAMILIES else "generic"
    return msg(
        "lab_engine.probe.degenerate" if len(keys) == 1 else "lab_engine.probe.degenerate_many",
        label=listed,
        count=len(keys),
        score=f"{finding.score:g}",
        relation=msg("lab_engine.probe.more" if finding.score > finding.best else "lab_engine.probe.same"),
        best=f"{finding.best:g}",
        gamed=msg(f"lab_engine.gamed.{family}"),
    )


def battery(prompt: str = "", answer: str | None = None, best: str | None = None) -> list[tuple[str, str]]:
    """(label, text) pairs: degenerate completions, then the best real completion damaged on purpose."""
    return [(str(label_text(key)), text) for key, text in battery_items(prompt, answer, best)]


def battery_items(prompt: str = "", answer: str | None = None, best: str | None = None) -> list[tuple[str, str]]:
    """(key of `LABELS`, text) pairs: degenerate completions, then the best real completion damaged on purpose."""
    items = [
        ("empty", ""),
        ("whitespace", "   \n\t  \n"),
        ("empty_sections", "<intro></intro><body></body><conclusion></conclusion>"),
        ("nested_tags", NESTED_TAGS),
        ("empty_think_answer", "<think>\n\n</think>\n<answer>\n\n</answer>"),
        (
            "tag_stuffing",
            "<intro><body><conclusion><think><answer>" * 4 + "</answer></think></conclusion></body></intro>",
        ),
        ("repeated_word", "the " * 25),
        ("overlong", "word " * OVERLONG_WORDS),
    ]
    if prompt.strip():
        items.append(("prompt_copy", prompt))
    if answer:
        wrong = _wrong(answer)
        items += [
            ("answer_alone", answer),
            ("answer_repeated", " ".join([answer] * 10)),
            ("wrong_formatted", f"<think>\nI computed it.\n</think>\n<answer>\n{wrong}\n</answer>\n"),
            ("wrong_after_hashes", f"I computed it.\n#### {wrong}"),
        ]
    items.append(
        (
            "off_topic",
            "<intro>Hello.</intro><body>Bananas are yellow.</body><conclusion>Bye.</conclusion>",
        )
    )
    if best and best.strip():
        emptied = re.sub(r">[^<]+<", "><", best)
        if emptied != best:
            items.append(("best_emptied", emptied))
        items += [
            ("best_halved", best[: len(best) // 2]),
            ("best_reversed", " ".join(reversed(best.split()))),
            ("best_filler", "." * len(best)),
            ("best_tripled", "\n".join([best] * 3)),
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
    weights: Sequence[float] | None = None,
    advantage: AdvantageSettings | None = None,
) -> ProbeReport:
    """Probe each reward. `completions` are real ones (e.g. a preview group); without them each library reward's
    good example stands in, with its dataset columns when `columns` has none.

    With the recipe's `weights` and `advantage` settings (`AdvantageSettings.of(spec)`), the rewards are also probed
    together, as training sums them (`probe_recipe`)."""
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
        items = battery_items(prompt, answer, best_text)
        tried = max(tried, len(items))
        values = _score(func, [text for _, text in items], prompt, columns)
        family = _family(spec)
        everything = [v for v in values + real_scores if v is not None]
        if everything and max(everything) == min(everything):
            findings.append(_finding(name, "", best_score, "constant", "", family, best_score))
            continue
        scored_items = [(value, label, text) for (label, text), value in zip(items, values, strict=True)]
        scored_items = [item for item in scored_items if item[0] is not None]
        beats = [item for item in scored_items if item[0] > best_score]
        ties = [item for item in scored_items if item[0] == best_score]
        floor = min(v for v, _, _ in scored_items) if scored_items else best_score
        if beats:
            findings.append(_grouped(name, beats, "degenerate", family, best_score))
        if ties and best_score > floor:  # a tie at the lowest score seen shows nothing to hack
            findings.append(_grouped(name, ties, "degenerate", family, best_score))
    if weights is not None and len(funcs) > 1 and completions:
        findings += probe_recipe(funcs, weights, list(completions), prompt, columns, answer, advantage)
    return ProbeReport(findings=findings, tried=tried, best=best_scores)


def probe_recipe(
    funcs: Sequence[Callable],
    weights: Sequence[float],
    completions: list[str],
    prompt: str,
    columns: dict[str, Any],
    answer: str | None = None,
    advantage: AdvantageSettings | None = None,
) -> list[Finding]:
    """The degenerate texts that training would push towards: each one joins the real completions as one more
    member of their group, and its advantage (the recipe's weights, `scale_rewards`, `multi_objective_aggregation`:
    the function training uses) is compared with the best real completion's. One finding for all that beat it."""
    from playground.advantages import compute_advantages

    advantage = advantage or AdvantageSettings()
    real = [_score(func, completions, prompt, columns) for func in funcs]
    totals = [
        sum(w * v for w, v in zip(weights, column, strict=True) if v is not None) for column in zip(*real, strict=True)
    ]
    best = completions[max(range(len(completions)), key=totals.__getitem__)]
    items = battery_items(prompt, answer, best)
    tried = [_score(func, [text for _, text in items], prompt, columns) for func in funcs]
    beats = []
    g = len(completions) + 1
    for i, (label, text) in enumerate(items):
        rows = [[column[j] for column in real] for j in range(len(completions))] + [[column[i] for column in tried]]
        adv = compute_advantages(
            rows, weights, g, advantage.scale_rewards, advantage.multi_objective_aggregation
        ).advantages.tolist()
        if adv[-1] > max(adv[:-1]) + 1e-6:
            beats.append((adv[-1], label, text, max(adv[:-1])))
    if not beats:
        return []
    value, label, text, best_real = max(beats, key=lambda item: item[0])
    finding = Finding("reward", text, value, "", kind="recipe", label=label, best=best_real)
    finding.labels = [key for _, key, _, _ in beats]
    finding.why = explain(finding)
    return [finding]


def _grouped(reward: str, items: list[tuple[float, str, str]], kind: str, family: str, best: float) -> Finding:
    """One finding for several texts (value, label key, text): shown by the highest-scoring one, naming them all."""
    value, label, text = max(items, key=lambda item: item[0])
    finding = _finding(reward, text, value, kind, label, family, best)
    finding.labels = [key for _, key, _ in items]
    finding.why = explain(finding)
    return finding


def _finding(reward: str, text: str, score: float, kind: str, label: str, family: str, best: float) -> Finding:
    finding = Finding(reward, text, score, "", kind=kind, label=label, family=family, best=best)
    finding.why = explain(finding)
    return finding


def _family(spec) -> str:
    """A reward's family (what "gamed" means for it, `FAMILIES`): its registry family, or its own kind for the lab's
    reward kinds."""
    if spec is None:
        return "custom"
    return spec.lab_family or spec.family


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
