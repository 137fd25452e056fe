"""Setup is called, not imported: importing every module of `playground` and `rewards` changes no global state, and
`playground.bootstrap()` is what makes the playground the reward library's host."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import playground
import rewards.code
import rewards.errors
import rewards.host
from playground.errors import PlaygroundError


ROOT = Path(__file__).resolve().parents[2]
# A fresh interpreter: the state before and after importing every module. The libraries' own import effects (their
# warning filters, their loggers) belong to the baseline, so they are imported first.
SCRIPT = r"""
import importlib, json, logging, os, pkgutil, signal, sys, warnings
import gradio, peft, requests, torch, transformers, trl, urllib3
import playground, rewards


def state():
    import rewards.code, rewards.errors, rewards.host
    from playground import settings
    from rewards import REGISTRY

    loggers = {"": logging.getLogger(), **logging.Logger.manager.loggerDict}
    return {
        "reward host": [repr(rewards.host._public), repr(rewards.host._load_model)],
        "reward error class": repr(rewards.errors.RewardError.host_class),
        "code_tests runner": repr(rewards.code._RUNNER),
        "installed settings": repr(settings._installed),
        "reward registry": sorted(REGISTRY),
        "environment": dict(os.environ),
        "loggers": {
            name: [logger.level, [repr(h) for h in logger.handlers], logger.propagate, logger.disabled]
            for name, logger in loggers.items()
            if isinstance(logger, logging.Logger)
            and (name == "" or name.split(".")[0] in ("playground", "rewards", "trl", "transformers", "gradio"))
            and (logger.handlers or logger.level or not logger.propagate or logger.disabled)
        },
        "warning filters": [repr(f) for f in warnings.filters],
        "signal handlers": {s.name: repr(signal.getsignal(s)) for s in (signal.SIGINT, signal.SIGTERM)},
        "torch": [torch.get_num_threads(), str(torch.get_default_dtype())],
    }


before = state()
names = [
    m.name
    for package in (playground, rewards)
    for m in pkgutil.walk_packages(package.__path__, package.__name__ + ".")
    if not m.name.endswith("__main__")
]
for name in names:
    importlib.import_module(name)
after = state()
print(json.dumps({"imported": names, "changed": {k: [before[k], after[k]] for k in before if before[k] != after[k]}}))
"""


@pytest.mark.integration  # a fresh interpreter
def test_importing_every_module_changes_no_global_state():
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert {"playground.errors", "playground.sandbox.programs", "playground.ui.app", "rewards.host"} <= set(
        found["imported"]
    )
    assert found["changed"] == {}


@pytest.fixture
def bare_host():
    """The reward library as an exported script has it (no host), restored to the suite's host afterwards."""
    saved = (rewards.host._public, rewards.host._load_model, rewards.errors.RewardError.host_class)
    runner = list(rewards.code._RUNNER)
    rewards.host._public, rewards.host._load_model = (lambda: False), None
    rewards.errors.RewardError.host_class = None
    rewards.code._RUNNER[:] = []
    yield
    rewards.host._public, rewards.host._load_model, rewards.errors.RewardError.host_class = saved
    rewards.code._RUNNER[:] = runner


def test_bootstrap_makes_the_playground_the_host(bare_host, monkeypatch):
    from rewards.code import get_code_tests_reward

    assert type(rewards.errors.RewardError("reward.ngram_size", value=0)) is rewards.errors.RewardError  # no host
    with pytest.raises(rewards.errors.RewardError, match="call playground.bootstrap"):
        get_code_tests_reward()(["print(1)"], tests=[[{"input": "", "output": "1"}]])

    monkeypatch.setenv("PLAYGROUND_PUBLIC", "1")
    playground.bootstrap()
    error = rewards.errors.RewardError("reward.ngram_size", value=0)
    assert isinstance(error, PlaygroundError) and error.key == "reward.ngram_size"
    assert rewards.host.is_public() is True  # answer checks follow the installed settings' public mode
    assert type(rewards.code._RUNNER[0]).__name__ == "ProgramRunner"
