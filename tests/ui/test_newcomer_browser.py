"""What a newcomer meets, in a real headless Chromium: a bad weight pasted as JSON gives one error toast and no
"Error" badges over the cards; a finished run's duration after a reload is the run's own."""

import json

import pytest

from playground.ui.i18n import EN, ZH
from tests.ui.test_browser import CHROMIUM, open_tab


sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not __import__("pathlib").Path(CHROMIUM).exists(), reason=f"no Chromium at {CHROMIUM}")

TEXT = {"en": EN, "zh": ZH}
LOCALE = {"en": "en-US", "zh": "zh-CN"}
VIEWPORT = {"width": 1400, "height": 900}
# A status tracker's "Error" badge, as Gradio draws it over an event's outputs when the event fails.
BADGE = "[data-testid='status-tracker'] .error"


def open_page(browser, app, lang: str, viewport: dict = VIEWPORT):
    context = browser.new_context(locale=LOCALE[lang], viewport=viewport)
    page = context.new_page()
    page.goto(app.url)
    page.locator(".pg-card").first.wait_for(timeout=60_000)
    return context, page


def visible_badges(page) -> int:
    return sum(1 for badge in page.locator(BADGE).all() if badge.is_visible())


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_bad_weight_gives_one_toast_and_no_badges(app, browser, lang):
    text = TEXT[lang]
    context, page = open_page(browser, app, lang)
    page.get_by_text(text["rewards.json"], exact=True).click()
    editor = page.locator(".block", has=page.get_by_text(text["rewards.json"], exact=True)).locator(".cm-content")
    editor.click()
    page.keyboard.press("Control+A")
    page.keyboard.insert_text(json.dumps([{"name": "length", "weight": "abc", "params": {}}]))
    page.get_by_role("button", name=text["rewards.apply_json"], exact=True).click()
    toast = page.locator(".toast-body.error")
    toast.first.wait_for(timeout=30_000)
    assert "abc" in toast.first.inner_text()
    for family in ("format", "length", "accuracy", "content", "other"):
        open_tab(page, text[f"rewards.family.{family}"])
        page.wait_for_timeout(300)
        assert visible_badges(page) == 0, family
    context.close()


def test_a_refused_grader_marks_no_reward_card(app, browser):
    context, page = open_page(browser, app, "en")
    open_tab(page, EN["lab.tab"])
    editor = page.locator(".block", has=page.get_by_text(EN["lab.grader.paste"])).locator(".cm-content")
    editor.click()
    page.keyboard.insert_text('{"type": "string_check", "name": "x"')  # cut short: not JSON
    page.get_by_role("button", name=EN["lab.grader.import"], exact=True).click()
    page.locator(".toast-body.error").first.wait_for(timeout=30_000)
    open_tab(page, EN["rewards.tab"])
    for family in ("format", "length"):
        open_tab(page, EN[f"rewards.family.{family}"])
        page.wait_for_timeout(300)
        assert visible_badges(page) == 0, family
    context.close()
