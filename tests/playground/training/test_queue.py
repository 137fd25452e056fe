"""Public mode's training queue (FIFO, one queued run per visitor, cancel, wall time) and caps, on real tiny runs;
and who may read, change or list a run (training/access.py)."""

import time

import pytest

from playground.errors import PlaygroundError
from playground.scoring import RewardChoice
from playground.training import access
from playground.training.run_queue import JobManager, PublicCaps, estimate_wait
from playground.training.store import RunStore
from tests.playground.training.test_job import tiny_spec, wait


@pytest.fixture
def public_manager(tmp_path, monkeypatch):
    for name in ("PLAYGROUND_SANDBOX_TIMEOUT", "PLAYGROUND_CUSTOM_CODE"):
        monkeypatch.delenv(name, raising=False)
    return JobManager(RunStore(tmp_path / "runs"), public=True, caps=PublicCaps(max_steps=20, max_queued=2))


def test_a_start_while_a_run_goes_is_queued_fifo_and_starts_when_the_run_ends(public_manager, tiny_model_dir):
    first = public_manager.start(tiny_spec(tiny_model_dir, max_steps=1), owner="alice")
    assert public_manager.start(tiny_spec(tiny_model_dir, max_steps=2), owner="bob") is None
    assert public_manager.start(tiny_spec(tiny_model_dir, max_steps=1), owner="carol") is None
    assert [public_manager.position(o)["position"] for o in ("bob", "carol")] == [1, 2]
    assert public_manager.position("alice") is None  # running, not queued
    with pytest.raises(PlaygroundError, match=r"You already have a run waiting in the queue \(position 1\)"):
        public_manager.start(tiny_spec(tiny_model_dir, max_steps=1), owner="bob")
    with pytest.raises(PlaygroundError, match=r"The training queue is full \(2 runs waiting, PLAYGROUND_MAX_QUEUED\)"):
        public_manager.start(tiny_spec(tiny_model_dir, max_steps=1), owner="dave")
    assert public_manager.cancel("carol").owner == "carol"
    with pytest.raises(PlaygroundError, match="You have no run waiting in the queue"):
        public_manager.cancel("carol")
    wait(first)
    assert first.status == "finished", first.error
    for _ in range(600):  # the queue starts bob's run from the finished run's watcher thread
        second = public_manager.current
        if second is not first and second is not None:
            break
        time.sleep(0.1)
    assert second.owner == "bob" and second.max_steps == 2
    wait(second)
    assert second.status == "finished" and public_manager.waiting == []
    assert [info.owner for info in public_manager.store.list()] == ["bob", "alice"]  # carol's never made a folder


def test_a_run_past_its_wall_time_is_stopped(tmp_path, tiny_model_dir):
    manager = JobManager(RunStore(tmp_path / "runs"), public=True, caps=PublicCaps(max_minutes=0.5 / 60))
    job = manager.start(tiny_spec(tiny_model_dir, max_steps=20), owner="alice")
    wait(job)
    assert job.status == "stopped" and job.step < 20
    assert "public limit of 0.00833333 minutes" in job.run.status()["wall_time_error"]


def test_caps_refuse_with_a_clear_message(public_manager, tiny_model_dir):
    with pytest.raises(PlaygroundError, match=r"at most 20 steps \(PLAYGROUND_MAX_STEPS\); this one asks for 1000000"):
        public_manager.start(tiny_spec(tiny_model_dir, max_steps=1000000), owner="alice")
    spec = tiny_spec(tiny_model_dir)
    spec.rewards += [RewardChoice(name, 1.0) for name in ("f1", "f2", "f3", "f4")]
    code = "\n".join(
        f"def {n}(completions, **kw):\n    return [0.0] * len(completions)\n" for n in ("f1", "f2", "f3", "f4")
    )
    with pytest.raises(
        PlaygroundError, match=r"at most 3 custom reward functions .*this one uses 4 \(f1, f2, f3, f4\)"
    ):
        PublicCaps().check(spec, ["f1", "f2", "f3", "f4"], 2.0)
    with pytest.raises(PlaygroundError, match=r"at most 5 s \(PLAYGROUND_MAX_REWARD_SECONDS\); 3 functions × 2 s"):
        PublicCaps(max_reward_seconds=5).check(spec, ["f1", "f2", "f3"], 2.0)
    assert code  # the names the spec's rewards would need
    assert public_manager.current is None and public_manager.store.list() == []


def test_caps_read_the_environment():
    caps = PublicCaps.from_env({"PLAYGROUND_MAX_STEPS": "50", "PLAYGROUND_MAX_RUN_MINUTES": "2.5"})
    assert (caps.max_steps, caps.max_minutes, caps.max_custom_functions) == (50, 2.5, 3)
    with pytest.raises(PlaygroundError, match="Bad setting PLAYGROUND_MAX_QUEUED='many'"):
        PublicCaps.from_env({"PLAYGROUND_MAX_QUEUED": "many"})


def test_outside_public_mode_a_second_start_is_still_refused(tmp_path, tiny_model_dir):
    manager = JobManager(RunStore(tmp_path / "runs"))
    job = manager.start(tiny_spec(tiny_model_dir, max_steps=1), owner="alice")
    with pytest.raises(PlaygroundError, match="already in progress"):
        manager.start(tiny_spec(tiny_model_dir, max_steps=1000), owner="bob")  # no public caps either
    wait(job)


def test_estimated_wait():
    current = {"step": 2, "max_steps": 10, "eta": 40.0}
    assert estimate_wait(current, [], 5.0) == 40.0
    assert estimate_wait(current, [tiny_spec("m", max_steps=4)], 5.0) == 60.0
    assert estimate_wait({"step": 2, "max_steps": 10, "eta": None}, [], 5.0) == 40.0
    assert estimate_wait(current, [], None) is None


@pytest.mark.parametrize(
    "status, viewer, public, read, change, listed",
    [
        ({"owner": "a", "status": "finished"}, "a", True, True, True, True),
        ({"owner": "a", "status": "finished"}, "b", True, False, False, False),
        ({"owner": "a", "status": "running"}, "b", True, False, False, True),  # others see it going, not its content
        ({"owner": "a", "status": "finished", "published": True}, "b", True, True, False, True),
        ({"owner": "a", "status": "finished"}, None, True, False, False, False),
        ({"owner": None, "status": "finished"}, "b", True, True, False, True),  # the operator's (CLI) runs
        ({"owner": "a", "status": "finished"}, "b", False, True, True, True),  # outside public mode: anyone
    ],
)
def test_access_rules(status, viewer, public, read, change, listed):
    got = (
        access.can_read(status, viewer, public),
        access.can_change(status, viewer, public),
        access.can_list(status, viewer, public),
    )
    assert got == (read, change, listed)


def test_a_new_run_is_never_ownerless(tmp_path):
    """The first status.json already names the owner: no moment in which a public app lists it as readable by all
    (bench/workshop.py caught a visitor reading another's run in that window)."""
    run = RunStore(tmp_path).create({"grpo": {"max_steps": 1}}, owner="alice")
    status = run.status()
    assert (status["status"], status["owner"]) == ("queued", "alice")
    assert not access.can_read(status, "bob", True) and access.can_list(status, "bob", True)
