"""A first visit starts where a newcomer should: a short "start here" above the tabs leads to the format lesson, its
reference run in view at once. The browser remembers the visit and the tab last opened, so a returning visitor gets
their tab back and no "start here"."""

from dataclasses import dataclass

import gradio as gr

from playground.ui.i18n import t


TAB_IDS = ("rewards", "learn", "preview", "lab", "train", "compare", "runs")  # the top-level tabs, in page order
FIRST_LESSON = "format"
HIDDEN = dict(api_visibility="private", show_progress="hidden")


@dataclass
class StartHere:
    box: gr.Group
    button: gr.Button
    last_tab: gr.BrowserState  # None until the first visit's page load


def create_start_here() -> StartHere:
    with gr.Group(visible=False, elem_id="pg-start-here") as box:
        with gr.Row(equal_height=True):
            gr.Markdown(t("app.start_here"), padding=True)
            button = gr.Button(t("app.start_here.button"), variant="primary", scale=0, min_width=200)
    return StartHere(box, button, gr.BrowserState(None, storage_key="grpo-playground-tab"))


def greet(last_tab: str | None):
    """On page load: a first visit sees "start here"; a returning visitor the tab they had open."""
    if last_tab not in TAB_IDS:
        return gr.Group(visible=True), gr.Tabs(), "rewards"
    return gr.Group(visible=False), gr.Tabs(selected=last_tab), last_tab


def remember_tab(evt: gr.SelectData) -> str:
    index = evt.index if isinstance(evt.index, int) else 0
    return TAB_IDS[index] if 0 <= index < len(TAB_IDS) else "rewards"


def start() -> list:
    """The "start here" button: the format lesson on the Learn tab (then drawn by the Learn tab's own handler)."""
    return [gr.Group(visible=False), gr.Tabs(selected="learn"), "learn", gr.Dropdown(value=FIRST_LESSON)]


def wire_start_here(demo: gr.Blocks, start_here: StartHere, tabs: gr.Tabs, picker: gr.Dropdown, show_lesson) -> None:
    """`show_lesson` is the Learn tab's bound handler and its (inputs, outputs), to draw the lesson once picked."""
    demo.load(greet, start_here.last_tab, [start_here.box, tabs, start_here.last_tab], **HIDDEN)
    tabs.select(remember_tab, None, start_here.last_tab, **HIDDEN)
    fn, inputs, outputs = show_lesson
    start_here.button.click(start, None, [start_here.box, tabs, start_here.last_tab, picker], **HIDDEN).then(
        fn, inputs, outputs, **HIDDEN
    )
