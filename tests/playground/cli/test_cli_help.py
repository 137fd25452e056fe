"""Every command's `--help` answers: each subcommand of the CLI's parser and the web app's `app`, in-process, and
one as a real `python -m playground X --help` process (the console's own exit path)."""

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from playground import console
from playground.cli.main import build_parser
from playground.texts.help import FIELDS


ROOT = Path(__file__).resolve().parents[3]


def commands() -> list[str]:
    """Every command the console dispatches: the subparsers of the CLI's parser, then the app."""
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return [*sub.choices, console.APP]


def test_the_command_list_is_the_parser_s():
    names = commands()
    assert {"rewards", "score", "preview", "train", "export", "push", "check-reward", "dryrun", "app"} <= set(names)
    assert len(names) == len(set(names))


@pytest.mark.parametrize("name", commands())
def test_every_command_help_exits_0_with_its_usage(name, capsys):
    with pytest.raises(SystemExit) as exit:
        console.run([name, "--help"])
    out = capsys.readouterr().out
    assert exit.value.code == 0
    assert out.startswith(f"usage: grpo-playground {name} "), out[:200]
    assert "options:" in out


def test_help_texts_with_a_percent_sign_read_as_written(capsys):
    # argparse reads help as a %-format: a literal percent sign in the run spec's help must come out as one
    with_percent = [english for english, _ in FIELDS.values() if "%" in english]
    assert with_percent, "no help text holds a percent sign: this test checks nothing"
    with pytest.raises(SystemExit):
        console.run(["train", "--help"])
    out = "".join(capsys.readouterr().out.split())
    for text in with_percent:
        assert "".join(text.split()) in out


@pytest.mark.integration  # a real `python -m playground` process
def test_train_help_as_a_process(tmp_path):
    env = dict(os.environ, HF_HUB_OFFLINE="1", PYTHONPATH=str(ROOT))
    out = subprocess.run(
        [sys.executable, "-m", "playground", "train", "--help"],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        cwd=tmp_path,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.startswith("usage: grpo-playground train ")
    assert "--bf16" in out.stdout and "--max_steps" in out.stdout


@pytest.mark.integration  # a fresh `python` process: what the commands import
def test_help_and_rewards_start_without_the_run_spec(tmp_path):
    # The run spec imports TRL's GRPOConfig, and with it transformers and torch (seconds of CPU): a command without
    # run fields must not pay for them.
    script = """if True:
        import json, sys
        from playground import console
        for argv in (["rewards", "--json"], ["--help"]):
            try:
                code = console.run(argv)
            except SystemExit as exit:
                code = exit.code
            heavy = [m for m in ("playground.spec", "torch", "transformers.training_args") if m in sys.modules]
            print(json.dumps({"argv": argv, "code": code, "heavy": heavy}), file=sys.stderr)
    """
    env = dict(os.environ, HF_HUB_OFFLINE="1", PYTHONPATH=str(ROOT))
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path
    )
    assert out.returncode == 0, out.stderr[-2000:]
    rows = [json.loads(line) for line in out.stderr.splitlines() if line.startswith("{")]
    assert rows == [
        {"argv": ["rewards", "--json"], "code": 0, "heavy": []},
        {"argv": ["--help"], "code": 0, "heavy": []},
    ]
    assert "length" in [r["name"] for r in json.loads(out.stdout.partition("\nusage:")[0])]
    assert "usage: grpo-playground [-h]" in out.stdout and "  rewards " in out.stdout
