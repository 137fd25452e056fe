"""Public mode through the page (gradio_client sessions on a launched app): only a run's owner can continue it, and a
continued run is held to the same caps as a new one."""

import time

import pytest
from gradio_client.exceptions import AppError

from tests.ui.live_app import fresh_module_state
from tests.ui.test_client import TINY_RUN, client, form_kwargs
from tests.ui.test_public_isolation import NOT_YOURS, listed


pytestmark = pytest.mark.slow  # real runs of several steps (and a launched app)


ENV = {"PLAYGROUND_PUBLIC": "1", "PLAYGROUND_MAX_STEPS": "6", "PLAYGROUND_SANDBOX_DISK_MB": "16"}


@pytest.fixture(scope="module")
def public_app(shared_public_app, tmp_path_factory):
    runs = str(tmp_path_factory.mktemp("runs"))
    with fresh_module_state(shared_public_app, runs, ENV) as live:
        yield live


def finish(job, timeout=300):
    job.join(timeout)
    assert job.status == "finished", job.error


def test_only_the_owner_continues_a_run_within_the_caps(public_app):
    ctx = public_app.ctx
    alice, bob, stranger = client(public_app), client(public_app), client(public_app)
    alice.predict(**form_kwargs(alice, **{**TINY_RUN, "max_steps": 2}), api_name="/start_training")
    first = ctx.jobs.current
    finish(first)
    run_id = first.run.id
    bob.predict(**form_kwargs(bob, **{**TINY_RUN, "max_steps": 1}), api_name="/start_training")  # bob has a token
    finish(ctx.jobs.current)
    bobs = ctx.jobs.current

    for visitor in (bob, stranger):  # a visitor with a run of their own, and one without a token
        with pytest.raises(AppError, match=NOT_YOURS):
            visitor.predict(run_id, 4, api_name="/continue_run")
    assert ctx.jobs.current is bobs and not bobs.active  # nothing started
    assert ctx.store.get(run_id).status()["step"] == 2
    with pytest.raises(AppError, match="at most 6 steps"):
        alice.predict(run_id, 7, api_name="/continue_run")  # the cost caps of a new run

    frame, _, _ = alice.predict(run_id, 4, api_name="/continue_run")
    continued = ctx.jobs.current
    assert continued.run.id == run_id and continued.start_step == 2
    finish(continued)
    status = ctx.store.get(run_id).status()
    assert (status["status"], status["step"], status["max_steps"]) == ("finished", 4, 4)
    steps = [r["step"] for r in ctx.store.get(run_id).metrics() if "reward" in r]
    assert steps == [1, 2, 3, 4]
    deadline = time.monotonic() + 10
    while listed(alice)[run_id]["steps"] != "4/4":
        assert time.monotonic() < deadline
        time.sleep(0.2)
