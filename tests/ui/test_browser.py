"""The page in a real headless Chromium (Playwright for Python and the system's Chromium; never `playwright install`).

One flow through the tabs with the tiny model: score text, generate a group, start a run and watch the chart gain
points and the progress move, reload the page and stop the run (the starter keeps control), compare, show the run;
and a custom reward typed into the editor, checked, selected and scored.
When a browser test fails, a screenshot of each page it left open goes to tests/artifacts/ (gitignored; see
tests/ui/conftest.py). The docs' screenshots are made by scripts/screenshots.py, not by tests.
"""

import os
import re
import sys
import threading
import time
import traceback
from pathlib import Path

import httpx

from playground.ui.i18n import EN


ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"
VIEWPORT = {"width": 1400, "height": 900}
# Charts are found by their titles (the TRL metric name and what it measures).
REWARD, PER_FUNCTION = EN["chart.reward.title"], EN["chart.per_function.title"]
CUSTOM_CODE = """def short_answer(completions, **kwargs):
    print("scoring", len(completions))
    return [1.0 if len(c) < 20 else 0.0 for c in completions]
"""


def open_page(browser, app, locale: str = "en-US", viewport: dict | None = None):
    """A new context's page on `app`, once its reward cards are drawn; returns (context, page)."""
    context = browser.new_context(locale=locale, viewport=viewport or VIEWPORT)
    page = context.new_page()
    page.goto(app.url)
    page.locator(".pg-card").first.wait_for()
    return context, page


def open_tab(page, name: str) -> None:
    page.get_by_role("tab", name=name, exact=True).click()


def open_group(page, key: str, open_: bool = True) -> None:
    """Open (or close) one of the Train tab's collapsed groups, by its text key ("train.group.generation"), in any
    page language: its accordion's id is the key with dashes."""
    label = page.locator(f"#{key.replace('.', '-')} > .label-wrap")
    if ("open" in (label.get_attribute("class") or "").split()) != open_:
        label.click()


def slowdown() -> float:
    """How many times slower than a quiet machine this one runs now: the last minute's load average per core, at
    least 1. Other work on the machine (a second test worker, a benchmark, a CI neighbour) stretches each page step."""
    return max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1))


def wait_for(predicate, timeout: float, what: str, shows=None):
    """Poll `predicate` until it returns something true, and return that. `timeout` is the ceiling on a quiet
    machine; a loaded one gets it times `slowdown()`, read as it waits, so a failure is a page that never answers.
    The polls come every 50 ms at first and further apart as the wait goes on (a twentieth of the time waited, at
    most half a second): a predicate that asks the page costs the page CPU, which a long wait (a training run) would
    otherwise take from what it waits for, and the answer comes at most about 5 % later than the page has it.
    `shows`, if given, is called on a time-out and its answer (what the page showed instead) joins the message."""
    start = time.monotonic()
    while True:
        value = predicate()
        if value:
            return value
        waited = time.monotonic() - start
        if waited > timeout * slowdown():
            instead = f"; the page showed: {shows()!r}" if shows is not None else ""
            raise AssertionError(f"timed out after {waited:.0f} s waiting for {what}{instead}")
        time.sleep(min(0.5, max(0.05, waited / 20)))


def chart_last_step(page, title: str) -> int:
    """The largest step on a chart's x axis, read from Vega's accessible axis label (0 for an empty chart)."""
    block = page.locator(".block", has=page.get_by_text(title, exact=True)).last
    labels = block.locator("[aria-roledescription='axis']").evaluate_all(
        "nodes => nodes.map(n => n.getAttribute('aria-label'))"
    )
    for label in labels:
        match = re.search(r"X-axis titled '[^']*' .* to ([\d.]+)", label or "")
        if match:
            return int(float(match.group(1)))
    return 0


def coloured_lines(page, title: str) -> int:
    """How many lines a chart draws with a colour of their own (one per reward function or per run)."""
    block = page.locator(".block", has=page.get_by_text(title, exact=True)).last
    return block.locator("g.mark-line path[stroke^='#']").count()


def assert_no_error_toast(page) -> None:
    errors = page.locator(".toast-body.error")
    assert errors.count() == 0, errors.all_inner_texts()


def progress_step(page) -> int:
    labels = page.locator(".pg-progress-label").all_inner_texts()
    match = re.search(r"Step (\d+) of", labels[0]) if labels else None
    return int(match.group(1)) if match else -1


def test_flow_through_every_tab(app, browser):
    context = browser.new_context(locale="en-US", viewport=VIEWPORT)
    page = context.new_page()
    page.goto(app.url)
    page.get_by_text("Try on text", exact=True).wait_for()

    # Rewards: add `format` to the selection, then score the pasted completions.
    page.get_by_label("Use").first.check()
    summary = page.locator("#pg-selection-summary")  # by id: a text-filtered locator misses it mid-render
    wait_for(lambda: "format" in summary.inner_text(), 20, "the selection to include format")
    page.get_by_role("button", name="Score", exact=True).click()
    page.get_by_role("columnheader", name="format").first.wait_for()
    assert_no_error_toast(page)

    # Preview: a group of 8 from the tiny model.
    open_tab(page, "Preview")
    page.get_by_role("button", name="Generate group").click()
    page.get_by_text("Generated 8 completions").wait_for()
    assert page.get_by_role("grid").last.get_by_role("row").count() == 1 + 8  # the header row and G rows

    # Train: a short run; the reward chart gains points and the progress moves.
    open_tab(page, "Train")
    page.get_by_label("max_steps").fill("5000")  # stopped after the reload, long before any machine gets this far
    open_group(page, "train.group.generation")
    page.get_by_label("num_generations").fill("4")
    page.get_by_label("max_completion_length").fill("8")
    page.get_by_role("button", name="Start training").click()
    first = wait_for(lambda: chart_last_step(page, REWARD), 180, "the first point on the reward chart")
    step = progress_step(page)
    wait_for(lambda: chart_last_step(page, REWARD) > first + 1, 120, "more points on the reward chart")
    wait_for(lambda: progress_step(page) > step, 60, "the progress bar to move")
    assert "is running" in page.locator(".prose.pg-status").inner_text()
    wait_for(lambda: coloured_lines(page, PER_FUNCTION) == 2, 30, "a line per reward function")
    assert_no_error_toast(page)

    # After a reload the starter regains control: Stop is enabled again and stops the run.
    page.reload()  # the page opens on the tab last open (Train)
    page.get_by_role("tab", name="Train", exact=True).wait_for()
    open_tab(page, "Train")
    stop = page.get_by_role("button", name="Stop", exact=True)
    wait_for(stop.is_enabled, 30, "Stop to be enabled after the reload")
    stop.click()
    status = page.locator(".prose.pg-status")
    toasts = page.locator(".toast-body")

    def shown():
        """What the page showed, and what the server had: the run's status and step, and where its thread was."""
        job = app.ctx.jobs.current
        thread = next((t for t in threading.enumerate() if t.name == f"grpo-{job.run.id}"), None)
        frame = sys._current_frames().get(thread.ident) if thread is not None else None
        where = "".join(traceback.format_stack(frame)[-8:]) if frame is not None else ""
        server = f"server: {job.status} at step {job.step}; its thread {where or 'has ended'}"
        return [status.inner_text(), *toasts.all_inner_texts(), server]

    wait_for(lambda: "was stopped at step" in status.inner_text(), 120, "the run to stop", shown)
    assert not stop.is_enabled()

    # Compare: the run just stopped is picked by default (it saved its adapter).
    open_tab(page, "Compare")
    samples = page.get_by_label("number input for Completions per prompt and model")
    samples.fill("2")
    samples.press("Tab")
    console = []  # the browser's own errors (a dropped connection shows an "Error" badge with no toast)
    page.on("console", lambda message: message.type == "error" and console.append(message.text))
    page.get_by_role("button", name="Compare", exact=True).click()
    # The result's Markdown (the progress bars show the same words for a moment while the comparison ends).
    compared = page.locator(".prose", has_text="Mean reward delta").first
    errors = page.locator(".toast-body.error")
    shows = lambda: (errors.all_inner_texts(), console)  # noqa: E731
    wait_for(lambda: compared.is_visible() or errors.count(), 300, "the comparison", shows)
    assert errors.count() == 0, (errors.all_inner_texts(), console)

    # Runs: the run is listed; show its charts and overlay its reward curve.
    open_tab(page, "Runs")
    run_id = app.ctx.jobs.current.run.id
    page.get_by_role("gridcell", name=run_id).first.wait_for()
    page.get_by_role("button", name="Show charts").click()
    wait_for(lambda: chart_last_step(page, EN["chart.loss.title"]) > 1, 30, "the stored run's charts")
    overlay = page.get_by_label("Runs to overlay")
    overlay.click()
    page.get_by_role("option", name=run_id).click()
    page.keyboard.press("Escape")
    wait_for(lambda: chart_last_step(page, EN["chart.overlay.title"]) > 1, 30, "the overlay chart")
    wait_for(lambda: coloured_lines(page, EN["chart.overlay.title"]) == 1, 30, "the run's line on the overlay chart")
    assert coloured_lines(page, PER_FUNCTION) == 2
    assert_no_error_toast(page)
    context.close()


def test_stop_is_followed_by_a_repaint_of_the_live_view(app):
    """Stop's own text ("Stopping…") can reach the page after the tick that saw the run end and switched the timer
    off; a repaint chained after the click (the tick's handler, with the tick's outputs) shows the run as it is."""
    dependencies = httpx.get(app.url + "config", timeout=30).json()["dependencies"]
    stop = next(dep for dep in dependencies if dep.get("api_name") == "stop_training")
    tick = next(dep for dep in dependencies if dep.get("api_name") == "train_status")
    after = [dep for dep in dependencies if dep.get("trigger_after") == stop["id"]]
    assert any(dep["outputs"] == tick["outputs"] and dep["inputs"] == tick["inputs"] for dep in after)


def test_a_tick_of_the_live_view_is_one_event(app):
    """Each event costs every watching page (a browser without a GPU spent most of a core on a live run's ticks): a
    tick of the live view is one event, which reads the status, the charts, the samples with their column widths and
    the held-out answers; nothing else runs on the tick or on a change of what it writes (the queue box's refresh
    joins it in public mode only). One event also means the tick that sees the run end (and turns the timer off) has
    read every eval point the run wrote."""
    config = httpx.get(app.url + "config", timeout=30).json()
    dependencies = config["dependencies"]
    table = next(c["id"] for c in config["components"] if "pg-eval-answers" in (c["props"].get("elem_classes") or []))
    tick = next(dep for dep in dependencies if dep.get("api_name") == "train_status")
    timer = tick["targets"][0][0]
    assert tick["targets"] == [[timer, "tick"]] and table in tick["outputs"]
    on_tick = [dep for dep in dependencies if [timer, "tick"] in dep["targets"]]
    changed = {(output, "change") for output in tick["outputs"]}
    on_change = [dep for dep in dependencies if changed & {tuple(target) for target in dep["targets"]}]
    assert on_tick == [tick] and on_change == []


def test_load_lesson_is_the_last_word_on_the_selection(app):
    """Load writes the session's selection, the summary and every reward card in one answer. Nothing runs on a change
    of those cards (a reading of the cards between two of their changes could land last and win): the selection is
    re-read from the cards on a visitor's own edits (`input`) only."""
    dependencies = httpx.get(app.url + "config", timeout=30).json()["dependencies"]
    load = next(dep for dep in dependencies if dep.get("api_name") == "load_lesson")
    selection = load["outputs"][1]  # after the "Loaded …" message
    writers = [dep for dep in dependencies if selection in dep["outputs"] and dep is not load]
    loaded = set(load["outputs"][2:])  # the summary, the JSON box, the custom table, the cards, Preview and Train
    by_id = {dep["id"]: dep for dep in dependencies}

    def triggers(dep: dict) -> list:
        """What starts `dep`: its own targets, or those of the step it is chained after (the browser-only step
        that reads the cards)."""
        while dep.get("trigger_after") is not None:
            dep = by_id[dep["trigger_after"]]
        return dep["targets"]

    on_loaded = [dep for dep in writers if {target for target, _ in triggers(dep)} & loaded]
    assert on_loaded, "no event re-reads the selection from the cards"
    for dep in on_loaded:
        assert {event for target, event in triggers(dep) if target in loaded} == {"input"}, triggers(dep)


def test_chinese_browser_gets_chinese_labels(app, browser):
    context = browser.new_context(locale="zh-CN", viewport=VIEWPORT)
    page = context.new_page()
    page.goto(app.url)
    page.get_by_role("tab", name="训练", exact=True).wait_for()
    page.get_by_role("tab", name="训练", exact=True).click()
    page.get_by_role("button", name="开始训练").wait_for()
    context.close()


def test_custom_reward_written_in_the_page(app, browser):
    """Write a reward in the editor, Check it: it is tried in the sandbox, ticked, selected, and scores text."""
    context = browser.new_context(locale="en-US", viewport=VIEWPORT)
    page = context.new_page()
    page.goto(app.url)
    page.get_by_text("Try on text", exact=True).wait_for()
    open_tab(page, "Custom (Python)")
    page.locator(".cm-content").first.click()
    page.keyboard.press("Control+A")
    page.keyboard.insert_text(CUSTOM_CODE)  # no key events, so the editor does not auto-indent
    page.get_by_role("button", name="Check", exact=True).click()
    page.get_by_text("Reward functions found:").wait_for()
    page.get_by_text("scoring 4").wait_for()  # the trial run's printed output
    summary = page.locator("#pg-selection-summary")  # by id: a text-filtered locator misses it mid-render
    wait_for(lambda: "short_answer" in summary.inner_text(), 20, "the checked function in the selection")
    page.get_by_role("button", name="Score", exact=True).click()
    page.get_by_role("columnheader", name="short_answer").first.wait_for()
    assert_no_error_toast(page)

    # Unticking it in the table takes it out of the selection.
    choices = page.locator(".block", has=page.get_by_text("Custom rewards: tick the ones to use")).last
    choices.get_by_role("checkbox").last.click()
    wait_for(lambda: "short_answer" not in summary.inner_text(), 20, "the unticked function to leave the selection")
    context.close()
