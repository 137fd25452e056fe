"""Public mode's ownership against an attacker: browser tokens are issued and signed by the server, run folders hold
only their hash, and the takeover (read a victim's owner from its run folder, present it to the page-load handler
over the raw queue API, then stop and delete the victim's run) fails. A real public app on 127.0.0.1, real runs."""

import json
import time

import pytest
from gradio_client.exceptions import AppError

from playground.training.access import Tokens, owner_key
from tests.support.queue_client import page_load, tokens_of
from tests.ui.live_app import fresh_module_state
from tests.ui.test_client import TINY_RUN, client, form_kwargs


NOT_YOURS = "belongs to another visitor of this public app"
NOT_STARTER = "Only the session that started this run can stop it"
ENV = {"PLAYGROUND_PUBLIC": "1", "PLAYGROUND_MAX_STEPS": "60"}


@pytest.fixture(scope="module")
def public_app(shared_public_app, tmp_path_factory):
    with fresh_module_state(shared_public_app, str(tmp_path_factory.mktemp("runs")), ENV) as live:
        yield live


def wait_for(predicate, timeout=300):
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.2)


def test_tokens_are_signed_and_a_run_folder_holds_only_their_hash():
    tokens, other_app = Tokens(b"k" * 32), Tokens(b"q" * 32)
    token = tokens.issue()
    assert tokens.verify(token) and tokens.owner(token) == owner_key(token)
    assert owner_key(token).startswith("sha256:") and token not in owner_key(token)
    forged = [
        owner_key(token),  # what a run folder holds
        "token-of-alice",
        token[:-1] + ("A" if token[-1] != "A" else "B"),  # one character of the signature changed
        other_app.issue(),  # issued by another app (another secret)
        "pg1." + token.split(".")[1] + ".",
        None,
        12,
    ]
    assert [tokens.owner(t) for t in forged] == [None] * len(forged)
    assert tokens.keep_or_issue(token) == token
    fresh = tokens.keep_or_issue(owner_key(token))
    assert fresh != owner_key(token) and tokens.verify(fresh)
    assert Tokens(b"k" * 32).verify(token)  # PLAYGROUND_SECRET: the same secret keeps tokens valid after a restart
    with pytest.raises(ValueError, match="at least 16 characters"):
        Tokens(b"short")


def test_the_takeover_with_a_token_read_from_the_run_folder_fails(public_app):
    ctx = public_app.ctx
    alice = client(public_app)
    alice.predict(**form_kwargs(alice, **{**TINY_RUN, "max_steps": 60}), api_name="/start_training")
    job = ctx.jobs.current
    run_id = job.run.id
    wait_for(lambda: job.step >= 1)

    status = json.loads((job.run.path / "status.json").read_text())
    spec = (job.run.path / "spec.json").read_text()
    stolen = status["owner"]
    assert stolen.startswith("sha256:") and len(stolen) == len("sha256:") + 64
    assert job.owner == stolen  # the engine knows the owner by its hash too

    for presented in (stolen, "token-of-alice", stolen.removeprefix("sha256:")):
        attacker = client(public_app)  # a fresh gradio_client: a new session
        done = page_load(public_app.url, attacker.session_hash, presented)
        assert done["success"], done
        (given,) = set(tokens_of(done))  # the browser token the page would store: a new one, not the presented
        assert given != presented and ctx.tokens.verify(given) and ctx.viewer(given) != stolen
        assert presented not in json.dumps(done)
        with pytest.raises(AppError, match=NOT_STARTER):
            attacker.predict(api_name="/stop_training")
        for endpoint in ("/delete_run", "/publish_run", "/show_run", "/download_recipe"):
            with pytest.raises(AppError, match=NOT_YOURS):
                attacker.predict(run_id, api_name=endpoint)
    assert job.active and not job.stop_requested.is_set()
    assert run_id in {info.id for info in ctx.store.list()}
    assert stolen not in spec

    alice.predict(api_name="/stop_training")  # the starter still can
    job.join(300)
    assert job.status == "stopped"
    alice.predict(run_id, api_name="/delete_run")
    assert run_id not in {info.id for info in ctx.store.list()}


def test_a_token_the_server_issued_survives_a_reload_over_the_raw_queue(public_app):
    """The real browser path: the page-load handler keeps a token this server issued (a reload keeps ownership)."""
    ctx = public_app.ctx
    token = ctx.tokens.issue()
    visitor = client(public_app)
    done = page_load(public_app.url, visitor.session_hash, token)
    assert done["success"] and set(tokens_of(done)) == {token}
