"""Every command line of README.md and docs/*.md runs here: each command of a fenced bash block that calls
`grpo-playground`, `python -m playground` or `trl grpo`, and each whole command quoted in the prose (a subcommand and
its flags, optional `[...]` parts included), has a case below (a new one without a case fails the first test). Each
runs as the docs give it, with the tiny model where it trains or samples (and fewer steps, prompts or tokens),
asserting its exit code and one value of its output. A Hub push gives the offline error line and exit code 2.

`grpo-playground` commands run in-process (`playground.console.run`, what the console script calls);
`grpo-playground app` runs as a process. The `trl grpo` lines run in tests/export/test_recipe.py, on an exported
recipe: the one-GPU line as a process that trains, the multi-GPU line into the `accelerate launch` it makes. Each case
runs in a folder of its own, with `runs/` (the runs the commands name) shared, and a copy of `my-recipe/` or
`my_rewards.py` where the command reads one.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from playground import console
from playground.training.run_queue import JobManager
from playground.training.store import RunStore


ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(?:bash|sh|shell)\n(.*?)^```", re.DOTALL | re.MULTILINE)
PLACEHOLDER = re.compile(r"<(?:run[ -]id|id)>")  # `<id>`, `<run-id>`, `<run id>`: the run the command names
PROGRAMS = (("grpo-playground",), ("python", "-m", "playground"), ("trl", "grpo"))
# A whole command in a prose code span: the program, a subcommand, then flags (`trl grpo --config` is a fragment).
INLINE = re.compile(r"`((?:grpo-playground|python -m playground) [a-z-]+ [^`]*--[^`]*)`")

REWARDS_FILE = '''def short(completions, **kwargs):
    """1.0 for a completion of at most 20 characters, else 0.0."""
    texts = [c if isinstance(c, str) else c[-1]["content"] for c in completions]
    return [float(len(t) <= 20) for t in texts]
'''
CASES_FILE = [
    {"function": "short", "completion": "Hi there.", "expected": 1.0},
    {"function": "short", "completion": "A sentence far longer than twenty characters.", "expected": 0.0},
]


def doc_commands() -> dict[str, tuple[list[str], str]]:
    """{command: (its arguments, "file:line")} of every command of a fenced bash block that calls the playground or
    `trl grpo`: continuation lines joined, comments dropped, `a && b` split, the run placeholders written `{run}`."""
    found = {}
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for block in FENCE.finditer(text):
            first = text[: block.start()].count("\n") + 2
            for offset, line in enumerate(block.group(1).replace("\\\n", " ").splitlines()):
                tokens = shlex.split(PLACEHOLDER.sub("{run}", line), comments=True)
                parts, part = [], []
                for token in [*tokens, "&&"]:
                    if token == "&&":
                        parts.append(part)
                        part = []
                    else:
                        part.append(token)
                for part in parts:
                    if any(tuple(part[: len(p)]) == p for p in PROGRAMS):
                        found.setdefault(" ".join(part), (part, f"{path.name}:{first + offset}"))
        prose = FENCE.sub(lambda block: "\n" * block.group(0).count("\n"), text)
        for span in INLINE.finditer(prose):
            tokens = shlex.split(PLACEHOLDER.sub("{run}", span.group(1).replace("[", "").replace("]", "")))
            found.setdefault(" ".join(tokens), (tokens, f"{path.name}:{prose[: span.start()].count(chr(10)) + 1}"))
    return found


# --- what each documented command needs, and what it must print ---------------------------------------------------


@dataclass
class Result:
    code: int
    out: str
    err: str
    cwd: Path


@dataclass
class Case:
    check: Callable[[Result], None]
    extra: tuple[str, ...] = ()  # appended to the command: the tiny model, fewer steps (the last flag given wins)
    needs: str | None = None  # "run": a finished run; "stopped": a run stopped mid-way; "recipe": my-recipe/; "file";
    # "recipe tests": the command runs in tests/export/test_recipe.py
    exit_code: int = 0
    slow: bool = False  # over about 10 s on 2 cores: a process that starts the app


def _lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


def _app(r: Result) -> None:
    assert json.loads(r.out)["title"] == "GRPO Reward Playground"  # the page's /config


def _rewards(r: Result) -> None:
    assert any(line.startswith("length ") for line in r.out.splitlines()), r.out


def _score(r: Result) -> None:
    first, second = [line for line in r.out.splitlines() if re.match(r"\[\d\] total=", line)]
    assert "format=1.000" in first and "format=0.000" in second  # text in every section, then none of the layout


def _preview(r: Result) -> None:
    assert len([line for line in r.out.splitlines() if re.match(r"\[\d+\] total=", line)]) == 8
    assert ": 8 completions in " in r.out.splitlines()[0]


def _finished_run(r: Result) -> dict:
    """The spec of the one run the command trained, which finished."""
    (line,) = [line for line in r.err.splitlines() if re.fullmatch(r"run \S+ finished", line)]
    run = RunStore(r.cwd / "runs").get(line.split()[1])
    assert run.status()["status"] == "finished"
    return run.spec()


def _train_demo(r: Result) -> None:
    spec = _finished_run(r)
    assert [c["name"] for c in spec["rewards"]] == ["length"] and spec["rewards"][0]["params"] == {"ideal_length": 50}


def _train_json(r: Result) -> None:
    rows = [json.loads(line) for line in _lines(r.out)]
    assert [row["step"] for row in rows if row.get("phase") == "grpo"] == [1]
    spec = _finished_run(r)
    assert spec["grpo"]["learning_rate"] == 1e-4 and spec["grpo"]["num_generations"] == 4


def _train_config(r: Result) -> None:
    assert "sets bf16 for a GPU; no CUDA here" in r.err  # the exported recipe targets a GPU
    assert _finished_run(r)["grpo"]["max_steps"] == 1


def _compare(r: Result) -> None:
    assert r.out.count("   trained mean reward ") >= 1 and "mean reward delta " in r.out


def _dryrun(r: Result) -> None:
    assert "2 prompts x 2 completions sampled" in r.out and "rewards/format/mean=" in r.out


def _dryrun_json(r: Result) -> None:
    summary = json.loads(r.out)
    assert summary["frac_reward_zero_std"] == 0.0 and summary["rewards"]["length"]["std"] > 0
    rows = [json.loads(line) for line in (r.cwd / "signal.jsonl").read_text().splitlines()]
    assert len(rows) == 2 and all(row["prompt"] for row in rows)  # both prompts give a signal (length spreads)


def _probe(r: Result) -> None:
    (finding,) = json.loads(r.out)["findings"]
    assert finding["reward"] == "format" and finding["score"] == 1.0
    assert finding["text"] == "<intro>Hello.</intro><body>Bananas are yellow.</body><conclusion>Bye.</conclusion>"


def _check_reward(r: Result) -> None:
    assert "2 of 2 cases passed" in r.out


def _lessons(r: Result) -> None:
    ids = [line.split()[0] for line in r.out.splitlines() if line and not line.startswith(" ")]
    assert {"groups", "length", "format", "hacking", "combine"} <= set(ids)


def _train_lesson(r: Result) -> None:
    spec = _finished_run(r)
    assert spec["grpo"]["sft_warmup_steps"] == 1 and "format" in [c["name"] for c in spec["rewards"]]


def _export(r: Result) -> None:
    recipe = (r.cwd / "my-recipe" / "recipe.yaml").read_text()
    assert "reward_funcs: [rewards_module.reward_length]" in recipe and "# Exported on: " in recipe


def _push(r: Result) -> None:
    (line,) = _lines(r.err)
    assert line.startswith("error: The Hugging Face Hub cannot be reached in offline mode"), line
    assert "nothing was uploaded, and the files are kept in " in line


def _resume(r: Result) -> None:
    spec = _finished_run(r)
    assert spec["grpo"]["max_steps"] == 6


def _resume_further(r: Result) -> None:
    spec = _finished_run(r)
    assert spec["grpo"]["max_steps"] == 2  # one step past the finished run's


TINY = ("--model", "{tiny}", "--max_new_tokens", "4")
TINY_TRAIN = ("--model_name_or_path", "{tiny}", "--max_steps", "1", "--max_completion_length", "8")
CASES: dict[str, Case] = {
    "grpo-playground app": Case(_app, needs="app", slow=True),
    "grpo-playground rewards": Case(_rewards),
    "grpo-playground score --reward length --reward format:0.3 --completion "
    "<intro>Hi</intro><body>...</body><conclusion>Bye</conclusion> --completion no format": Case(_score),
    "grpo-playground preview --prompt Write a haiku about rain. --reward length --num_generations 8": Case(
        _preview, TINY
    ),
    "grpo-playground train": Case(_train_demo, TINY_TRAIN),
    "grpo-playground train --learning_rate 1e-4 --num_generations 4 --per_device_train_batch_size 4 --json_log": Case(
        _train_json, TINY_TRAIN
    ),
    "grpo-playground train --config my-recipe/recipe.yaml --max_steps 1": Case(_train_config, needs="recipe"),
    "grpo-playground compare --run runs/{run}": Case(_compare, ("--num_samples", "2"), needs="run"),
    "grpo-playground dryrun --reward format --reward length --dataset_name writing": Case(
        _dryrun, (*TINY, "--num_prompts", "2", "--num_generations", "2")
    ),
    "grpo-playground dryrun --reward format --reward length --dataset_name writing --json --export signal.jsonl": Case(
        _dryrun_json, (*TINY, "--num_prompts", "2", "--num_generations", "2")
    ),
    "grpo-playground probe --reward format --json": Case(_probe),
    "grpo-playground train --config recipe.yaml": Case(_train_config, ("--max_steps", "1"), needs="recipe"),
    "grpo-playground check-reward my_rewards.py --cases cases.jsonl": Case(_check_reward, needs="file"),
    "grpo-playground lessons": Case(_lessons),
    "grpo-playground train --lesson format": Case(
        _train_lesson, (*TINY_TRAIN, "--sft_warmup_steps", "1", "--eval_every", "0")
    ),
    "grpo-playground export --run {run} --format trl-recipe --out my-recipe": Case(_export, needs="run"),
    # The two `trl grpo` lines run in tests/export/test_recipe.py, on an exported recipe (its README holds them too);
    # see test_the_trl_lines_are_checked_by_the_recipe_tests. One GPU:
    # test_trl_cli_trains_the_recipe_into_the_runs_metrics runs this very command as a process, on this CPU, and
    # compares its metrics with the playground run's.
    "trl grpo --config recipe.yaml": Case(lambda r: None, needs="recipe tests"),
    # Four GPUs: test_multi_gpu_commands_of_the_readme_reach_accelerate parses this very command into the
    # `accelerate launch` it makes.
    "trl grpo --config recipe.yaml --accelerate_config zero2.yaml --num_processes 4": Case(
        lambda r: None, needs="recipe tests"
    ),
    "grpo-playground push --run {run} --repo_id you/my-adapter": Case(_push, needs="run", exit_code=2),
    "grpo-playground train --resume_from_checkpoint {run}": Case(_resume, needs="stopped"),
    "grpo-playground train --resume_from_checkpoint {run} --max_steps 40": Case(
        _resume_further, ("--max_steps", "2"), needs="finished"
    ),
}


def test_every_documented_command_has_a_case():
    documented = doc_commands()
    assert {c: where for c, (_, where) in documented.items() if c not in CASES} == {}, "commands without a case"
    assert sorted(set(CASES) - set(documented)) == [], "cases of commands the docs no longer give"


def test_the_trl_lines_are_checked_by_the_recipe_tests():
    source = (ROOT / "tests" / "export" / "test_recipe.py").read_text(encoding="utf-8")

    def test(name: str) -> str:
        """The source of test `name` of tests/export/test_recipe.py, up to the next definition."""
        return source.partition(f"def {name}(")[2].partition("\ndef ")[0]

    multi_gpu = test("test_multi_gpu_commands_of_the_readme_reach_accelerate")
    assert 'f"trl grpo --config recipe.yaml --accelerate_config {config} --num_processes 4"' in multi_gpu
    assert '("zero2.yaml", "DEEPSPEED")' in multi_gpu
    one_gpu = test("test_trl_cli_trains_the_recipe_into_the_runs_metrics")
    assert 'command = "trl grpo --config recipe.yaml"' in one_gpu
    assert 'train_exported(folder, "-m", "trl.cli.main", *command.split()[1:], *CPU)' in one_gpu


# --- running them ----------------------------------------------------------------------------------------------------


def _train(runs: Path, spec, stop_at: int | None = None):
    job = JobManager(RunStore(runs)).start(spec)
    if stop_at is not None:
        job.listeners.append(lambda row: row.get("step") == stop_at and "reward" in row and job.stop())
    job.join(600)
    assert job.status == ("stopped" if stop_at is not None else "finished"), job.error
    return job.run


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    return tmp_path_factory.mktemp("runs")


@pytest.fixture(scope="module")
def finished_run(runs, tiny_model_dir):
    from tests.support.tiny_models import tiny_spec

    return _train(runs, tiny_spec(tiny_model_dir, max_steps=1, max_completion_length=8))


@pytest.fixture(scope="module")
def my_recipe(finished_run, tmp_path_factory):
    from playground.export import export_recipe

    return export_recipe(finished_run, tmp_path_factory.mktemp("export") / "my-recipe")


def _prepare(case: Case, request, cwd: Path, runs: Path, tiny: Path) -> str | None:
    """Lay out what the command reads in `cwd`; the id of the run it names."""
    from tests.support.tiny_models import tiny_spec

    (cwd / "runs").symlink_to(runs)
    if case.needs == "run":
        return request.getfixturevalue("finished_run").id
    if case.needs == "finished":
        return _train(runs, tiny_spec(tiny, max_steps=1, max_completion_length=8)).id
    if case.needs == "stopped":
        return _train(runs, tiny_spec(tiny, max_steps=6, max_completion_length=8), stop_at=1).id
    if case.needs == "recipe":
        shutil.copytree(request.getfixturevalue("my_recipe"), cwd / "my-recipe")
    if case.needs == "file":
        (cwd / "my_rewards.py").write_text(REWARDS_FILE)
        (cwd / "cases.jsonl").write_text("".join(json.dumps(c) + "\n" for c in CASES_FILE))
    return None


def _run_app(args: list[str], cwd: Path) -> Result:
    """`grpo-playground app` as a process: its /config once it answers, then the process group is killed."""
    import httpx

    from tests.conftest import stop_group
    from tests.ui.live_app import free_port

    port = free_port()
    command = [sys.executable, "-m", "playground", *args[1:], "--host", "127.0.0.1", "--port", str(port)]
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True
    )
    try:
        deadline = time.monotonic() + 300
        while proc.poll() is None and time.monotonic() < deadline:
            try:
                config = httpx.get(f"http://127.0.0.1:{port}/config", timeout=5)
                if config.status_code == 200:
                    return Result(0, config.text, "", cwd)
            except httpx.HTTPError:
                pass
            time.sleep(0.5)
        raise AssertionError(f"the app did not answer (exit code {proc.poll()})")
    finally:
        stop_group(proc)


def _run(command: list[str], cwd: Path, capsys) -> Result:
    capsys.readouterr()
    try:
        code = console.run(command[1:])
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return Result(code, out, err, cwd)


def _params():
    for command, case in CASES.items():
        if case.needs == "recipe tests":
            continue
        marks = [pytest.mark.integration] + ([pytest.mark.slow] if case.slow else [])
        yield pytest.param(command, marks=marks, id=command)


@pytest.mark.parametrize("command", list(_params()))
def test_the_documented_command_runs(command, request, tmp_path, monkeypatch, capsys, runs, tiny_model_dir):
    case = CASES[command]
    for name in ("PLAYGROUND_RUNS", "PLAYGROUND_PUBLIC", "SPACE_ID", "HF_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    run_id = _prepare(case, request, tmp_path, runs, tiny_model_dir)
    cwd = tmp_path / "my-recipe" if "--config recipe.yaml" in command else tmp_path
    monkeypatch.chdir(cwd)
    tokens, _ = doc_commands()[command]
    args = [a.format(run=run_id, tiny=tiny_model_dir) for a in [*tokens, *case.extra]]
    if case.needs == "app":
        args += ["--model", str(tiny_model_dir), "--runs", str(runs)]
        result = _run_app(args, cwd)
    else:
        result = _run(args, cwd, capsys)
    assert result.code == case.exit_code, result.err[-3000:]
    case.check(result)
