"""A page's load is two events: the parts every tab registers run in one call, then the parts that read what it
wrote in a second. A part's failure stays its own: its outputs keep the page's value, a warning names it, the others
apply."""

import uuid

import gradio as gr
import pytest

from playground.errors import PlaygroundError
from playground.ui.common import bind
from playground.ui.page_load import on_page_load, wire_page_load
from tests.support.queue_client import app_config, backend_events, is_load_event, raw_call
from tests.ui.live_app import launched


pytestmark = pytest.mark.integration


def greeting(request: gr.Request, name: str) -> str:
    return f"hello {name}"


def refused(name: str) -> str:
    raise PlaygroundError("job.status_missing")


def broken(name: str) -> str:
    raise ValueError("a bug in a part")


async def counted(name: str, count: int) -> tuple[int, str]:
    return count + 1, gr.skip()


def echo(greeted: str) -> str:
    return f"after: {greeted}"


@pytest.fixture(scope="module")
def page():
    with gr.Blocks() as demo:
        name = gr.Textbox("ada")
        count = gr.Number(1)
        greeted, kept, bugged, after = gr.Textbox(), gr.Textbox("as built"), gr.Textbox("as built"), gr.Textbox()
        on_page_load(bind(greeting), [name], [greeted])
        on_page_load(bind(refused), [name], [kept])
        on_page_load(broken, [name], [bugged])
        on_page_load(counted, [name, count], [count, greeted])  # its skip leaves greeting's value
        on_page_load(echo, [greeted], [after], after=True)
        wire_page_load(demo)
    demo.queue()
    with launched(demo) as url:
        yield url


def test_the_parts_of_a_page_load_are_one_event_and_one_after_it(page, caplog):
    config = app_config(page)
    loads = [(i, dep) for i, dep in backend_events(config) if is_load_event(dep)]
    assert len(loads) == 1
    ((load, dep),) = loads
    after = [i for i, d in backend_events(config) if d.get("trigger_after") == load]
    assert len(after) == 1

    answer = []
    final = raw_call(page, uuid.uuid4().hex, load, ["ada", 1], messages=answer)
    assert final["success"], final
    greeted, kept, bugged, count = final["output"]["data"]
    assert greeted == "hello ada" and count == 2
    assert kept == bugged == {"__type__": "update"}  # the failed parts' outputs keep the page's value
    warnings = [m["log"] for m in answer if m.get("msg") == "log" and m.get("level") == "warning"]
    assert warnings == ["status.json is missing", "ValueError: a bug in a part"], warnings
    assert "Page load part broken failed" in caplog.text

    final = raw_call(page, uuid.uuid4().hex, after[0], ["hello ada"])
    assert final["output"]["data"] == ["after: hello ada"]


def test_the_app_loads_in_two_events(app):
    config = app_config(app.url)
    loads = [i for i, dep in backend_events(config) if is_load_event(dep)]
    assert len(loads) == 1
    assert len([i for i, d in backend_events(config) if d.get("trigger_after") == loads[0]]) == 1
