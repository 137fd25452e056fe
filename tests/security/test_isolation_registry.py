"""Every registered reward, generated from the registry: in public mode `build_rewards` gives it a visitor worker
(all but `code_tests`, whose programs run in fresh confined children): a text worker, or a model worker for the
rewards that load a model. There it scores its good and bad examples exactly as it does in-process, under its metric
name. A reward added later is covered without a new test."""

import json
import re

import pytest

from playground.errors import RewardError
from playground.isolation.visitor import IN_APP, MODEL, MODEL_REWARDS, TEXT, VisitorReward, reward_executor
from playground.scoring import RewardChoice, build_rewards, call_reward
from rewards import REGISTRY
from rewards.registry import build_reward, metric_name


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
