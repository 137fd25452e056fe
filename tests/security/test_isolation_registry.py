"""Every registered reward, generated from the registry: in public mode `build_rewards` gives it a visitor worker
(all but `code_tests`, whose programs run in fresh confined children): a text worker, or a model worker for the
rewards that load a model. There it scores its good and bad examples exactly as it does in-process, under its metric
name. A reward added later is covered without a new test.

Each reward is also charged at the largest inputs the admission gate allows (the most completion text, the longest
column values, its parameters at `max_param_chars`), scored in one visitor's text worker as the app scores it: each
call ends within the worker's deadline and under its memory cap (scored, or the reward's own error), and the worker
that served it is the one still running (none was killed)."""

import json
import re
import time
from dataclasses import replace

import pytest

from playground import admission
from playground.admission import Caps
from playground.errors import PlaygroundError, RewardError
from playground.isolation.visitor import (
    IN_APP,
    MODEL,
    MODEL_REWARDS,
    TEXT,
    WORKERS,
    VisitorReward,
    limits_of,
    reward_executor,
)
from playground.sandbox.client import SandboxError
from playground.scoring import RewardChoice, build_rewards, call_reward
from rewards import REGISTRY
from rewards.registry import build_reward, metric_name
from tests.security.test_app_registry import largest_inputs


IN_WORKER = sorted(set(REGISTRY) - IN_APP)


@pytest.fixture(scope="module")
def public():
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PLAYGROUND_PUBLIC", "1")
        patch.delenv("SPACE_ID", raising=False)
        yield


def test_the_registry_is_covered():
    print(f"{len(IN_WORKER)} of {len(REGISTRY)} registered rewards score in a visitor worker")
    assert len(IN_WORKER) >= 20 and IN_APP <= set(REGISTRY) and MODEL_REWARDS <= set(IN_WORKER)


def test_each_reward_scores_in_its_worker_as_in_process(public):
    funcs, _ = build_rewards(
        [RewardChoice(name) for name in IN_WORKER], executor=reward_executor()
    )  # one worker of each kind for this call
    assert all(isinstance(f, VisitorReward) for f in funcs)
    kinds = {name: f.worker.kind for name, f in zip(IN_WORKER, funcs, strict=True)}
    assert kinds == {name: MODEL if name in MODEL_REWARDS else TEXT for name in IN_WORKER}
    assert len({id(f.worker) for f in funcs}) == 2
    try:
        for name, func in zip(IN_WORKER, funcs, strict=True):
            spec = REGISTRY[name]
            assert func.__name__ == metric_name(name, {})
            for example in (spec.good, spec.bad):
                if example is None:
                    continue
                kwargs = example.batch_kwargs()
                try:
                    expected = call_reward(build_reward(name, {}), [example.completion], prompts=[""], **kwargs)
                except RewardError as exc:  # its defaults cannot score (reward_model names no model): the same error
                    with pytest.raises(RewardError, match=re.escape(str(exc))):
                        call_reward(func, [example.completion], prompts=[""], **kwargs)
                    continue
                assert call_reward(func, [example.completion], prompts=[""], **kwargs) == expected, name
    finally:
        for worker in {id(f.worker): f.worker for f in funcs}.values():
            worker.close()


def test_a_worker_serves_one_owner(public):
    """Without an owner each build gets its own worker; with one, that owner's worker, never another owner's."""
    first, _ = build_rewards([RewardChoice("length")], executor=reward_executor())
    second, _ = build_rewards([RewardChoice("length")], executor=reward_executor())
    alice, _ = build_rewards([RewardChoice("length")], executor=reward_executor("alice"))
    alice_again, _ = build_rewards([RewardChoice("format")], executor=reward_executor("alice"))
    bob, _ = build_rewards([RewardChoice("length")], executor=reward_executor("bob"))
    pids = [f[0].worker.sandbox.pid for f in (first, second, alice, alice_again, bob)]
    assert None not in pids  # each built its reward in its worker, so each worker has started
    assert len({pids[0], pids[1], pids[2], pids[4]}) == 4 and pids[2] == pids[3]
    for funcs in (first, second, alice, bob):
        funcs[0].worker.close()


def test_a_formula_with_a_model_term_scores_in_a_model_worker():
    """A composite reward whose terms (or, without terms, whose variables) name a reward that loads a model needs the
    model worker's memory; any other formula scores in a text worker."""
    from playground.isolation.visitor import worker_kind

    judged = json.dumps({"j": {"name": "judge", "params": {}}})
    nested = json.dumps({"f": {"name": "formula", "params": {"expression": "j", "terms": judged}}})
    assert worker_kind("formula", {"expression": "j + 1", "terms": judged}) == MODEL
    assert worker_kind("formula", {"expression": "f", "terms": nested}) == MODEL
    assert worker_kind("formula", {"expression": "reward_model * 2"}) == MODEL
    assert worker_kind("formula", {"expression": "length if format == 1 else -100"}) == TEXT
    assert worker_kind("formula", {"expression": "x", "terms": "{not json"}) == TEXT
    assert worker_kind("judge") == MODEL and worker_kind("length") == TEXT


# --- every reward at the largest inputs the gate allows, in one visitor's text worker --------------------------------

TEXT_REWARDS = sorted(set(IN_WORKER) - MODEL_REWARDS)  # the model rewards: tests/security/test_app_registry.py
ATTACKER = "registry-attacker"  # one browser token: every reward scores in its one text worker, one after another


def largest_params(spec, caps: Caps) -> dict:
    """The reward's parameters with each free-text one at its cap: lists of words, a formula's expression, a regex
    pattern (its own, smaller cap); the rest at their defaults."""
    params = {}
    for p in spec.params:
        if p.type is list:
            params[p.name] = [f"w{i:04d}" for i in range(caps.max_param_chars // 9)]
        elif spec.name == "formula" and p.name == "expression":
            params[p.name] = " + ".join(["length"] * (caps.max_param_chars // 9))
        elif spec.name == "regex" and p.name == "pattern":
            params[p.name] = r"\d+" * (caps.max_pattern_chars // 3)
    return params


def admitted(name: str, params: dict, caps: Caps) -> dict:
    """`params`, each list or text shortened (halved) while the gate or the reward's own check (a formula's length)
    refuses it, as a visitor would resend it."""
    for _ in range(12):
        try:
            admission.check_reward_params(name, params, (), caps)
            build_reward(name, params)
            return params
        except PlaygroundError:
            params = {k: _halve(v) if isinstance(v, list | str) else v for k, v in params.items()}
    raise AssertionError(f"{name}: the gate refused even its shortest parameters")


def _halve(value: list | str) -> list | str:
    if isinstance(value, str) and " + " in value:  # a formula's expression: whole terms
        terms = value.split(" + ")
        return " + ".join(terms[: max(1, len(terms) // 2)])
    if isinstance(value, str):  # a regex pattern: whole `\\d+` units
        return value[: max(3, len(value) // 6 * 3)]
    return value[: max(1, len(value) // 2)]


def largest_group(spec, shape: str, caps: Caps) -> tuple[list[str], dict]:
    """Completions and columns at the gate's largest for `shape` (no text box here: only the group's caps bound
    them), halved while the gate refuses them."""
    unboxed = replace(caps, max_field_chars=10**9)
    for shrink in (1, 2, 4, 8, 16, 32, 64):
        text, columns = largest_inputs(spec, "columns" if shape == "columns" else "completions", unboxed, shrink)
        completions = text.split("\n---\n")
        try:
            admission.check_group(completions, columns, [""], caps)
            return completions, columns
        except PlaygroundError:
            continue
    raise AssertionError(f"{spec.name}: the gate refused even 1/64 of its largest group")


@pytest.fixture(scope="module")
def attacker(public):
    yield ATTACKER
    WORKERS.close(ATTACKER)


@pytest.mark.integration
@pytest.mark.slow
@pytest.mark.parametrize("name", TEXT_REWARDS)
def test_each_reward_at_the_largest_allowed_inputs_fits_its_worker(attacker, name):
    caps, spec = Caps(), REGISTRY[name]
    limits = limits_of(TEXT)
    for shape in ("completions", "columns", "params"):
        params = admitted(name, largest_params(spec, caps), caps) if shape == "params" else {}
        completions, columns = largest_group(spec, shape, caps)
        try:
            funcs, _ = build_rewards([RewardChoice(name, params=params)], executor=reward_executor(attacker))
        except RewardError as exc:
            assert not isinstance(exc, SandboxError), (
                f"{name} [{shape}]: {exc}"
            )  # a parameter the reward itself refuses (a formula of 200 terms): said, not run
            outcome, seconds = f"not built: {str(exc)[:120]}", 0.0
        else:
            worker = funcs[0].worker
            pid = worker.pid
            kwargs = {k: [v] * len(completions) for k, v in columns.items()}
            started = time.monotonic()
            try:
                values = call_reward(funcs[0], completions, prompts=[""] * len(completions), **kwargs)
                outcome = f"scored {len(values)}"
            except SandboxError as exc:  # killed, out of memory or past the deadline: the worker's, not the reward's
                pytest.fail(f"{name} [{shape}]: {exc}")
            except RewardError as exc:
                outcome = f"refused by the reward: {str(exc)[:120]}"
                assert "MemoryError" not in str(exc), str(exc)
            seconds = time.monotonic() - started
            assert worker.pid == pid, f"{name} [{shape}]: its worker was replaced"
            assert seconds < limits.timeout + limits.load_timeout, seconds
        print(
            f"\n{name} [{shape}]: {len(completions)} x {max(map(len, completions)):,} chars, params "
            f"{sum(len(json.dumps(v)) for v in params.values()):,} chars: {outcome}; {seconds:.1f} s"
        )
