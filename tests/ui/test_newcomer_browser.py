"""What a newcomer meets, in a real headless Chromium: a bad weight pasted as JSON gives one error toast and no
"Error" badges over the cards; every tab is in view on a phone; a first visit starts with the format lesson and a
return keeps its tab. A refused grader's badges are checked in test_grader_undo_browser.py, a finished run's duration
after a reload on the first visit's run in test_first_visit.py."""

import json

import pytest

from playground.lessons import get_lesson
from playground.ui.i18n import EN, ZH
from tests.ui.test_browser import open_page, open_tab, wait_for


TEXT = {"en": EN, "zh": ZH}
LOCALE = {"en": "en-US", "zh": "zh-CN"}
VIEWPORT = {"width": 1400, "height": 900}
# A status tracker's "Error" badge, as Gradio draws it over an event's outputs when the event fails.
BADGE = "[data-testid='status-tracker'] .error"


def visible_badges(page) -> int:
    return sum(1 for badge in page.locator(BADGE).all() if badge.is_visible())


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_bad_weight_gives_one_toast_and_no_badges(app, browser, lang):
    text = TEXT[lang]
    context, page = open_page(browser, app, LOCALE[lang])
    page.get_by_text(text["rewards.json"], exact=True).click()
    editor = page.locator(".block", has=page.get_by_text(text["rewards.json"], exact=True)).locator(".cm-content")
    # the editor holds the selection's JSON once drawn (the page's load leaves it while the selection is the same)
    wait_for(lambda: "ideal_length" in editor.inner_text(), 60, "the selection's JSON in the editor")
    editor.click()
    page.keyboard.press("Control+A")
    page.keyboard.insert_text(json.dumps([{"name": "length", "weight": "abc", "params": {}}]))
    wait_for(lambda: '"abc"' in editor.inner_text(), 30, "the typed JSON in the editor")
    page.get_by_role("button", name=text["rewards.apply_json"], exact=True).click()
    toast = page.locator(".toast-body.error")
    toast.first.wait_for()
    assert "abc" in toast.first.inner_text()
    for family in ("format", "length", "accuracy", "content", "other"):
        open_tab(page, text[f"rewards.family.{family}"])
        page.wait_for_timeout(300)
        assert visible_badges(page) == 0, family
    context.close()


PHONE = {"width": 390, "height": 844}
TABS = ("rewards.tab", "learn.tab", "preview.tab", "lab.tab", "train.tab", "compare.tab", "runs.tab")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_tab_is_in_view_on_a_phone(app, browser, lang):
    """At 390×844 every tab, and every reward family, is a tab in view: none is behind Gradio's "•••" menu."""
    context, page = open_page(browser, app, LOCALE[lang], PHONE)
    for key in TABS:
        tab = page.get_by_role("tab", name=TEXT[lang][key], exact=True)
        assert tab.is_visible(), key
        box = tab.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (key, box)
    families = [TEXT[lang][f"rewards.family.{f}"] for f in ("format", "length", "accuracy", "content", "other")]
    for name in [*families, TEXT[lang]["rewards.family.custom"]]:
        assert page.get_by_role("tab", name=name, exact=True).is_visible(), name
    assert not any(button.is_visible() for button in page.locator(".overflow-menu").all())
    open_tab(page, TEXT[lang]["runs.tab"])  # reachable with one tap
    page.get_by_role("tabpanel").filter(visible=True).first.wait_for()
    context.close()


# The tab last opened, as the browser keeps it (`start_here.create_start_here`'s BrowserState, encrypted).
STORED_TAB = "() => localStorage.getItem('grpo-playground-tab')"


def test_a_first_visit_starts_with_the_format_lesson_and_a_return_keeps_its_tab(app, browser):
    context = browser.new_context(locale="en-US", viewport=VIEWPORT)
    page = context.new_page()
    page.goto(app.url)
    start = page.get_by_role("button", name=EN["app.start_here.button"], exact=True)
    start.wait_for()
    start.click()
    learn = page.get_by_role("tab", name=EN["learn.tab"], exact=True)
    wait_for(lambda: learn.get_attribute("aria-selected") == "true", 20, "the Learn tab")
    panel = page.get_by_role("tabpanel").filter(visible=True).first
    wait_for(lambda: "Measured on" in panel.inner_text(), 30, "the format lesson's reference run")
    assert "Format" in panel.inner_text() and EN["learn.ref.title"] in panel.inner_text()
    assert not start.is_visible()

    tabs = page.get_by_role("tab").all_inner_texts()
    assert tabs.count(EN["train.tab"]) == 1 and EN["compare.tab"] in tabs

    # A returning visitor: no "start here", and the tab they had open.
    page.reload()
    learn.wait_for()
    wait_for(lambda: learn.get_attribute("aria-selected") == "true", 20, "the Learn tab again after a reload")
    # and on the lesson "start here" opened, not the first one
    page.get_by_role("heading", name=get_lesson("format").title["en"]).wait_for()
    assert page.get_by_role("tab").all_inner_texts() == tabs  # the same tab bar, each tab once
    remembered = page.evaluate(STORED_TAB)  # Learn's, written again only when the remembered tab changes
    open_tab(page, EN["train.tab"])
    page.get_by_role("button", name=EN["train.start"], exact=True).wait_for()
    # the tab is remembered by the select event's answer, which the browser keeps (encrypted) in its storage
    wait_for(lambda: page.evaluate(STORED_TAB) not in (None, remembered), 30, "the Train tab remembered")
    page.reload()
    train = page.get_by_role("tab", name=EN["train.tab"], exact=True)
    wait_for(lambda: train.get_attribute("aria-selected") == "true", 30, "the Train tab after a reload")
    assert not page.get_by_role("button", name=EN["app.start_here.button"], exact=True).is_visible()
    context.close()


def test_a_tab_picked_before_the_server_answers_is_the_one_remembered(app, browser):
    """The server's answers are held (every queue call of the page waits) while a first visit picks the Train tab:
    the pick is stored at once, and the page load's answer, once let through, leaves it (and shows "start here", a
    first visit's banner); a reload opens Train."""
    context = browser.new_context(locale="en-US", viewport=VIEWPORT)
    page = context.new_page()
    held, holding = [], [True]

    def hold(route):
        if holding:
            held.append(route)
        else:
            route.continue_()

    page.route("**/queue/join**", hold)
    page.goto(app.url)
    train = page.get_by_role("tab", name=EN["train.tab"], exact=True)
    train.click()
    wait_for(lambda: page.evaluate(STORED_TAB) is not None, 30, "the Train tab stored")
    assert held, "no queue call was held: the page load goes to the server"
    holding.clear()
    for route in held:
        route.continue_()
    start = page.get_by_role("button", name=EN["app.start_here.button"], exact=True)
    start.wait_for()  # the page load answered: a first visit
    stored = page.evaluate(STORED_TAB)
    page.wait_for_timeout(500)  # the page load's browser step ran, and changed nothing
    assert page.evaluate(STORED_TAB) == stored and train.get_attribute("aria-selected") == "true"
    page.reload()
    wait_for(lambda: train.get_attribute("aria-selected") == "true", 30, "the Train tab after a reload")
    assert not start.is_visible()
    context.close()
