"""A teacher follows the format lesson's run in a real headless Chromium (see test_browser.py for the harness), from
Load to the Runs table, in English and Chinese. One lesson run (shrunk for the tiny model) carries the checks of each
stage:

- two lessons loaded, the last one wins (its Preview prompt, its Train recipe); picking another lesson takes the Loaded
  message away;
- while the warm-up runs, the progress line shows its phase and gives the whole run's time left, the held-out eval
  charts already draw the lesson's reference run (and the base model's point) and the loss chart the warm-up's loss;
- at the end each reward has its eval chart with the run's points beside the reference's, the reward chart its eval
  line, the held-out answers of each eval point show (also after a reload), and Learn's curve draws the run;
- the Runs table gives each run's wall time, and after a Continue its two pieces and their sum;
- an alert that cleared stays in the Runs tab's alert panel, marked resolved (its log written into the stored run).
"""

import re

import pytest

from playground.lessons import LESSONS, get_lesson
from tests.ui.test_alert_log_view import logged
from tests.ui.test_browser import VIEWPORT, assert_no_error_toast, coloured_lines, open_group, open_tab, wait_for
from tests.ui.test_learn_browser import pick_lesson


pytestmark = [pytest.mark.browser, pytest.mark.slow]  # a lesson run of two GRPO steps, then one more


# The format lesson, shrunk: 100 short warm-up steps, two GRPO steps, an eval of the base model, after the warm-up and
# after step 2. The essential max_steps, then fields of the Generation, Optimisation, Cold start and Evaluation groups.
TINY = {"max_steps": "2", "num_generations": "4", "max_completion_length": "4"}
TINY_ADVANCED = {
    "per_device_train_batch_size": "4",
    "sft_warmup_steps": "100",  # seconds even on a quiet machine: the page shows the warm-up phase on a tick
    "sft_num_examples": "2",
    "eval_every": "2",
    "eval_prompts": "1",
    "eval_num_generations": "2",
    "eval_max_completion_length": "0",  # the training cap: the lesson judges at 160, too long for the tiny model
}


def progress_text(page) -> str:
    return " ".join(page.locator(".pg-progress-label").all_inner_texts())


def eval_chart(page, title: str):
    """The eval chart titled `title` ("held-out eval: format")."""
    return page.locator(".block", has=page.get_by_text(title, exact=True)).last


def legend(page, title: str) -> str:
    texts = eval_chart(page, title).locator("g.role-legend text").evaluate_all("ns => ns.map(n => n.textContent)")
    return " ".join(texts)


# The header and first data row of a table, by their ARIA roles (the dataframe draws a grid of rows and cells).
TABLE = """block => {
    const rows = [...block.querySelectorAll('[role=row], tr')].map(r =>
        [...r.querySelectorAll('[role=columnheader], [role=gridcell], th, td')].map(c => c.innerText.trim()));
    return rows.filter(r => r.some(c => c));
}"""


def runs_cell(page, table: str, header: str) -> str:
    """The newest run's cell under `header` in the Runs table (labelled `table`)."""
    block = page.locator(".block", has=page.get_by_text(table, exact=True)).first
    rows = block.evaluate(TABLE)
    if len(rows) < 2:
        return ""
    names = [" ".join(h.split()) for h in rows[0]]
    cells = [" ".join(c.split()) for c in rows[1]]
    return next((cell for name, cell in zip(names, cells, strict=False) if name.startswith(header)), "")


def show_first_run(page, show: str) -> None:
    page.get_by_role("button", name=show, exact=True).click()


def test_a_lesson_run_from_load_to_the_runs_table(app, browser):
    context = browser.new_context(locale="en-US", viewport=VIEWPORT)
    page = context.new_page()
    page.goto(app.url)
    open_tab(page, "Learn")
    loaded = page.locator(".prose.pg-status").first
    fmt, other = get_lesson("format"), get_lesson("length")
    # Two Loads in the page, the format lesson last (it runs); every lesson's Load is checked through the API in
    # test_learn.py.
    for lesson in [other, fmt]:
        pick_lesson(page, "Lesson", f"{LESSONS.index(lesson) + 1}. {lesson.title['en']}")
        page.get_by_role("heading", name=lesson.title["en"]).wait_for()
        page.get_by_role("button", name="Load into Rewards, Preview and Train").click()
        wait_for(lambda t=lesson.title["en"]: f"Loaded “{t}”" in loaded.inner_text(), 60, f"Load of {lesson.id}")
    assert_no_error_toast(page)
    # Another lesson picked: the message of the one loaded goes (and the format lesson is picked again for its curve).
    pick_lesson(page, "Lesson", f"{LESSONS.index(other) + 1}. {other.title['en']}")
    wait_for(lambda: "Loaded" not in loaded.inner_text(), 30, "the Loaded message to go with its lesson")
    pick_lesson(page, "Lesson", f"{LESSONS.index(fmt) + 1}. {fmt.title['en']}")
    page.get_by_role("heading", name=fmt.title["en"]).wait_for()

    # The last Load wins: the Preview holds the format lesson's prompt, the Train form its recipe.
    open_tab(page, "Preview")
    texts = page.locator("textarea:visible").evaluate_all("nodes => nodes.map(n => n.value)")
    assert fmt.preview_prompt in texts
    open_tab(page, "Train")
    assert page.get_by_label("dataset_name").input_value() == "writing"
    for key in ("train.group.generation", "train.group.optimisation", "train.group.cold_start"):
        open_group(page, key)
    open_group(page, "train.group.evaluation")
    for name, value in TINY.items():
        page.get_by_label(name, exact=True).fill(value)
    prefixes = page.get_by_label("completion_prefix")  # on Preview (visited above, still in the page) and on Train
    wait_for(lambda: prefixes.count() == 2, 60, "the Cold start group's completion_prefix")  # .all() does not wait
    assert [prefix.input_value() for prefix in prefixes.all()] == ["<intro>", "<intro>"]
    assert page.get_by_label("sft_warmup_steps", exact=True).input_value() == str(fmt.run_spec().grpo.sft_warmup_steps)
    for name, value in TINY_ADVANCED.items():
        page.get_by_label(name, exact=True).fill(value)
    page.get_by_role("button", name="Start training").click()

    # The warm-up: the whole run's time left (no warm-up-only ETA), the reference curve and the warm-up's loss drawn.
    wait_for(lambda: "Phase: warm-up (SFT)" in progress_text(page), 120, "the warm-up phase in the progress line")
    assert "the whole run's ETA" in progress_text(page) and "warm-up ETA" not in progress_text(page)
    wait_for(
        lambda: "lesson reference" in legend(page, "held-out eval: format"), 60, "the reference on the eval chart"
    )
    wait_for(lambda: "warmup/loss" in legend(page, "loss: GRPO loss (and the SFT warm-up's)"), 60, "the warm-up loss")

    status = page.locator(".prose.pg-status").last
    wait_for(lambda: "finished" in status.inner_text(), 300, "the run to finish")
    assert app.ctx.jobs.current.status == "finished"
    assert [r["eval_of"] for r in app.ctx.jobs.current.run.metrics() if r.get("phase") == "eval"] == [
        "base",
        "warmup",
        "grpo",
    ]
    for reward in ("format", "tag_layout"):
        title = f"held-out eval: {reward}"
        wait_for(lambda t=title: coloured_lines(page, t) == 2, 60, f"the run's line beside the reference on {title}")
        assert "this run" in legend(page, title)
    # The reward chart (the one whose legend names eval_reward) draws both lines, each in its own colour.
    try:
        wait_for(lambda: coloured_lines(page, "eval_reward") == 2, 60, "the eval line beside the training reward")
    except AssertionError:
        # Once, in a full-suite run from a fresh clone, the last chart update had not coloured the eval line within
        # 60 s (it passed in every other run). A reload re-sends the owner's charts: they must then show both lines.
        page.reload()
        page.get_by_role("tab", name="Train", exact=True).click()
        wait_for(lambda: coloured_lines(page, "eval_reward") == 2, 90, "the eval line after a reload")
    # The held-out answers behind the eval points: the same prompt before training, after the warm-up, after GRPO.
    page.get_by_text("Held-out answers at each eval point").click()
    answers = page.locator(".pg-eval-answers")
    wait_for(lambda: answers.inner_text().count("<intro>") >= 3, 60, "the held-out answers of the three eval points")
    for model in ("Before training", "After the warm-up", "After GRPO"):
        assert model in answers.inner_text()
    # Back on Learn, the format lesson's curve draws this run's eval points beside the reference run's.
    open_tab(page, "Learn")
    page.get_by_role("heading", name=fmt.title["en"]).wait_for()  # a reload above opens it again
    curve = page.locator(".block.pg-reference-curve")
    wait_for(lambda: curve.locator("text", has_text="format · your run").count() == 1, 60, "the live run's curve")
    assert_no_error_toast(page)
    # After a reload the run has ended and no tick comes: the page load itself brings the held-out answers back.
    page.reload()
    # The page comes back on the tab last opened (Learn); a click on Train before that would be switched back.
    learn = page.get_by_role("tab", name="Learn", exact=True)
    wait_for(lambda: learn.get_attribute("aria-selected") == "true", 60, "the reloaded page back on Learn")
    open_tab(page, "Train")
    accordion = page.get_by_text("Held-out answers at each eval point")
    accordion.click()
    wait_for(lambda: answers.inner_text().count("<intro>") >= 3, 60, "the held-out answers after a reload")
    for model in ("Before training", "After the warm-up", "After GRPO"):
        assert model in answers.inner_text()
    assert_no_error_toast(page)

    # The Runs table: the wall time of the run; after a Continue, both pieces and their sum.
    run = app.ctx.jobs.current.run
    open_tab(page, "Runs")
    page.get_by_role("button", name="Refresh").click()
    wait_for(
        lambda: re.fullmatch(r"\d+s|\d+m \d\ds", runs_cell(page, "All runs", "wall time")), 30, "the run's wall time"
    )
    page.get_by_label("Train to step (max_steps)").fill("3")
    page.get_by_role("button", name="Continue", exact=True).click()
    page.get_by_text(f"Run {run.id} continues from step").wait_for()
    app.ctx.jobs.current.join(300)
    # the picked run's line follows the run with the list, without Refresh or Show charts (not left at "2/2 steps")
    line = page.locator(".prose", has_text=re.compile(rf"{run.id} · finished · 3/3 steps"))
    line.first.wait_for()
    assert_no_error_toast(page)
    page.get_by_role("button", name="Refresh").click()
    pieces = r"(\d+m )?\d+s \((\d+m )?\d+s \+ (\d+m )?\d+s\)"
    wait_for(
        lambda: re.fullmatch(pieces, runs_cell(page, "All runs", "wall time")),
        30,
        "the two pieces of the continued run",
    )
    run.write_status(alert_log=logged([0.0, 0.0, 0.0, 0.4, 0.4])[1])  # an alert raised at step 3, cleared at 4
    show_first_run(page, "Show charts")
    page.get_by_text("Resolved at step 4:").wait_for()
    assert page.get_by_text("No alert holds now").count() == 1
    summary = page.get_by_text(re.compile(r"3/3 steps · wall time"))
    summary.wait_for()
    assert re.search(pieces, summary.inner_text())
    assert_no_error_toast(page)
    context.close()


def test_the_runs_tab_in_chinese_keeps_a_resolved_alert_and_draws_the_eval_charts(app, browser):
    runs = [info for info in app.ctx.store.list() if info.status == "finished"]
    if not runs:
        pytest.skip("needs the finished lesson run of test_a_lesson_run_from_load_to_the_runs_table")
    run = app.ctx.store.get(runs[0].id)
    _, log = logged([0.0, 0.0, 0.0, 0.4, 0.4])  # raised at step 3, cleared at step 4
    run.write_status(alert_log=log)
    context = browser.new_context(locale="zh-CN", viewport=VIEWPORT)
    page = context.new_page()
    page.goto(app.url)
    open_tab(page, "训练记录")
    page.get_by_role("button", name="刷新").click()
    wait_for(lambda: "秒" in runs_cell(page, "全部训练记录", "用时"), 30, "the run's wall time in Chinese")
    show_first_run(page, "显示图表")
    wait_for(lambda: page.get_by_text("第 4 步起已消除：").count() > 0, 30, "the resolved alert")
    assert page.get_by_text("目前没有生效的提醒").count() == 1
    wait_for(lambda: coloured_lines(page, "留出评估：format") == 2, 60, "the eval chart of format")
    assert "本次训练" in legend(page, "留出评估：format") and "课程参考" in legend(page, "留出评估：format")
    assert page.get_by_text(re.compile(r"步 · 用时")).count() == 1
    assert_no_error_toast(page)
    context.close()
