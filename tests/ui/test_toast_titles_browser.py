"""Toast titles follow the page's language: a refusal on the Chinese page is titled "出错了", a note "提示", in a real
headless Chromium; on the English page Gradio's own "Error" and "Info" stay. The toasts come from one helper
(`playground.ui.common.refusal` / `notify`), which also carries the title for API clients."""

import gradio as gr
import pytest

from playground.errors import SpecError
from playground.ui.common import notify, refusal, toast_title
from playground.ui.i18n import EN, ZH


TEXT = {"en": EN, "zh": ZH}
LOCALE = {"en": "en-US", "zh": "zh-CN"}

# What the visitor sees as a toast's title: Gradio's own title text, its size, and what the page's CSS draws before it.
TITLE = """(kind) => {
    const title = document.querySelector(`.toast-title.${kind}`);
    const style = getComputedStyle(title), before = getComputedStyle(title, '::before');
    return {text: title.textContent.trim(), size: style.fontSize, before: before.content};
}"""


def test_the_toast_helper_titles_and_words_a_refusal_in_the_page_language():
    error = SpecError("max_steps", "spec.bound.min", name="max_steps", min=1, value=0)
    zh, en = refusal("zh", error), refusal("en", error)
    assert isinstance(zh, gr.Error) and (zh.title, zh.message) == ("出错了", "max_steps 至少为 1，实际为 0。")
    assert (en.title, en.message) == ("Error", "max_steps must be at least 1, got 0.")
    assert refusal(None, "A sentence.").title == "Error"  # API clients: English
    assert [toast_title("zh", k) for k in ("error", "warning", "info")] == ["出错了", "注意", "提示"]
    with pytest.warns(UserWarning):  # outside a request Gradio only warns; the call itself must not fail
        notify("zh", "warning", "x")


def seen_title(page, kind: str) -> str:
    page.locator(f".toast-title.{kind}").first.wait_for()
    title = page.evaluate(TITLE, kind)
    if title["size"] == "0px":  # Gradio's English is hidden; the page's CSS draws its own
        return title["before"].strip('"')
    assert title["before"] in ("none", "normal"), title
    return title["text"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_toast_titles_read_in_the_page_language(app, browser, lang):
    T = TEXT[lang]
    context = browser.new_context(locale=LOCALE[lang], viewport={"width": 1400, "height": 900})
    page = context.new_page()
    page.goto(app.url)
    page.get_by_text(T["rewards.try.title"], exact=True).wait_for()

    # A refusal: a group size under the preview's range.
    page.get_by_role("tab", name=T["preview.tab"], exact=True).click()
    g = page.get_by_label(T["preview.g"], exact=True)
    g.fill("1")
    g.press("Tab")
    page.get_by_role("button", name=T["preview.generate"], exact=True).click()
    page.locator(".toast-body.error", has_text=T["preview.g.range"].format(low=2, high=16, g=1)).wait_for()
    assert seen_title(page, "error") == {"en": "Error", "zh": "出错了"}[lang]

    # A note: a Hub id typed into dataset_name sets dataset_kind, and says so.
    page.get_by_role("tab", name=T["train.tab"], exact=True).click()
    name = page.get_by_label("dataset_name", exact=True)
    name.fill("someone/prompts")
    name.press("Tab")
    page.locator(".toast-body.info", has_text="someone/prompts").wait_for()
    assert seen_title(page, "info") == {"en": "Info", "zh": "提示"}[lang]
    context.close()
