"""Gradio's queue polls for new events in its event loop; the app makes it poll less often (`QUEUE_POLL`), so that an
idle app does not keep a core busy (`bench/idle_app.py` prints what an idle app costs). Where a Gradio version lacks
the two attributes, the app says so in its log and keeps Gradio's polling."""

import logging

import gradio as gr

from playground.ui.app import QUEUE_POLL, poll_queue_less
from tests.ui.live_app import built_app


def test_the_apps_queue_polls_at_the_apps_rate(tmp_path):
    demo = built_app(str(tmp_path / "runs"))
    polls = {name: getattr(demo._queue, name) for name in QUEUE_POLL}
    assert polls == {"sleep_when_free": 0.01, "progress_update_sleep_when_free": 0.1}
    # Gradio's own rates, which the app replaces: 10 and 10 times as often
    with gr.Blocks() as plain:
        gr.Textbox()
    plain.queue()
    assert {name: getattr(plain._queue, name) for name in QUEUE_POLL} == {
        "sleep_when_free": 0.001,
        "progress_update_sleep_when_free": 0.01,
    }


def test_a_gradio_without_the_attributes_keeps_its_polling_and_the_log_says_so(caplog):
    with gr.Blocks() as demo:
        gr.Textbox()
    demo.queue()
    del demo._queue.progress_update_sleep_when_free  # as a Gradio version that renamed it would lack it
    with caplog.at_level(logging.WARNING, logger="playground.ui.app"):
        poll_queue_less(demo)
    assert demo._queue.sleep_when_free == 0.001  # left as Gradio set it: both or neither
    assert [r.getMessage() for r in caplog.records] == [
        "Gradio's queue has no progress_update_sleep_when_free: it keeps polling at its own rate"
    ]
