"""The run store: round trips, concurrent appends, corrupt folders, and recovery of runs whose process died."""

import json
import logging
import os
import signal
import socket
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from playground.errors import PlaygroundError
from playground.training.store import ACTIVE, DEAD_PROCESS_ERROR, FINAL, Run, RunInfo, RunStore


REPO = Path(__file__).resolve().parents[3]
SPEC = {
    "model": {"model_name_or_path": "embedded"},
    "rewards": [{"name": "length", "weight": 1.0, "params": {}}, {"name": "format", "weight": 0.5, "params": {}}],
    "grpo": {"max_steps": 20},
}


@pytest.fixture
def store(tmp_path):
    return RunStore(tmp_path / "runs")


def dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_states_are_disjoint():
    assert set(ACTIVE).isdisjoint(FINAL)
    assert "interrupted" in FINAL and "running" in ACTIVE


def test_default_root_comes_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("PLAYGROUND_RUNS", str(tmp_path / "elsewhere"))
    assert RunStore().root == tmp_path / "elsewhere"
    monkeypatch.delenv("PLAYGROUND_RUNS")
    assert RunStore().root == Path("runs")


def test_create_get_list_delete_round_trip(store):
    run = store.create(SPEC, name="My first run!")
    assert run.id.endswith("-my-first-run")
    stamp = run.id[: len("20261129-185301")]
    assert stamp[8] == "-" and stamp.replace("-", "").isdigit()
    assert run.path == store.root / run.id
    assert json.loads((run.path / "spec.json").read_text()) == SPEC
    assert run.status()["status"] == "queued"
    assert run.status()["pid"] == os.getpid()
    assert run.status()["host"] == socket.gethostname()

    again = store.get(run.id)
    assert again.spec() == SPEC
    assert again.metrics() == [] and again.samples() == []
    again.append_metrics({"step": 1, "reward": 0.25})
    again.append_metrics({"step": 2, "reward": 0.75})
    again.write_status(status="finished", step=2)

    [info] = store.list()
    assert info == RunInfo(
        id=run.id,
        status="finished",
        step=2,
        max_steps=20,
        created_at=run.status()["created_at"],
        model="embedded",
        rewards=["length", "format"],
        final_reward=0.75,
        error=None,
        seconds=0.0,  # finished straight from the queue: it never trained
        pieces=[0.0],
    )
    assert not any(p.name.startswith(".") for p in store.root.iterdir())  # no temporary folders left behind

    store.delete(run.id)
    assert store.list() == []
    with pytest.raises(PlaygroundError, match=f"No run named '{run.id}'"):
        store.get(run.id)


def test_ids_are_unique_and_list_is_newest_first(store):
    runs = [store.create(SPEC, name="same") for _ in range(3)]
    assert len({r.id for r in runs}) == 3
    assert runs[0].id.endswith("-same")
    assert [i.id for i in store.list()] == [r.id for r in reversed(runs)]


def test_create_without_name_gets_a_random_suffix(store):
    run = store.create({})
    suffix = run.id.split("-", 2)[2]
    assert len(suffix) == 6 and int(suffix, 16) >= 0
    [info] = store.list()
    assert (info.model, info.rewards, info.max_steps, info.step, info.final_reward) == (None, [], None, 0, None)


@pytest.mark.parametrize("bad", ["../etc", "a/b", "a\\b", "..", ".", ".creating-x", ""])
def test_get_rejects_path_like_ids(store, bad):
    store.root.mkdir(parents=True)
    with pytest.raises(PlaygroundError):
        store.get(bad)


def test_list_of_a_missing_root_is_empty(tmp_path):
    assert RunStore(tmp_path / "nothing").list() == []


def test_write_status_merges_and_is_atomic(store):
    run = store.create(SPEC)
    created = run.status()["created_at"]
    status = run.write_status(status="running", step=3, max_steps=20)
    assert status["status"] == "running" and status["step"] == 3 and status["created_at"] == created
    assert status["pid"] == os.getpid() and status["host"] == socket.gethostname()
    status = run.write_status(status="failed", error="Out of memory.")
    assert (status["status"], status["step"], status["error"]) == ("failed", 3, "Out of memory.")
    assert json.loads((run.path / "status.json").read_text()) == status
    assert sorted(p.name for p in run.path.iterdir()) == ["spec.json", "status.json"]  # no .tmp files
    with pytest.raises(ValueError, match="Invalid run status"):
        run.write_status(status="exploded")


def test_writers_of_one_status_keep_each_others_fields(store):
    """The training thread writes its step while public mode's watcher writes the wall-time error and Stop writes
    "stopping": a write never drops a field another thread wrote meanwhile."""
    run = store.create(SPEC)
    run.write_status(status="running")

    def write(key: str) -> None:
        writer = Run(run.path)  # another object on the same folder, as the UI's are
        for i in range(60):
            writer.write_status(**{f"{key}{i}": i})

    threads = [threading.Thread(target=write, args=(key,)) for key in ("a", "b", "c")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    status = run.status()
    assert [key for key in (f"{k}{i}" for k in "abc" for i in range(60)) if status.get(key) is None] == []


@pytest.mark.integration  # a process of its own
def test_write_status_can_name_another_owner(store):
    run = store.create(SPEC)
    pid = dead_pid()
    status = run.write_status(status="stopping", pid=pid)  # e.g. the UI asks the trainer (pid) to stop
    assert (status["pid"], status["pid_start"]) == (pid, None)
    assert run.status()["status"] == "interrupted"  # that owner is gone


def test_metrics_appended_from_two_run_objects(store):
    run = store.create(SPEC)
    a, b = Run(run.path), store.get(run.id)
    a.append_metrics({"step": 1, "reward": 0.1})
    b.append_metrics({"step": 2, "reward": 0.2})
    a.append_metrics({"step": 3, "reward": 0.3})
    assert [m["step"] for m in a.metrics()] == [1, 2, 3]
    assert b.metrics() == a.metrics()
    assert len((run.path / "metrics.jsonl").read_text().splitlines()) == 3


def test_nan_and_inf_are_written_as_null(store):
    run = store.create(SPEC)
    run.append_metrics({"step": 1, "loss": float("nan"), "kl": float("inf"), "nested": [float("-inf"), 1.5]})
    line = (run.path / "metrics.jsonl").read_text()
    assert "NaN" not in line and "Infinity" not in line
    assert json.loads(line) == {"step": 1, "loss": None, "kl": None, "nested": [None, 1.5]}


def test_truncated_last_metrics_line_is_skipped_and_later_rows_survive(store, caplog):
    run = store.create(SPEC)
    run.append_metrics({"step": 1, "reward": 0.5})
    with open(run.path / "metrics.jsonl", "a") as f:
        f.write('{"step": 2, "rew')  # a kill in the middle of a write
    with caplog.at_level(logging.WARNING, logger="playground.training.store"):
        assert run.metrics() == [{"step": 1, "reward": 0.5}]
    assert "unreadable line" in caplog.text
    run.append_metrics({"step": 3, "reward": 0.7})  # starts on a fresh line, not glued to the broken one
    assert run.metrics() == [{"step": 1, "reward": 0.5}, {"step": 3, "reward": 0.7}]


def test_samples_last_step_only(store):
    run = store.create(SPEC)
    run.append_samples([{"step": 1, "completion": "a"}, {"step": 1, "completion": "b"}])
    run.append_samples([{"step": 2, "completion": "c"}, {"step": 2, "completion": "d"}])
    run.append_samples([])
    assert [s["completion"] for s in run.samples()] == ["a", "b", "c", "d"]
    assert [s["completion"] for s in run.samples(last_step_only=True)] == ["c", "d"]


def test_adapter(store):
    run = store.create(SPEC)
    assert run.adapter_dir == run.path / "adapter"
    assert not run.has_adapter
    run.adapter_dir.mkdir()
    assert not run.has_adapter  # an empty folder (a save in progress) is not an adapter
    (run.adapter_dir / "adapter_config.json").write_text("{}")
    assert run.has_adapter


def test_list_survives_corrupt_runs(store, caplog):
    good = store.create(SPEC, name="good")
    good.write_status(status="finished")
    truncated_spec = store.create(SPEC, name="truncated-spec")
    (truncated_spec.path / "spec.json").write_text('{"model": {"model_na')
    garbage_status = store.create(SPEC, name="garbage-status")
    (garbage_status.path / "status.json").write_bytes(b"\x00\xff not json")
    no_status = store.create(SPEC, name="no-status")
    (no_status.path / "status.json").unlink()
    (store.root / "notes.txt").write_text("a stray file")
    (store.root / "empty-folder").mkdir()

    with caplog.at_level(logging.WARNING, logger="playground.training.store"):
        infos = {i.id: i for i in store.list()}

    assert set(infos) == {good.id, garbage_status.id, no_status.id}
    assert infos[good.id].status == "finished"
    assert (infos[garbage_status.id].status, infos[garbage_status.id].error) == (
        "interrupted",
        "status.json is unreadable",
    )
    assert infos[no_status.id].status == "interrupted"
    assert infos[no_status.id].model == "embedded"
    for name in ("truncated-spec", "notes.txt", "empty-folder", "status.json is unreadable"):
        assert name in caplog.text
    with pytest.raises(PlaygroundError, match="unreadable"):
        truncated_spec.spec()
    store.delete(garbage_status.id)  # a broken run can still be deleted
    assert garbage_status.id not in {i.id for i in store.list()}


@pytest.mark.integration  # a process that exits
def test_status_of_an_exited_process_is_recovered_as_interrupted(store, caplog):
    run = store.create(SPEC)
    run.write_status(status="running", step=4)
    status = json.loads((run.path / "status.json").read_text())
    status["pid"] = dead_pid()
    (run.path / "status.json").write_text(json.dumps(status))

    with caplog.at_level(logging.WARNING, logger="playground.training.store"):
        recovered = run.status()
    assert recovered["status"] == "interrupted"
    assert recovered["error"] == DEAD_PROCESS_ERROR
    assert recovered["step"] == 4
    assert json.loads((run.path / "status.json").read_text())["status"] == "interrupted"  # rewritten on disk
    assert "marking it interrupted" in caplog.text
    store.delete(run.id)


@pytest.mark.integration  # a process of its own
def test_status_from_another_host_is_left_alone(store):
    run = store.create(SPEC)
    run.write_status(status="running")
    status = json.loads((run.path / "status.json").read_text())
    status.update(pid=dead_pid(), host=socket.gethostname() + "-elsewhere")
    (run.path / "status.json").write_text(json.dumps(status))
    assert run.status()["status"] == "running"
    with pytest.raises(PlaygroundError, match="elsewhere"):
        store.delete(run.id)


def test_reused_pid_is_not_mistaken_for_the_run_process(store):
    if not Path(f"/proc/{os.getpid()}/stat").exists():
        pytest.skip("needs /proc")
    run = store.create(SPEC)
    run.write_status(status="running")
    status = json.loads((run.path / "status.json").read_text())
    status["pid_start"] = "1"  # this pid, but a process that started at another time
    (run.path / "status.json").write_text(json.dumps(status))
    assert run.status()["status"] == "interrupted"


def test_delete_refuses_an_active_run_of_a_live_process(store):
    run = store.create(SPEC)
    run.write_status(status="running")
    assert run.status()["pid"] == os.getpid()
    with pytest.raises(PlaygroundError, match="still running"):
        store.delete(run.id)
    assert run.path.is_dir()
    run.write_status(status="stopped")
    store.delete(run.id)
    assert not run.path.exists()


CHILD = textwrap.dedent(
    """
    import sys, time
    from playground.training.store import RunStore

    run = RunStore(sys.argv[1]).create({"model": {"model_name_or_path": "embedded"}}, name="killed")
    run.write_status(status="running", step=2, max_steps=10)
    run.append_metrics({"step": 1, "reward": 0.1})
    run.append_metrics({"step": 2, "reward": 0.2})
    print(run.id, flush=True)
    time.sleep(120)
    """
)


@pytest.mark.integration  # a process it kills
def test_a_killed_training_process_is_listed_as_interrupted(store):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(store.root)], stdout=subprocess.PIPE, text=True, env=env, cwd=REPO
    )
    try:
        run_id = proc.stdout.readline().strip()
        assert run_id, "the child process did not create a run"
        assert store.get(run_id).status()["status"] == "running"  # alive: left alone
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()

    [info] = store.list()
    assert (info.id, info.status, info.error) == (run_id, "interrupted", DEAD_PROCESS_ERROR)
    assert (info.step, info.max_steps, info.final_reward) == (2, 10, 0.2)
    assert [m["reward"] for m in store.get(run_id).metrics()] == [0.1, 0.2]
    store.delete(run_id)
