"""On a Hugging Face Space (SPACE_ID set) the page offers a Duplicate button with one line saying why; elsewhere it
does not."""

import gradio as gr
import pytest

from playground.ui.i18n import EN, ZH
from tests.ui.live_app import built_app


def components(demo, kind: str) -> list[dict]:
    return [c for c in demo.config["components"] if c["type"] == kind]


@pytest.mark.parametrize("space", [None, "someone/grpo-playground"])
def test_duplicate_button_only_on_a_space(monkeypatch, tmp_path, space):
    if space:
        monkeypatch.setenv("SPACE_ID", space)
    else:
        monkeypatch.delenv("SPACE_ID", raising=False)
    demo = built_app(str(tmp_path / "runs"))
    buttons = [c for c in components(demo, "button") if "app.duplicate_button" in str(c["props"].get("value"))]
    lines = [c for c in components(demo, "markdown") if "app.duplicate" in str(c["props"].get("value"))]
    duplicates = [b for b in demo.blocks.values() if isinstance(b, gr.DuplicateButton)]
    assert len(buttons) == (1 if space else 0)  # a DuplicateButton is a button to the frontend
    assert {b._id for b in duplicates} == {c["id"] for c in buttons}  # that button is Gradio's DuplicateButton
    assert len(lines) == (1 if space else 0)
    assert "private trainer with no queue" in EN["app.duplicate"] and "不用排队" in ZH["app.duplicate"]
