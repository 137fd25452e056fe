"""`code_tests`: the completion's ```python block runs against a dataset column's tests in the real sandbox.

Scored on the built-in `code` prompt set (its reference solutions pass, wrong programs fail), on edge cases (time
and memory limits, crashes, no network in public mode), in the preview and in one real GRPO step, in local and in
public mode.
"""

import json

import pytest

from playground.data.sources import PromptSource, load_prompts
from playground.errors import RewardError
from rewards.code import extract_code, get_code_tests_reward


CODE_SET = load_prompts(PromptSource(kind="builtin", name="code")).dataset
ADD = [{"input": "2\n3\n", "output": "5"}, {"input": "-4\n10\n", "output": "6"}]


def _block(code: str) -> str:
    return f"Here it is:\n```python\n{code}\n```\n"


@pytest.fixture(params=["local", "public"])
def mode(request, monkeypatch):
    monkeypatch.setenv("PLAYGROUND_PUBLIC", "1" if request.param == "public" else "0")
    return request.param


def test_built_in_set_reference_solutions_pass_and_wrong_programs_fail(mode, monkeypatch):
    # Wall-clock limits far above what a reference solution takes on a loaded machine (each test case starts a
    # process): this test is about passing and failing programs; the limits have their own tests (`test_one_program`).
    monkeypatch.setenv("PLAYGROUND_SANDBOX_TIMEOUT", "60")
    reward = get_code_tests_reward(time_limit=30.0)
    solutions = CODE_SET["solution_code"]
    tests = CODE_SET["tests"]
    assert reward(solutions, tests=tests) == [1.0] * len(solutions)
    assert reward([_block("print(0)")] * len(tests), tests=tests) == [
        pytest.approx(sum(t["output"] == "0" for t in row) / len(row)) for row in tests
    ]
    assert reward.__name__ == "code_tests_reward"


NEVER_ENDS = "while True:\n    pass"


@pytest.mark.parametrize(
    "code, expected",
    [
        ("print(int(input()) + int(input()))", 1.0),
        ("a = int(input())\nb = int(input())\nprint(a + b if a > 0 else 0)", 0.5),  # passes the first test only
        ("print(int(input()) + int(input()))\nprint('extra')", 0.0),  # every output line counts
        ("import sys\nprint(int(input()) + int(input()))\nsys.exit(0)", 1.0),
        ("import sys\nsys.exit(1)", 0.0),
        (NEVER_ENDS, 0.0),  # the time limit
        ("x = [0] * 10**10", 0.0),  # the memory limit
        ("raise ValueError('no')", 0.0),
        ("import os\nos._exit(0)", 0.0),  # kills the worker: the sandbox starts a fresh one
        ("import builtins\nbuiltins.print = None", 0.0),
    ],
)
def test_one_program(mode, code, expected):
    # The limit is wall-clock time, each test's fork and start included: the program that never ends meets a short
    # one, every other program one that no loaded machine reaches.
    roomy = get_code_tests_reward(time_limit=30.0)
    reward = get_code_tests_reward(time_limit=0.5) if code == NEVER_ENDS else roomy
    assert reward([_block(code)], tests=[ADD]) == [expected]
    # the sandbox is unharmed by what the program did: a correct program still passes afterwards
    assert roomy([_block("print(int(input()) + int(input()))")], tests=[ADD]) == [1.0]


def test_no_network_in_public_mode(monkeypatch):
    monkeypatch.setenv("PLAYGROUND_PUBLIC", "1")
    code = "import socket\ntry:\n    socket.socket()\n    print('open')\nexcept OSError:\n    print('refused')"
    tests = [[{"input": "", "output": "refused"}]]
    assert get_code_tests_reward()([_block(code)], tests=tests) == [1.0]


@pytest.mark.parametrize(
    "tests, expected",
    [
        (["assert add(1, 2) == 3", "assert add(2, 2) == 5"], 0.5),  # Python asserts after the program
        (json.dumps(["assert add(1, 2) == 3"]), 1.0),  # the column's JSON text
        ({"language": "python", "test_cases": [{"input": "", "output": ""}]}, 1.0),  # open-r1's verification_info
        (None, None),  # no tests: TRL skips the row
    ],
)
def test_test_case_shapes(tests, expected):
    assert get_code_tests_reward()([_block("def add(a, b):\n    return a + b")], tests=[tests]) == [expected]


def test_completion_without_a_code_block_scores_zero_without_running():
    assert get_code_tests_reward()(["print(5)", [{"role": "assistant", "content": "no code"}]], tests=[ADD, ADD]) == [
        0.0,
        0.0,
    ]


@pytest.mark.parametrize("tests", ["not json", [1, 2]])
def test_malformed_tests_are_refused(tests):
    with pytest.raises(RewardError, match="tests"):
        get_code_tests_reward()([_block("print(1)")], tests=[tests])


def test_extract_code_is_open_r1s():
    text = "```python\nfirst\n```\ntext\n```python\nsecond\n```\n```js\nthird\n```"
    assert extract_code(text) == "second\n" and extract_code("no fence") == ""


LABEL = "code_tests(time_limit=30.0)"  # the reward's name with the parameter the step and preview tests give it


def _row(index):
    return {name: CODE_SET[name][index] for name in CODE_SET.column_names}


def test_preview_scores_a_correct_and_a_wrong_solution(mode, tiny, monkeypatch):
    """The prefix is a finished program; the tiny model's continuation is not code. Rewards score the prefix plus
    the continuation, so the group of the sum prompt passes and the group of the reverse prompt fails."""
    from playground.isolation.visitor import reward_executor
    from playground.preview import GenerationSettings, preview_group
    from playground.scoring import RewardChoice, build_rewards

    monkeypatch.setenv("PLAYGROUND_SANDBOX_TIMEOUT", "60")  # limits far above a loaded machine's, as below
    model, tokenizer = tiny
    choice = RewardChoice("code_tests", params={"time_limit": 30.0})
    funcs, weights = build_rewards([choice], executor=reward_executor())
    settings = GenerationSettings(num_generations=2, max_new_tokens=4, temperature=1.0, seed=1)
    prefix = _row(0)["solution_code"] + "\n"
    for index, expected in ((0, 1.0), (1, 0.0)):
        row = _row(index)
        result = preview_group(
            model, tokenizer, row["prompt"], funcs, weights, settings, columns={"tests": row["tests"]}, prefix=prefix
        )
        assert [c.rewards[LABEL] for c in result.score.completions] == [expected, expected]


def test_one_grpo_step_scores_a_correct_and_a_wrong_solution(mode, tiny_model_dir, tmp_path, monkeypatch):
    from playground.scoring import RewardChoice
    from playground.training.run_queue import JobManager
    from playground.training.store import RunStore
    from tests.support.tiny_models import tiny_spec

    # Limits far above a loaded machine's (each test case starts a process; eight programs of three cases a step).
    monkeypatch.setenv("PLAYGROUND_SANDBOX_TIMEOUT", "60")
    data = tmp_path / "code.jsonl"
    data.write_text("".join(json.dumps(_row(i)) + "\n" for i in (0, 1)))
    spec = tiny_spec(
        tiny_model_dir,
        [RewardChoice("code_tests", params={"time_limit": 30.0})],
        max_steps=1,
        per_device_train_batch_size=8,
        max_completion_length=4,
        dataset_kind="file",
        dataset_name=str(data),
        completion_prefix=_row(0)["solution_code"] + "\n",
    )
    job = JobManager(RunStore(tmp_path / "runs")).start(spec)
    job.join(300)
    assert job.status == "finished", job.error
    samples = job.run.samples()
    assert len(samples) == 8
    by_prompt = {}
    for s in samples:
        by_prompt.setdefault("sum" if "sum" in s["prompt"] else "reverse", []).append(s["rewards"][LABEL])
    assert by_prompt == {"sum": [1.0] * 4, "reverse": [0.0] * 4}
    (row,) = [m for m in job.run.metrics() if "reward" in m]
    assert row[f"rewards/{LABEL}/mean"] == pytest.approx(0.5)
