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
# Opens the top-level tab whose id it is given, as a click on its button does (the tab's select events included);
# after the page load, only if the visitor has not left the first tab meanwhile (`always` false). Tabs are opened in
# the browser, never as an event's output: for every status message of every event, Gradio's front end re-reads the
# state of each component an event has output, and of everything inside it, so a `gr.Tabs` output (the whole page)
# made each event copy every component's value.
OPEN_TAB = f"""(tab, always) => {{
    const ids = {list(TAB_IDS)!r};
    const button = (id) => document.querySelector(`#pg-tabs button[role=tab][data-tab-id="${{id}}"]`);
    const open = ids.find((id) => button(id)?.getAttribute("aria-selected") === "true");
    if (!ids.includes(tab) || open === tab || (!always && open && open !== ids[0])) return;
    button(tab)?.click();
}}"""


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


def greet(last_tab: str | None):
    """On page load: a first visit sees "start here"; a returning visitor the tab they had open (`OPEN_TAB` opens
    the tab this returns)."""
    if last_tab not in TAB_IDS:
        return gr.Group(visible=True), "rewards"
    return gr.Group(visible=False), last_tab


def hide() -> gr.Group:
    """Dismissed, or a lesson loaded: the banner goes (the first page load already remembered the visit)."""
    return gr.Group(visible=False)


def remember_tab(evt: gr.SelectData) -> str:
    index = evt.index if isinstance(evt.index, int) else 0
    return TAB_IDS[index] if 0 <= index < len(TAB_IDS) else "rewards"


def start() -> list:
    """The "start here" button: the format lesson on the Learn tab (then drawn by the Learn tab's own handler; the
    browser opens the tab at the click, `OPEN_TAB`)."""
    return [gr.Group(visible=False), "learn", gr.Dropdown(value=FIRST_LESSON)]


def wire_start_here(
    demo: gr.Blocks, start_here: StartHere, tabs: gr.Tabs, picker: gr.Dropdown, show_lesson, loads: list[gr.Button]
) -> None:
    """`show_lesson` is the Learn tab's bound handler and its (inputs, outputs), to draw the lesson once picked;
    `loads` the Learn tab's buttons that load a lesson, each of which takes the banner away."""
    on_page_load(greet, [start_here.last_tab], [start_here.box, start_here.last_tab])
    in_browser_after_load(OPEN_TAB, [start_here.last_tab])
    # The last tab picked wins: a pick while an earlier one's answer is on its way (the page's own click of the
    # remembered tab after a reload, on a busy server) runs once that answer is in, not dropped.
    tabs.select(remember_tab, None, start_here.last_tab, trigger_mode="always_last", **HIDDEN)
    fn, inputs, outputs = show_lesson
    start_here.button.click(None, None, None, js=f"() => ({OPEN_TAB})('learn', true)")
    start_here.button.click(start, None, [start_here.box, start_here.last_tab, picker], **HIDDEN).then(
        fn, inputs, outputs, **HIDDEN
    )
    for button in (start_here.dismiss, *loads):
        button.click(hide, None, start_here.box, **HIDDEN)
