"""The private names of TRL, transformers, torch and bitsandbytes the fast path uses live in one module that checks
them at a trainer's start. Each test here makes one of them differ on the real library (a renamed argument, a name
gone), which is what an upgrade does, and a real tiny run still trains, with that part of the fast path off."""

import logging
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
import trl.kernels.chunked_logprob as chunked
from trl import GRPOTrainer

from playground.fastpath import internals
from playground.training.job import TrainingJob
from playground.training.store import RunStore
from tests.support import tiny_models as testing


ROOT = Path(__file__).resolve().parents[3]


def test_the_installed_libraries_have_every_name_the_fast_path_uses():
    assert internals.check((GRPOTrainer,)) == {}


@pytest.mark.integration  # a fresh interpreter
def test_importing_the_fast_path_looks_no_private_name_up():
    gone = "import trl.kernels.chunked_logprob as c, trl.trainer.utils as u; del c._forward_tile, u._use_triton; "
    code = gone + "import playground.fastpath.trainer, playground.fastpath.lm_head, playground; print('imported')"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT)
    assert done.stdout.strip().splitlines()[-1:] == ["imported"], done.stderr[-2000:]


def _renamed_forward_tile(monkeypatch):
    original = chunked._forward_tile

    def _forward_tile(block, stride, *rest, **flags):  # TRL passes the tensors by position: only names differ
        return original(block, stride, *rest, **flags)

    monkeypatch.setattr(chunked, "_forward_tile", _forward_tile)
    return "_forward_tile(block, stride, *rest, **flags)"


def _renamed_triton_switch(monkeypatch):
    import trl.trainer.utils as trl_utils

    original = trl_utils._use_triton

    def _use_triton(where):  # TRL asks it by position
        return original(where)

    monkeypatch.setattr(trl_utils, "_use_triton", _use_triton)
    return "_use_triton(where)"


def _renamed_logits_processor(monkeypatch):
    from transformers import GenerationMixin

    original = GenerationMixin._get_logits_processor

    def _get_logits_processor(self, config=None, input_ids_seq_length=None, encoder_input_ids=None, **kwargs):
        config = kwargs.pop("generation_config", config)  # transformers' own calls name it: they still work
        return original(self, config, input_ids_seq_length, encoder_input_ids, **kwargs)

    monkeypatch.setattr(GenerationMixin, "_get_logits_processor", _get_logits_processor)
    return "_get_logits_processor(self, config=None, input_ids_seq_length=None"


def _bitsandbytes_gone(monkeypatch):
    functional = pytest.importorskip("bitsandbytes.functional")
    monkeypatch.delattr(functional, "_convert_weight_packed_for_cpu_inverse")
    return "_convert_weight_packed_for_cpu_inverse is gone"


def _int8_gone(monkeypatch):
    import torch

    monkeypatch.delattr(torch, "_make_per_channel_quantized_tensor")
    return "torch._make_per_channel_quantized_tensor is gone"


MISMATCHES = {
    "lm_head": _renamed_forward_tile,
    "lm_head switch": _renamed_triton_switch,
    "decode": _renamed_logits_processor,
    "bitsandbytes": _bitsandbytes_gone,
    "int8": _int8_gone,
}


@pytest.mark.parametrize("case", list(MISMATCHES))
def test_a_mismatch_turns_its_part_off_says_so_once_and_the_run_still_trains(
    case, monkeypatch, tiny_model_dir, tmp_path, caplog
):
    part = case.split()[0]
    shown = MISMATCHES[case](monkeypatch)
    monkeypatch.setattr(internals, "_said", set())  # what this process has said so far: nothing, for this test
    caplog.set_level(logging.WARNING, logger="playground.fastpath.internals")
    spec = testing.tiny_spec(tiny_model_dir, max_steps=1)
    run = RunStore(tmp_path / "runs").create(spec.to_dict())
    job = TrainingJob(spec, run).start()
    job.join(timeout=600)
    status = run.status()
    assert status["status"] == "finished", status.get("error_text")
    assert f"{part}: " in status["fast_path_off"] and shown in status["fast_path_off"]
    assert job.snapshot()["fast_path_off"] == status["fast_path_off"]  # what the Train tab reads
    rewards = [row["reward"] for row in run.metrics() if "reward" in row and row.get("phase") != "eval"]
    assert len(rewards) == 1 and math.isfinite(rewards[0])
    [said] = [r.getMessage() for r in caplog.records if f"fast path's {part} is off" in r.getMessage()]
    assert shown in said  # once, though the trainer and the warm-up's head both asked
