"""One run state: the thread job writes status.json's fields, the launched job reads a rank's into the same ones."""

from playground.spec import demo_spec
from playground.training.job import TrainingJob
from playground.training.launcher import LaunchedJob
from playground.training.store import RunStore


ALERT = {"code": "clipped", "message": "Most completions were cut off.", "advice": "Raise it.", "step": 3}


def test_what_the_thread_job_writes_the_launched_job_reads_into_the_same_snapshot(tmp_path):
    store = RunStore(tmp_path)
    spec = demo_spec()
    thread = TrainingJob(spec, store.create(spec.to_dict()))
    thread.write(status="running", step=3, phase="grpo", alerts=[ALERT], reward_errors=0)
    assert thread.run.status()["alerts"] == [ALERT] and thread.run.status()["step"] == 3

    launched = LaunchedJob(spec, store.create(spec.to_dict()))
    assert launched.snapshot()["step"] == 0 and launched.snapshot()["alerts"] == []
    launched.run.write_status(**{k: thread.run.status()[k] for k in ("step", "phase", "alerts")}, status="running")
    launched._read_status()  # what the watcher thread does every poll
    ours, theirs = thread.snapshot(), launched.snapshot()
    for key in ("status", "step", "phase", "alerts", "max_steps", "warmup_step", "reward_errors", "error"):
        assert ours[key] == theirs[key], key
    assert launched.alerts == [ALERT] and launched.step_at is not None  # a new step restarts the ETA's countdown


def test_a_stop_asked_here_outranks_a_running_status_from_the_ranks(tmp_path):
    store = RunStore(tmp_path)
    launched = LaunchedJob(demo_spec(), store.create(demo_spec().to_dict()))
    launched.run.write_status(status="running", step=2, error=None)
    launched._stop_asked = True
    launched._read_status()
    assert launched.status == "stopping" and launched.step == 2 and launched.error is None
