"""What only a browser shows, tab by tab, in a real headless Chromium: the Rewards tab follows a grader imported on
the Reward lab, and a later edit there keeps it; reward descriptions show their tag names."""

import json
import re

from tests.lab.test_graders import STRING_CHECK
from tests.ui.test_browser import assert_no_error_toast, open_group, open_page, open_tab, wait_for


VIEWPORT = {"width": 1280, "height": 900}


def card(page, name: str):
    """The Rewards tab's card of one library reward (its title is the reward's name)."""
    return page.locator(".pg-card", has=page.locator("h4", has_text=name)).first


def test_imported_grader_moves_the_rewards_tab_and_survives_an_edit(app, browser):
    context, page = open_page(browser, app, viewport=VIEWPORT)
    # By its id: a locator filtered by text matches nothing while the summary re-renders.
    summary = page.locator("#pg-selection-summary")
    wait_for(lambda: "length" in summary.inner_text(), 20, "the starting selection")

    open_tab(page, "Reward lab")
    editor = page.locator(".block", has=page.get_by_text("Paste an OpenAI grader JSON")).locator(".cm-content")
    editor.click()
    page.keyboard.insert_text(json.dumps(STRING_CHECK))
    page.get_by_role("button", name="Import grader", exact=True).click()
    page.get_by_text("Imported: 1 reward(s) selected").wait_for()

    open_tab(page, "Rewards")
    open_tab(page, "Accuracy")
    string_check = card(page, "string_check")
    wait_for(lambda: string_check.get_by_label("Use").is_checked(), 20, "the imported reward ticked on its card")
    assert string_check.get_by_label("column").input_value() == "reference_answer"
    open_tab(page, "Length")
    assert not card(page, "length").get_by_label("Use").is_checked()
    wait_for(lambda: "length" not in summary.inner_text(), 20, "the old selection gone from the summary")

    # A weight edit on the imported reward's card keeps the imported selection (and only it).
    open_tab(page, "Accuracy")
    weight = string_check.get_by_label("Weight")
    weight.fill("2")
    weight.press("Enter")
    wait_for(lambda: "× 2" in summary.inner_text(), 20, "the new weight in the summary")
    text = summary.inner_text()
    assert "string_check" in text and "reference_answer" in text and "length" not in text, text
    assert_no_error_toast(page)
    context.close()


def test_an_upload_replaces_the_old_set_and_prompt_column_rereads_it(app, browser, tmp_path):
    """A CSV without a `prompt` column: dataset_name shows the file's name (not Gradio's hashed folder) instead of
    the set picked before, the toast says which column is missing; setting prompt_column reads it, no re-upload."""
    path = tmp_path / "questions.csv"
    path.write_text("question,answer\nWhat is 2+2?,4\nWhat is 3+3?,6\n", encoding="utf-8")
    context, page = open_page(browser, app, viewport=VIEWPORT)
    open_tab(page, "Train")
    page.get_by_text("Data", exact=True).click()  # the accordion
    page.locator(".block", has=page.get_by_text("Upload a prompt file")).locator("input[type=file]").set_input_files(
        str(path)
    )
    page.locator(".toast-body.error").first.wait_for()
    assert "set prompt_column" in page.locator(".toast-body.error").first.inner_text()
    name = page.get_by_label("dataset_name")
    assert name.input_value() == "questions.csv"
    assert page.get_by_label("dataset_kind").input_value() == "file"
    page.locator(".toast-close").first.click()
    column = page.get_by_label("prompt_column")
    column.fill("question")
    column.press("Enter")
    page.get_by_text("The uploaded file has 2 prompts.").wait_for()
    assert name.input_value() == "questions.csv"
    context.close()


def check_reward_descriptions(page, lang: str) -> None:
    """Reward descriptions show their tag names, the whole sentence (not cut after its first tag)."""
    open_tab(page, {"en": "Format", "zh": "格式"}[lang])
    shown = {name: card(page, name).inner_text() for name in ("format", "think_answer_strict", "xml_count")}
    assert "<intro>…</intro><body>…</body><conclusion>…</conclusion>" in shown["format"]
    assert "<think>\\n…\\n</think>\\n<answer>\\n…\\n</answer>" in shown["think_answer_strict"]
    assert "<think>/<answer>" in shown["xml_count"] and "</answer>" in shown["xml_count"].split("<think>/<answer>")[1]
    if lang == "en":
        assert "minus 0.001 per character after </answer>." in shown["xml_count"]
    else:
        assert "之后每多一个字符扣 0.001。" in shown["xml_count"]


def test_an_english_page_tab_by_tab(app, browser):
    """One English page, whose checks read and change nothing the next one reads: table headers do not break mid
    word and the bf16 rollout's chart takes no room; reward descriptions show their tag names; a failing score keeps
    the Try-on-text table; code without functions leaves no CSV drop zone."""
    context, page = open_page(browser, app, viewport=VIEWPORT)

    # Table headers do not break mid-word.
    page.get_by_role("columnheader", name="advantage").first.wait_for()
    lines = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('th')].filter(n => n.offsetParent).map(n => {
            const r = document.createRange(); r.selectNodeContents(n);
            return [n.innerText.trim(), r.getClientRects().length]; }))"""
    )
    assert lines["advantage"] == lines["#"] and lines["length(ideal_length=50)"] == lines["#"], lines

    check_reward_descriptions(page, "en")

    # A failing score keeps the Try-on-text table.
    table = page.locator(".block", has=page.get_by_role("columnheader", name="advantage")).first
    # the page load scores the example completions: read the rows once they are drawn, not the empty table before
    wait_for(lambda: table.get_by_role("row").count() > 1, 60, "the example scores in the Try-on-text table")
    rows_before = table.get_by_role("row").count()
    page.locator("textarea").first.fill("only one completion")
    page.get_by_role("button", name="Score", exact=True).click()
    page.locator(".toast-body.error").first.wait_for()
    page.wait_for_timeout(500)
    assert table.get_by_role("row").count() == rows_before  # the last scores stay
    assert table.locator(".error").count() == 0, "the table shows an error badge"

    # Code without functions leaves no CSV drop zone.
    open_tab(page, "Custom (Python)")
    page.locator(".cm-content").first.click()
    page.keyboard.press("Control+A")
    page.keyboard.insert_text("x = 1\n")
    page.get_by_role("button", name="Check", exact=True).click()
    page.get_by_text("No function found", exact=False).first.wait_for()
    page.wait_for_timeout(1000)
    assert page.get_by_text("Drop CSV", exact=False).count() == 0

    # The bf16 rollout's chart (and its caption) takes no room on a run without that rollout.
    open_tab(page, "Train")
    page.wait_for_timeout(1500)
    assert page.locator(".pg-optional-chart").first.evaluate("n => getComputedStyle(n).display") == "none"
    context.close()


def test_a_chinese_page_tab_by_tab(app, browser):
    """One Chinese page, whose checks read and change nothing the next one reads. Before anything ran: every visible
    table header, chart axis and the embedded model's label are Chinese (TRL metric and reward names aside). Toast
    titles are Chinese. Reward descriptions show their tag names."""
    context, page = open_page(browser, app, "zh-CN", VIEWPORT)

    def english(tab: str) -> list[str]:
        heads = page.evaluate(
            "() => [...document.querySelectorAll('th, [role=columnheader]')].filter(n => n.offsetParent)"
            ".map(n => n.innerText.trim())"
        )
        axes = page.evaluate(
            "() => [...document.querySelectorAll('[aria-roledescription=axis]')]"
            ".filter(n => n.getBoundingClientRect().width > 0).map(n => n.getAttribute('aria-label'))"
        )
        return [h for h in heads if re.search("[A-Za-z]", h)] + [
            a for a in axes if re.search(r"titled '(step|reward|value)[^']*'", a or "")
        ]

    found = {}
    for tab in ("预览", "奖励实验室", "训练", "对比", "训练记录"):
        open_tab(page, tab)
        try:  # the page-load events translate them; under load that takes a few seconds
            wait_for(lambda tab=tab: not english(tab), 30, f"the {tab} tab in Chinese")
        except AssertionError:
            found[tab] = english(tab)
    assert not found, found
    open_tab(page, "预览")
    page.get_by_label("模型").first.click()  # the picker's suggestions: the embedded model by its Chinese label
    options = page.get_by_role("option").all_inner_texts()
    assert "SmolLM2-135M-Instruct（内置）" in [o.strip() for o in options], options
    page.keyboard.press("Escape")

    # Toast titles are Chinese on the Chinese page.
    open_tab(page, "奖励")
    page.locator("textarea").first.fill("only one completion")
    page.get_by_role("button", name="打分", exact=True).click()
    title = page.locator(".toast-title.error").first
    title.wait_for()
    shown = title.evaluate("n => getComputedStyle(n, '::before').content + '|' + getComputedStyle(n).fontSize")
    assert shown == '"出错了"|0px', shown  # Gradio's own "Error" is there, at size 0, after the Chinese title
    assert "请至少粘贴两个生成结果" in page.locator(".toast-body").first.inner_text()

    check_reward_descriptions(page, "zh")
    context.close()


PHONE = {"width": 390, "height": 844}


def test_phone_shows_the_selection_before_the_cards_and_labels_whole(app, browser):
    context, page = open_page(browser, app, viewport=PHONE)
    # By its id: a locator filtered by text matches nothing while the summary re-renders.
    summary = page.locator("#pg-selection-summary")
    first_card = page.locator(".pg-card").first.bounding_box()["y"]
    assert summary.bounding_box()["y"] < first_card
    try_on_text = page.get_by_text("Try on text", exact=True).first.bounding_box()["y"]
    assert try_on_text < first_card, "Try on text sits after the reward cards"
    open_tab(page, "Train")  # in the tab bar: a phone's tabs wrap, none behind an overflow menu
    open_group(page, "train.group.generation")
    label = page.locator("label", has=page.get_by_text("num_generations", exact=True)).first
    span = label.get_by_text("num_generations", exact=True)
    box = span.evaluate(
        "n => { const r = document.createRange(); r.selectNodeContents(n); return r.getClientRects().length }"
    )
    assert box == 1, "num_generations is broken over lines"
    context.close()
