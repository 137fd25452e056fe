"""Runs that continue: a run stopped, or killed (a real process, SIGKILL), and continued from its checkpoint takes the
same steps as the run that was never interrupted (the same `reward`, `loss` and `kl`, exactly); a finished run trains
further from its final state."""

import json
import os
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path

import pytest

from playground.errors import PlaygroundError
from playground.training.checkpoint import GRPO_STATE, KEEP_CHECKPOINTS, checkpoint_root, last_checkpoint
from playground.training.run_queue import JobManager
from playground.training.store import RunStore, run_seconds
from tests.support import tiny_models


pytestmark = pytest.mark.slow  # real runs of several steps (and a launched app)


ROOT = Path(__file__).resolve().parents[3]
STEPS = 10
KEYS = ("reward", "loss", "kl")
# A learning rate large enough that a step moves the samples: a resumed state that differed would show in the rewards.
tiny_spec = partial(
    tiny_models.tiny_spec, max_steps=STEPS, max_completion_length=8, learning_rate=5e-3, save_steps=5, beta=0.04
)


def wait(job, timeout=600):
    job.join(timeout)
    assert not job.active, f"job still {job.status} after {timeout} s"


def step_rows(run) -> dict[int, dict]:
    rows = [r for r in run.metrics() if r.get("phase") == "grpo" and "reward" in r]
    steps = [r["step"] for r in rows]
    assert len(steps) == len(set(steps)), f"repeated steps: {steps}"
    return {r["step"]: r for r in rows}


def assert_same_steps(got: dict[int, dict], want: dict[int, dict], steps) -> None:
    """Exactly equal: the checkpoint restores the RNG the fast path samples from, so the same tokens are drawn."""
    for step in steps:
        for key in KEYS:
            assert got[step][key] == want[step][key], (step, key)


@pytest.fixture(scope="module")
def reference(tmp_path_factory, tiny_model_dir):
    """The uninterrupted 10-step run: its rows by step."""
    manager = JobManager(RunStore(tmp_path_factory.mktemp("reference")))
    job = manager.start(tiny_spec(tiny_model_dir))
    wait(job)
    assert job.status == "finished", job.error
    rows = step_rows(job.run)
    assert sorted(rows) == list(range(1, STEPS + 1))
    # the samples move from step to step: equal rows below are not equal by chance
    assert len({rows[s]["reward"] for s in rows}) > 3
    return job.run


def test_stop_then_continue_takes_the_uninterrupted_steps(tmp_path, tiny_model_dir, reference):
    manager = JobManager(RunStore(tmp_path))
    job = manager.start(tiny_spec(tiny_model_dir))
    job.listeners.append(lambda row: row.get("step") == 3 and "reward" in row and job.stop())
    wait(job)
    assert job.status == "stopped"
    stopped_at = job.run.status()["step"]
    assert 3 <= stopped_at < STEPS  # Stop takes effect inside step 4's rollout
    checkpoint = last_checkpoint(job.run.path)
    assert checkpoint.name == f"checkpoint-{stopped_at}"  # Stop saved the whole state, off the save_steps
    assert {p.name for p in checkpoint.iterdir()} >= {
        "adapter_model.safetensors",
        "optimizer.pt",
        "scheduler.pt",
        "rng_state.pth",
        "trainer_state.json",
        GRPO_STATE,
    }

    # The first segment trained 100 s and stopped an hour ago: the run's duration counts both segments, not the hour.
    status_file = job.run.path / "status.json"
    ended = datetime.now(UTC) - timedelta(hours=1)
    first = {"started_at": (ended - timedelta(seconds=100)).isoformat(), "finished_at": ended.isoformat()}
    status_file.write_text(json.dumps({**json.loads(status_file.read_text()), **first}))
    started = time.monotonic()
    continued = manager.resume(job.run.id)
    assert continued.run.path == job.run.path and continued.step == stopped_at
    wait(continued)
    second = time.monotonic() - started
    assert continued.status == "finished", continued.error
    assert 100.0 < run_seconds(continued.run.status()) <= 100.0 + second + 1.0
    rows = step_rows(continued.run)
    assert sorted(rows) == list(range(1, STEPS + 1))  # no repeated and no missing steps
    assert_same_steps(rows, step_rows(reference), range(stopped_at + 1, STEPS + 1))
    assert continued.run.status()["step"] == STEPS
    # bounded disk: the newest checkpoints only
    kept = sorted(int(p.name.split("-")[1]) for p in checkpoint_root(job.run.path).glob("checkpoint-*"))
    assert len(kept) <= KEEP_CHECKPOINTS and kept[-1] == STEPS


def test_sigkill_between_steps_then_continue_from_the_command_line(tmp_path, tiny_model_dir, reference, capsys):
    """The killed run is a real process; it continues through `main()`, the function the command's process calls."""
    from playground.cli.main import main

    spec_file = tmp_path / "spec.json"
    spec_file.write_text(tiny_spec(tiny_model_dir).to_json())
    runs = tmp_path / "runs"
    env = dict(os.environ, HF_HUB_OFFLINE="1", PYTHONPATH=str(ROOT))
    cmd = [sys.executable, "-m", "playground", "train", "--spec", str(spec_file), "--out", str(runs)]
    proc = subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 600
    try:
        while not list(runs.glob("*/trainer/checkpoint-5")) and time.time() < deadline:
            assert proc.poll() is None, proc.stderr.read()
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGKILL)  # checkpoint-5 is renamed into place after step 5: step 6 is under way
    finally:
        proc.kill()
        proc.wait()
    (run_dir,) = [p for p in runs.iterdir() if p.is_dir() and not p.name.startswith(".")]
    store = RunStore(runs)
    assert store.get(run_dir.name).status()["status"] == "interrupted"

    capsys.readouterr()
    assert main(["train", "--resume_from_checkpoint", run_dir.name, "--out", str(runs)]) == 0, capsys.readouterr().err
    assert capsys.readouterr().err.splitlines()[-1] == f"run {run_dir.name} finished"
    run = store.get(run_dir.name)
    assert run.status()["status"] == "finished"
    rows = step_rows(run)
    assert sorted(rows) == list(range(1, STEPS + 1))
    assert_same_steps(rows, step_rows(reference), range(6, STEPS + 1))
    assert {s["step"] for s in run.samples()} == set(range(1, STEPS + 1))
    assert len(run.samples()) == len(reference.samples())


def test_a_finished_run_trains_further_with_a_larger_max_steps(tmp_path, tiny_model_dir, reference):
    """TRL's default scheduler is linear over `max_steps`: a 5-step run's learning rate falls to 0 by its step 5, the
    10-step run's only by step 10. Trained further to 10 steps, the restored scheduler, over the new `max_steps`, gives
    steps 6-10 the 10-step run's learning rates; steps 2-5 were taken at the 5-step run's faster falling rates, so the
    adapter, and the rewards after step 1, differ from the 10-step run's. (With a constant schedule they would not.)"""
    manager = JobManager(RunStore(tmp_path))
    job = manager.start(tiny_spec(tiny_model_dir, max_steps=5))
    wait(job)
    assert job.status == "finished"
    first = step_rows(job.run)
    with pytest.raises(PlaygroundError, match="already reached step 5 of 5"):
        manager.resume(job.run.id)

    further = manager.resume(job.run.id, max_steps=STEPS)
    wait(further)
    assert further.status == "finished", further.error
    rows, ref = step_rows(further.run), step_rows(reference)
    assert sorted(rows) == list(range(1, STEPS + 1))
    rate = {s: rows[s]["learning_rate"] for s in rows}
    assert [rate[s] for s in range(1, 6)] == [first[s]["learning_rate"] for s in range(1, 6)]
    assert [rate[s] for s in range(6, STEPS + 1)] == pytest.approx([ref[s]["learning_rate"] for s in range(6, 11)])
    assert rate[6] > 0 and rate[5] < ref[5]["learning_rate"]  # step 6 learns again; step 5 was the old schedule's
    assert rows[1]["reward"] == ref[1]["reward"]  # the same first step: only the rates of steps 2-5 differ
    assert json.loads((further.run.path / "spec.json").read_text())["grpo"]["max_steps"] == STEPS
    assert further.run.status()["max_steps"] == STEPS


def test_continue_refusals(tmp_path, tiny_model_dir):
    store = RunStore(tmp_path)
    public = JobManager(store, public=True)
    run = store.create(tiny_spec(tiny_model_dir).to_dict(), owner="alice")
    run.write_status(status="finished", step=STEPS)
    with pytest.raises(PlaygroundError, match="Only the session that started this run can continue it"):
        public.resume(run.id, owner="mallory")
    with pytest.raises(PlaygroundError, match="Only the session that started this run can continue it"):
        public.resume(run.id, owner=None)
    with pytest.raises(PlaygroundError, match="no checkpoint to continue from"):
        public.resume(run.id, owner="alice")
    with pytest.raises(PlaygroundError, match="is not a valid run name"):
        public.resume(str(run.path), owner="alice")  # a public app takes run ids only, never a path


def test_a_run_interrupted_before_its_first_checkpoint_starts_over_in_its_folder(tmp_path, tiny_model_dir):
    store = RunStore(tmp_path)
    run = store.create(tiny_spec(tiny_model_dir, max_steps=2).to_dict())
    run.append_metrics({"step": 1, "phase": "grpo", "reward": 0.5})  # what the killed process had logged
    run.append_samples([{"step": 1, "prompt": "p", "completion": "c", "rewards": {}, "advantage": 0.0}])
    run.write_status(status="interrupted", step=1)
    job = JobManager(store).resume(run.id)
    assert job.run.path == run.path and job.start_step == 0
    wait(job)
    assert job.status == "finished", job.error
    assert sorted(step_rows(run)) == [1, 2] and step_rows(run)[1]["reward"] != 0.5
    assert [s["step"] for s in run.samples()].count(1) == 4  # one group of 4, not the killed process's row too


def test_a_public_queue_outlives_the_app_process(tmp_path, tiny_model_dir):
    """The queue is kept in the runs folder: a new manager on the folder (the restarted app) reads it back and starts
    its first run; a queued continuation keeps its run and checkpoint."""
    from playground.training.run_queue import QUEUE_FILE, Waiting

    store = RunStore(tmp_path)
    before = JobManager(store, public=True)
    stopped = store.create(tiny_spec(tiny_model_dir).to_dict(), owner="carol")
    checkpoint = checkpoint_root(stopped.path) / "checkpoint-5"
    before._enqueue(Waiting(tiny_spec(tiny_model_dir, max_steps=1), "bob", None, "10.0.0.2"))
    before._enqueue(Waiting(tiny_spec(tiny_model_dir), "carol", None, "10.0.0.3", run=stopped, resume_from=checkpoint))
    assert (tmp_path / QUEUE_FILE).is_file() and {i.id for i in store.list()} == {stopped.id}  # not a run

    after = JobManager(store, public=True)  # the restarted app
    started = after.current
    assert started is not None and started.owner == "bob" and started.spec.grpo.max_steps == 1
    assert [(w.owner, w.address, w.run.id, w.resume_from) for w in after.waiting] == [
        ("carol", "10.0.0.3", stopped.id, checkpoint)
    ]
    assert after.position("carol")["position"] == 1
    after.cancel("carol")
    assert JobManager(store, public=True).waiting == []  # the cancel was written too
    wait(started)
    assert started.status == "finished", started.error


def test_a_continued_runs_time_left_counts_the_steps_left_from_its_checkpoint(tmp_path, tiny_model_dir):
    from playground.training.progress import PhaseClock

    store = RunStore(tmp_path)
    run = store.create(tiny_spec(tiny_model_dir).to_dict())
    checkpoint = checkpoint_root(run.path) / "checkpoint-6"
    checkpoint.mkdir(parents=True)
    (checkpoint / "trainer_state.json").write_text(json.dumps({"global_step": 6}))
    from playground.training.job import TrainingJob

    job = TrainingJob(tiny_spec(tiny_model_dir), run, resume_from=checkpoint)  # not started
    assert (job.step, job.start_step, run.status()["step"]) == (6, 6, 6)
    now = [0.0]
    job.clock = PhaseClock(clock=lambda: now[0])
    job.clock.enter("grpo")
    now[0] = 2.0
    job.clock.step("grpo")  # step 7 took 2 s: steps 8-10 are left
    assert job.eta(0, 0) == (6.0, 6.0)


def test_health_alerts_read_the_rows_from_before_the_checkpoint(tmp_path, tiny_model_dir):
    """A continued run's alerts are those of all its rows, as if it had not stopped (the rows before the checkpoint
    are read back from metrics.jsonl, the rows past it dropped)."""
    from playground.training.job import TrainingJob

    store = RunStore(tmp_path)
    run = store.create(tiny_spec(tiny_model_dir).to_dict())
    for step in range(1, 8):  # every group the same reward: no signal to learn from, a known alert
        row = {"step": step, "phase": "grpo", "reward": 0.5, "reward_std": 0.0, "frac_reward_zero_std": 1.0}
        run.append_metrics(row | {"loss": 0.0, "kl": 0.0, "completions/clipped_ratio": 0.0})
    checkpoint = checkpoint_root(run.path) / "checkpoint-6"
    checkpoint.mkdir(parents=True)
    (checkpoint / "trainer_state.json").write_text(json.dumps({"global_step": 6}))
    job = TrainingJob(tiny_spec(tiny_model_dir), run, resume_from=checkpoint)
    job._continue_records()
    assert [r["step"] for r in run.metrics()] == [1, 2, 3, 4, 5, 6]
    assert [(a["code"], a["step"]) for a in job.alerts] == [("no_signal", 6)]


def test_a_save_killed_half_way_leaves_the_previous_checkpoint(tmp_path):
    """What a process killed while it saved leaves: the staged folder, never a half-written checkpoint-<step>."""
    from playground.training.checkpoint import STAGING, drop_later_checkpoints

    root = checkpoint_root(tmp_path)
    whole = root / "checkpoint-5"
    whole.mkdir(parents=True)
    (whole / "trainer_state.json").write_text(json.dumps({"global_step": 5}))
    half = root / STAGING / "checkpoint-10"
    half.mkdir(parents=True)
    (half / "optimizer.pt").write_bytes(b"\0" * 10)  # no trainer_state.json yet
    assert last_checkpoint(tmp_path) == whole
    drop_later_checkpoints(tmp_path, 5)  # what continuing from it does first
    assert not (root / STAGING).exists() and last_checkpoint(tmp_path) == whole


def test_a_run_with_a_warmup_and_evals_continues_against_its_warmed_up_reference(tmp_path, tiny_model_dir):
    """With an SFT warm-up, KL is measured to the warmed-up adapter (TRL's "ref" adapter, saved in the checkpoint's
    ref/): the continued run skips the warm-up, takes that reference back, and its evals go on where they were."""
    spec = partial(tiny_spec, tiny_model_dir, max_steps=4, save_steps=2, sft_warmup_steps=2, sft_num_examples=4)
    manager = JobManager(RunStore(tmp_path))
    whole = manager.start(spec(eval_every=2, eval_prompts=2))
    wait(whole)
    assert whole.status == "finished", whole.error
    job = manager.start(spec(eval_every=2, eval_prompts=2))
    job.listeners.append(lambda row: row.get("step") == 1 and "reward" in row and job.stop())
    wait(job)
    stopped_at = job.run.status()["step"]
    assert job.status == "stopped" and (last_checkpoint(job.run.path) / "ref").is_dir()
    continued = manager.resume(job.run.id)
    wait(continued)
    assert continued.status == "finished", continued.error
    assert_same_steps(step_rows(continued.run), step_rows(whole.run), range(stopped_at + 1, 5))
    warmup = [r["step"] for r in continued.run.metrics() if r.get("phase") == "warmup" and "warmup/loss" in r]
    assert warmup == [1, 2]  # once, not again
    # Stop at step 2 skipped that step's eval; the continued run makes it before its first step
    assert list(eval_rewards(continued.run)) == [(0, "base"), (0, "warmup"), (2, "grpo"), (4, "grpo")]
    assert eval_rewards(continued.run) == eval_rewards(whole.run)


def eval_rewards(run) -> dict[tuple, float]:
    return {(r["step"], r["eval_of"]): r["eval_reward"] for r in run.metrics() if r.get("phase") == "eval"}
