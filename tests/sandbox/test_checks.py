"""`inspect_code`: static checks by parsing, each with a precise message and line."""

import os

import pytest

from playground.errors import RewardError
from playground.sandbox import inspect_code


VALID = "def brevity(completions, **kwargs):\n    return [-len(c) for c in completions]\n"


@pytest.mark.parametrize(
    "source,functions",
    [
        (VALID, ["brevity"]),
        (
            "def a(completions, **kw):\n    return []\n\ndef b(prompts, completions, answer, **kw):\n    return []\n",
            ["a", "b"],
        ),
        ("async def critic(completions, **kwargs):\n    return []\n", ["critic"]),
        ("def kwonly(*, completions, **kwargs):\n    return []\n", ["kwonly"]),
        ("def helper(text):\n    return text\n\n" + VALID, ["brevity"]),  # helpers without `completions` are fine
        ("def _private(completions):\n    return []\n\n" + VALID, ["brevity"]),  # so are private helpers
        ("class Judge:\n    def __call__(self, completions, **kwargs):\n        return []\n\n" + VALID, ["brevity"]),
    ],
)
def test_valid_code(source, functions):
    report = inspect_code(source)
    assert report.errors == []
    assert report.functions == functions
    assert report.ok


@pytest.mark.parametrize(
    "source,function,message,line",
    [
        (
            "def score(text):\n    return 1\n",
            "score",
            "found `def score(text)`: a reward must accept `completions` and `**kwargs`",
            1,
        ),
        (
            "import re\n\ndef tagged(completions):\n    return []\n",
            "tagged",
            "found `def tagged(completions)`: a reward must accept `completions` and `**kwargs`",
            3,
        ),
        (
            "def posonly(completions, /, **kwargs):\n    return []\n",
            "posonly",
            "found `def posonly(completions, /, **kwargs)`: a reward must accept",
            1,
        ),
        (
            "def f(completions, **kwargs):\n    return [\n",
            None,
            "Syntax error at line 2, column 12: '[' was never closed.",
            2,
        ),
        ("def f(completions, **kwargs)\n    return []\n", None, "Syntax error at line 1, column 29: expected ':'.", 1),
        ("   \n", None, "The code is empty; define a reward like `def my_reward(completions, **kwargs):`", None),
        (
            "x = 1\nprint(x)\n",
            None,
            "No function found; define a reward like `def my_reward(completions, **kwargs):`",
            None,
        ),
        (
            "def length(completions, **kwargs):\n    return []\n",
            "length",
            "`length` is the name of a library reward; rename it (e.g. `my_length`)",
            1,
        ),
        (VALID + "\n" + VALID, "brevity", "`brevity` is defined twice (lines 1 and 4); the second definition", 4),
        (
            "def f(completions, **kwargs):\n    return [0.0]\x00\n",
            None,
            "The code cannot be parsed: source code string cannot contain null bytes.",
            None,
        ),
    ],
)
def test_invalid_code(source, function, message, line):
    report = inspect_code(source)
    assert not report.ok
    issue = report.errors[0]
    assert message in issue.message
    assert (issue.function, issue.line) == (function, line)
    with pytest.raises(RewardError, match="^Custom code: "):
        report.raise_for_errors()


def test_every_bad_function_is_listed_when_none_is_valid():
    report = inspect_code("def a(text):\n    pass\n\n\ndef b(x, y):\n    pass\n")
    assert report.functions == []
    assert [(e.function, e.line) for e in report.errors] == [("a", 1), ("b", 5)]
    assert report.to_json()["errors"][1] == {
        "function": "b",
        "message": "found `def b(x, y)`: a reward must accept `completions` and `**kwargs` (TRL passes prompts, "
        "completion_ids, trainer_state and the dataset columns as keywords too).",
        "line": 5,
    }


def test_nothing_runs_in_the_app(tmp_path):
    marker = tmp_path / "ran"
    source = f"open({str(marker)!r}, 'w').close()\nimport os\nos._exit(3)\n\n" + VALID
    assert inspect_code(source).functions == ["brevity"]
    assert not marker.exists() and os.getpid() > 0
