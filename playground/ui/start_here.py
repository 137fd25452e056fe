"""A first visit starts where a newcomer should: a short "start here" above the tabs leads to the format lesson, its
reference run in view at once. The browser remembers the visit and the tab last opened, so a returning visitor gets
their tab back and no "start here". The banner goes once dismissed or once a lesson is loaded; on a phone it is
one line and its button (the explanation is left out)."""

from dataclasses import dataclass

import gradio as gr

from playground.ui.i18n import t
from playground.ui.page_load import in_browser_after_load, on_page_load


TAB_IDS = ("rewards", "learn", "preview", "lab", "train", "compare", "runs")  # the top-level tabs, in page order
FIRST_LESSON = "format"
HIDDEN = dict(api_visibility="private", show_progress="hidden")
# The JavaScript both browser steps below start with: the top-level tabs' ids, a tab's button, and the id of the one
# open now (undefined before the tab bar is drawn).
TAB_BAR = f"""const ids = {list(TAB_IDS)!r};
    const button = (id) => document.querySelector(`#pg-tabs button[role=tab][data-tab-id="${{id}}"]`);
    const opened = () => ids.find((id) => button(id)?.getAttribute("aria-selected") === "true");"""
# Opens the top-level tab whose id it is given, as a click on its button does (the tab's select events included);
# after the page load, only if the visitor has not left the first tab meanwhile (`always` false). Tabs are opened in
# the browser, never as an event's output: for every status message of every event, Gradio's front end re-reads the
# state of each component an event has output, and of everything inside it, so a `gr.Tabs` output (the whole page)
# made each event copy every component's value.
OPEN_TAB = f"""(tab, always) => {{
    {TAB_BAR}
    const open = opened();
    if (!ids.includes(tab) || open === tab || (!always && open && open !== ids[0])) return;
    button(tab)?.click();
}}"""

# The top-level tab open now, read once the click that selected it has been drawn (a JavaScript event runs before the
# page redraws it); `stored` if none is found.
OPEN_NOW = f"""async (stored) => {{
    {TAB_BAR}
    await new Promise((drawn) => setTimeout(drawn, 0));
    return opened() ?? stored;
}}"""
# Once the page has loaded: the remembered tab opened (unless the visitor has left the first tab meanwhile), and the
# tab then open stored, which also marks a first visit as seen.
RETURN_TO_TAB = f"async (tab) => {{ ({OPEN_TAB})(tab, false); return await ({OPEN_NOW})(tab); }}"


@dataclass
class StartHere:
    box: gr.Group
    button: gr.Button
    dismiss: gr.Button
    last_tab: gr.BrowserState  # None until the first visit's page load


def create_start_here() -> StartHere:
    with gr.Group(visible=False, elem_id="pg-start-here") as box:
        with gr.Row(equal_height=True):
            with gr.Column(scale=1, min_width=160):
                gr.Markdown(t("app.start_here"), padding=True)
                gr.Markdown(t("app.start_here.detail"), padding=True, elem_classes="pg-start-here-detail")
            button = gr.Button(t("app.start_here.button"), variant="primary", scale=0, min_width=200)
            dismiss = gr.Button(
                t("app.start_here.dismiss"),
                variant="secondary",
                size="sm",
                scale=0,
                min_width=80,
                elem_id="pg-start-here-dismiss",
            )
    return StartHere(box, button, dismiss, gr.BrowserState(None, storage_key="grpo-playground-tab"))


def greet(last_tab: str | None) -> gr.Group:
    """On page load: a first visit sees "start here", a returning visitor does not (the browser then opens the tab
    they had open, `RETURN_TO_TAB`)."""
    return gr.Group(visible=last_tab not in TAB_IDS)


def hide() -> gr.Group:
    """Dismissed, or a lesson loaded: the banner goes (the first page load already remembered the visit)."""
    return gr.Group(visible=False)


def start() -> list:
    """The "start here" button: the format lesson on the Learn tab (then drawn by the Learn tab's own handler; the
    browser opens the tab at the click, `OPEN_TAB`, which stores it as a visitor's pick would)."""
    return [gr.Group(visible=False), gr.Dropdown(value=FIRST_LESSON)]


def wire_start_here(
    demo: gr.Blocks, start_here: StartHere, tabs: gr.Tabs, picker: gr.Dropdown, show_lesson, loads: list[gr.Button]
) -> None:
    """`show_lesson` is the Learn tab's bound handler and its (inputs, outputs), to draw the lesson once picked;
    `loads` the Learn tab's buttons that load a lesson, each of which takes the banner away."""
    on_page_load(greet, [start_here.last_tab], [start_here.box])
    in_browser_after_load(RETURN_TO_TAB, [start_here.last_tab], [start_here.last_tab])
    # The tab picked is remembered in the browser alone, so the last one picked is the one stored however busy the
    # server. A server event could not be trusted with it: after a reload the page clicks the remembered tab itself,
    # and while that click's answer was on its way Gradio's trigger mode "once" dropped the visitor's pick and
    # "always_last" replayed the first pick's event data; and a page load's answer that wrote the tab back could
    # arrive after a pick. (Each tab's own select event would not do either: Gradio fires the first tab's at the
    # page's start, before the page load reads what was stored.)
    tabs.select(None, start_here.last_tab, start_here.last_tab, js=OPEN_NOW, **HIDDEN)
    fn, inputs, outputs = show_lesson
    start_here.button.click(None, None, None, js=f"() => ({OPEN_TAB})('learn', true)")
    start_here.button.click(start, None, [start_here.box, picker], **HIDDEN).then(fn, inputs, outputs, **HIDDEN)
    for button in (start_here.dismiss, *loads):
        button.click(hide, None, start_here.box, **HIDDEN)
