"""An attack generated from the reward registry: every registered reward is scored in public mode through the entry
point the page uses (Try on text, on the test process's shared public-mode app on 127.0.0.1), with the largest
inputs the admission gate allows, in two shapes: the most completion text with the reward's own columns, and the
longest column values with as much completion text as the gate then allows (a reward with no text column to lengthen
gets the same inputs in both shapes, and is attacked once). A reward added later is attacked without a new test.

Each call must end within `CALL_BUDGET` seconds (scored, or refused by the gate), and a bystander loading the page
(GET /config, from a process of its own) meanwhile must be answered within `page_load_bound` of its page loads just
before the attack (tests/security/app_attacks.py): every reward scores in a visitor worker (a model worker for the
judge and the reward model), so none may hold the app's interpreter.
"""

import json
import time

import pytest
from gradio_client import Client
from gradio_client.exceptions import AppError

from playground.admission import Caps
from rewards.registry import list_specs, required_columns
from tests.security.app_attacks import Bystander, page_load_bound
from tests.support.queue_client import app_client
from tests.ui.live_app import fresh_module_state


CALL_BUDGET = 90.0  # seconds one Try on text call may take, scored or refused, on a loaded 2-core machine
# The bystander loads the page (the whole route table, served by the app's process) once a second during each attack:
# a hold shorter than `page_load_bound` (10 s at least) passes whatever the interval, and one longer meets a page load
# started in its first seconds.
PAGE_INTERVAL = 1.0
SHAPES = ("completions", "columns")
SPECS = list_specs()


@pytest.fixture(scope="module")
def public_app(shared_public_app, tmp_path_factory):
    """The shared public-mode app (tests/conftest.py) as the module finds it fresh; its URL."""
    with fresh_module_state(shared_public_app, str(tmp_path_factory.mktemp("runs"))) as live:
        yield live.url


@pytest.fixture(scope="module")
def visitor(public_app):
    """The attacker: one client for every reward, which selects each in turn (its calls carry no browser token: they
    score in the shared pool's workers, as every such client's do)."""
    return app_client(public_app)


@pytest.fixture(scope="module")
def bystander(public_app):
    with Bystander(public_app, PAGE_INTERVAL) as bystander:
        yield bystander


def attack_params(spec) -> dict:
    """The reward's parameters: its defaults, with the embedded model (which the gate admits) where a parameter names
    a model and has none, so that a reward model loads and scores rather than asking for one."""
    return {p.name: "embedded" for p in spec.params if p.loads_model and not spec.defaults()[p.name]}


def _fill(text: str, size: int) -> str:
    text = text or "42"
    return (text * (size // len(text) + 1))[:size]


def largest_inputs(spec, shape: str, caps: Caps, shrink: int = 1) -> tuple[str, dict]:
    """Try on text's completions box (64 blocks) and columns box at the gate's largest for `shape`, the completions
    cut by `shrink` (where a reward's own cap, the judge's tokens, allows less)."""
    example = spec.good or spec.bad
    completion = example.completion if example else "The answer is 42."
    columns = {k: v for k, v in (example.kwargs if example else {}).items()}
    for name in required_columns(spec.name, {}):
        columns.setdefault(name, "42")
    if shape == "columns":
        columns = {k: _fill(v, caps.max_column_chars) if isinstance(v, str) else v for k, v in columns.items()}
    longest = max((len(v if isinstance(v, str) else json.dumps(v)) for v in columns.values()), default=1)
    n, separator = caps.max_completions, "\n---\n"
    group = min(caps.max_group_chars, caps.max_pair_chars // max(longest, 1), caps.max_field_chars - 2 * n * 6)
    each = max(1, group // n // shrink)
    return separator.join(_fill(completion.replace("---", "- -"), each).strip() or "x" for _ in range(n)), columns


def score_largest(visitor: Client, spec, shape: str, caps: Caps) -> tuple[str, float]:
    """Try on text at the largest inputs the gate accepts for this reward: halved while the gate refuses them."""
    for shrink in (1, 2, 4, 8, 16, 32, 64):
        text, columns = largest_inputs(spec, shape, caps, shrink)
        started = time.monotonic()
        try:
            visitor.predict(text, "", json.dumps(columns), api_name="/try_on_text")
            return f"scored at {len(text):,} characters", time.monotonic() - started
        except AppError as exc:
            outcome = f"refused: {str(exc)[:160]}"
            if "PLAYGROUND_MAX_" not in outcome:
                return outcome, time.monotonic() - started
    raise AssertionError(f"the gate refused even 1/64 of its largest inputs: {outcome}")


def attacks() -> list[tuple]:
    """(spec, shape) of each distinct attack: every reward in the first shape, and in each other shape whose inputs
    differ from those of the shapes before it."""
    caps, found = Caps(), []
    for spec in SPECS:
        seen = []
        for shape in SHAPES:
            inputs = largest_inputs(spec, shape, caps)
            if inputs not in seen:
                seen.append(inputs)
                found.append((spec, shape))
    return found


ATTACKS = attacks()


def test_the_registry_is_attacked_whole():
    names = [spec.name for spec in SPECS]
    shaped = {shape: [spec.name for spec, s in ATTACKS if s == shape] for shape in SHAPES}
    print(
        f"\nreward registry: {len(names)} rewards: {', '.join(names)}; in the columns shape too: {shaped['columns']}"
    )
    assert len(names) == len(set(names)) >= 20
    assert shaped["completions"] == names  # every reward, once at least
    # the columns shape attacks each reward with a text column to lengthen, the reference-comparing ones among them
    texts = [
        s.name for s in SPECS if any(isinstance(v, str) for v in largest_inputs(s, "completions", Caps())[1].values())
    ]
    assert shaped["columns"] == texts
    assert {"correctness", "accuracy", "similarity", "string_check"} <= set(texts)


@pytest.mark.slow
@pytest.mark.parametrize(("spec", "shape"), ATTACKS, ids=[f"{spec.name}-{shape}" for spec, shape in ATTACKS])
def test_every_reward_at_the_largest_allowed_inputs(visitor, bystander, spec, shape):
    caps = Caps()
    params = attack_params(spec)
    visitor.predict(json.dumps([{"name": spec.name, "weight": 1.0, "params": params}]), api_name="/set_rewards")
    quiet = bystander.quiet_worst()
    bound = page_load_bound(quiet)
    with bystander.watching() as window:
        outcome, seconds = score_largest(visitor, spec, shape, caps)
    print(
        f"\n{spec.name} [{shape}]: {outcome}; {seconds:.1f} s; slowest page load meanwhile {window.worst:.2f} s "
        f"(before: {quiet:.2f} s)"
    )
    assert seconds < CALL_BUDGET, f"{spec.name} took {seconds:.1f} s"
    assert window.count >= 1
    assert window.worst < bound, f"{spec.name}: a page load waited {window.worst:.2f} s (before: {quiet:.2f} s)"
