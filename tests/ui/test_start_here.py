"""The tab a visitor last picked is the one the browser remembers (`start_here.remember_tab`), however busy the server:
after a reload the page clicks the remembered tab itself, and a visitor's pick while that click's answer is on its way
must not be dropped (Gradio's default for a select event, "once", drops a trigger while one is pending)."""

from tests.ui.live_app import built_app


def test_the_last_tab_picked_is_remembered_after_a_pending_one(tmp_path):
    config = built_app(str(tmp_path / "runs")).config
    by_id = {c["id"]: c for c in config["components"]}
    (stored,) = [i for i, c in by_id.items() if c["props"].get("storage_key") == "grpo-playground-tab"]
    (remember,) = [
        dep
        for dep in config["dependencies"]
        if dep["backend_fn"] and stored in dep["outputs"] and any(event == "select" for _, event in dep["targets"])
    ]
    (tabs,) = {target for target, _ in remember["targets"]}
    assert by_id[tabs]["type"] == "tabs" and by_id[tabs]["props"]["elem_id"] == "pg-tabs"
    assert remember["trigger_mode"] == "always_last"
