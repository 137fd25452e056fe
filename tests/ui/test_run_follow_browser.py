"""A teacher follows the format lesson's run in a real headless Chromium (see test_browser.py for the harness), from
Load to the Runs table, in English and Chinese:

- while the warm-up runs, the held-out eval charts already draw the lesson's reference run (and the base model's
  point) and the loss chart the warm-up's loss; the progress line gives the whole run's time left;
- at the end each reward has its eval chart with the run's points beside the reference's;
- the Runs table gives each run's wall time, and after a Continue its two pieces and their sum;
- an alert that cleared stays in the Runs tab's alert panel, marked resolved (its log written into the stored run).
"""

import re

import pytest

from playground.lessons import LESSONS, get_lesson
from tests.ui.test_alert_log_view import logged
from tests.ui.test_browser import VIEWPORT, assert_no_error_toast, coloured_lines, open_group, open_tab, wait_for
from tests.ui.test_learn_browser import TINY, TINY_ADVANCED, pick_lesson, progress_text


pytestmark = [pytest.mark.browser, pytest.mark.slow]  # a lesson run of two GRPO steps, then one more


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
    fmt = get_lesson("format")
    open_tab(page, "Learn")
    pick_lesson(page, "Lesson", f"{LESSONS.index(fmt) + 1}. {fmt.title['en']}")
    page.get_by_role("heading", name=fmt.title["en"]).wait_for()
    page.get_by_role("button", name="Load into Rewards, Preview and Train").click()
    loaded = page.locator(".prose.pg-status").first
    wait_for(lambda: "Loaded" in loaded.inner_text(), 60, "the lesson's Load")
    other = get_lesson("length")  # another lesson picked: the message of the one loaded goes
    pick_lesson(page, "Lesson", f"{LESSONS.index(other) + 1}. {other.title['en']}")
    wait_for(lambda: "Loaded" not in loaded.inner_text(), 30, "the Loaded message to go with its lesson")
    open_tab(page, "Train")
    for key in ("train.group.generation", "train.group.optimisation", "train.group.cold_start"):
        open_group(page, key)
    open_group(page, "train.group.evaluation")
    for name, value in {**TINY, **TINY_ADVANCED}.items():
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
    for reward in ("format", "tag_layout"):
        title = f"held-out eval: {reward}"
        wait_for(lambda t=title: coloured_lines(page, t) == 2, 60, f"the run's line beside the reference on {title}")
        assert "this run" in legend(page, title)

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
