"""Every registered reward, generated from the registry: in public mode `build_rewards` gives it a visitor worker
(all but the ones that load a model and `code_tests`), where it scores its good and bad examples exactly as it does
in-process, under its metric name. A reward added later is covered without a new test."""

import pytest

from playground.isolation.visitor import IN_APP, VisitorReward
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
    assert len(IN_WORKER) >= 20 and IN_APP <= set(REGISTRY)


def test_each_reward_scores_in_its_worker_as_in_process(public):
    funcs, _ = build_rewards([RewardChoice(name) for name in IN_WORKER])  # one worker for this call's rewards
    assert all(isinstance(f, VisitorReward) for f in funcs)
    assert len({id(f.worker) for f in funcs}) == 1
    for name, func in zip(IN_WORKER, funcs, strict=True):
        spec = REGISTRY[name]
        assert func.__name__ == metric_name(name, {})
        for example in (spec.good, spec.bad):
            if example is None:
                continue
            kwargs = example.batch_kwargs()
            expected = call_reward(build_reward(name, {}), [example.completion], prompts=[""], **kwargs)
            assert call_reward(func, [example.completion], prompts=[""], **kwargs) == expected, name
    funcs[0].worker.close()


def test_a_worker_serves_one_owner(public):
    """Without an owner each build gets its own worker; with one, that owner's worker, never another owner's."""
    first, _ = build_rewards([RewardChoice("length")])
    second, _ = build_rewards([RewardChoice("length")])
    alice, _ = build_rewards([RewardChoice("length")], owner="alice")
    alice_again, _ = build_rewards([RewardChoice("format")], owner="alice")
    bob, _ = build_rewards([RewardChoice("length")], owner="bob")
    pids = [f[0].worker.sandbox.pid for f in (first, second, alice, alice_again, bob)]
    assert None not in pids  # each built its reward in its worker, so each worker has started
    assert len({pids[0], pids[1], pids[2], pids[4]}) == 4 and pids[2] == pids[3]
    for funcs in (first, second, alice, bob):
        funcs[0].worker.close()
