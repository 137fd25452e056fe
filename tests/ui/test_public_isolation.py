"""Public mode through the page (two gradio_client sessions): a visitor's run is theirs; others see that it goes, not
what it holds, and a start while it goes joins the queue instead of being refused."""

import json
import time
from pathlib import Path

import pytest
from gradio_client.exceptions import AppError

from playground.ui.context import AppContext
from playground.ui.settings import UISettings
from playground.ui.train_tab import resume
from tests.ui.live_app import fresh_module_state
from tests.ui.test_client import TINY_RUN, client, form_kwargs, table


NOT_YOURS = "belongs to another visitor of this public app"
ENV = {"PLAYGROUND_PUBLIC": "1", "PLAYGROUND_MAX_STEPS": "40", "PLAYGROUND_SANDBOX_DISK_MB": "16"}


@pytest.fixture(scope="module")
def public_app(shared_public_app, tmp_path_factory):
    runs = str(tmp_path_factory.mktemp("runs"))
    with fresh_module_state(shared_public_app, runs, ENV) as live:
        yield live


def listed(c) -> dict[str, dict]:
    frame, _, _ = c.predict(None, api_name="/list_runs")
    return {row["run"]: row for row in table(frame)}


def wait_for(predicate, timeout=300):
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.2)


def test_others_see_status_not_content_and_queue_behind(public_app):
    alice, bob = client(public_app), client(public_app)
    ctx = public_app.ctx
    alice.predict(**form_kwargs(alice, **{**TINY_RUN, "max_steps": 40}), api_name="/start_training")
    job = ctx.jobs.current
    run_id = job.run.id
    wait_for(lambda: job.step >= 1)

    row = listed(bob)[run_id]  # bob sees that it goes, and its step
    assert row["status"] in ("running", "stopping") and row["steps"].endswith("/40")
    assert (row["model"], row["rewards"]) == ("", "")
    for endpoint in ("/show_run", "/download_adapter", "/download_recipe", "/download_script", "/delete_run"):
        with pytest.raises(AppError, match=NOT_YOURS):
            bob.predict(run_id, api_name=endpoint)
    with pytest.raises(AppError, match=NOT_YOURS):
        bob.predict(run_id, "Say hi.", 2, 0, api_name="/compare")  # sampling its adapter is reading it too
    assert listed(alice)[run_id]["rewards"] != ""

    bob.predict(**form_kwargs(bob, **{**TINY_RUN, "max_steps": 1}), api_name="/start_training")  # queued, no error
    text = bob.predict(api_name="/queue_status")  # the Cancel button's visibility is not an API output
    assert text.startswith("Your run is queued: position 1 of 1")
    with pytest.raises(AppError, match="already have a run waiting in the queue"):
        bob.predict(**form_kwargs(bob, **{**TINY_RUN, "max_steps": 1}), api_name="/start_training")
    with pytest.raises(AppError, match="at most 40 steps"):
        bob.predict(**form_kwargs(bob, **{**TINY_RUN, "max_steps": 41}), api_name="/start_training")
    text = bob.predict(api_name="/cancel_queued")
    assert text == "Your queued run was cancelled." and ctx.jobs.waiting == []
    with pytest.raises(AppError, match="Only the session that started this run can stop it"):
        bob.predict(api_name="/stop_training")

    alice.predict(api_name="/stop_training")
    job.join(300)
    assert run_id not in listed(bob)  # finished and private: not listed for others
    assert alice.predict(run_id, api_name="/show_run")  # the owner reads it
    with pytest.raises(AppError, match=NOT_YOURS):
        bob.predict(run_id, api_name="/publish_run")
    alice.predict(run_id, api_name="/publish_run")
    assert listed(bob)[run_id]["status"] == "stopped · published"
    bob.predict(run_id, api_name="/show_run")  # published: readable by everyone
    with pytest.raises(AppError, match="published by another visitor; it is read-only for you"):
        bob.predict(run_id, api_name="/delete_run")
    alice.predict(run_id, api_name="/delete_run")
    assert run_id not in listed(alice)


def test_ownership_survives_a_page_reload(public_app, tmp_path):
    """A reload restores the session id from the browser's token (gr.BrowserState), and the token opens the run."""
    ctx = AppContext.create(UISettings(runs=str(tmp_path)))
    alice = ctx.tokens.issue()
    run = ctx.store.create({"grpo": {"max_steps": 1}})
    run.write_status(status="finished", owner=ctx.viewer(alice))
    session_id, browser_id, _ = resume(ctx, alice)  # the page load handler, given the token the browser kept
    assert session_id == browser_id == alice
    assert public_app.ctx.public and ctx.public
    assert ctx.open_run(run.id, session_id).id == run.id
    with pytest.raises(Exception, match=NOT_YOURS):
        ctx.open_run(run.id, ctx.tokens.issue())


@pytest.mark.parametrize(
    "name, message",
    [
        ("net_tcp_localhost.py", "Network access is off in the public sandbox"),
        ("net_udp.py", "Network access is off in the public sandbox"),
        ("disk_fill.py", "wrote more than the sandbox's disk quota (16 MB and 500 files in its folder"),
    ],
)
def test_a_public_reward_cannot_reach_the_app_or_fill_the_disk(public_app, name, message):
    source = (Path(__file__).resolve().parents[1] / "sandbox" / "corpus" / name).read_text()
    c = client(public_app)
    c.predict(json.dumps([{"name": "reward", "weight": 1.0}]), code=source, api_name="/set_rewards")
    with pytest.raises(AppError) as err:
        c.predict("abc\n---\nabcdef", code=source, api_name="/try_on_text")
    assert message in str(err.value) and "Traceback" not in str(err.value)


def test_public_mode_messages_have_chinese(tmp_path):
    from playground.errors import PlaygroundError
    from playground.spec import RunSpec
    from playground.texts import render
    from playground.training.run_queue import PublicCaps

    spec = RunSpec()
    spec.set("max_steps", 1000)
    messages = []
    for check in (
        lambda: PublicCaps().check(spec, [], 2.0),
        lambda: PublicCaps().check(RunSpec(), ["a", "b", "c", "d"], 2.0),
        lambda: PublicCaps(max_reward_seconds=5).check(RunSpec(), ["a", "b", "c"], 2.0),
    ):
        with pytest.raises(PlaygroundError) as err:
            check()
        messages.append(err.value)
    ctx = AppContext.create(UISettings(runs=str(tmp_path)))
    ctx.jobs.public = True
    run = ctx.store.create({})
    run.write_status(status="finished", owner=ctx.viewer(ctx.tokens.issue()))
    for viewer in (ctx.tokens.issue(),):
        with pytest.raises(PlaygroundError) as err:
            ctx.open_run(run.id, viewer)
        messages.append(err.value)
    run.publish()
    with pytest.raises(PlaygroundError) as err:
        ctx.open_run(run.id, viewer, change=True)
    messages.append(err.value)
    translated = [render("zh", m) for m in messages]
    assert all(m.key and t != str(m) and "公开" in t for t, m in zip(translated, messages, strict=True)), translated
