"""Public mode's retention (`playground.training.retention`): runs expire with their checkpoints, finished runs keep
the one checkpoint Continue needs, and new runs are refused past a visitor's disk quota or under the free-disk mark."""

import threading
from datetime import UTC, datetime, timedelta

import pytest

from playground.errors import PlaygroundError
from playground.spec import RunSpec
from playground.training import retention
from playground.training.checkpoint import STAGING, TRAINER_STATE, checkpoint_root, last_checkpoint
from playground.training.run_queue import JobManager, PublicCaps
from playground.training.store import RunStore


OWNER, OTHER = "sha256:" + "1" * 64, "sha256:" + "2" * 64
NOW = datetime(2026, 1, 2, 12, 0, tzinfo=UTC)


def ended(store: RunStore, hours_ago: float, owner: str = OWNER, status: str = "finished", checkpoints=(1, 2)):
    run = store.create(RunSpec().to_dict(), owner=owner)
    run.write_status(status=status)
    when = (NOW - timedelta(hours=hours_ago)).isoformat()
    status_file = run.status()
    if status != "running":
        run.write_status(finished_at=when, updated_at=when)
    for step in checkpoints:
        folder = checkpoint_root(run.path) / f"checkpoint-{step}"
        folder.mkdir(parents=True)
        (folder / TRAINER_STATE).write_text(f'{{"global_step": {step}}}')
        (folder / "adapter_model.safetensors").write_bytes(b"\0" * 1000)
    assert status_file["owner"] == owner
    return run


def test_runs_expire_with_their_checkpoints_after_the_retention_hours(tmp_path):
    store = RunStore(tmp_path)
    old, recent, going = ended(store, 7), ended(store, 1), ended(store, 9, status="running")
    assert retention.expires_at(recent.status(), 6) > NOW
    assert retention.expire_runs(store, 6, now=NOW) == [old.path.name]
    assert not old.path.exists() and recent.path.is_dir() and going.path.is_dir()
    assert retention.expires_at(going.status(), 6) is None  # a run that goes never expires


def test_a_finished_run_keeps_only_the_checkpoint_continue_needs(tmp_path):
    run = ended(RunStore(tmp_path), 0, checkpoints=(1, 2, 3))
    (checkpoint_root(run.path) / STAGING).mkdir()
    retention.thin_checkpoints(run.path)
    assert sorted(p.name for p in checkpoint_root(run.path).iterdir()) == ["checkpoint-3"]
    assert last_checkpoint(run.path).name == "checkpoint-3"


def test_a_visitors_disk_quota_counts_runs_and_uploads(tmp_path):
    store = RunStore(tmp_path)
    ended(store, 0, checkpoints=(1, 2))  # 2,000 bytes of checkpoints, and the run's own files
    caps = PublicCaps(max_visitor_disk_mb=1, min_free_disk_mb=0)
    retention.check_disk(store, OWNER, caps, uploaded=lambda owner: 0)
    retention.check_disk(store, OTHER, caps, uploaded=lambda owner: 0)
    with pytest.raises(PlaygroundError) as err:
        retention.check_disk(store, OWNER, caps, uploaded=lambda owner: 2**20 if owner == OWNER else 0)
    assert "PLAYGROUND_MAX_VISITOR_DISK_MB" in err.value.render("en") and "占用的 MB 数" in err.value.render("zh")


def test_a_low_disk_refuses_new_runs_before_it_fills(tmp_path):
    caps = PublicCaps(min_free_disk_mb=2**40)  # more than any disk has free
    with pytest.raises(PlaygroundError) as err:
        retention.check_disk(RunStore(tmp_path), OWNER, caps)
    assert "PLAYGROUND_MIN_FREE_DISK_MB" in err.value.render("en") and "磁盘仅剩" in err.value.render("zh")


def test_public_start_refuses_past_the_quota_before_a_run_folder_exists(tmp_path):
    store = RunStore(tmp_path)
    caps = PublicCaps(max_visitor_disk_mb=1, min_free_disk_mb=0)
    jobs = JobManager(store, public=True, caps=caps, uploaded=lambda owner: 2**20)  # a visitor's 1 MB of uploads
    spec = RunSpec()
    spec.set("max_steps", 1)
    with pytest.raises(PlaygroundError, match="PLAYGROUND_MAX_VISITOR_DISK_MB"):
        jobs.start(spec, owner=OWNER, address="192.0.2.1")
    assert store.list() == [] and jobs.current is None and not jobs.waiting


def test_delete_and_thinning_at_once_neither_fails(tmp_path):
    """A visitor's Delete and the queue's thinning after the run ended can meet on the same folder: Delete removes the
    whole run and answers, thinning finds nothing left to thin, and neither raises (a raw `FileNotFoundError` from
    one removing what the other had just removed reached the visitor)."""
    store = RunStore(tmp_path)
    failures = []

    def attempt(barrier, action, *args):
        barrier.wait()
        try:
            action(*args)
        except Exception as exc:  # noqa: BLE001 - every failure is collected and asserted on
            failures.append(repr(exc))

    for _ in range(6):
        run = ended(store, 1, checkpoints=range(1, 7))
        for folder in checkpoint_root(run.path).iterdir():
            for index in range(30):
                (folder / f"shard-{index}.bin").write_bytes(b"\0" * 10)
        barrier = threading.Barrier(2)
        threads = [
            threading.Thread(target=attempt, args=(barrier, store.delete, run.path.name)),
            threading.Thread(target=attempt, args=(barrier, retention.thin_checkpoints, run.path)),
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert failures == []
        assert not run.path.exists()
