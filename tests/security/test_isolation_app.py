"""Visitor-sized reward work leaves the public app's process: on a real public app (127.0.0.1, driven by
gradio_client), a visitor scores inputs that held the app's interpreter for tens of seconds (a fuzzy ratio or a
ROUGE-L table against a huge reference, a tower of powers through math_verify), while a bystander in another process
loads the page's /config. Each of the bystander's page loads meanwhile stays within `page_load_bound` of its page
loads just before the attack (a multiple, so a machine loaded by other work slows both alike), the attack's call ends
within the visitor worker's budget (its start plus its per-call deadline), with or without a score, and the app's
process spends neither the CPU nor the memory of the attack."""

import json
import resource
import threading
import time
from dataclasses import replace

import pytest

from playground.isolation import visitor as visitor_workers
from tests.security.app_attacks import Bystander, page_load_bound
from tests.security.test_isolation_tokens import visitor_with_token
from tests.ui.live_app import fresh_module_state
from tests.ui.test_client import client


# A visitor worker's deadline per call here: the app's is 10 s (`VISITOR_LIMITS`); each attack below computes until its
# worker is killed, so the deadline is each attack's CPU. What these tests show does not depend on its length: without
# the worker, an attack holds the app for its whole computation (tens of seconds and more), far past a page load's
# bound, however soon a worker would have been stopped.
DEADLINE = 4.0
# The visitor worker's budget for one request: starting (importing the library on a loaded machine, 60 s at most)
# plus one call's deadline; the bound asserted is this plus the round trip.
BUDGET = 60.0 + DEADLINE + 10.0
TOWER = r"\boxed{10^{10^{10^{10}}}}"  # sympy would compute 10^(10^10) digits and more, holding the lock
# The bystander loads the page (700 KB of JSON, served by the app's process) once a second for as long as the attack
# runs: often enough to meet a hold of seconds, rarely enough that serving it stays a small share of the app's CPU.
PAGE_INTERVAL = 1.0


@pytest.fixture(scope="module")
def public_app(shared_public_app, tmp_path_factory):
    runs = str(tmp_path_factory.mktemp("runs"))
    # The admission gate would refuse these inputs before any work starts; its caps are raised here so that what
    # holds is the process boundary itself (a cap an operator raises too far must not freeze the app).
    raised = {
        "PLAYGROUND_MAX_COLUMN_CHARS": "10000000",
        "PLAYGROUND_MAX_PAIR_CHARS": "1000000000000",
        "PLAYGROUND_MAX_FIELD_CHARS": "100000000",
        "PLAYGROUND_MAX_REQUEST_CHARS": "100000000",
    }
    with (
        pytest.MonkeyPatch.context() as patch,
        fresh_module_state(shared_public_app, runs, {"PLAYGROUND_PUBLIC": "1", **raised}) as live,
    ):
        patch.setattr(visitor_workers, "VISITOR_LIMITS", replace(visitor_workers.VISITOR_LIMITS, timeout=DEADLINE))
        yield live


class AppUsage:
    """The app's process (this test's process) while a block runs: CPU seconds used, and the most its resident memory
    grew, sampled every 50 ms."""

    def __init__(self):
        self.cpu = self.grew_mb = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    @staticmethod
    def rss_mb() -> float:
        with open("/proc/self/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmRSS")) / 1024

    def _sample(self):
        start = self.rss_mb()
        while not self._stop.wait(0.05):
            self.grew_mb = max(self.grew_mb, self.rss_mb() - start)

    def __enter__(self):
        self._cpu = resource.getrusage(resource.RUSAGE_SELF)
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()
        end = resource.getrusage(resource.RUSAGE_SELF)
        self.cpu = end.ru_utime + end.ru_stime - self._cpu.ru_utime - self._cpu.ru_stime


@pytest.fixture(scope="module")
def bystander(public_app):
    with Bystander(public_app.url, PAGE_INTERVAL) as bystander:
        yield bystander


def attack(app, bystander: Bystander, selection: list[dict], text: str, columns: dict) -> dict:
    """Score `text` on Try on text as one visitor while another process (`bystander`) loads /config from just before
    the call until it ends; the page loads' seconds and their bound (from its page loads just before), how long the
    attack took, its result or error, and what the app's process used meanwhile."""
    attacker = client(app)
    attacker.predict(json.dumps(selection), code="", api_name="/set_rewards")
    out: dict = {"bound": page_load_bound(bystander.quiet_worst())}

    def run():
        start = time.monotonic()
        try:
            out["result"] = attacker.predict(text, "", json.dumps(columns), code="", api_name="/try_on_text")
        except Exception as exc:  # a refusal or a failed score: the call ended
            out["error"] = exc
        out["seconds"] = time.monotonic() - start

    with AppUsage() as usage, bystander.watching() as window:
        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        thread.join(BUDGET)
    out["times"], out["slowest"] = window.times, window.worst
    out["ended"] = not thread.is_alive()
    out["usage"] = usage
    return out


SIMILARITY = [
    # rapidfuzz holds the interpreter lock for each pair: seconds per completion against a 4 MB reference
    pytest.param("fuzzy", ["xy" * 9_500] * 2, "yx" * 2_000_000, id="fuzzy_2x19000_vs_4MB"),
    # ROUGE-L's table: 3,000 x 20,000 cells of Python integers, hundreds of MB and tens of seconds of CPU
    pytest.param(
        "rouge_l",
        [" ".join(f"w{i % 97}" for i in range(3_000))],
        " ".join(f"w{i % 89}" for i in range(20_000)),
        id="rouge_l_3000_vs_20000_tokens",
    ),
]
APP_CPU_SECONDS = 5.0  # the app's own share of a request: receiving the reference and handing it to the worker
APP_GROWTH_MB = 300


@pytest.mark.parametrize("metric, completions, reference", SIMILARITY)
def test_similarity_on_a_huge_reference_holds_only_its_worker(public_app, bystander, metric, completions, reference):
    selection = [{"name": "similarity", "params": {"metric": metric}}]
    text = "\n---\n".join([*completions, "short"])
    out = attack(public_app, bystander, selection, text, {"reference": reference})
    assert out["times"] and out["slowest"] < out["bound"], f"a bystander's GET /config took {out['times']} s"
    assert out["ended"] and out["seconds"] < BUDGET
    assert out["usage"].cpu < APP_CPU_SECONDS, f"the app's process used {out['usage'].cpu:.1f} s of CPU"
    assert out["usage"].grew_mb < APP_GROWTH_MB, f"the app's process grew by {out['usage'].grew_mb:.0f} MB"


@pytest.mark.parametrize("reward", ["reasoning_accuracy", "cosine_scaled", "len_reward"])
def test_a_tower_of_powers_through_math_verify_holds_only_its_worker(public_app, bystander, reward):
    selection = [{"name": reward, "params": {}}]
    text = f"<think>powers</think> The answer is ${TOWER}$.\n---\n<think>adding</think> The answer is $\\boxed{{2}}$."
    out = attack(public_app, bystander, selection, text, {"solution": "$2$"})
    assert out["times"] and out["slowest"] < out["bound"], f"a bystander's GET /config took {out['times']} s"
    assert out["ended"] and out["seconds"] < BUDGET


def test_an_honest_answer_check_does_not_wait_behind_another_visitors(public_app):
    """Answer checking is not one shared process: another visitor's check ends while the attacker's still runs.

    Both visitors loaded the page (each has a token, so each keeps a worker of its own) and each has scored once, so
    their workers are up: the honest check is sent once the attack is in its worker, and what is compared is the two
    calls, not how long a worker takes to start on this machine."""
    from playground.isolation.visitor import TEXT, WORKERS

    selection = [{"name": "correctness", "params": {"mode": "math_verify"}}]
    answers = ("The answer is 2.\n---\nThe answer is 3.", "", '{"answer": "2"}')
    (attacker, attacker_token), (honest, _) = visitor_with_token(public_app), visitor_with_token(public_app)
    for visitor in (attacker, honest):
        visitor.predict(json.dumps(selection), code="", api_name="/set_rewards")
        table, _ = visitor.predict(*answers, code="", api_name="/try_on_text")
        assert [row[1] for row in table["data"]] == [1.0, 0.0]
    attacker_worker = WORKERS._workers[(public_app.ctx.viewer(attacker_token), TEXT)]
    ended: dict = {}

    def attack_call():
        try:
            attacker.predict(f"{TOWER}\n---\n{TOWER} {TOWER}", "", '{"answer": "2"}', code="", api_name="/try_on_text")
        except Exception:
            pass
        ended["attack"] = time.monotonic()

    thread = threading.Thread(target=attack_call, daemon=True)
    thread.start()
    deadline = time.monotonic() + BUDGET
    while not attacker_worker.busy:  # the attack is in its worker
        assert "attack" not in ended and time.monotonic() < deadline, "the attack never reached its worker"
        time.sleep(0.02)
    table, _ = honest.predict(*answers, code="", api_name="/try_on_text")
    ended["honest"] = time.monotonic()
    thread.join(BUDGET)
    assert [row[1] for row in table["data"]] == [1.0, 0.0]
    assert "attack" in ended and ended["honest"] < ended["attack"]
