"""The tab a visitor last picked is the one the browser remembers, however busy the server: the tab bar's select
event stores the open tab in the browser alone (`start_here.wire_start_here`), and no server event writes it. A server
answer could land after a later pick: after a reload the page clicks the remembered tab itself, and while that click's
answer was on its way Gradio's trigger mode "once" dropped the visitor's pick and "always_last" replayed the first
pick's event data; the page load's answer wrote the tab it had read back. A browser test holds the server's answers
while a tab is picked (`test_newcomer_browser.py`)."""

from playground.ui.start_here import OPEN_NOW
from tests.ui.live_app import built_app


def test_the_open_tab_is_stored_by_the_browser_alone(tmp_path):
    config = built_app(str(tmp_path / "runs")).config
    by_id = {c["id"]: c for c in config["components"]}
    (stored,) = [i for i, c in by_id.items() if c["props"].get("storage_key") == "grpo-playground-tab"]
    writes = [dep for dep in config["dependencies"] if stored in dep["outputs"]]
    assert writes and not [dep for dep in writes if dep["backend_fn"]]
    (pick,) = [dep for dep in writes if any(event == "select" for _, event in dep["targets"])]
    ((tabs, _),) = pick["targets"]
    assert by_id[tabs]["type"] == "tabs" and by_id[tabs]["props"]["elem_id"] == "pg-tabs"
    assert pick["js"] == OPEN_NOW and pick["inputs"] == [stored] and pick["outputs"] == [stored]
