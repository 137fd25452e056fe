"""The held-out eval charts fill their column in a real Chromium, on a desktop and on a phone, in English and in
Chinese, also when they are redrawn while their tab is hidden (the Train tab's charts are filled while the visitor is
on another tab: Learn's Load draws the reference, the run's first eval comes while the visitor reads Learn) and the tab
is shown afterwards; a tick with the same eval data re-sends nothing (`eval_key`), as the Train tab's view does."""

import gradio as gr
import pytest

from playground.lessons import get_lesson
from playground.ui.eval_charts import EVAL_OUTPUTS, create_eval_charts, eval_chart_updates, eval_key
from playground.ui.i18n import EN, ZH
from tests.ui.live_app import launched
from tests.ui.test_browser import wait_for


BASE = [
    {
        "step": 0,
        "phase": "eval",
        "eval_of": "base",
        "eval_rewards/format/mean": 0.0,
        "eval_rewards/tag_layout/mean": 0.3,
        "sentence_rate": 0.0,
    }
]


@pytest.fixture(scope="module")
def page_url():
    reference = get_lesson("format").reference()

    def tick(lang: str, seen: str | None, done: int):  # the Train tab's view: eval charts re-sent only when changed
        key = eval_key(BASE, reference, lang)
        charts = [gr.skip()] * EVAL_OUTPUTS if key == seen else eval_chart_updates(BASE, reference, lang)
        return [key, done + 1, *charts]

    with gr.Blocks() as demo:
        seen = gr.State(None)
        with gr.Tab("A"):
            lang = gr.Radio(["en", "zh"], value="en", label="lang")
            load = gr.Button("load")
            run = gr.Button("run")
            # How many clicks the server has answered: the test waits on it, not on the clock.
            done = gr.Number(0, label="answered", elem_id="answered")
        with gr.Tab("B"):
            plots = create_eval_charts()
        load.click(lambda lang, n: [n + 1, *eval_chart_updates([], reference, lang)], [lang, done], [done, *plots])
        run.click(tick, inputs=[lang, seen, done], outputs=[seen, done, *plots])
    with launched(demo) as url:
        yield url


def plot_widths(page) -> list[tuple[int, int]]:
    """(chart column's width, x axis's drawn width) of each eval chart on the page."""
    return page.evaluate(
        """() => [...document.querySelectorAll('.pg-chart')].filter(c => c.offsetWidth > 0).map(c => {
            const axis = c.querySelector('svg g.role-axis[aria-label^="X-axis"]');
            return [c.offsetWidth, axis ? Math.round(axis.getBBox().width) : 0];
        })"""
    )


def answered(page, clicks: int) -> None:
    """Wait until the server has answered `clicks` clicks (its updates, the hidden charts' too, are on the page)."""
    page.wait_for_function("n => document.querySelector('#answered input')?.value === String(n)", arg=clicks)


@pytest.mark.parametrize(
    ("lang", "viewport"),
    [
        ("en", {"width": 1400, "height": 900}),
        ("zh", {"width": 1400, "height": 900}),
        ("zh", {"width": 390, "height": 844}),
    ],
)
def test_eval_charts_redrawn_on_a_hidden_tab_fill_their_column(browser, page_url, lang, viewport):
    text = {"en": EN, "zh": ZH}[lang]
    page = browser.new_page(viewport=viewport)
    page.goto(page_url)
    page.get_by_label(lang, exact=True).check()
    page.get_by_role("button", name="load").click()  # the reference alone, drawn on the hidden tab
    answered(page, 1)
    page.get_by_role("tab", name="B").click()
    page.locator(".pg-chart svg g.role-axis-label text").first.wait_for()  # the reference, shown
    page.get_by_role("tab", name="A").click()
    for clicks in range(2, 5):  # the run's base eval, redrawn on the hidden tab; then ticks with nothing new
        page.get_by_role("button", name="run").click()
        answered(page, clicks)
    page.get_by_role("tab", name="B").click()
    labels = page.locator(".pg-chart svg g.role-axis-label text")
    labels.filter(has_text=text["chart.eval.warmup"]).first.wait_for()
    page.locator(".pg-chart svg g.mark-symbol path").first.wait_for()
    # The charts' resize to the shown tab: a chart that stays a sliver at the left fails here.
    widths = wait_for(
        lambda: (w := plot_widths(page)) and all(axis > column * 0.6 for column, axis in w) and w,
        10,
        "the eval charts to fill their column",
    )
    assert len(widths) == 3, widths  # format, tag_layout, sentence_rate
    for column, axis in widths:
        assert axis > column * 0.6, widths  # not a sliver at the left
    axis = page.locator(".pg-chart svg g.role-axis[aria-label^='X-axis']").first
    ticks = axis.locator("g.role-axis-label text").all_text_contents()
    assert ticks == [text["chart.eval.base"], text["chart.eval.warmup"], "10", "20"]
    page.close()


def test_the_eval_key_changes_with_a_new_eval_point_only():
    reference = get_lesson("format").reference()
    key = eval_key(BASE, reference, "en")
    step = {"step": 1, "phase": "grpo", "reward": 0.5}
    assert eval_key([*BASE, step], reference, "en") == key  # a GRPO step: the eval charts stay as they are
    assert eval_key([*BASE, step, {**BASE[0], "step": 2, "eval_of": "grpo"}], reference, "en") != key
    assert eval_key(BASE, None, "en") != key and eval_key(BASE, reference, "zh") != key
