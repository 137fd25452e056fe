"""The accelerate backend: two real CPU processes (gloo) train the tiny model, watched through the run folder."""

import os
import threading
from collections import Counter

import pytest

from playground.errors import PlaygroundError, SpecError
from playground.training.launcher import LaunchedJob, batch_summary, crash_report
from playground.training.rank import state_digest
from playground.training.run_queue import JobManager
from playground.training.store import RunStore
from playground.validation import validate_spec
from tests.playground.training.test_job import tiny_spec


@pytest.mark.multiproc
def test_two_processes_train_live_stop_and_save_the_adapter_both_ranks_hold(tmp_path, tiny_model_dir):
    """One run for every live check (2-process runs are slow): ranks, live metrics, Stop, and the saved adapter."""
    from peft import PeftModel, get_peft_model_state_dict
    from transformers import AutoModelForCausalLM

    # 2 completions per process × 2 processes = one group of 4: one process alone could not take this batch.
    spec = tiny_spec(tiny_model_dir, num_processes=2, per_device_train_batch_size=2, max_steps=40, learning_rate=1e-2)
    spec.set("save_steps", 100)
    manager = JobManager(RunStore(tmp_path / "runs"))
    job = manager.start(spec, owner="me")
    assert isinstance(job, LaunchedJob)
    first_row = threading.Event()
    seen = []

    def on_row(row):
        if "reward" in row and not first_row.is_set():
            # Read while the processes train: the row is in the run folder and the run is still going.
            seen.append((job.run.status()["status"], [m["step"] for m in job.run.metrics() if "reward" in m]))
            first_row.set()

    job.listeners.append(on_row)
    assert first_row.wait(300), job.run.path.joinpath("launch.log").read_text()[-3000:]
    # The rows arrive while the processes train (how many are in by the time the poller calls back depends on load).
    assert len(seen) == 1 and seen[0][0] == "running" and seen[0][1][:1] == [1]
    assert job.active and job.snapshot()["step"] >= 1
    with pytest.raises(PlaygroundError, match="Only the session that started"):
        manager.stop(owner="someone else")
    manager.stop(owner="me")
    job.join(300)

    status = job.run.status()
    assert job.status == status["status"] == "stopped", status.get("error")
    steps = status["step"]
    assert 1 <= steps < 40  # stopped early, at a step all ranks agreed on
    ranks = status["processes"]
    assert [r["rank"] for r in ranks] == [0, 1] and len({r["pid"] for r in ranks} | {os.getpid()}) == 3
    assert [r["steps"] for r in ranks] == [steps, steps]
    assert ranks[0]["lora_sha256"] == ranks[1]["lora_sha256"]  # DDP kept the two replicas equal
    assert (status["num_processes"], status["completions_per_step"]) == (2, 4)

    metrics = [m for m in job.run.metrics() if "reward" in m]
    assert [m["step"] for m in metrics] == list(range(1, steps + 1))
    per_step = Counter(s["step"] for s in job.run.samples())
    assert per_step == {step: 4 for step in range(1, steps + 1)}  # the global batch, gathered from both ranks

    base = AutoModelForCausalLM.from_pretrained(tiny_model_dir)
    adapter = get_peft_model_state_dict(PeftModel.from_pretrained(base, job.run.adapter_dir))
    assert state_digest(adapter) == ranks[0]["lora_sha256"]  # the saved adapter is the one the ranks trained
    assert any(t.abs().sum() > 0 for name, t in adapter.items() if "lora_B" in name)  # and it moved (B starts at 0)


@pytest.mark.multiproc
def test_a_crash_of_the_processes_fails_the_run_with_the_ranks_error(tmp_path, tiny_model_dir):
    spec = tiny_spec(tiny_model_dir, num_processes=2, per_device_train_batch_size=2)
    run = RunStore(tmp_path / "runs").create(spec.to_dict())
    (run.path / "spec.json").write_text("{not json", encoding="utf-8")  # each rank fails reading it
    job = LaunchedJob(spec, run).start()
    job.join(300)
    assert job.status == "failed"
    assert job.error.startswith("The 2 training processes exited with code 1: playground.errors.PlaygroundError: ")
    assert "spec.json" in job.error
    status = run.status()
    assert status["status"] == "failed" and status["error"] == job.error
    lines = status["traceback"].splitlines()
    assert any('playground/training/rank.py", line' in line for line in lines)  # the rank's own traceback
    assert lines[-1].startswith("playground.errors.PlaygroundError")


def test_crash_report_skips_the_launchers_summary():
    lines = [
        "Traceback (most recent call last):",
        '  File "rank.py", line 3, in main',
        "ValueError: generation_batch_size (2) must be divisible by num_generations (4).",
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ",
        "=====",
        "  exitcode  : 1 (pid: 12)",
    ]
    assert crash_report(lines) == (lines[2], lines[:3])
    assert crash_report(["just", "output", ""]) == ("output", ["just", "output", ""])
    assert crash_report([]) == ("no output", [])


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        (
            dict(num_processes=2, per_device_train_batch_size=3, num_generations=4),
            "The generation batch over 2 processes (per_device_train_batch_size 3 × num_processes 2 × "
            "steps_per_generation 1 = 6) must be divisible by num_generations (4); use a multiple of 2 as "
            "per_device_train_batch_size, or another process count.",
        ),
        (
            dict(num_processes=2, per_device_train_batch_size=1, num_generations=6, steps_per_generation=2),
            "The generation batch over 2 processes (per_device_train_batch_size 1 × num_processes 2 × "
            "steps_per_generation 2 = 4) must be divisible by num_generations (6); use a multiple of 3 as "
            "per_device_train_batch_size, or another process count.",
        ),
        (dict(num_processes=0), "num_processes must be at least 1, got 0."),
        (
            dict(num_processes=os.cpu_count() + 1, per_device_train_batch_size=8, num_generations=8),
            f"num_processes is {os.cpu_count() + 1} but this machine has {os.cpu_count()} CPU core(s)",
        ),
        (dict(num_processes=2, sft_warmup_steps=3), "The SFT warm-up runs in the app's own process only"),
    ],
)
def test_validation_names_the_process_arithmetic(tiny_model_dir, settings, message):
    spec = tiny_spec(tiny_model_dir, device="cpu", **settings)
    with pytest.raises(SpecError) as info:
        validate_spec(spec)
    assert str(info.value).startswith(message)
    from playground.texts import render

    assert "num_processes" in render("zh", info.value) != str(info.value)  # the zh page reads it too


def test_a_batch_that_divides_only_over_all_processes_is_accepted_and_described(tiny_model_dir):
    spec = tiny_spec(tiny_model_dir, device="cpu", num_processes=2, per_device_train_batch_size=2, num_generations=4)
    validate_spec(spec)  # 2 per process does not hold a group of 4; 2 × 2 does
    assert (spec.generation_batch_size(), spec.completions_per_step()) == (4, 4)
    assert batch_summary(spec) == (
        "4 completions per step = 2 per process × 2 processes × 1 accumulation (1 group of num_generations=4)"
    )
    spec.set("gradient_accumulation_steps", 3)
    spec.set("num_processes", 1)
    assert batch_summary(spec) == (
        "6 completions per step = 2 per process × 1 process × 3 accumulation (1.5 groups of num_generations=4)"
    )
    with pytest.raises(PlaygroundError, match="cannot reach other processes"):
        spec.set("num_processes", 2)
        JobManager(RunStore(tiny_model_dir / "no-runs")).start(spec, custom_rewards={"mine": len})
    assert not (tiny_model_dir / "no-runs").exists()  # refused before a run folder was made


def test_the_cli_flag_reaches_the_process_check(tmp_path, capsys):
    from playground.cli.main import main

    argv = ["train", "--num_processes", "2", "--per_device_train_batch_size", "3", "--num_generations", "4"]
    assert main([*argv, "--device", "cpu", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert "(per_device_train_batch_size 3 × num_processes 2 × steps_per_generation 1 = 6)" in err
    assert not list(tmp_path.iterdir())  # refused before a run folder was made


def test_the_launched_job_answers_what_the_thread_job_answers(tmp_path, tiny_model_dir):
    """The Train tab and the CLI read either backend through the same attributes and snapshot keys."""
    from playground.training.job import TrainingJob

    store = RunStore(tmp_path / "runs")
    spec = tiny_spec(tiny_model_dir, num_processes=2, per_device_train_batch_size=2)
    thread = TrainingJob(spec, store.create(spec.to_dict()), owner="me")  # neither is started
    launched = LaunchedJob(spec, store.create(spec.to_dict()), owner="me")
    assert set(thread.snapshot()) == set(launched.snapshot())  # one snapshot, `JobState.snapshot`
    for name in ("spec", "run", "owner", "custom_rewards", "max_steps", "listeners", "alerts", "status", "error"):
        assert type(getattr(launched, name)) is type(getattr(thread, name)), name
    assert launched.run.status()["completions_per_step"] == 4 and launched.active


def test_the_launched_job_times_each_phase_apart(tmp_path, tiny_model_dir):
    """The time left of a launched run, from what rank 0 writes: loading and evals are not GRPO step time."""
    from playground.training.progress import PhaseClock

    spec = tiny_spec(tiny_model_dir, num_processes=2, per_device_train_batch_size=2, max_steps=4, eval_every=2)
    job = LaunchedJob(spec, RunStore(tmp_path / "runs").create(spec.to_dict()), owner="me")  # not started
    now = [0.0]
    job.clock = PhaseClock(clock=lambda: now[0])

    def rank0(at: float, rows: tuple[dict, ...] = (), **status) -> dict:
        """Rank 0 writes its rows and status at `at` seconds; the watcher polls."""
        now[0] = at
        for row in rows:
            job.run.append_metrics(row)
        job.run.write_status(**status)
        job.poll()
        return job.snapshot()

    rank0(0.0, status="loading")
    assert job.clock.phase is None
    rank0(30.0, status="running", phase="eval")  # 30 s of loading, then the base model's eval
    snap = rank0(36.0, ({"step": 0, "phase": "eval", "eval_of": "base", "eval_reward": 0.1},), phase="grpo")
    assert (snap["phase_eta"], snap["eta"]) == (None, None)  # no GRPO step time yet
    snap = rank0(46.0, ({"step": 1, "phase": "grpo", "reward": 0.2},), step=1)
    # GRPO: 10 s a step, 3 left; evals: 6 s each, 2 left (steps 2 and 4). All elapsed time / steps would say 138 s.
    assert (snap["phase_eta"], snap["eta"]) == (30.0, 42.0)
    snap = rank0(51.0)  # within step 2: it counts down
    assert (snap["phase_eta"], snap["eta"]) == (25.0, 37.0)
    snap = rank0(56.0, ({"step": 2, "phase": "grpo", "reward": 0.3},), step=2, phase="eval")
    assert job.clock.phase == "eval" and snap["phase_eta"] == 12.0  # evals at steps 2 and 4, 6 s each as the first
    snap = rank0(64.0, ({"step": 2, "phase": "eval", "eval_of": "grpo", "eval_reward": 0.4},), phase="grpo")
    # Evals now average 7 s (6 and 8), GRPO steps 10 s: 2 steps and 1 eval left.
    assert (snap["phase_eta"], snap["eta"]) == (20.0, 27.0)
    rank0(70.0, status="stopped")
    assert job.clock.phase is None and job.clock.spent("grpo") == 26.0  # 10 + 10 + 6: the phase's clock stopped
