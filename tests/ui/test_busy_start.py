"""The app starts on a busy machine: Gradio's own launch refuses to start ("localhost is not accessible") when its
server, though it answers, takes more than 3 s to send the page; the app's launch arguments (`patient_start`) skip that
check, since the server's first answer already showed that localhost is reachable."""

import asyncio

import gradio as gr
import httpx
import pytest
from starlette.middleware import Middleware
from starlette.middleware.base import BaseHTTPMiddleware

from playground.ui.app import launch_kwargs, patient_start
from playground.ui.settings import UISettings
from tests.ui.live_app import free_port


pytestmark = pytest.mark.integration


class SlowPage(BaseHTTPMiddleware):
    """The page itself ("/") answers after 4 s, as a big page does on a loaded 2-core machine; the rest at once."""

    async def dispatch(self, request, call_next):
        if request.url.path == "/":
            await asyncio.sleep(4)
        return await call_next(request)


def page() -> gr.Blocks:
    with gr.Blocks() as demo:
        gr.Markdown("busy")
    return demo


def launch(demo: gr.Blocks, extra: dict) -> str:
    kwargs = dict(server_name="127.0.0.1", server_port=free_port(), quiet=True, prevent_thread_lock=True)
    _, url, _ = demo.launch(app_kwargs={"middleware": [Middleware(SlowPage)]}, **kwargs, **extra)
    return url


def test_a_slow_page_stops_gradios_own_launch_and_not_the_apps():
    refused, started = page(), page()
    try:
        with pytest.raises(ValueError, match="localhost is not accessible"):
            launch(refused, {})
        assert patient_start() == {"_frontend": False}  # this Gradio has the switch
        answer = httpx.get(launch(started, patient_start()), timeout=30)
        assert answer.status_code == 200 and "gradio" in answer.text.lower()
    finally:
        refused.close()
        started.close()


def test_the_apps_launch_arguments_carry_the_patient_start():
    settings = UISettings(host="127.0.0.1", port=free_port(), model="embedded", runs="runs")
    assert launch_kwargs(settings)["_frontend"] is False
