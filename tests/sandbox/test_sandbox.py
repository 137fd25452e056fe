"""The sandbox with working code: values, kwargs, output, environment, folders, pickling, threads, policy."""

import copy
import dataclasses
import json
import math
import os
import pickle
import threading
from dataclasses import dataclass

import pytest

from playground.errors import PlaygroundError, RewardError
from playground.isolation.visitor import reward_executor
from playground.sandbox import (
    DEFAULT_LIMITS,
    PUBLIC_LIMITS,
    CodeSession,
    Sandbox,
    SandboxError,
    SandboxLimits,
    code_policy,
    compile_rewards,
    trial_run,
)
from playground.scoring import GuardedReward, RewardChoice, build_rewards, score_group
from tests.sandbox.conftest import LIMITS


def test_numpy_values_become_plain_floats(make_sandbox):
    source = (
        "import numpy as np\n\n"
        "def reward(completions, **kwargs):\n"
        "    return np.array([len(c) for c in completions], dtype=np.float32) / 2\n\n"
        "def scalars(completions, **kwargs):\n"
        "    return [np.int64(3), np.bool_(True), None]\n"
    )
    sandbox = make_sandbox(source, ["reward", "scalars"])
    result = sandbox.call("reward", ["abcd", "ab", ""])
    assert result.values == [2.0, 1.0, 0.0] and all(type(v) is float for v in result.values)
    assert sandbox.call("scalars", ["a", "b", "c"]).values == [3.0, 1.0, None]


def test_torch_values_under_the_default_memory_limit(make_sandbox):
    source = "import torch\n\ndef reward(completions, **kwargs):\n    return torch.tensor([0.5] * len(completions))\n"
    sandbox = make_sandbox(source, limits=SandboxLimits(timeout=5, load_timeout=30))
    assert sandbox.call("reward", ["a", "b"]).values == [0.5, 0.5]


def test_nan_and_inf_come_back_flagged_and_guarded(make_sandbox):
    source = "def reward(completions, **kwargs):\n    return [float('nan'), float('inf'), 1.0]\n"
    rewards = compile_rewards(source, LIMITS)
    try:
        values = rewards["reward"](["a", "b", "c"])
        assert math.isnan(values[0]) and values[1] == math.inf and values[2] == 1.0
        assert GuardedReward(rewards["reward"])(["a", "b", "c"]) == [None, None, 1.0]
        (trial,) = trial_run(rewards, ["a", "b", "c"])
        assert trial.flags == ["NaN or inf for completion 1, 2; training treats these as None."]
    finally:
        rewards["reward"].sandbox.close()


@dataclass
class FakeTrainerState:
    global_step: int
    max_steps: int
    log_history: list


def test_trl_keyword_arguments_reach_the_worker(make_sandbox):
    source = (
        "def reward(completions, prompts, answer, completion_ids, trainer_state, log_metric, log_extra, **kwargs):\n"
        "    log_metric('progress', trainer_state.global_step / trainer_state.max_steps)\n"
        "    log_metric('bad', 'not a number')  # dropped: the app checks what it replays\n"
        "    log_extra('why', ['match', 'miss'])\n"
        "    return [float(a in c) + len(ids) / 10 + len(p) for c, a, ids, p in\n"
        "            zip(completions, answer, completion_ids, prompts)]\n"
    )
    sandbox = make_sandbox(source)
    logged, extra = [], []
    result = sandbox.call(
        "reward",
        ["it is 42", "it is 41"],
        prompts=["q", "qq"],
        answer=["42", "42"],
        completion_ids=[[1, 2], [3]],
        trainer_state=FakeTrainerState(3, 12, [{"loss": 1.0}]),
        log_metric=lambda name, value: logged.append((name, value)),
        log_extra=lambda column, values: extra.append((column, values)),
    )
    assert result.values == [2.2, 2.1]
    assert logged == [("progress", 0.25)]
    assert extra == [("why", ["match", "miss"])]


def test_conversational_completions(make_sandbox):
    source = "def reward(completions, **kwargs):\n    return [float(len(c[-1]['content'])) for c in completions]\n"
    sandbox = make_sandbox(source)
    completions = [[{"role": "assistant", "content": "hello"}], [{"role": "assistant", "content": "hi"}]]
    assert sandbox.call("reward", completions).values == [5.0, 2.0]


def test_printed_output_is_captured_per_call(make_sandbox):
    source = (
        "import sys\nprint('loading')\n\n"
        "def reward(completions, **kwargs):\n"
        "    print('scoring', len(completions))\n"
        "    print('warning', file=sys.stderr)\n"
        "    return [0.0] * len(completions)\n"
    )
    sandbox = make_sandbox(source)
    sandbox.start()
    assert sandbox.last_output == "loading\n"
    assert sandbox.call("reward", ["a", "b"]).output == "scoring 2\nwarning\n"


def test_worker_environment_has_no_secrets(make_sandbox, monkeypatch):
    secrets = ["HF_TOKEN", "GITHUB_TOKEN", "OPENAI_API_KEY", "DB_PASSWORD", "MY_SECRET", "AWS_SECRET_ACCESS_KEY"]
    for name in secrets:
        monkeypatch.setenv(name, "s3cret")
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    source = (
        "import json, os\n\n"
        "def reward(completions, **kwargs):\n"
        "    print(json.dumps({'env': dict(os.environ), 'cwd': os.getcwd()}))\n"
        "    return [0.0] * len(completions)\n"
    )
    sandbox = make_sandbox(source)
    seen = json.loads(sandbox.call("reward", ["a"]).output)
    assert not set(secrets) & set(seen["env"])
    assert "s3cret" not in json.dumps(seen)
    assert seen["env"]["LC_ALL"] == "C.UTF-8"
    assert seen["cwd"] == seen["env"]["HOME"] == seen["env"]["TMPDIR"] == sandbox.workdir
    assert seen["env"]["OMP_NUM_THREADS"] == "1"


def test_fresh_temporary_folder_removed_after_each_worker(make_sandbox):
    source = (
        "import os\n\n"
        "def reward(completions, **kwargs):\n"
        "    existed = os.path.exists('note.txt')\n"
        "    with open('note.txt', 'w') as f:\n"
        "        f.write('x')\n"
        "    return [float(existed)] * len(completions)\n\n"
        "def crash(completions, **kwargs):\n"
        "    os._exit(0)\n"
    )
    # Limits far above a worker start on a loaded machine: the replacement worker starts within the next call.
    sandbox = make_sandbox(source, ["reward", "crash"], dataclasses.replace(LIMITS, timeout=30.0, load_timeout=30.0))
    assert sandbox.call("reward", ["a"]).values == [0.0]
    assert sandbox.call("reward", ["a"]).values == [1.0]  # the same worker keeps its folder between calls
    first = sandbox.workdir
    assert os.path.isfile(os.path.join(first, "note.txt"))
    with pytest.raises(SandboxError, match="exited with code 0"):
        sandbox.call("crash", ["a"])
    assert not os.path.exists(first)
    assert sandbox.call("reward", ["a"]).values == [0.0]  # a new worker starts in a new, empty folder
    second = sandbox.workdir
    assert second != first
    sandbox.close()
    assert not os.path.exists(second)


def test_threads_work_and_calls_come_from_any_thread(make_sandbox):
    source = (
        "import threading\n\n"
        "def reward(completions, **kwargs):\n"
        "    out = []\n"
        "    workers = [threading.Thread(target=out.append, args=(1.0,)) for _ in completions]\n"
        "    [w.start() for w in workers]\n"
        "    [w.join() for w in workers]\n"
        "    return out\n"
    )
    sandbox = make_sandbox(source)
    results = []
    callers = [
        threading.Thread(target=lambda: results.append(sandbox.call("reward", ["a", "b"]).values)) for _ in range(4)
    ]
    for t in callers:
        t.start()
    for t in callers:
        t.join()
    assert results == [[1.0, 1.0]] * 4


def test_sandboxes_are_independent(make_sandbox):
    slow = make_sandbox("import time\n\ndef reward(completions, **kwargs):\n    time.sleep(10)\n")
    fast = make_sandbox("def reward(completions, **kwargs):\n    return [1.0] * len(completions)\n")
    fast.start()
    pid = fast.pid
    with pytest.raises(SandboxError, match="timed out after 1 s"):
        slow.call("reward", ["a"])
    assert fast.pid == pid and fast.call("reward", ["a"]).values == [1.0]


def test_pickled_reward_keeps_its_name_and_gets_its_own_worker():
    rewards = compile_rewards(
        "def vowels(completions, **kwargs):\n    return [float(c.count('a')) for c in completions]\n", LIMITS
    )
    original = rewards["vowels"]
    copy = pickle.loads(pickle.dumps(original))
    try:
        assert copy.__name__ == "vowels" and repr(copy) == "<sandboxed reward vowels>"
        assert copy(["banana"]) == [3.0] == original(["banana"])
        assert copy.sandbox.pid != original.sandbox.pid
    finally:
        original.sandbox.close()
        copy.sandbox.close()


def test_load_replaces_the_code_and_the_worker(make_sandbox):
    sandbox = make_sandbox("def reward(completions, **kwargs):\n    return [1.0] * len(completions)\n")
    sandbox.start()
    pid = sandbox.pid
    sandbox.load("def other(completions, **kwargs):\n    return [2.0] * len(completions)\n", ["other"])
    assert sandbox.pid != pid
    assert sandbox.call("other", ["a"]).values == [2.0]
    with pytest.raises(
        SandboxError, match=r"`reward` is not a function once the custom code has run \(it is NoneType\)"
    ):
        sandbox.call("reward", ["a"])


def test_shadowed_function_is_refused_at_load(make_sandbox):
    sandbox = make_sandbox("def reward(completions, **kwargs):\n    return []\n\nreward = 3\n")
    with pytest.raises(SandboxError, match=r"`reward` is not a function once the custom code has run \(it is int\)"):
        sandbox.start()


def test_async_reward(make_sandbox):
    source = (
        "import asyncio\n\n"
        "async def reward(completions, **kwargs):\n"
        "    await asyncio.sleep(0)\n"
        "    return [0.5] * len(completions)\n"
    )
    assert make_sandbox(source).call("reward", ["a", "b"]).values == [0.5, 0.5]


def test_cpu_limit_backstop_and_recycling(make_sandbox):
    source = (
        "import time\n\n"
        "def spin(completions, until, **kwargs):\n"
        "    while time.process_time() < until[0]:  # the worker's own CPU time, startup included\n"
        "        pass\n"
        "    return [0.0] * len(completions)\n"
    )
    # The wall-clock timeout is far above the CPU limit: 2 s of CPU take 2 s on a quiet core and many times that where
    # other work shares the cores, and it is the CPU limit that must end the call.
    limits = SandboxLimits(timeout=300, cpu_seconds=3)
    sandbox = make_sandbox(source, ["spin"], limits)
    sandbox.start()
    with pytest.raises(SandboxError, match="used more than its CPU time limit"):  # RLIMIT_CPU, not the timeout
        sandbox.call("spin", ["a"], until=[6.0])
    # Past the recycling point (1 s short of the 3 s limit) and 0.9 s short of the limit itself: room for the kernel's
    # count of the limit, which on a machine loaded by other work runs tenths of a second ahead of the worker's clock.
    assert sandbox.call("spin", ["a"], until=[2.1]).values == [0.0]
    assert sandbox.pid is None  # near its lifetime CPU budget, the worker is recycled after the call


def test_a_worker_is_recycled_with_a_tenth_or_a_second_of_its_cpu_left():
    from playground.sandbox.client import near_cpu_limit

    assert [near_cpu_limit(cpu, 3600) for cpu in (3239, 3241)] == [False, True]  # a tenth: 360 s
    assert [near_cpu_limit(cpu, 3) for cpu in (1.9, 2.1)] == [False, True]  # a second


def test_guarded_none_policy_survives_a_timeout():
    rewards = compile_rewards(
        "import time\n\n"
        "def slow(completions, delay, **kwargs):\n"
        "    time.sleep(delay[0])\n"
        "    return [1.0] * len(completions)\n",
        LIMITS,
    )
    guarded = GuardedReward(rewards["slow"], on_error="none")
    try:
        assert guarded(["a", "b"], delay=[5, 5]) == [None, None]
        assert guarded.errors == 1 and guarded.last_error == "Reward 'slow' timed out after 1 s."
        assert guarded(["a", "b"], delay=[0, 0]) == [1.0, 1.0]
    finally:
        rewards["slow"].sandbox.close()


def test_build_rewards_and_score_group_with_a_sandboxed_reward():
    rewards = compile_rewards(
        "def has_a(completions, **kwargs):\n    return [float('a' in c) for c in completions]\n", LIMITS
    )
    try:
        funcs, weights = build_rewards(
            [RewardChoice("has_a", 2.0), RewardChoice("length")], custom=rewards, executor=reward_executor()
        )
        assert [f.__name__ for f in funcs] == ["has_a", "length"] and weights == [2.0, 1.0]
        score = score_group(["apple", "kiwi"], funcs, weights)
        assert [c.rewards["has_a"] for c in score.completions] == [1.0, 0.0]
    finally:
        rewards["has_a"].sandbox.close()


def test_trial_reports_errors_per_function():
    source = (
        "def fine(completions, **kwargs):\n    return [float(len(c)) for c in completions]\n\n"
        "def needs_answer(completions, answer, **kwargs):\n"
        "    return [float(a in c) for c, a in zip(completions, answer)]\n\n"
        "def first_char(completions, **kwargs):\n    return [float(ord(c[0])) for c in completions]\n"
    )
    rewards = compile_rewards(source, LIMITS)
    try:
        fine, needs, first = trial_run(rewards)
        assert fine.values == [25.0, 51.0, 14.0, 0.0] and fine.error is None
        assert (
            needs.error
            == "Reward 'needs_answer' raised TypeError: needs_answer() missing 1 required positional argument: "
            "'answer'"
        )
        assert (
            first.error == "Reward 'first_char' raised IndexError: string index out of range (line 8)."
            and first.line == 8
        )
        (answered,) = trial_run(
            {"needs_answer": rewards["needs_answer"]}, ["42", "41"], columns={"answer": ["42", "42"]}
        )
        assert answered.values == [1.0, 0.0]
    finally:
        rewards["fine"].sandbox.close()


def test_features_are_reported(make_sandbox):
    sandbox = make_sandbox("def reward(completions, **kwargs):\n    return []\n")
    sandbox.start()
    assert sandbox.features["rlimits"] is True
    assert set(sandbox.features) == {"rlimits", "capabilities", "landlock", "landlock_abi", "seccomp", "nproc_zero"}
    if sandbox.features["seccomp"] is True:
        assert sandbox.features["nproc_zero"] is False  # seccomp blocks processes but not threads; NPROC=0 would


class TestPolicy:
    def test_defaults_off_a_space(self):
        policy = code_policy()
        assert (policy.enabled, policy.public, policy.limits) == (True, False, DEFAULT_LIMITS)
        assert (DEFAULT_LIMITS.timeout, DEFAULT_LIMITS.memory_mb) == (5.0, 1024)

    def test_public_on_a_space_unless_turned_off(self, monkeypatch):
        monkeypatch.setenv("SPACE_ID", "someone/playground")
        assert code_policy().limits == PUBLIC_LIMITS and (PUBLIC_LIMITS.timeout, PUBLIC_LIMITS.memory_mb) == (2.0, 512)
        monkeypatch.setenv("PLAYGROUND_PUBLIC", "0")
        assert code_policy().public is False
        assert code_policy(public=True).public is True  # a UI flag wins

    def test_overrides_from_the_environment(self, monkeypatch):
        monkeypatch.setenv("PLAYGROUND_PUBLIC", "1")
        monkeypatch.setenv("PLAYGROUND_SANDBOX_TIMEOUT", "3.5")
        monkeypatch.setenv("PLAYGROUND_SANDBOX_MEMORY_MB", "768")
        limits = code_policy().limits
        assert (limits.timeout, limits.memory_mb, limits.load_timeout) == (3.5, 768, 10.0)
        monkeypatch.setenv("PLAYGROUND_SANDBOX_MEMORY_MB", "lots")
        with pytest.raises(PlaygroundError, match="Bad setting PLAYGROUND_SANDBOX_MEMORY_MB='lots'"):
            code_policy()

    def test_off_disables_custom_code_everywhere(self, monkeypatch):
        monkeypatch.setenv("PLAYGROUND_CUSTOM_CODE", "off")
        message = (
            "Custom reward code is disabled on this server (PLAYGROUND_CUSTOM_CODE=off); use the library rewards."
        )
        with pytest.raises(PlaygroundError) as err:
            compile_rewards("def reward(completions, **kwargs):\n    return []\n")
        assert str(err.value) == message
        with pytest.raises(PlaygroundError, match="disabled on this server"):
            Sandbox("def reward(completions, **kwargs):\n    return []\n", ["reward"], LIMITS).start()


def test_code_session_recompiles_only_on_change():
    first = "def reward(completions, **kwargs):\n    return [1.0] * len(completions)\n"
    session = CodeSession(LIMITS)
    try:
        rewards = session.rewards(first)
        pid = rewards["reward"].sandbox.pid
        assert session.rewards(first)["reward"].sandbox.pid == pid  # unchanged source: same worker
        with pytest.raises(RewardError, match="Syntax error at line 1"):
            session.rewards("def reward(completions, **kwargs) return []\n")
        assert rewards["reward"](["a"]) == [1.0] and rewards["reward"].sandbox.pid == pid  # the old code still works
        second = session.rewards(first.replace("1.0", "2.0"))
        assert second["reward"](["a"]) == [2.0]
        assert rewards["reward"].sandbox.pid is None  # the old worker was stopped
        assert copy.deepcopy(session).source is None
        assert session.rewards("  ") == {} and second["reward"].sandbox.pid is None
    finally:
        session.close()


def test_worker_that_cannot_start_says_why(make_sandbox, monkeypatch):
    from playground.sandbox import client

    monkeypatch.setattr(client, "WORKER_MODULE", "playground.sandbox.no_such_worker")
    sandbox = make_sandbox("def reward(completions, **kwargs):\n    return []\n")
    with pytest.raises(SandboxError) as err:
        sandbox.start()
    assert str(err.value).startswith("The sandbox worker failed to start: ")
    assert str(err.value).endswith("No module named playground.sandbox.no_such_worker")
    assert sandbox.pid is None and sandbox.workdir is None


def test_a_reply_that_cannot_be_sent_is_an_error_and_the_worker_lives(make_sandbox):
    source = (
        "def reward(completions, log_extra, **kwargs):\n"
        "    loop = []\n"
        "    loop.append(loop)\n"
        "    log_extra('loop', loop)\n"
        "    return [0.0] * len(completions)\n"
    )
    sandbox = make_sandbox(source + "\n\ndef fine(completions, **kwargs):\n    return [1.0] * len(completions)\n")
    sandbox.start()
    pid = sandbox.pid
    with pytest.raises(SandboxError, match="^Reward 'reward' raised ValueError: Circular reference detected$"):
        sandbox.call("reward", ["a"], log_extra=lambda column, values: None)
    assert sandbox.pid == pid and sandbox.call("fine", ["a"]).values == [1.0]
