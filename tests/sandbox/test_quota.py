"""The worker folder's disk quota, cleaning between calls (public mode), and the sweep of orphaned folders."""

import dataclasses
import os
import subprocess
import sys
import time

import pytest

from playground.runtime.tempdirs import expire_files, make_temp_dir, sweep_orphans
from playground.sandbox import PUBLIC_LIMITS, SandboxError
from tests.sandbox.conftest import LIMITS


WRITER = """
import os

with open("loaded.bin", "wb") as f:  # written while loading: kept between calls
    f.write(b"l" * 1024)

calls = 0


def reward(completions, **kwargs):
    global calls
    calls += 1
    with open(f"call-{calls}.bin", "wb") as f:
        f.write(b"x" * (10 << 20))
    return [float(len(os.listdir(".")))] * len(completions)
"""
SMALL_DISK = dataclasses.replace(LIMITS, disk_mb=32, disk_files=100)


def mb(sandbox) -> float:
    return sandbox.disk_usage()[0] / 2**20


def test_public_mode_cleans_the_folder_between_calls(make_sandbox):
    limits = dataclasses.replace(SMALL_DISK, clean_between_calls=True)
    sandbox = make_sandbox(WRITER, ["reward"], limits)
    for _ in range(6):  # 60 MB written in all, against a 32 MB quota: each call starts from what loading left
        assert sandbox.call("reward", ["a"]).values == [2.0]  # loaded.bin and this call's file
        assert mb(sandbox) < 1
    assert os.listdir(sandbox.workdir) == ["loaded.bin"]  # the worker's log is not in its folder
    assert PUBLIC_LIMITS.clean_between_calls and not LIMITS.clean_between_calls


def test_files_that_pile_up_across_calls_hit_the_quota(make_sandbox):
    sandbox = make_sandbox(WRITER, ["reward"], SMALL_DISK)
    assert [sandbox.call("reward", ["a"]).values for _ in range(3)] == [[2.0], [3.0], [4.0]]
    workdir = sandbox.workdir
    assert 30 < mb(sandbox) < 32
    with pytest.raises(SandboxError) as err:
        sandbox.call("reward", ["a"])
    assert str(err.value).startswith(
        "Reward 'reward' wrote more than the sandbox's disk quota (32 MB and 100 files in its folder; it held 40 MB"
    )
    assert sandbox.pid is None and not os.path.exists(workdir)
    assert sandbox.call("reward", ["a"]).values == [2.0]  # a fresh worker, an empty folder


def test_loading_code_that_fills_the_disk_is_refused(make_sandbox):
    source = "for i in range(2):\n    open(f'{i}.bin', 'wb').write(b'x' * (20 << 20))\n"
    sandbox = make_sandbox(source, [], SMALL_DISK)
    with pytest.raises(SandboxError) as err:
        sandbox.start()
    assert str(err.value).startswith("Loading the custom code wrote more than the sandbox's disk quota (32 MB")
    assert sandbox.pid is None


def test_worker_folders_are_named_after_the_app_process(make_sandbox):
    sandbox = make_sandbox(WRITER, ["reward"])
    sandbox.start()
    workdir = sandbox.workdir
    assert os.path.basename(workdir).startswith(f"playground-sandbox-{os.getpid()}-")
    sandbox.close()
    assert not os.path.exists(workdir)


def test_sweep_removes_the_folders_of_dead_processes_only(tmp_path):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    old = time.time() - 2 * 24 * 3600
    names = {
        f"playground-sandbox-{dead.pid}-abc": True,  # its app was killed: an orphan
        f"playground-downloads-{dead.pid}-abc": True,
        f"playground-sandbox-{os.getpid()}-abc": False,  # this process: alive
        f"playground-downloads-{os.getppid()}-abc": False,  # another live process (pytest's parent)
        "playground-sandbox-legacy_old": True,  # an older version's name, untouched for two days
        "playground-downloads-legacy_new": False,  # an older version's, recent: it may be in use
        "other-folder-1": False,
    }
    for name in names:
        (tmp_path / name).mkdir()
        (tmp_path / name / "file").write_text("x")
    os.utime(tmp_path / "playground-sandbox-legacy_old", (old, old))
    removed = sweep_orphans(str(tmp_path))
    assert sorted(os.path.basename(p) for p in removed) == sorted(n for n, orphan in names.items() if orphan)
    assert sorted(os.listdir(tmp_path)) == sorted(n for n, orphan in names.items() if not orphan)


def test_download_files_expire(tmp_path):
    for name, age in (("fresh.zip", 10), ("stale.zip", 7200), ("stale-folder", 7200)):
        path = tmp_path / name
        path.mkdir() if "." not in name else path.write_text("x")
        os.utime(path, (time.time() - age, time.time() - age))
    assert expire_files(tmp_path, 3600) == 2
    assert os.listdir(tmp_path) == ["fresh.zip"]


def test_make_temp_dir_knows_its_kinds():
    folder = make_temp_dir("downloads")
    try:
        assert os.path.basename(folder).startswith(f"playground-downloads-{os.getpid()}-")
    finally:
        os.rmdir(folder)
    with pytest.raises(ValueError):
        make_temp_dir("secrets")
