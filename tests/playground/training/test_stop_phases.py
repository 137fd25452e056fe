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
