"""A phone (390×844) in a real headless Chromium: the "start here" banner is compact and goes once dismissed or once
a lesson is loaded; a table wider than the screen says it scrolls."""

import pytest

from playground.ui.i18n import EN, ZH
from tests.ui.test_browser import open_tab, wait_for


pytestmark = [pytest.mark.browser, pytest.mark.slow]

TEXT = {"en": EN, "zh": ZH}
LOCALE = {"en": "en-US", "zh": "zh-CN"}
PHONE = {"width": 390, "height": 844}


def open_phone(browser, app, lang: str):
    context = browser.new_context(locale=LOCALE[lang], viewport=PHONE)
    page = context.new_page()
    page.goto(app.url)
    page.locator(".pg-card").first.wait_for()
    return context, page


def banner_height(page) -> float:
    banner = page.locator("#pg-start-here").first
    return banner.bounding_box()["height"] if banner.is_visible() else 0.0


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_start_here_banner_is_compact_and_goes(app, browser, lang):
    text = TEXT[lang]
    context, page = open_phone(browser, app, lang)
    page.locator("#pg-start-here").first.wait_for(state="visible")
    assert banner_height(page) <= 0.15 * PHONE["height"], banner_height(page)
    # Dismissed: gone, and still gone after a reload.
    page.locator("#pg-start-here-dismiss").click()
    page.locator("#pg-start-here").first.wait_for(state="hidden")
    page.reload()
    page.locator(".pg-card").first.wait_for()
    page.wait_for_timeout(1000)
    assert banner_height(page) == 0.0
    context.close()
    # A lesson loaded from the Learn tab (not through the banner's button) takes the banner away too.
    context, page = open_phone(browser, app, lang)
    page.locator("#pg-start-here").first.wait_for(state="visible")
    open_tab(page, text["learn.tab"])
    page.get_by_role("button", name=text["learn.load"], exact=True).first.click()
    page.locator("#pg-start-here").first.wait_for(state="hidden")
    context.close()


# Words of a held-out answer that its column could hold whole but that wrap onto two lines: the tokens between spaces
# made of at most 12 letters (a 150-px column holds 16 monospace letters), each measured by the lines its text spans.
SPLIT_WORDS = """(block) => {
    const split = [];
    let words = 0;
    for (const span of document.querySelectorAll(block + ' .body-cell span')) {
        const node = span.firstChild;
        if (!node || node.nodeType !== 3 || span.getBoundingClientRect().height === 0) continue;
        const re = /(?<=^|\\s)[A-Za-z]{4,12}[.,]?(?=\\s|$)/g;
        let m;
        while ((m = re.exec(node.textContent))) {
            const range = document.createRange();
            range.setStart(node, m.index);
            range.setEnd(node, m.index + m[0].length);
            words += 1;
            if (new Set([...range.getClientRects()].map(r => Math.round(r.top))).size > 1) split.push(m[0]);
        }
    }
    return {words, split};
}"""


# Whether the centre of an element is what the page shows there (not hidden under an inner scroll or off-screen).
SHOWN = """(el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + Math.min(r.height / 2, 10));
    return r.width > 0 && r.top >= 0 && r.bottom <= window.innerHeight && (hit === el || el.contains(hit));
}"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_phone_reads_answers_cards_and_tables(app, browser, lang):
    """One phone page, whose checks read and change nothing the next one reads. Each completion of Try on text is a
    card, its text at the screen's width (the table's completion column was 65 px), the third one on the page, not in
    an inner scroll. The format lesson's held-out answers: no word wraps inside itself ("adventur e"), and each keeps
    a column wide enough to read (the table scrolls sideways). Only the Runs table says it scrolls, and only on a
    phone; a wide screen keeps Try on text's table."""
    from playground.lessons import LESSONS, get_lesson
    from tests.ui.test_learn_browser import pick_lesson

    text, fmt = TEXT[lang], get_lesson("format")
    context, page = open_phone(browser, app, lang)

    # Try on text: a card per completion, none of them in an inner scroll.
    cards = page.locator(".pg-try-card")
    # Each check waits for the page to settle (a loaded machine lays it out late), then holds or fails.
    # The cards come with the page's load, in the visitor's language.
    label = TEXT[lang]["table.advantage"]
    in_language = lambda: cards.count() == 3 and label in cards.nth(2).inner_text()  # noqa: E731
    wait_for(in_language, 60, "the three completions of the example text as cards, in the page's language")
    assert not page.locator("#pg-try-table").is_visible()
    texts = page.locator(".pg-try-card .pg-try-text")
    widths = lambda: [texts.nth(i).bounding_box()["width"] for i in range(3)]  # noqa: E731
    wait_for(lambda: min(widths()) >= 280, 60, "each card's text at the screen's width", widths)
    third = texts.nth(2)

    def third_shown() -> bool:
        third.scroll_into_view_if_needed()
        return page.evaluate(SHOWN, third.element_handle())

    wait_for(third_shown, 60, "the third card shown whole, not in an inner scroll")
    hint = page.get_by_text(text["app.scroll_hint"], exact=True)
    shown_hints = lambda: sum(1 for h in hint.all() if h.is_visible())  # noqa: E731
    assert shown_hints() == 0  # Try on text shows cards on a phone, not a wide table

    # The held-out answers of the format lesson.
    open_tab(page, text["learn.tab"])
    pick_lesson(page, text["learn.pick"], f"{LESSONS.index(fmt) + 1}. {fmt.title[lang]}")
    block = ".block.pg-reference-answers"
    page.locator(block + " .body-cell span").first.wait_for()
    page.locator(block).first.scroll_into_view_if_needed()
    found = lambda: page.evaluate(SPLIT_WORDS, block)  # noqa: E731
    whole = lambda: (words := found())["words"] >= 20 and words["split"] == []  # noqa: E731
    wait_for(whole, 60, "answers without split words", found)
    cells = lambda: page.evaluate(f"[...document.querySelectorAll('{block} .body-cell')].map(c => c.offsetWidth)")  # noqa: E731
    wait_for(lambda: min(cells()) >= 140, 60, "each answer column wide enough to read", cells)

    # The Runs table says it scrolls, on a phone only.
    open_tab(page, text["runs.tab"])
    wait_for(lambda: shown_hints() == 1, 60, "one scroll hint, under the Runs table", shown_hints)
    page.set_viewport_size({"width": 1400, "height": 900})
    wait_for(lambda: shown_hints() == 0, 60, "no scroll hint on a wide screen", shown_hints)
    # A wide screen keeps Try on text's table.
    open_tab(page, text["rewards.tab"])
    table = page.locator("#pg-try-table")
    wait_for(lambda: table.is_visible() and not cards.first.is_visible(), 60, "Try on text's table, not cards")
    context.close()
