"""The Train tab as a first visit sees it, the charts, the tables and the phone, in a real headless Chromium at
1280x900 and 390x844: essentials first and every other field in a collapsed group; charts two a row, aligned, ticked
at whole steps, with y labels free of float noise; completions that fit their table; dropdown text clear of its
arrow; labels whole on a phone."""

import re

import pytest

from playground.scoring import RewardChoice
from playground.ui.i18n import EN, ZH
from playground.ui.train_form import ESSENTIALS, GROUPS
from tests.export.conftest import tiny_spec
from tests.ui.test_browser import assert_no_error_toast, open_group, open_page, wait_for


DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def three_steps(app):
    """A finished 3-step run of the tiny model with two rewards (a chart of two lines), started on the engine."""
    spec = tiny_spec(app.ctx.settings.model, max_steps=3, max_completion_length=16, learning_rate=5e-4)
    spec.rewards = [RewardChoice("length", 1.0, {"ideal_length": 5}), RewardChoice("format", 0.5)]
    job = app.ctx.jobs.start(spec)
    job.join(300)
    assert job.status == "finished", job.error
    return job.run.id


def go_to(page, tab: str) -> None:
    """Open a tab, from the tab bar's overflow menu where a phone hides it."""
    bar = page.get_by_role("tab", name=tab, exact=True)
    if not bar.is_visible():
        page.locator(".overflow-menu button, button.overflow-menu, [class*=overflow] button").first.click()
        bar = bar.or_(page.get_by_role("button", name=tab, exact=True)).first
    bar.click()


def top(locator) -> float:
    return locator.bounding_box()["y"]


@pytest.mark.parametrize(("locale", "text"), [("en-US", EN), ("zh-CN", ZH)])
def test_the_form_reads_at_a_glance(app, browser, locale, text):
    context, page = open_page(browser, app, locale, DESKTOP)
    go_to(page, text["train.tab"])
    start = page.get_by_role("button", name=text["train.start"], exact=True)
    start.wait_for()
    first_group = page.locator(f"#{GROUPS[0][0].replace('.', '-')}")
    essentials = [page.get_by_label(name, exact=True) for name in ("model_name_or_path", "dataset_name", *ESSENTIALS)]
    for box in essentials:
        assert box.is_visible() and top(box) < top(start)
    assert top(start) < top(first_group)
    for key, names in GROUPS:
        group = page.locator(f"#{key.replace('.', '-')}")
        assert group.locator(".label-wrap").inner_text().replace("▼", "").strip() == text[key]
        assert not page.get_by_label(names[0], exact=True).is_visible(), f"{key} starts open"
    open_group(page, "train.group.rollout")
    page.get_by_label("fast_rollout", exact=True).wait_for()
    assert not page.get_by_label("num_generations", exact=True).is_visible()  # one group opens, the others stay
    assert_no_error_toast(page)
    context.close()


def chart_geometry(page) -> list[dict]:
    """Each visible chart: its block's box, its plot area's box, and its x and y tick labels (Vega's SVG)."""
    return page.evaluate(
        """() => [...document.querySelectorAll('.pg-chart')].filter(n => n.offsetParent).map(n => {
            const box = r => { const b = r.getBoundingClientRect(); return {x: b.x, y: b.y, w: b.width, h: b.height} };
            const axes = [...n.querySelectorAll('g[aria-roledescription=axis]')];
            const labels = a => [...a.querySelectorAll('g.role-axis-label text')].map(t => t.textContent);
            const x = axes.find(a => (a.getAttribute('aria-label') || '').startsWith('X-axis'));
            const y = axes.find(a => (a.getAttribute('aria-label') || '').startsWith('Y-axis'));
            const frame = n.querySelector('g.mark-group.role-scope path.background, path.background');
            return {block: box(n), plot: frame ? box(frame) : null, x: x ? labels(x) : [], y: y ? labels(y) : []};
        })"""
    )


def completion_fits(page, table) -> bool:
    """The completion column ends inside its table's view (its text wraps there)."""
    view = table.locator(".table-wrap").bounding_box()
    header = table.get_by_role("columnheader", name=re.compile("^completion$")).first.bounding_box()
    return header["x"] + header["width"] <= view["x"] + view["width"] + 1


def test_charts_two_a_row_with_whole_step_ticks_and_completions_that_fit_their_tables(app, browser, three_steps):
    """One desktop page: the preview's group, then the finished run's charts and latest samples on the Runs tab."""
    context, page = open_page(browser, app, viewport=DESKTOP)
    go_to(page, "Preview")
    page.get_by_role("button", name="Generate group").click()
    page.get_by_text("Generated 8 completions").wait_for()
    group = page.locator(".block:visible", has=page.get_by_role("columnheader", name="advantage")).last
    wait_for(lambda: completion_fits(page, group), 10, "the preview's completion column inside the table")

    go_to(page, "Runs")
    page.get_by_role("gridcell", name=three_steps).first.wait_for()
    page.get_by_label("Run", exact=True).last.click()
    page.get_by_role("option", name=three_steps).click()
    page.get_by_role("button", name="Show charts").click()
    charts = wait_for(
        lambda: (c := chart_geometry(page)) and all(chart["x"] for chart in c[:8]) and c, 60, "the run's charts"
    )
    run_charts = charts[:8]  # the overlay chart of the Runs tab comes after, alone on its row
    rows = [run_charts[i : i + 2] for i in range(0, 8, 2)]
    for left, right in rows:
        # Two a row, each about half of the 1280 px page, tops and plot areas level, the same size.
        assert 500 < left["block"]["w"] < 640 and abs(left["block"]["w"] - right["block"]["w"]) <= 1
        assert right["block"]["x"] > left["block"]["x"] + left["block"]["w"] - 1
        assert abs(left["block"]["y"] - right["block"]["y"]) <= 1
        assert abs(left["plot"]["y"] - right["plot"]["y"]) <= 2 and abs(left["plot"]["h"] - right["plot"]["h"]) <= 1
        assert abs(left["plot"]["w"] - right["plot"]["w"]) <= 1
        # The plot area starts at the same distance from the block's edge: every y axis is as wide.
        assert abs((left["plot"]["x"] - left["block"]["x"]) - (right["plot"]["x"] - right["block"]["x"])) <= 1
    for chart in run_charts:
        assert chart["x"] == ["1", "2", "3"], chart["x"]  # whole steps, each once (not "1 2 2 3 3")
        for label in chart["y"]:
            assert not re.search(r"\.\d*0$|\.0{4,}|e\+", label.replace("−", "-")), chart["y"]  # no float noise
    # The bf16 rollout's chart: not on a run without that rollout.
    assert page.locator(".pg-optional-chart").first.evaluate("n => getComputedStyle(n).display") == "none"

    samples = page.locator(".block:visible", has=page.get_by_role("columnheader", name="prompt")).last
    samples.get_by_role("gridcell").first.wait_for()
    wait_for(lambda: completion_fits(page, samples), 10, "the latest samples' completion column inside the table")
    assert_no_error_toast(page)
    context.close()


# Every visible label's text: how many lines it takes and whether it is cut (wider than its box).
LABELS = """() => [...document.querySelectorAll('[data-testid=block-info], label > span')]
    .filter(n => n.offsetParent && n.innerText.trim()).map(n => {
        const r = document.createRange(); r.selectNodeContents(n);
        const lines = new Set([...r.getClientRects()].map(x => Math.round(x.top))).size;
        return {text: n.innerText.trim(), lines, cut: n.scrollWidth > n.clientWidth + 1}; })"""
# Every visible dropdown: where its text may run to (the input less its right padding) and where its arrow starts.
DROPDOWNS = """() => [...document.querySelectorAll('.wrap-inner input[role=combobox]')].filter(n => n.offsetParent)
    .map(n => { const icon = n.parentElement.querySelector('.icon-wrap'); if (!icon) return null;
        const r = n.getBoundingClientRect(), pad = parseFloat(getComputedStyle(n).paddingRight);
        const arrow = icon.getBoundingClientRect().left;
        return {label: n.getAttribute('aria-label'), text_end: r.right - pad, arrow};
    }).filter(Boolean)"""


def test_phone_labels_whole_and_dropdown_text_clear_of_the_arrow(app, browser):
    context, page = open_page(browser, app, viewport=PHONE)
    go_to(page, "Preview")
    page.get_by_label("Prompt set", exact=True).wait_for()
    dropdowns = page.evaluate(DROPDOWNS)
    assert {"Model", "Prompt set"} <= {d["label"] for d in dropdowns}
    go_to(page, "Train")
    page.get_by_label("model_name_or_path", exact=True).wait_for()
    for key, _ in GROUPS:
        open_group(page, key)
    page.get_by_label("save_steps", exact=True).wait_for()  # a field of the last group
    dropdowns += page.evaluate(DROPDOWNS)
    assert {"model_name_or_path", "dataset_name", "loss_type"} <= {d["label"] for d in dropdowns}
    overlapping = [d for d in dropdowns if d["text_end"] > d["arrow"] + 0.5]
    assert not overlapping, overlapping
    labels = page.evaluate(LABELS)
    names = {label["text"] for label in labels}
    assert {"reward_error_policy", "completions_as_text", "vllm_importance_sampling_correction"} <= names
    broken = [label for label in labels if label["cut"] or (" " not in label["text"] and label["lines"] > 1)]
    assert not broken, broken
    # Each field of a group has a line of its own: its label starts at the group's left edge.
    policy = page.get_by_label("reward_error_policy", exact=True).bounding_box()
    as_text = page.get_by_label("completions_as_text", exact=True).bounding_box()
    assert as_text["y"] > policy["y"] + policy["height"]
    context.close()
