"""The reward library stands alone: it imports nothing of the playground, runs where the playground is absent, and
its errors join the playground's family (caught as `PlaygroundError`, rendered in Chinese) once the playground hosts
it."""

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import rewards
from playground.errors import PlaygroundError
from playground.texts import render
from playground.texts.rewards import LIBRARY_ZH
from rewards.errors import MESSAGES, RewardError


LIBRARY = Path(rewards.__file__).parent
PLAYGROUND_IMPORT = re.compile(r"^\s*(from|import) playground", re.MULTILINE)


def test_no_module_of_the_library_imports_the_playground():
    hits = [
        f"{p.name}: {m.group(0).strip()}"
        for p in LIBRARY.rglob("*.py")
        for m in PLAYGROUND_IMPORT.finditer(p.read_text())
    ]
    assert hits == []


@pytest.mark.integration  # a Python of its own
def test_the_library_imports_and_scores_in_a_python_without_the_playground(tmp_path):
    shutil.copytree(LIBRARY, tmp_path / "rewards", ignore=shutil.ignore_patterns("__pycache__"))
    code = (
        "import sys\n"
        # no import of the playground can succeed here, even where it is installed (pip install -e .)
        "sys.modules['playground'] = None\n"
        "import rewards\n"
        "from rewards.registry import build_reward\n"
        "print(build_reward('length', {'ideal_length': 5})(['hello', 'hi']))\n"
        # TRL is imported by the rewards that use TRL's code, when they first score: a worker that builds others
        # starts without it (importing TRL reads the metadata of every installed package)
        "print('trl' in sys.modules)\n"
        "print(build_reward('think_format', {})(['<think>\\nWhy.\\n</think>\\nSo.', 'So.']), 'trl' in sys.modules)\n"
        "try:\n"
        "    build_reward('repetition_penalty', {'ngram_size': 0})\n"
        "except ValueError as exc:\n"
        "    print(type(exc).__module__, exc.key, exc)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'playground' and sys.modules[m] is not None))\n"
        "from rewards._bounded import public\n"
        "print(public())\n"
    )
    # PLAYGROUND_PUBLIC is the playground's setting: without it as host, the library checks answers in-process.
    env = {"PATH": "/usr/bin:/bin", "HF_HUB_OFFLINE": "1", "PYTHONPATH": str(tmp_path), "PLAYGROUND_PUBLIC": "1"}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    scores, trl_before, trl_after, error, modules, public = done.stdout.splitlines()
    assert scores == "[0.0, -3.0]"
    assert trl_before == "False" and trl_after == "[1.0, 0.0] True"
    assert error == (
        "rewards.errors reward.param_min Reward 'repetition_penalty': parameter 'ngram_size' must be >= 1, got 0."
    )
    assert modules == "[]" and public == "False"


def _raised_keys() -> set[str]:
    keys = set()
    for path in LIBRARY.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "RewardError" and node.args:
                first = node.args[0]
                assert isinstance(first, ast.Constant), f"{path.name}:{node.lineno} raises RewardError without a key"
                keys.add(first.value)
    return keys


def test_every_key_the_library_raises_has_its_english_and_its_chinese():
    raised = _raised_keys()
    assert len(raised) > 50
    assert raised == set(MESSAGES)  # no key without English, no English never raised
    assert set(LIBRARY_ZH) == set(MESSAGES)  # every key has Chinese, and no Chinese lacks its English


def test_a_library_error_is_a_playground_error_and_a_value_error_rendered_in_both_languages():
    from rewards.other import get_repetition_penalty_reward

    with pytest.raises(PlaygroundError) as caught:
        get_repetition_penalty_reward(ngram_size=0)
    error = caught.value
    assert isinstance(error, RewardError) and isinstance(error, ValueError)
    assert error.key == "reward.ngram_size" and error.values == {"value": 0}
    assert str(error) == "The repetition penalty ngram_size must be a whole number >= 1, got 0."
    assert render("zh", error) == "重复惩罚的 ngram_size 必须是 >= 1 的整数，实际为 0。"
    assert error.render("zh") == render("zh", error)


def test_the_playground_tells_the_library_its_public_mode(monkeypatch):
    from rewards._bounded import public

    monkeypatch.setenv("PLAYGROUND_PUBLIC", "1")
    assert public() is True
    monkeypatch.setenv("PLAYGROUND_PUBLIC", "0")
    assert public() is False


def test_the_judge_loads_through_the_playgrounds_loader(tmp_path):
    from playground.errors import ModelLoadError
    from rewards import host

    with pytest.raises(ModelLoadError):  # the engine's loader, with its one-sentence errors
        host.load_model(str(tmp_path / "no-model-here"))
