"""What the sandbox tells a visitor comes from the catalogue: English for the CLI, the MCP server and logs, as before,
and Chinese through the page's renderer (`render`) for a timeout, a reward that returns no list of floats, a
worker that breaks the protocol, and a bad sandbox setting in the environment."""

from pathlib import Path

import pytest

from playground.errors import PlaygroundError, RewardError
from playground.sandbox import SandboxError, code_policy
from playground.texts import render


CORPUS = Path(__file__).parent / "corpus"


def test_a_timeout_reads_chinese_on_the_page(make_sandbox):
    sandbox = make_sandbox("import time\n\n\ndef reward(completions, **kwargs):\n    time.sleep(30)\n")
    with pytest.raises(SandboxError) as caught:
        sandbox.call("reward", ["a"])
    assert str(caught.value) == "Reward 'reward' timed out after 1 s."
    assert caught.value.key == "sandbox.timed_out"
    assert render("zh", caught.value) == "奖励 'reward' 超时（1 秒）。"


def test_a_reward_that_returns_no_list_of_floats_reads_chinese_on_the_page(make_sandbox):
    sandbox = make_sandbox("def reward(completions, **kwargs):\n    return 'high'\n")
    with pytest.raises(RewardError) as caught:
        sandbox.call("reward", ["a", "b"])
    assert str(caught.value).startswith("Reward 'reward' must return a list of floats, got ")
    assert render("zh", caught.value).startswith("奖励 'reward' 必须返回浮点数列表，实际返回了")


def test_a_broken_protocol_reads_chinese_on_the_page(make_sandbox):
    sandbox = make_sandbox((CORPUS / "protocol_nesting.py").read_text(encoding="utf-8"))
    with pytest.raises(SandboxError) as caught:
        sandbox.call("reward", ["a"])
    assert str(caught.value) == "Reward 'reward' broke the sandbox protocol (the worker sent a malformed reply)."
    assert render("zh", caught.value) == "奖励 'reward' 破坏了沙箱协议（工作进程发回的回复格式不对）。"


@pytest.mark.parametrize(
    "variable,value,english,chinese",
    [
        (
            "PLAYGROUND_SANDBOX_MEMORY_MB",
            "32",
            "PLAYGROUND_SANDBOX_MEMORY_MB takes a whole number of at least 64.",
            "PLAYGROUND_SANDBOX_MEMORY_MB 应为不小于 64 的整数。",
        ),
        (
            "PLAYGROUND_SANDBOX_TIMEOUT",
            "0",
            "PLAYGROUND_SANDBOX_TIMEOUT takes a number above 0.",
            "PLAYGROUND_SANDBOX_TIMEOUT 应为大于 0 的数。",
        ),
    ],
)
def test_a_bad_sandbox_setting_names_itself_in_both_languages(monkeypatch, variable, value, english, chinese):
    monkeypatch.setenv(variable, value)
    with pytest.raises(PlaygroundError) as caught:
        code_policy(public=False)
    assert str(caught.value) == f"Bad setting {variable}={value!r}: {english}"
    assert render("zh", caught.value) == f"环境变量设置有误 {variable}={value!r}：{chinese}"


def test_the_empty_code_example_reads_chinese_on_the_page():
    from playground.sandbox import inspect_code

    (issue,) = inspect_code("").errors
    assert issue.message == (
        "The code is empty; define a reward like `def my_reward(completions, **kwargs):` returning one float "
        "(or None) per completion."
    )
    assert render("zh", issue.message) == (
        "代码为空；请像这样定义一个奖励：`def my_reward(completions, **kwargs):`，"
        "为每个生成结果返回一个浮点数（或 None）。"
    )
