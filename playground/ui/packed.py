"""Many components read by one event as a single input, gathered in the browser.

Gradio's front end keeps every input of every event that has finished in its table of loading states, for the rest of
the page's life, and at each status message of any later event (sent, queued, started, done, a timer's tick too) it
finds each entry in the page's tree of about seven hundred components. An event that read the hundred inputs of the
reward cards made every later event of the page that much slower. `Packed` reads them in a browser-only step (no
status messages) into one hidden `gr.JSON`, which the backend event takes as its one input instead; the server turns
the list back into each component's value exactly as Gradio does (`preprocess`), and the admission gate prices those
values, as it priced the separate inputs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gradio as gr

from playground.errors import PlaygroundError
from playground.ui.common import admit
from playground.ui.i18n import tr


# The browser-only step: its one output, the hidden box, gets the list of the inputs' values.
PACK = "(...values) => [values]"


class Packed:
    """`components` read together: `box` (a hidden `gr.JSON`, built where this is made, inside the Blocks) holds their
    values after `gather`; `unpack` gives them back as the event's inputs would have been."""

    def __init__(self, components: Sequence[gr.components.Component]):
        self.components = list(components)
        self.box = gr.JSON(visible=False)

    def gather(self, triggers: list | None = None, after: Any = None) -> Any:
        """The browser-only step that fills `box`: on `triggers` (a `gr.on` list), or after the dependency `after`.
        Chain the backend event on what this returns (`.then(...)`)."""
        step = dict(fn=None, inputs=self.components, outputs=self.box, js=PACK, queue=False, show_progress="hidden")
        if after is not None:
            return after.then(**step)
        return gr.on(triggers, trigger_mode="always_last", **step)

    def unpack(self, values: Any, lang: str | None = None) -> list:
        """Each component's value from the box's list, through the component's own `preprocess` (what Gradio does to
        an input), priced by the admission gate in public mode (`admit`). A list of another length (a call that did not
        come from the page) is refused in one sentence."""
        if not isinstance(values, list) or len(values) != len(self.components):
            raise PlaygroundError(tr(lang, "app.bad_packed", count=len(self.components)))
        inputs = [component.preprocess(value) for component, value in zip(self.components, values, strict=True)]
        # In public mode the gate prices what the event's handler gets, as it prices any event's inputs: the list
        # itself was priced as the box's value, but a value nested deeper than the gate walks comes out of a text
        # component's `preprocess` as one long text.
        admit(lang, inputs)
        return inputs
