"""Visitor workers belong to server-issued browser tokens, through the real public app (127.0.0.1, driven by
gradio_client and the raw queue API as a browser drives it): each visitor's page load gets a token; their Try on text
calls score in a worker of that token, reused by their later calls and never by another token's; a call without a
token gets a worker of its own that nobody keeps. The bounds on live workers (least recently used idle one first)
and on idle time hold on real workers."""

import json
import os
import time

import pytest
from gradio_client import Client

from playground.admission import Caps
from playground.isolation import visitor
from playground.isolation.visitor import MODEL, TEXT, VisitorWorkers
from tests.security.app_attacks import Bystander
from tests.support.queue_client import app_client, issue_token
from tests.ui.live_app import fresh_module_state


LENGTH = json.dumps([{"name": "length", "weight": 1.0, "params": {"ideal_length": 5}}])
GROUP = "abcde\n---\nabcdefghij"
LIVE_TEXT_WORKERS = 3  # the bound on live text workers, small so that a test can overflow it
POLITE = "Thank you for asking! Plants make food from light.\n---\nGo away."


@pytest.fixture(scope="module")
def public_app(shared_public_app, tmp_path_factory):
    env = {"PLAYGROUND_PUBLIC": "1", "PLAYGROUND_MAX_VISITOR_WORKERS": str(LIVE_TEXT_WORKERS)}
    with fresh_module_state(shared_public_app, str(tmp_path_factory.mktemp("runs")), env) as live:
        yield live


def visitor_with_token(app, stored: str | None = None) -> tuple[Client, str]:
    """A browser session whose page load got a token (sending `stored` as the token the browser kept): the client's
    session holds it, as a page's state does."""
    browser = app_client(app.url)
    return browser, issue_token(app.url, browser.session_hash, stored)


def try_length(browser: Client) -> list[float]:
    browser.predict(LENGTH, code="", api_name="/set_rewards")
    table, _ = browser.predict(GROUP, "", "", code="", api_name="/try_on_text")
    return [row[1] for row in table["data"]]


def kept_pid(app, token: str, kind: str = TEXT) -> int | None:
    return visitor.WORKERS.live().get((app.ctx.viewer(token), kind))


@pytest.mark.slow
def test_a_visitors_worker_serves_their_token_only_and_is_reused(public_app):
    alice, alice_token = visitor_with_token(public_app)
    bob, bob_token = visitor_with_token(public_app)
    assert alice_token != bob_token
    assert try_length(alice) == [0.0, -5.0]
    alice_pid = kept_pid(public_app, alice_token)
    assert alice_pid is not None and alice_pid != os.getpid()  # a worker process, not the app's
    assert try_length(bob) == [0.0, -5.0]
    bob_pid = kept_pid(public_app, bob_token)
    assert bob_pid is not None and bob_pid != alice_pid
    assert try_length(alice) == [0.0, -5.0]  # the same token: the same worker, not a new one per call
    assert kept_pid(public_app, alice_token) == alice_pid
    assert kept_pid(public_app, bob_token) == bob_pid
    # The visitors' own workers; a page load scores Try on text before its token is back, in the shared pool.
    kept = {key: pid for key, pid in visitor.WORKERS.live().items() if not key[0].startswith(visitor.ANONYMOUS)}
    # A client that sent no token (no page load): its call scores in the shared pool's worker, never one of its own
    # and never a visitor's; a second such client shares it.
    anonymous = app_client(public_app.url)
    assert try_length(anonymous) == [0.0, -5.0]
    pool = {key: pid for key, pid in visitor.WORKERS.live().items() if key not in kept}
    assert list(pool) == [(visitor.ANONYMOUS + "0", TEXT)] and set(pool.values()).isdisjoint(kept.values())
    assert try_length(app_client(public_app.url)) == [0.0, -5.0]
    assert visitor.WORKERS.live() == {**kept, **pool}
    # A token another browser sends (Bob's, stolen) is Bob's identity, not a way into Alice's worker; a made-up token
    # is no identity at all and keeps nothing.
    assert public_app.ctx.viewer("pg1.made-up.token") is None
    for token in (alice_token, bob_token):
        visitor.WORKERS.close(public_app.ctx.viewer(token))


@pytest.mark.slow
def test_a_judge_scores_in_the_visitors_model_worker_while_pages_are_served(public_app):
    """The judge's model loads and runs in a model worker of the visitor's token, never in the app's process, and a
    bystander's page loads are answered meanwhile (their times: bench/workshop.py's judge figures)."""
    browser, token = visitor_with_token(public_app)
    browser.predict(json.dumps([{"name": "judge", "weight": 1.0, "params": {}}]), code="", api_name="/set_rewards")
    try:
        with Bystander(public_app.url) as bystander, bystander.watching() as window:
            table, _ = browser.predict(POLITE, "", "", code="", api_name="/try_on_text")
        values = [row[1] for row in table["data"]]
        assert len(values) == 2 and all(0.0 < v < 1.0 for v in values), values
        assert window.count >= 1  # the page was served while the judge ran
        pid = kept_pid(public_app, token, MODEL)
        assert pid is not None and pid != os.getpid()
        assert resident_mb(pid) > 300  # torch and the judge's model live in the worker
        assert kept_pid(public_app, token, TEXT) is None  # the judge alone needs no text worker
    finally:
        visitor.WORKERS.close(public_app.ctx.viewer(token))


def resident_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS")) / 1024


@pytest.mark.slow
def test_a_forged_token_and_a_flood_of_tokens_never_reach_another_visitors_worker(public_app):
    """An attacker's page loads send, as the token their browser kept, the victim's owner key (what a run folder
    stores) and the victim's token with its signature altered: each gets a fresh token of its own, and scores in its
    own worker. The attacker then opens more tokens than the app keeps workers, which stops the victim's idle one;
    the victim's next call gets a fresh worker, never one an attacker's token used, and scores right."""
    victim, victim_token = visitor_with_token(public_app)
    owner = public_app.ctx.viewer(victim_token)
    assert try_length(victim) == [0.0, -5.0]
    victim_pid = kept_pid(public_app, victim_token)
    nonce = victim_token.split(".")[1]
    forged = [owner, f"pg1.{nonce}.{'A' * 43}", victim_token.replace("pg1.", "pg2.")]
    attacker_pids = set()
    try:
        for stored in forged:
            attacker, token = visitor_with_token(public_app, stored)
            assert token != victim_token and public_app.ctx.viewer(token) != owner
            assert try_length(attacker) == [0.0, -5.0]
            attacker_pids.add(kept_pid(public_app, token))
        assert victim_pid not in attacker_pids and None not in attacker_pids
        for _ in range(LIVE_TEXT_WORKERS):  # more tokens than the app keeps workers: the oldest idle one stops
            attacker, token = visitor_with_token(public_app)
            try_length(attacker)
            attacker_pids.add(kept_pid(public_app, token))
        assert len(visitor.WORKERS.live()) <= LIVE_TEXT_WORKERS
        assert (owner, TEXT) not in visitor.WORKERS.live()
        assert try_length(victim) == [0.0, -5.0]
        again = kept_pid(public_app, victim_token)
        assert again is not None and again not in attacker_pids | {victim_pid}
    finally:
        visitor.WORKERS.close()


def wait_for(condition, seconds: float = 60.0) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


@pytest.mark.integration  # visitor worker processes
def test_live_workers_are_bounded_and_idle_ones_stop(monkeypatch):
    monkeypatch.setenv("PLAYGROUND_PUBLIC", "1")
    workers = VisitorWorkers(Caps(max_visitor_workers=2, worker_idle_seconds=3600.0))
    started = {}
    for owner in ("alice", "bob"):
        worker = workers.get(owner)
        worker.reward("length", {}, "length")  # starts the worker
        started[owner] = worker
    assert set(workers.live()) == {("alice", TEXT), ("bob", TEXT)}
    workers.get("bob")  # Bob's call: Alice's worker is now the least recently used
    carol = workers.get("carol")
    carol.reward("length", {}, "length")
    assert set(workers.live()) == {("bob", TEXT), ("carol", TEXT)}
    assert started["alice"].pid is None  # stopped, not handed to Carol
    assert carol.pid not in (None, started["bob"].pid)
    again = workers.get("alice")  # Alice comes back: a fresh worker of her own
    assert again is not started["alice"] and set(workers.live()) == {("carol", TEXT), ("alice", TEXT)}
    idle = VisitorWorkers(Caps(worker_idle_seconds=0.5))
    dozing = idle.get("dave")
    dozing.reward("length", {}, "length")
    assert dozing.pid is not None
    assert wait_for(lambda: dozing.pid is None and not idle.live())  # the reaper stopped it
    for owner in ("bob", "carol", "alice"):
        workers.close(owner)
