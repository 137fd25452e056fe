"""`python -m playground check-reward`: exit codes 0 / 1 / 2, the JSON schema, and one-line errors."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from playground.cli.main import main


ROOT = Path(__file__).resolve().parents[2]
GOOD = """\
def vowels(completions, **kwargs):
    return [sum(ch in "aeiou" for ch in c) / max(len(c), 1) for c in completions]


def exact(completions, answer, **kwargs):
    return [float(a in c) for c, a in zip(completions, answer)]
"""


@pytest.fixture
def files(tmp_path):
    (tmp_path / "good.py").write_text(GOOD)
    (tmp_path / "bad.py").write_text("def score(text):\n    return 1\n")
    (tmp_path / "syntax.py").write_text("def f(completions, **kwargs):\n    return [\n")
    (tmp_path / "loads_badly.py").write_text("import os\nos._exit(4)\n\n" + GOOD)
    cases = [
        {"function": "vowels", "completion": "aa", "expected": 1.0},
        {"function": "exact", "completion": "it is 42", "columns": {"answer": "42"}, "expected": 1},
    ]
    (tmp_path / "pass.jsonl").write_text("\n".join(json.dumps(c) for c in cases))
    (tmp_path / "fail.jsonl").write_text(
        "\n".join(json.dumps(c) for c in [*cases, {"function": "vowels", "completion": "xyz", "min": 0.5}])
    )
    return tmp_path


def run(capsys, *args):
    code = main(["check-reward", *map(str, args)])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_subprocess_json_with_a_failing_case(files):
    env = dict(os.environ, HF_HUB_OFFLINE="1", PYTHONPATH=str(ROOT))
    env.pop("PLAYGROUND_CUSTOM_CODE", None)
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "playground",
            "check-reward",
            str(files / "good.py"),
            "--cases",
            str(files / "fail.jsonl"),
            "--json",
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
    )
    assert out.returncode == 1, out.stderr
    data = json.loads(out.stdout)
    assert {"ok", "functions", "errors", "cases"} <= set(data)
    assert data["ok"] is False and data["functions"] == ["vowels", "exact"] and data["errors"] == []
    assert [(c["function"], c["passed"], c["got"], c["expected"]) for c in data["cases"]] == [
        ("vowels", True, 1.0, 1.0),
        ("exact", True, 1.0, 1.0),
        ("vowels", False, 0.0, None),
    ]
    assert data["cases"][2]["min"] == 0.5


def test_valid_file_and_passing_cases_exit_0(files, capsys):
    code, out, _ = run(capsys, files / "good.py", "--cases", files / "pass.jsonl")
    assert code == 0
    assert out.splitlines()[0] == f"{files / 'good.py'}: 2 reward function(s): vowels, exact"
    assert "trial exact: [1.0, 1.0, 0.0, 0.0]" in out  # the trial used the answer column of exact's first case
    assert out.splitlines()[-1] == "2 of 2 cases passed"


def test_failing_case_exit_1(files, capsys):
    code, out, _ = run(capsys, files / "good.py", "--cases", files / "fail.jsonl")
    assert code == 1
    assert "case 3 vowels: FAIL got 0, expected >= 0.5" in out


@pytest.mark.parametrize(
    "name,error",
    [
        ("bad.py", {"function": "score", "line": 1, "message": "found `def score(text)`: a reward must accept"}),
        (
            "syntax.py",
            {"function": None, "line": 2, "message": "Syntax error at line 2, column 12: '[' was never closed."},
        ),
        (
            "loads_badly.py",
            {
                "function": None,
                "line": None,
                "message": "Loading the custom code ended the sandbox worker: it exited with code 4",
            },
        ),
    ],
)
def test_invalid_file_exit_2(files, capsys, name, error):
    code, out, _ = run(capsys, files / name, "--json")
    assert code == 2
    data = json.loads(out)
    assert data["ok"] is False and data["cases"] == []
    first = data["errors"][0]
    assert (first["function"], first["line"]) == (error["function"], error["line"])
    assert first["message"].startswith(error["message"])


def test_trial_without_columns_is_an_error_with_a_hint(files, capsys):
    code, out, _ = run(capsys, files / "good.py")
    assert code == 2
    assert (
        "error (exact): Reward 'exact' raised TypeError: exact() missing 1 required positional argument: 'answer'. "
        "The trial run passed no dataset columns; give them with --column NAME=VALUE or a case." in out
    )
    code, out, _ = run(capsys, files / "good.py", "--column", "answer=42")
    assert code == 0 and "trial exact: [1.0, 1.0, 0.0, 0.0]" in out


@pytest.mark.parametrize(
    "args,needle",
    [
        (["missing.py"], "Cannot read missing.py: No such file or directory."),
        (["good.py", "--cases", "missing.jsonl"], "Cannot read cases file missing.jsonl: No such file or directory."),
        (["good.py", "--column", "answer"], "Malformed --column 'answer'; use NAME=VALUE."),
    ],
)
def test_bad_arguments_one_line_exit_2(files, capsys, monkeypatch, args, needle):
    monkeypatch.chdir(files)
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert err.strip().splitlines() == [f"error: {needle}"]


def test_disabled_custom_code_exit_2(files, capsys, monkeypatch):
    monkeypatch.setenv("PLAYGROUND_CUSTOM_CODE", "off")
    code, _, err = run(capsys, files / "good.py")
    assert code == 2
    assert "Custom reward code is disabled on this server (PLAYGROUND_CUSTOM_CODE=off)" in err
