"""Try on text's slots are shared fairly: on a real public app (127.0.0.1, driven by gradio_client), four sessions
queue six `code_tests` calls each, with programs that cancel their alarm and sleep; a bystander's Try on text (no
code) then passes their queued calls: it ends before most of them, where a first-come queue would put it last."""

import json
import threading
import time

import pytest

from tests.ui.live_app import running_app
from tests.ui.test_client import client


SESSIONS, CALLS = 4, 6
SLOTS = 8  # Try on text's pool (playground/ui/fair.py)
SLEEPER = "```python\nimport signal, time\nsignal.setitimer(signal.ITIMER_REAL, 0)\ntime.sleep(30)\n```"
TESTS = {"tests": json.dumps(["assert True"])}


@pytest.fixture(scope="module")
def public_app(tiny_model_dir, tmp_path_factory):
    runs = str(tmp_path_factory.mktemp("runs"))
    with running_app(str(tiny_model_dir), runs, env={"PLAYGROUND_PUBLIC": "1"}) as live:
        yield live


def test_a_bystander_passes_another_visitors_queued_calls(public_app):
    ended: list[tuple[float, str]] = []
    lock = threading.Lock()
    attackers = [client(public_app) for _ in range(SESSIONS)]
    for attacker in attackers:
        attacker.predict(json.dumps([{"name": "code_tests", "params": {}}]), code="", api_name="/set_rewards")
    bystander = client(public_app)
    bystander.predict(json.dumps([{"name": "length", "params": {}}]), code="", api_name="/set_rewards")

    def call(c, text, columns, who):
        try:
            c.predict(text, "", columns, code="", api_name="/try_on_text")
        except Exception:  # a refusal (too many waiting) ends the call too
            pass
        with lock:
            ended.append((time.monotonic(), who))

    threads = [
        threading.Thread(target=call, args=(a, f"{SLEEPER}\n---\n{SLEEPER}", json.dumps(TESTS), "attack"), daemon=True)
        for a in attackers
        for _ in range(CALLS)
    ]
    for thread in threads:
        thread.start()
    time.sleep(3.0)  # every attacking call is running or queued
    call(bystander, "short\n---\na longer answer", "", "bystander")
    for thread in threads:
        thread.join(300)
    assert not any(thread.is_alive() for thread in threads)
    order = [who for _, who in sorted(ended)]
    before = order.index("bystander")
    # At most the calls that held the slots when it arrived (and those started while its worker started) end first.
    assert before <= SLOTS + SESSIONS, f"{before} of {SESSIONS * CALLS} attacking calls ended before the bystander's"
