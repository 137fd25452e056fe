"""The Learn tab in a real headless Chromium (see test_browser.py for the harness): a lesson's reference run shows at
once, the combine lesson's fix and trap and its "Load the trap"; the zh-CN page shows the lessons in Chinese. Loading
two lessons and following the format lesson's run (shrunk for the tiny model) to the Runs table is
test_run_follow_browser.py."""

import re

from playground.lessons import LESSONS, get_lesson
from playground.ui.i18n import EN, ZH
from tests.ui.test_browser import (
    VIEWPORT,
    assert_no_error_toast,
    open_group,
    open_tab,
    wait_for,
)


def pick_lesson(page, label: str, lesson_label: str) -> None:
    page.get_by_label(label, exact=True).click()
    page.get_by_role("option", name=lesson_label, exact=True).click()


# The Learn curve's axes as Vega draws them in SVG: the tick labels and the title of each axis.
AXES = """() => [...document.querySelectorAll('.pg-reference-curve g[aria-roledescription=axis]')].map(a => ({
    label: a.getAttribute('aria-label') || '',
    ticks: [...a.querySelectorAll('g.role-axis-label text')].map(t => t.textContent),
    title: [...a.querySelectorAll('g.role-axis-title text')].map(t => t.textContent).join(' '),
}))"""


def curve_axes(page) -> dict[str, dict]:
    """The Learn curve's "x" and "y" axes: tick labels and title."""
    axes = page.evaluate(AXES)
    return {a["label"][0].lower(): a for a in axes if a["label"][:6] in ("X-axis", "Y-axis")}


def check_reference_run(page, lang: str) -> None:
    """Picking the format lesson shows its measured run with no compute: what the warm-up and GRPO each added, the
    eval curve, and the same held-out prompt answered before training, after the warm-up and after GRPO."""
    text = {"en": EN, "zh": ZH}[lang]
    title, added = {"en": ("Reference run", "The warm-up added"), "zh": ("参考训练", "预热带来")}[lang]
    fmt = get_lesson("format")
    reference = fmt.reference()
    assert reference is not None and reference.point("warmup") and reference.point("grpo")
    pick_lesson(page, text["learn.pick"], f"{LESSONS.index(fmt) + 1}. {fmt.title[lang]}")
    page.get_by_role("heading", name=fmt.title[lang]).wait_for()
    summary = page.locator(".prose.pg-reference")
    wait_for(lambda: title in summary.inner_text() and added in summary.inner_text(), 60, "the reference summary")
    shares = reference.shares("format")
    assert f"{shares['from_grpo']:+.2f}" in summary.inner_text()
    [row] = reference.answers_by_prompt()[:1]
    answers = page.locator(".block.pg-reference-answers")
    first_words = " ".join(row["grpo"]["completion"].split()[:3])
    wait_for(lambda: first_words in answers.inner_text(), 60, "the reference answers after GRPO")
    assert " ".join(row["base"]["completion"].split()[:3]) in answers.inner_text()
    curve = page.locator(".block.pg-reference-curve")
    # a coloured line per chart metric of the reference run (format, tag_layout, sentence_rate), and one per chart
    # metric for a run of the recipe
    wait_for(lambda: curve.locator("g.mark-line path[stroke^='#']").count() in (3, 6), 60, "the reference curve")
    reference_series = "reference" if lang == "en" else "参考"
    for metric in ("format", "sentence_rate"):
        assert curve.locator("text", has_text=f"{metric} · {reference_series}").count() == 1
    # The Train tab's chart: its evals at steps 0, 0, 10 and 20 ticked at whole steps, each once (not "0 1 1 2 2"), y
    # labels without float noise, axis titles in the page's language.
    axes = wait_for(lambda: (a := curve_axes(page)).keys() >= {"x", "y"} and a, 30, "the curve's axes")
    assert axes["x"]["ticks"] == ["0", "5", "10", "15", "20"], axes["x"]
    assert len(axes["y"]["ticks"]) >= 2, axes["y"]
    for label in axes["y"]["ticks"]:  # "0.2", not "0.200000" nor "0.30000000000000004"
        assert re.fullmatch(r"−?\d+(\.\d{0,2}[1-9])?", label), axes["y"]
    assert (axes["x"]["title"], axes["y"]["title"]) == (text["chart.step"], text["chart.lesson.y"])
    assert_no_error_toast(page)


def test_chinese_page_shows_the_lessons_and_the_reference_run_in_chinese(app, browser):
    """The lessons in Chinese, the format lesson's reference run at once (`check_reference_run`), its Load."""
    context = browser.new_context(locale="zh-CN", viewport=VIEWPORT)
    page = context.new_page()
    page.goto(app.url)
    open_tab(page, "学习")
    first, fmt = LESSONS[0], get_lesson("format")
    page.get_by_role("heading", name=first.title["zh"]).wait_for()
    check_reference_run(page, "zh")  # picks the format lesson
    body = page.locator(".prose", has=page.get_by_role("heading", name=fmt.title["zh"])).first.inner_text()
    first_line = fmt.text["zh"].strip().splitlines()[0].strip("*# ")
    assert first_line[:12] in body
    assert page.get_by_text("预期结果：").count() >= 1
    page.get_by_role("button", name="载入到奖励、预览和训练页").click()
    wait_for(lambda: page.get_by_text(f"已载入“{fmt.title['zh']}”").count() > 0, 60, "the Chinese Load message")
    context.close()


def test_the_format_and_combine_lessons_show_their_reference_runs(app, browser):
    """The format lesson's reference run at once (`check_reference_run`); then the combine lesson draws the fix's and
    the trap's reference runs on one chart, shows the held-out answers of both after GRPO, and "Load the trap" fills
    Rewards and Train with the trap's recipe."""
    lesson = get_lesson("combine")
    fix, trap = lesson.reference(), lesson.reference(trap=True)
    context = browser.new_context(locale="en-US", viewport=VIEWPORT)
    page = context.new_page()
    page.goto(app.url)
    open_tab(page, "Learn")
    check_reference_run(page, "en")
    trap_button = page.get_by_role("button", name="Load the trap", exact=True)
    pick_lesson(page, "Lesson", f"{LESSONS.index(lesson) + 1}. {lesson.title['en']}")
    page.get_by_role("heading", name=lesson.title["en"]).wait_for()
    summary = page.locator(".prose.pg-reference")
    wait_for(lambda: "Reference runs: the fix and the trap" in summary.inner_text(), 60, "both runs' summary")
    # one chart: a line per chart metric of the fix (format, sentence_rate) and of the trap (tag_layout)
    curve = page.locator(".block.pg-reference-curve")
    wait_for(lambda: curve.locator("g.mark-line path[stroke^='#']").count() == 3, 60, "the three reference lines")
    for series in ("format · fix", "sentence_rate · fix", "tag_layout · trap"):
        assert curve.locator("text", has_text=series).count() == 1, series
    # the held-out answers of both runs after GRPO
    fix_answers = page.locator(".block.pg-reference-answers")
    trap_answers = page.locator(".block.pg-reference-answers-trap")
    for table, reference in ((fix_answers, fix), (trap_answers, trap)):
        [row] = reference.answers_by_prompt()[-1:]
        words = " ".join(row["grpo"]["completion"].split()[:4])
        wait_for(lambda t=table, w=words: w in t.inner_text(), 60, f"the answer after GRPO {words!r}")
    assert "The trap's held-out answers" in trap_answers.inner_text()
    # Load the trap: the trap's rewards in the Rewards selection, its settings in the Train form
    assert trap_button.is_visible()
    trap_button.click()
    loaded = page.locator(".prose.pg-status").first
    wait_for(lambda: "Loaded the trap of" in loaded.inner_text(), 60, "the trap's Load message")
    open_tab(page, "Rewards")
    selected = page.locator("#pg-selection-summary")
    # Load's answer sets the selection with the cards, and nothing re-reads the cards after it: a reading between two
    # of the cards' changes once landed last on a loaded machine (the trap's weights with another ideal_length).
    trap = ("tag_layout × 1", "length (ideal_length=200) × 0.01")
    trap_rewards = lambda: (text := selected.inner_text()) and all(r in text for r in trap) and "format" not in text  # noqa: E731
    wait_for(trap_rewards, 60, "the trap's rewards", selected.inner_text)
    open_tab(page, "Train")
    assert page.get_by_label("max_steps", exact=True).input_value() == str(lesson.run_spec(trap=True).grpo.max_steps)
    open_group(page, "train.group.generation")
    assert page.get_by_label("max_completion_length", exact=True).input_value() == "80"
    # the button is the combine lesson's only
    open_tab(page, "Learn")
    pick_lesson(page, "Lesson", f"{LESSONS.index(get_lesson('length')) + 1}. {get_lesson('length').title['en']}")
    wait_for(lambda: not trap_button.is_visible(), 60, "the trap button to hide on a lesson without a trap")
    assert not trap_answers.is_visible()
    # A reload opens the lesson last shown (the browser keeps it), not the first one
    page.reload()
    length = get_lesson("length")
    page.get_by_role("heading", name=length.title["en"]).wait_for()
    assert not page.get_by_role("heading", name=LESSONS[0].title["en"]).is_visible()
    picker = page.get_by_label("Lesson", exact=True)
    wait_for(lambda: picker.input_value() == f"{LESSONS.index(length) + 1}. {length.title['en']}", 60, "the picker")
    assert_no_error_toast(page)
    context.close()
