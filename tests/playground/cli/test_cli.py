"""The command line: `python -m playground ...` as a real process where the process is what is tested (Ctrl-C, its
exit code and what it saved), the rest in-process through `main()`, the very function the process calls."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest


ROOT = Path(__file__).resolve().parents[3]


def cli(capsys, *args) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of `main(args)` in this process."""
    from playground.cli.main import main

    capsys.readouterr()
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_rewards_json_lists_library(capsys):
    code, out, err = cli(capsys, "rewards", "--json")
    assert code == 0, err
    data = {r["name"]: r for r in json.loads(out)}
    assert {"length", "format", "combined", "correctness", "language"} <= set(data)
    assert data["length"]["params"][0] == {
        "name": "ideal_length",
        "type": "int",
        "default": 100,
        "help": data["length"]["params"][0]["help"],
    }


def test_score_json_schema_and_values(capsys):
    fmt = "<intro>Hi</intro><body>line one\nline two</body><conclusion>Bye</conclusion>"
    args = ["score", "--reward", "format:2", "--reward", "length", "--completion", fmt, "--completion", "nope"]
    code, out, err = cli(capsys, *args, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert set(data) == {"completions", "group", "flags", "advantage"}
    assert data["advantage"] == {
        "scale_rewards": "group",
        "multi_objective_aggregation": "sum_then_normalize",
        "generation_batch_size": None,
    }
    first, second = data["completions"]
    assert first["rewards"] == {"format": 1.0, "length": -(100 - len(fmt))}
    assert first["total"] == pytest.approx(2.0 - (100 - len(fmt)))
    assert second["rewards"] == {"format": 0.0, "length": -96.0}
    assert first["advantage"] == pytest.approx(-second["advantage"]) and first["advantage"] > 0
    assert set(data["group"]) == {"mean", "std", "zero_std"} and data["group"]["zero_std"] is False


@pytest.mark.parametrize(
    "args,needle",
    [
        (["score", "--reward", "nope", "--completion", "a", "--completion", "b"], "Unknown reward 'nope'"),
        (["score", "--reward", "length:x", "--completion", "a", "--completion", "b"], "Malformed weight"),
        (["score", "--reward", "length", "--completion", "a"], "at least 2 completions"),
        (["preview", "--reward", "length", "--prompt", "hi", "--num_generations", "1"], "num_generations"),
        (["preview", "--reward", "length", "--prompt", "  "], "prompt is empty"),
        (["preview", "--reward", "length"], "--prompt"),
        (["train", "--learning_rate", "-1", "--max_steps", "1"], "learning_rate must be above 0"),
        (["train", "--num_generations", "1"], "num_generations must be at least 2"),
        (["train", "--per_device_train_batch_size", "6"], "must be divisible by num_generations (8)"),
        (["train", "--loss_type", "ppo"], "--loss_type/--loss-type: invalid choice: 'ppo'"),
        (["train", "--max_steps", "0"], "max_steps must be at least 1"),
        (["train", "--max-steps", "0"], "max_steps must be at least 1"),
        (["dryrun", "--reward", "length", "--num-prompts", "x"], "--num_prompts: invalid int value"),
        (["train", "--max_completion_length", "1000000"], "max_completion_length must be between"),
        (["train", "--max_steps", "abc"], "--max_steps/--max-steps: invalid int value"),
        (["compare", "--run", "no-such-run"], "No run named 'no-such-run'"),
    ],
)
def test_bad_arguments_one_line_exit_2(args, needle, tmp_path, capsys):
    """Stderr must be one line."""
    from playground.cli.main import main

    argv = [*args, "--out", str(tmp_path)] if args[0] in ("train", "compare") else list(args)
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse errors exit directly
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert needle in lines[0]
    assert "Traceback" not in err


def test_preview_tiny_model_json_is_seeded(tiny_model_dir, capsys):
    """Twice in one process: the seed, not the process, makes the samples."""
    from playground.cli.main import main

    args = ["preview", "--model", str(tiny_model_dir), "--prompt", "Say hi", "--reward", "length", "--json"]
    args += ["--num_generations", "4", "--max_new_tokens", "6", "--seed", "7"]
    assert main(args) == 0
    first = capsys.readouterr().out
    assert main(args) == 0
    a, b = json.loads(first), json.loads(capsys.readouterr().out)
    assert [c["text"] for c in a["completions"]] == [c["text"] for c in b["completions"]]
    assert len(a["completions"]) == 4 and len({c["text"] for c in a["completions"]}) == 4


@pytest.mark.slow
def test_preview_embedded_gives_distinct_sensible_completions(embedded_dir, capsys):
    code, out, err = cli(
        capsys,
        "preview",
        "--prompt",
        "Name a colour of the sky.",
        "--reward",
        "length",
        "--num_generations",
        "4",
        "--max_new_tokens",
        "24",
        "--temperature",
        "0.7",
        "--json",
    )
    assert code == 0, err
    texts = [c["text"] for c in json.loads(out)["completions"]]
    assert len(set(texts)) == 4
    # Sensible: English words, and at least one completion names a colour.
    assert all(sum(ch.isalpha() for ch in t) > 0.5 * len(t) for t in texts)
    assert any(c in t.lower() for t in texts for c in ("blue", "gray", "grey", "orange", "pink", "red", "purple"))


def test_train_json_log_then_compare(tiny_model_dir, tmp_path, capsys):
    from playground.cli.main import main

    args = ["train", "--model_name_or_path", str(tiny_model_dir), "--max_steps", "2", "--num_generations", "4"]
    args += ["--per_device_train_batch_size", "4", "--max_completion_length", "6", "--reward", "length:1"]
    assert main([*args, "--out", str(tmp_path), "--json_log"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["step"] for r in rows] == [1, 2]
    assert {"reward", "reward_std", "kl", "loss", "rewards/length/mean"} <= set(rows[0])
    (run_dir,) = [p for p in tmp_path.iterdir() if p.is_dir()]
    assert json.loads((run_dir / "status.json").read_text())["status"] == "finished"

    assert main(["compare", "--run", str(run_dir), "--prompt", "Hello there", "--num_samples", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    item = data["prompts"][0]
    assert item["prompt"] == "Hello there" and len(item["base"]["completions"]) == 2
    assert data["mean_delta"] == pytest.approx(item["trained"]["group"]["mean"] - item["base"]["group"]["mean"])


@pytest.mark.slow
def test_train_ctrl_c_stops_gracefully_and_saves_adapter(tiny_model_dir, tmp_path):
    import signal

    env = dict(os.environ, HF_HUB_OFFLINE="1", PYTHONPATH=str(ROOT))
    args = ["--model_name_or_path", str(tiny_model_dir), "--max_steps", "500", "--num_generations", "4"]
    args += [
        "--per_device_train_batch_size",
        "4",
        "--max_completion_length",
        "6",
        "--out",
        str(tmp_path),
        "--json_log",
    ]
    proc = subprocess.Popen(
        [sys.executable, "-m", "playground", "train", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # a background shell may ignore SIGINT
    )
    try:
        for line in proc.stdout:
            if json.loads(line)["step"] >= 2:
                break
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130, err
    assert "stopping after this step" in err
    (run_dir,) = [p for p in tmp_path.iterdir() if p.is_dir()]
    status = json.loads((run_dir / "status.json").read_text())
    assert status["status"] == "stopped" and 2 <= status["step"] < 500
    assert (run_dir / "adapter" / "adapter_config.json").is_file()
