"""Nothing a visitor types runs unbounded in the app's interpreter: the regex reward (a time bound, the lock
released), formulas (floats, no huge integers) and answer checking (a child process with a time and memory bound).
A bystander's requests go on while one visitor scores a catastrophic pattern, nested powers or a tower of exponents,
on a real public app driven by gradio_client."""

import json
import threading
import time

import pytest
from gradio_client.exceptions import AppError

from playground.errors import RewardError
from rewards.registry import build_reward
from tests.ui.live_app import fresh_module_state
from tests.ui.test_client import client


CATASTROPHIC = r"(a|aa)+$"  # backtracks 2^n ways on "aaa…a!"; the `regex` package does not optimise it away
TOWER = r"\boxed{10^{10^{10}}}"  # sympy would compute a number of ten billion digits, holding the lock
NESTED = "(" * 12 + "9 + format" + ")**10" * 12  # 9**(10**12) as Python integers: digits without end


@pytest.fixture(scope="module")
def public_app(shared_public_app, tmp_path_factory):
    runs = str(tmp_path_factory.mktemp("runs"))
    with fresh_module_state(shared_public_app, runs, {"PLAYGROUND_PUBLIC": "1"}) as live:
        yield live


class Ticker:
    """A bystander thread that counts 20 ms naps: it stops counting while another thread holds the lock."""

    def __init__(self):
        self.count, self._stop = 0, threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        while not self._stop.wait(0.02):
            self.count += 1

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()


class TestRegexReward:
    def test_a_catastrophic_pattern_fails_with_a_bound_and_the_lock_released(self):
        reward = build_reward("regex", {"pattern": CATASTROPHIC, "mode": "search"})
        with Ticker() as ticker, pytest.raises(RewardError, match=r"took more than 1 s to match 1 completion"):
            reward(["a" * 40 + "!"])
        assert ticker.count >= 10  # the bystander thread ran during the match (it holds no lock)

    @pytest.mark.parametrize(
        "pattern, mode, texts, expected",
        [
            (r"\d+", "search", ["It is 42.", "forty-two"], [1.0, 0.0]),
            (r"(?i)yes|no", "fullmatch", ["YES", "yes no"], [1.0, 0.0]),
            (r"(a+)+$", "search", ["a" * 40 + "!", "aaa"], [0.0, 1.0]),
        ],
    )
    def test_ordinary_patterns_score_as_python_re(self, pattern, mode, texts, expected):
        assert build_reward("regex", {"pattern": pattern, "mode": mode})(texts) == expected


class TestFormulaReward:
    def test_nested_powers_fail_at_once(self):
        reward = build_reward("formula", {"expression": NESTED})
        with pytest.raises(RewardError, match="made a number too large for a reward"):
            reward(["x"])

    @pytest.mark.parametrize(
        "expression, expected",
        [
            ("1e300 * 1e300 * (format + 1)", [None]),  # past the float range: infinite, scored None
            ("min(format, 0.5) + 2 ** 3", [8.0]),
            ("format ** 10 if format > 0 else -1", [-1.0]),
        ],
    )
    def test_values_are_floats(self, expression, expected):
        assert build_reward("formula", {"expression": expression})(["x"]) == expected


@pytest.mark.integration  # public mode's answer-checker process
def test_answer_checking_is_bounded_in_public_mode(monkeypatch):
    monkeypatch.setenv("PLAYGROUND_PUBLIC", "1")
    reward = build_reward("correctness", {"mode": "math_verify"})
    assert reward([r"\boxed{\frac{1}{2}}", r"\boxed{3}"], answer=["0.5", "2"]) == [1.0, 0.0]
    with Ticker() as ticker:
        assert reward([TOWER, r"\boxed{2}"], answer=["2", "2"]) == [None, None]  # TRL skips None
    assert ticker.count >= 50  # the 5 s bound, during which the app's threads ran
    assert reward([r"\boxed{2}"], answer=["2"]) == [1.0]  # a fresh checker after the killed one


def _timed(fn):
    """Run `fn` in a thread; returns a dict that gets its result (or error) and the time it finished."""
    out: dict = {}

    def run():
        try:
            out["result"] = fn()
        except Exception as exc:
            out["error"] = exc
        out["done"] = time.monotonic()

    thread = threading.Thread(target=run)
    thread.start()
    out["thread"] = thread
    return out


@pytest.mark.parametrize(
    "selection, text, columns, outcome",
    [
        ([{"name": "regex", "params": {"pattern": CATASTROPHIC}}], "a" * 40 + "!\n---\nab", "", "took more than 1 s"),
        ([{"name": "correctness", "params": {"mode": "math_verify"}}], TOWER + "\n---\n2", '{"answer": "2"}', None),
    ],
    ids=["regex", "math_verify"],
)
def test_a_bystander_is_served_while_a_visitor_scores_a_catastrophic_input(
    public_app, selection, text, columns, outcome
):
    # The rewards score in the attacker's visitor worker (its start and the regex's 1 s budget, or math_verify's
    # parse): on a quiet machine the attack outlasts a bystander's round trip many times over.
    attacker, bystander = client(public_app), client(public_app)
    attacker.predict(json.dumps(selection), code="", api_name="/set_rewards")
    before = []  # the bystander's round trips just before the attack, on the same machine
    for _ in range(3):
        sent = time.monotonic()
        bystander.predict(api_name="/list_rewards")
        before.append(time.monotonic() - sent)
    attack = _timed(lambda: attacker.predict(text, "", columns, code="", api_name="/try_on_text"))
    time.sleep(0.2)  # the attack is under way
    sent = time.monotonic()
    served = [bystander.predict(api_name="/list_rewards")]
    served_at = time.monotonic()
    attack["thread"].join(120)
    assert not attack["thread"].is_alive()  # bounded
    assert all(any(r["name"] == "regex" for r in listed) for listed in served)
    # The bystander did not wait for the attack to end: it was served first, or (a loaded machine, where its own
    # round trip can outlast the attack) in at most three times its round trip before it. Held by the attack, it
    # waits the attack's whole second or more: over ten times its quiet round trip.
    during = served_at - sent
    assert served_at < attack["done"] or during <= 3 * sorted(before)[1], (during, before, attack["done"] - sent)
    if outcome is None:
        table = attack["result"][0]  # the tower fails its bounded check; the honest answer still scores
        column = table["headers"].index("correctness(mode=math_verify)")
        assert [row[column] for row in table["data"]] == [0.0, 1.0]
    else:
        assert isinstance(attack.get("error"), AppError) and outcome in str(attack["error"])


def test_nested_powers_on_the_page_fail_at_once(public_app):
    c = client(public_app)
    c.predict(json.dumps([{"name": "formula", "params": {"expression": NESTED}}]), code="", api_name="/set_rewards")
    with pytest.raises(AppError, match="made a number too large for a reward"):
        c.predict("abc\n---\nabcdef", "", "", code="", api_name="/try_on_text")
