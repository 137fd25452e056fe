"""Reward unit cases: loading (JSONL, JSON, lists) with errors that name the line, and pass/fail with the got value."""

import json
import math

import pytest

from playground.errors import PlaygroundError
from playground.reward_tests import load_cases, run_cases


def brevity(completions, **kwargs):
    return [-float(len(c)) for c in completions]


def exact(completions, answer, prompts, **kwargs):
    return [
        float(a in c) + (0.5 if p == "bonus" else 0.0) for c, a, p in zip(completions, answer, prompts, strict=True)
    ]


def maybe(completions, **kwargs):
    return [None if c == "skip" else (math.nan if c == "nan" else 1.0) for c in completions]


def broken(completions, **kwargs):
    raise KeyError("solution")


REWARDS = {"brevity": brevity, "exact": exact, "maybe": maybe, "broken": broken}


@pytest.mark.parametrize(
    "case,passed,got,error",
    [
        ({"function": "brevity", "completion": "abc", "expected": -3}, True, -3.0, None),
        ({"function": "brevity", "completion": "abc", "expected": -3.0000000001}, True, -3.0, None),  # tolerance
        ({"function": "brevity", "completion": "abc", "expected": -2}, False, -3.0, None),
        ({"function": "brevity", "completion": "abc", "min": -5, "max": -1}, True, -3.0, None),
        ({"function": "brevity", "completion": "abcdef", "min": -5}, False, -6.0, None),
        ({"function": "brevity", "completion": "", "max": -1}, False, -0.0, None),
        ({"function": "brevity", "completion": "anything"}, True, -8.0, None),  # no check: any value passes
        (  # ...but not one that comes from the message list instead of its text (len() of a one-message list)
            {"function": "brevity", "completion": [{"role": "assistant", "content": "anything"}]},
            False,
            -1.0,
            "got -1 for the chat message, but -8 for its text: the reward reads the message list, not its content"
            " (give the case `expected`, `min` or `max` to check a value)",
        ),
        ({"function": "brevity", "completion": [{"role": "assistant", "content": "x"}]}, True, -1.0, None),  # alike
        (  # several messages: no text to compare a value with, so the case must say what it expects
            {
                "function": "brevity",
                "completion": [
                    {"role": "assistant", "content": "call"},
                    {"role": "tool", "content": "42"},
                    {"role": "assistant", "content": "It is 42."},
                ],
            },
            False,
            -3.0,
            "a chat case of several messages has no text to check against: give it `expected`, `min` or `max`",
        ),
        (
            {
                "function": "brevity",
                "completion": [{"role": "assistant", "content": "call"}, {"role": "assistant", "content": "ok"}],
                "expected": -2,
            },
            True,
            -2.0,
            None,
        ),
        (
            {"function": "brevity", "completion": [{"role": "assistant", "content": "anything"}], "max": 0},
            True,
            -1.0,
            None,
        ),
        ({"function": "exact", "completion": "it is 42", "columns": {"answer": "42"}, "expected": 1}, True, 1.0, None),
        (
            {"function": "exact", "completion": "42", "prompt": "bonus", "columns": {"answer": "42"}, "expected": 1.5},
            True,
            1.5,
            None,
        ),
        ({"function": "maybe", "completion": "skip", "expected": None}, True, None, None),
        ({"function": "maybe", "completion": "keep", "expected": None}, False, 1.0, None),
        ({"function": "maybe", "completion": "skip", "min": 0}, False, None, None),
        ({"function": "maybe", "completion": "nan"}, False, None, None),
        (
            {"function": "broken", "completion": "x", "expected": 1},
            False,
            None,
            "Reward 'broken' raised KeyError: 'solution'",
        ),
        (
            {"function": "nope", "completion": "x"},
            False,
            None,
            "no reward named 'nope' (known: brevity, broken, exact, maybe)",
        ),
    ],
)
def test_run_cases(case, passed, got, error):
    (result,) = run_cases(REWARDS, [case])
    assert result.passed is passed
    assert result.error == error
    if case["completion"] == "nan":
        assert math.isnan(result.got)
        assert result.to_json()["got"] == "nan"
    else:
        assert result.got == got


def test_describe_and_json():
    results = run_cases(REWARDS, load_cases([{"function": "brevity", "completion": "abc", "expected": -2, "max": 0}]))
    assert results[0].describe() == "case 1 brevity: FAIL got -3, expected -2 and <= 0"
    assert results[0].to_json() == {
        "index": 1,
        "function": "brevity",
        "passed": False,
        "got": -3.0,
        "expected": -2.0,
        "min": None,
        "max": 0.0,
        "error": None,
    }


def test_jsonl_file_with_comments(tmp_path):
    path = tmp_path / "cases.jsonl"
    path.write_text(
        '# brevity\n{"function": "brevity", "completion": "ab", "expected": -2}\n'
        '\n{"function": "brevity", "completion": "a", "max": -5}\n'
    )
    results = run_cases(REWARDS, load_cases(path))
    assert [(r.index, r.passed, r.got) for r in results] == [(1, True, -2.0), (2, False, -1.0)]


def test_json_file_with_a_list(tmp_path):
    path = tmp_path / "cases.json"
    path.write_text(json.dumps([{"function": "brevity", "completion": "abcd", "expected": -4}]))
    assert run_cases(REWARDS, load_cases(path))[0].passed


@pytest.mark.parametrize(
    "text,message",
    [
        ('{"function": "brevity"}', "line 1: 'completion' must be a text (or a list of messages)."),
        ('{"completion": "x"}', "line 1: 'function' must name a reward function."),
        (
            '\n{"function": "f", "completion": "x", "expect": 1}',
            "line 2: unknown key 'expect'; a case has columns, completion, expected, function, max, min, prompt.",
        ),
        (
            '{"function": "f", "completion": "x", "expected": "high"}',
            "line 1: 'expected' must be a finite number, got 'high'.",
        ),
        ('{"function": "f", "completion": "x", "min": 2, "max": 1}', "line 1: 'min' (2) is above 'max' (1)."),
        (
            '{"function": "f", "completion": "x", "columns": [1]}',
            "line 1: 'columns' must be an object of column name to value.",
        ),
        ("{not json", "line 1: not valid JSON (Expecting property name enclosed in double quotes)."),
        ("[1, 2]", "line 1: a case must be a JSON object, got list."),
    ],
)
def test_bad_cases_name_their_line(tmp_path, text, message):
    path = tmp_path / "cases.jsonl"
    path.write_text(text)
    with pytest.raises(PlaygroundError) as err:
        load_cases(path)
    assert str(err.value) == f"{path}, {message}"


def test_missing_cases_file(tmp_path):
    with pytest.raises(PlaygroundError, match=r"Cannot read cases file .*missing.jsonl: No such file or directory\."):
        load_cases(tmp_path / "missing.jsonl")


def test_check_reward_help_says_what_a_case_without_an_expected_value_checks(capsys):
    from playground.cli.main import main

    with pytest.raises(SystemExit) as exited:
        main(["check-reward", "--help"])
    assert exited.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert 'a case without "expected", "min" or "max" only checks that the reward returns a value' in text
    assert "of several messages it fails" in text
