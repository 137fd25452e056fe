"""`Packed`: the values the browser gathers into one list come back as each component's input would have, through
the component's own `preprocess`; a list that did not come from the page is refused in one sentence, in the page's
language."""

import gradio as gr
import pytest

from playground.errors import PlaygroundError
from playground.ui.i18n import ZH
from playground.ui.packed import Packed


def test_unpack_gives_each_component_its_preprocessed_value():
    with gr.Blocks():
        use = gr.Checkbox(label="Use")
        weight = gr.Number(label="weight")
        steps = gr.Number(label="steps", precision=0)
        mode = gr.Dropdown(["fullmatch", "search"], value="search", label="mode")
        text = gr.Textbox(label="pattern")
        packed = Packed([use, weight, steps, mode, text])
    assert packed.box.visible is False and isinstance(packed.box, gr.JSON)
    assert packed.unpack([True, 2, 3.0, "fullmatch", "a+"]) == [True, 2.0, 3, "fullmatch", "a+"]
    assert type(packed.unpack([False, 2, 3.0, "search", ""])[2]) is int  # precision 0: an int, as Gradio gives it
    assert packed.unpack([False, None, None, "search", ""])[1:3] == [None, None]
    with pytest.raises(gr.Error, match="not in the list of choices"):
        packed.unpack([True, 1, 1, "match", ""])  # as Gradio refuses the same value sent to the dropdown itself


@pytest.mark.parametrize("values", [None, "[true]", {"0": True}, [True, 1], [True, 1, 1, "search", "", "extra"]])
def test_a_list_not_from_the_page_is_refused_in_the_pages_language(values):
    with gr.Blocks():
        packed = Packed([gr.Checkbox(), gr.Number(), gr.Number(), gr.Dropdown(["search"]), gr.Textbox()])
    with pytest.raises(PlaygroundError) as refused:
        packed.unpack(values, "zh")
    assert refused.value.message == ZH["app.bad_packed"].format(count=5)
