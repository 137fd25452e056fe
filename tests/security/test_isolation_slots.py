"""Try on text's slots are shared fairly: on a real public app (127.0.0.1, driven by gradio_client), four sessions
queue six `code_tests` calls each, with programs that cancel their alarm and sleep; a bystander's Try on text (no
code) then passes their queued calls: it takes the first slot that frees, where a first-come queue would put it last.
The test reads the order in which the pool hands out its slots, not the order the calls end: how long the bystander's
worker takes to start depends on the machine's load, and meanwhile the calls already running may end."""

import json
import threading
import time

import pytest

from playground.ui.fair import TRY_SLOTS
from tests.ui.live_app import fresh_module_state
from tests.ui.test_client import client


SESSIONS, CALLS = 4, 6
SLOTS = 8  # Try on text's pool (playground/ui/fair.py)
SLEEPER = "```python\nimport signal, time\nsignal.setitimer(signal.ITIMER_REAL, 0)\ntime.sleep(30)\n```"
TESTS = {"tests": json.dumps(["assert True"])}


@pytest.fixture(scope="module")
def public_app(shared_public_app, tmp_path_factory):
    runs = str(tmp_path_factory.mktemp("runs"))
    with fresh_module_state(shared_public_app, runs, {"PLAYGROUND_PUBLIC": "1"}) as live:
        yield live


def wait_for(predicate, timeout: float = 300.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_a_bystander_passes_another_visitors_queued_calls(public_app, monkeypatch):
    taken: list[tuple[str, str]] = []  # the visitor of each call, in the order the pool gave it a slot
    take = TRY_SLOTS._take
    monkeypatch.setattr(TRY_SLOTS, "_take", lambda visitor: (taken.append(visitor), take(visitor))[1])
    attackers = [client(public_app) for _ in range(SESSIONS)]
    for attacker in attackers:
        attacker.predict(json.dumps([{"name": "code_tests", "params": {}}]), code="", api_name="/set_rewards")
    bystander = client(public_app)
    bystander.predict(json.dumps([{"name": "length", "params": {}}]), code="", api_name="/set_rewards")

    def call(c, text, columns):
        try:
            c.predict(text, "", columns, code="", api_name="/try_on_text")
        except Exception:  # a refusal (too many waiting) ends the call too
            pass

    threads = [
        threading.Thread(target=call, args=(a, f"{SLEEPER}\n---\n{SLEEPER}", json.dumps(TESTS)), daemon=True)
        for a in attackers
        for _ in range(CALLS)
    ]
    taken.clear()
    for thread in threads:
        thread.start()
    # Every attacking call is running or queued.
    wait_for(lambda: TRY_SLOTS._busy == SLOTS and len(TRY_SLOTS._waiting) == SESSIONS * CALLS - SLOTS)
    call(bystander, "short\n---\na longer answer", "")
    for thread in threads:
        thread.join(300)
    assert not any(thread.is_alive() for thread in threads)
    sessions = [session for _, session in taken]
    assert len(sessions) == SESSIONS * CALLS + 1
    # Before it: the calls that held the slots when it was sent, and those given a slot that freed while its request
    # reached the pool (a call holds its slot for seconds: a few at most). A first-come pool would put it last.
    before = sessions.index(bystander.session_hash)
    assert before <= SLOTS + SESSIONS, f"{before} of {SESSIONS * CALLS} attacking calls went first"
