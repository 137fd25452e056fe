"""`python -m playground dryrun --json`: exactly the issue's JSON shape; --export writes the prompts with signal."""

import json

from playground.cli.main import main


def test_dryrun_json_shape_and_export(tiny_model_dir, tmp_path, capsys):
    out = tmp_path / "signal.jsonl"
    argv = ["dryrun", "--reward", "length", "--reward", "format:0.5", "--dataset_name", "arithmetic"]
    argv += ["--model", str(tiny_model_dir), "--num_prompts", "3", "--num_generations", "3", "--max_new_tokens", "8"]
    assert main([*argv, "--seed", "1", "--json", "--export", str(out)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data) == ["reward", "reward_std", "frac_reward_zero_std", "rewards", "prompts", "verdict"]
    assert set(data["rewards"]) == {"length", "format"}
    assert all(set(s) == {"mean", "std"} for s in data["rewards"].values())
    assert len(data["prompts"]) == 3
    assert all(set(p) == {"prompt", "mean", "std", "zero_std"} for p in data["prompts"])
    assert data["prompts"][0]["prompt"].startswith("Tom has 12 apples")
    signal = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(signal) == sum(not p["zero_std"] for p in data["prompts"]) > 0
    assert set(signal[0]) == {"prompt", "answer", "expression"}  # the source's columns travel with the prompt


def test_dryrun_rejects_bad_reward(capsys):
    assert main(["dryrun", "--reward", "nope"]) == 2
    assert "Unknown reward 'nope'" in capsys.readouterr().err
