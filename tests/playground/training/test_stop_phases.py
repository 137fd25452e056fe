"""Stop ends a run within one step of whatever phase it is in (SFT warm-up, held-out eval, GRPO), and what exists is
kept: the rows logged so far and the adapter."""

import pytest

from playground.training.run_queue import JobManager
from playground.training.store import RunStore
from tests.playground.training.test_job import tiny_spec, wait


@pytest.fixture
def manager(tmp_path):
    return JobManager(RunStore(tmp_path / "runs"))


def stop_at_first(job, phase: str) -> None:
    """Press Stop as the first row of `phase` is logged (from the training thread, as the page's Stop would)."""
    job.listeners.append(lambda row: job.stop() if row.get("phase") == phase else None)


def test_stop_during_the_warmup_ends_it_within_one_step_and_skips_grpo(manager, tiny_model_dir):
    spec = tiny_spec(tiny_model_dir, max_steps=3, sft_warmup_steps=5, sft_num_examples=4)
    job = manager.start(spec)
    stop_at_first(job, "warmup")
    wait(job)
    assert job.status == "stopped", job.error
    rows = job.run.metrics()
    warmup = [r for r in rows if r["phase"] == "warmup" and "warmup/loss" in r]
    assert 1 <= len(warmup) <= 2, [r["step"] for r in warmup]  # the step logged, at most the one under way
    assert not [r for r in rows if r["phase"] == "grpo"]
    assert job.run.status()["status"] == "stopped" and job.run.has_adapter


def test_stop_during_an_eval_ends_it_after_the_prompt_under_way_and_writes_no_partial_row(manager, tiny_model_dir):
    """Stop pressed while the base model's eval scores its first of 3 prompts: the eval ends there (no eval row, no
    warm-up, no GRPO step), and the run is stopped with its adapter saved."""
    from playground.scoring import RewardChoice

    holder = {}
    calls = []

    def press_stop(completions, **kwargs):
        calls.append(len(completions))
        holder["job"].stop()
        return [0.0] * len(completions)

    spec = tiny_spec(tiny_model_dir, max_steps=3, sft_warmup_steps=2, sft_num_examples=4, eval_every=3, eval_prompts=3)
    spec.set("eval_num_generations", 2)
    spec.rewards = [RewardChoice("press_stop", 1.0, {})]
    job = holder["job"] = manager.start(spec, custom_rewards={"press_stop": press_stop})
    wait(job)
    assert job.status == "stopped", job.error
    assert calls == [2]  # the first eval prompt's group only
    assert job.run.metrics() == []
    assert not (job.run.path / "warmup_examples.jsonl").exists()  # the warm-up did not start
    assert job.run.status()["status"] == "stopped" and job.run.has_adapter


def test_stop_during_a_rollout_ends_the_generation_within_one_decode_step(manager, tiny_model_dir):
    """Stop pressed as step 1 is logged, so that it lands before step 2's rollout of 64 new tokens a completion (the
    random model writes no EOS): that rollout ends at its first decode step (the embedding runs once, for the prompt,
    not once a token), step 2 is dropped before its optimizer step, and step 1 is kept as a checkpoint."""
    import threading

    import torch

    from playground.training.checkpoint import last_checkpoint

    spec = tiny_spec(tiny_model_dir, max_steps=3, max_completion_length=64, eval_every=0)
    embedded_after_stop = []  # the training thread's embedding calls once Stop is pressed: one a decode step

    def count(module, args):
        if isinstance(module, torch.nn.Embedding) and threading.current_thread().name.startswith("grpo-"):
            if holder["job"].stop_requested.is_set():
                embedded_after_stop.append(tuple(args[0].shape))

    holder = {}
    hook = torch.nn.modules.module.register_module_forward_pre_hook(count)
    try:
        job = holder["job"] = manager.start(spec)
        job.listeners.append(lambda row: job.stop() if row.get("phase") == "grpo" and row.get("step") == 1 else None)
        wait(job)
    finally:
        hook.remove()
    assert job.status == "stopped", job.error
    assert job.run.status()["step"] == 1
    assert [r["step"] for r in job.run.metrics() if r.get("phase") == "grpo" and "loss" in r] == [1]
    assert len(embedded_after_stop) <= 1, embedded_after_stop  # the prompt's prefill at most; no token decoded
    assert last_checkpoint(job.run.path).name == "checkpoint-1"
    assert job.run.has_adapter
