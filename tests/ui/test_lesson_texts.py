"""The lessons as a Space visitor reads them: no repository file named, the glossary's terms and Chinese punctuation
in Chinese, and a reference run described as the shipped one was measured."""

import re
from decimal import ROUND_HALF_UP, Decimal

import pytest

from playground.lessons import LESSONS, get_lesson
from playground.texts.glossary import GLOSSARY
from playground.ui.i18n import EN, ZH
from playground.ui.learn_tab import reference_markdown
from tests.ui.test_glossary import chinese_punctuation_problems


REPO_FILE = re.compile(r"\b(?:bench|docs|tests|scripts)/|\b[\w/]+\.(?:py|md)\b")


def lesson_texts(lang: str) -> list[str]:
    return [part[lang] for lesson in LESSONS for part in (lesson.title, lesson.text, lesson.expected) if part]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_lesson_names_a_file_a_visitor_cannot_open(lang):
    table = {"en": EN, "zh": ZH}[lang]
    texts = lesson_texts(lang) + [text for key, text in table.items() if key.startswith("learn.")]
    texts += [reference_markdown(lesson, lang) for lesson in LESSONS]
    assert [text for text in texts if REPO_FILE.search(text)] == []


def test_lessons_in_chinese_use_the_glossary_and_chinese_punctuation():
    for text in lesson_texts("zh"):
        for term in GLOSSARY.values():
            assert not any(word in text for word in term.avoid), (term.avoid, text)
        assert chinese_punctuation_problems(text) == [], text


def test_the_format_lessons_reference_run_is_the_run_its_text_describes():
    lesson = get_lesson("format")
    wall = lesson.reference().run["wall_s"]
    assert f"quiet machine, both cores: {wall / 60:.1f} min" in lesson.expected["en"]
    assert f"用两个核：{wall / 60:.1f} 分钟" in lesson.expected["zh"]
    summary = reference_markdown(lesson, "en")
    assert "shared" not in summary and f"{int(wall // 60)}m {round(wall % 60):02d}s in all" in summary
    # the load average as the run started (the previous run's tail) read as a busy machine next to "quiet machine"
    assert "load" not in summary and "负载" not in reference_markdown(lesson, "zh")


def _half_up(value: float, digits: int = 2) -> str:
    """A figure as the texts write it: rounded half up (0.125 -> 0.13, -283.2 -> 283 with digits=0)."""
    return str(Decimal(repr(value)).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP))


def _in_order(text: str, figures: list[str]) -> bool:
    """Each figure appears in `text`, each after the one before (as written in a chain "a -> b -> c")."""
    at = 0
    for figure in figures:
        found = re.search(rf"(?<![\d.]){re.escape(figure)}(?![\d])", text[at:])
        if found is None:
            return False
        at += found.end()
    return True


def _chain(reference, metric: str, digits: int = 2, distance: bool = False) -> list[str]:
    """The metric at each eval point (base, warm-up, each GRPO point), as the texts write it; a length reward as the
    distance to its target (its negation)."""
    return [_half_up(-row[metric] if distance else row[metric], digits) for row in reference.eval]


LENGTH = "length(ideal_length=200)"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_combine_lessons_figures_are_its_fixs_and_its_traps_reference_runs(lang):
    lesson = get_lesson("combine")
    fix, trap = lesson.reference(), lesson.reference(trap=True)
    assert fix is not None and trap is not None and lesson.trap is not None
    expected = lesson.expected[lang]
    fix_part, trap_part = expected.split({"en": "The trap", "zh": "陷阱（"}[lang])
    # the fix: a sentence in every tag, strict format, distance to the target, at every eval point in order
    assert [row["of"] for row in fix.eval] == ["base", "warmup", "grpo", "grpo"]
    assert _in_order(fix_part, _chain(fix, "sentence_rate")), _chain(fix, "sentence_rate")
    assert _in_order(fix_part, _chain(fix, "format")), _chain(fix, "format")
    assert _in_order(fix_part, _chain(fix, LENGTH, 0, distance=True)), _chain(fix, LENGTH, 0, distance=True)
    # the payoff the lesson promises: a sentence in every tag for most answers, and GRPO brings the answers to the
    # target length without losing the layout the warm-up gave
    rows = {row["of"]: row for row in fix.eval}  # the last GRPO point is the "grpo" one
    assert rows["grpo"]["sentence_rate"] >= 0.5, rows
    assert -rows["grpo"][LENGTH] < -rows["warmup"][LENGTH] and rows["grpo"]["format"] >= rows["warmup"]["format"]
    # the fix's time, the CPU and whether the machine was shared
    run = fix.run
    assert (
        f"{run['wall_s'] / 60:.1f}" in fix_part and ("Intel Xeon" if "Intel" in run["cpu"] else "AMD EPYC") in fix_part
    )
    shared = {"en": "shared with other work", "zh": "还在做别的工作"}[lang] in fix_part
    assert shared == fix.busy
    # the trap: distance and tag_layout, its time on a quiet machine, its alerts
    assert [row["of"] for row in trap.eval] == ["base", "warmup", "grpo"]
    assert _in_order(trap_part, _chain(trap, LENGTH, 0, distance=True)), _chain(trap, LENGTH, 0, distance=True)
    assert _in_order(trap_part, _chain(trap, "tag_layout")), _chain(trap, "tag_layout")
    assert f"{trap.run['wall_s'] / 60:.1f}" in trap_part and trap.run["load_avg_1min"] <= trap.run["cores"]
    assert {"en": "quiet 2-core AMD EPYC", "zh": "空闲的 2 核 AMD EPYC"}[lang] in trap_part
    assert all(code in trap_part for code in trap.run["alerts"])
    assert f"GRPO {trap.run['max_steps']}" in trap_part or f"{trap.run['max_steps']} GRPO" in trap_part


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_combine_lesson_tells_how_the_fix_works(lang):
    lesson = get_lesson("combine")
    spec, trap = lesson.run_spec(), lesson.run_spec(trap=True)
    text = lesson.text[lang]
    assert spec.grpo.multi_objective_aggregation == "normalize_then_sum" != trap.grpo.multi_objective_aggregation
    assert "`multi_objective_aggregation = normalize_then_sum`" in text
    assert spec.grpo.sft_split == "sentences" and "`sft_split = sentences`" in text
    [length] = [choice for choice in spec.rewards if choice.name == "length"]
    assert f"`ideal_length = {length.params['ideal_length']}`" in text
    assert f"weight {length.weight:g}" in text or f"权重 {length.weight:g}" in text
    assert any(choice.name == "tag_sentences" for choice in spec.rewards) and "`tag_sentences`" in text
    assert {"en": "**Load the trap**", "zh": "**载入陷阱配方**"}[lang] in text
    for metric in (*lesson.chart, *lesson.trap_chart):
        assert f"`{metric}`" in text


def _answers_after_grpo(reference) -> list[str]:
    last = max(a["step"] for a in reference.answers if a["eval_of"] == "grpo")
    return [a["completion"] for a in reference.answers if a["eval_of"] == "grpo" and a["step"] == last]


def _quoted_answers(text: str) -> list[str]:
    r"""The answers a text quotes: code spans that open a tag (not a layout with "…"), with "\n" read as a newline."""
    spans = re.findall(r"`(<intro>[^`…]*)`", text)
    return [span.replace("\\n", "\n") for span in spans if span != "<intro>"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_answers_the_texts_quote_are_their_reference_runs_answers_after_grpo(lang):
    """The format lesson quotes one of its answers after GRPO: fragments in the tags, no sentence in every tag; the
    combine lesson quotes one of the fix's: a sentence in every tag. The format lesson points to the combine one."""
    from playground.training.answer_shape import sentence_in_every_tag

    fmt, combine = get_lesson("format"), get_lesson("combine")
    [fragments] = _quoted_answers(fmt.text[lang])
    assert fragments in _answers_after_grpo(fmt.reference()) and not sentence_in_every_tag(fragments)
    assert combine.title[lang].split("：")[0].split(":")[0] in fmt.text[lang]
    assert "`sentence_rate`" in fmt.text[lang] and "sentence_rate" in fmt.chart
    [sentences] = _quoted_answers(combine.expected[lang])
    assert sentences in _answers_after_grpo(combine.reference()) and sentence_in_every_tag(sentences)


def test_the_readme_and_the_performance_notes_carry_the_combine_lessons_figures():
    """README's lesson lines and docs/performance.md's combine table are the shipped reference runs' figures."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    readme = (root / "README.md").read_text(encoding="utf-8")
    notes = (root / "docs" / "performance.md").read_text(encoding="utf-8")
    lesson = get_lesson("combine")
    fix, trap = lesson.reference(), lesson.reference(trap=True)
    sentences, layout, distance = _chain(fix, "sentence_rate"), _chain(fix, "format"), _chain(fix, LENGTH, 0, True)
    assert f"{sentences[0]} -> {sentences[1]} after the warm-up -> {sentences[-1]}" in readme
    assert f"{layout[0]} -> {layout[-1]}" in readme and f"{distance[0]} -> {distance[-1]} characters" in readme
    assert ("not a quiet machine's time" in readme) == fix.busy
    assert f"| fix | `sentence_rate` | {' | '.join(sentences[:-1])} | **{sentences[-1]}** |" in notes
    assert f"| fix | `format` | {' | '.join(layout[:-1])} | **{layout[-1]}** |" in notes
    assert f"| fix | distance to 200 characters | {' | '.join(distance[:-1])} | **{distance[-1]}** |" in notes
    tags = _chain(trap, "tag_layout")
    assert f"| trap | `tag_layout` | {' | '.join(tags[:-1])} | **{tags[-1]}** |" in notes
    assert f"{fix.run['wall_s']:.0f} s wall" in notes
