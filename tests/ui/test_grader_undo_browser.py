"""The Reward lab's grader import in a real headless Chromium: it says what it imported and which selection it
replaced, and undoes itself; a refused grader's error does not stand beside the last import's success, and marks no
reward card with Gradio's "Error" badge."""

import json

import pytest

from playground.ui.i18n import EN, ZH
from tests.lab.test_graders import STRING_CHECK
from tests.ui.test_browser import open_tab, wait_for
from tests.ui.test_newcomer_browser import visible_badges


pytestmark = [pytest.mark.browser, pytest.mark.slow]

TEXT = {"en": EN, "zh": ZH}
LOCALE = {"en": "en-US", "zh": "zh-CN"}


def paste_and_import(page, text: dict, grader: str) -> None:
    editor = page.locator(".block", has=page.get_by_text(text["lab.grader.paste"])).locator(".cm-content")
    editor.click()
    page.keyboard.press("Control+A")
    page.keyboard.insert_text(grader)
    page.get_by_role("button", name=text["lab.grader.import"], exact=True).click()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_import_names_what_it_replaced_and_undoes(app, browser, lang):
    text = TEXT[lang]
    context = browser.new_context(locale=LOCALE[lang], viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.goto(app.url)
    summary = page.locator("#pg-selection-summary")
    summary.get_by_text("length", exact=False).first.wait_for()  # the default selection
    open_tab(page, text["lab.tab"])
    paste_and_import(page, text, json.dumps(STRING_CHECK))
    replaced = text["lab.grader.replaced"].split("{old}")[0]
    note = page.get_by_text(replaced, exact=False)
    note.first.wait_for()
    assert "length" in note.first.inner_text()  # names the selection it replaced
    page.get_by_text(text["lab.grader.imported"].format(n=1)).first.wait_for()  # and says what it imported
    # The screen-reader line after the event reads a word, not Gradio's missing key.
    page.wait_for_timeout(500)
    assert not page.evaluate("() => document.body.textContent.includes('common.complete')")
    # A refused grader: its error, and no "Imported" left beside it.
    paste_and_import(page, text, '{"type": "string_check"')  # cut short: not JSON
    page.locator(".toast-body.error").first.wait_for()
    wait_for(lambda: not note.first.is_visible(), 10, "the import's note to go with the refused grader")
    # The failed event marks no reward card with an "Error" badge.
    open_tab(page, text["rewards.tab"])
    for family in ("format", "length"):
        open_tab(page, text[f"rewards.family.{family}"])
        page.wait_for_timeout(300)
        assert visible_badges(page) == 0, family
    # Undo brings the old selection back.
    open_tab(page, text["lab.tab"])
    page.get_by_role("button", name=text["lab.grader.undo"], exact=True).click()
    page.get_by_text(text["lab.grader.undone"].split("{old}")[0], exact=False).first.wait_for()
    assert not page.get_by_role("button", name=text["lab.grader.undo"], exact=True).is_visible()
    open_tab(page, text["rewards.tab"])
    assert "length" in summary.inner_text() and "regex" not in summary.inner_text()
    context.close()
