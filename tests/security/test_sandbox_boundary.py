"""The custom-code sandbox's boundary, attacked with the real worker under the public limits: what the app reads back
from a worker, what the worker can list, memory outside its limits, signals through a descriptor's owner, and threads
left running. Each attack is also tried with Landlock capped at ABI 5, as on a kernel before 6.12."""

import dataclasses
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from playground.sandbox import PUBLIC_LIMITS, Sandbox, SandboxError
from tests.security.confinement import require_confinement


LIMITS = dataclasses.replace(PUBLIC_LIMITS, timeout=3.0, load_timeout=10.0)
ABIS = pytest.mark.parametrize("abi", [0, 5], ids=["kernel_abi", "abi5"])
SECRET = "owner-token-of-another-visitor-5f1c"
PROBE = "\n\ndef probe(completions, **kwargs):\n    return [float(len(c)) for c in completions]\n"


@pytest.fixture
def sandboxes(monkeypatch):
    for name in ("PLAYGROUND_CUSTOM_CODE", "PLAYGROUND_PUBLIC", "SPACE_ID", "PLAYGROUND_SANDBOX_READ_PATHS"):
        monkeypatch.delenv(name, raising=False)
    made = []

    def make(source: str, functions=("reward",), abi: int = 0, **limits) -> Sandbox:
        limits = dataclasses.replace(LIMITS, landlock_abi=abi, **limits)
        sandbox = Sandbox(source + PROBE, [*functions, "probe"], limits)
        made.append(sandbox)
        sandbox.start()
        return sandbox

    yield make
    for sandbox in made:
        sandbox.close()


def require(sandbox: Sandbox, *steps: str) -> None:
    """Fails where a step is missing, unless the machine is declared to lack it (tests/security/confinement.py)."""
    require_confinement(sandbox.features, *steps)


def fails(sandbox: Sandbox, function: str = "reward", **kwargs) -> SandboxError:
    with pytest.raises(SandboxError) as err:
        sandbox.call(function, ["a"], **kwargs)
    return err.value


def planted() -> Path:
    """Another visitor's file in the system's temporary folder, as Gradio keeps uploads and downloads."""
    folder = Path(tempfile.mkdtemp(prefix="gradio-like-"))
    (folder / "recipe-of-another-visitor.zip").write_text(SECRET)
    return folder


# --- what the app reads back ----------------------------------------------------------------------------------------

SWAP_LOG = """
import os

def reward(completions, target, **kwargs):
    os.write(2, b"a line of its own stderr\\n")
    if os.path.lexists("worker.log"):  # where the app kept the worker's stderr
        os.unlink("worker.log")
    if target == "fifo":
        os.mkfifo("worker.log")
    else:
        os.symlink(target, "worker.log")
    os._exit(1)
"""


@pytest.mark.timeout(120)  # a FIFO blocked this read forever (bench/failure_paths.py prints how long it takes)
@pytest.mark.parametrize("target", ["environ", "planted", "/dev/zero", "fifo"])
def test_a_log_swapped_for_a_link_or_fifo_is_never_followed(sandboxes, target, tmp_path):
    """The worker replaces its log's old name with a link (to the app's environment, another visitor's file,
    /dev/zero) or a FIFO, then exits: the app shows its real stderr, reads nothing else, and answers at once."""
    secret_file = tmp_path / "status.json"
    secret_file.write_text(SECRET)
    path = {"environ": f"/proc/{os.getpid()}/environ", "planted": str(secret_file)}.get(target, target)
    sandbox = sandboxes(SWAP_LOG)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    error = fails(sandbox, target=path)
    assert "exited with code 1" in str(error)
    assert error.output == "a line of its own stderr\n"  # its own stderr, and nothing of the link's target
    assert SECRET not in error.output and "PATH=" not in error.output
    assert (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak) / 1024 < 50  # /dev/zero grew it by gigabytes
    assert sandbox.call("probe", ["abc"]).values == [3.0]


LINKS_AND_FIFOS = """
import os

def reward(completions, outside, **kwargs):
    os.symlink(outside, "folder")  # a link in place of a folder: the quota walk must not descend into it
    os.mkfifo("pipe")
    os.mkdir("real")
    os.symlink("/", "real/root")
    return [0.0] * len(completions)
"""


@pytest.mark.timeout(120)  # blocking on the FIFO would hang here (bench/failure_paths.py prints the time)
def test_the_quota_walk_and_cleaning_never_follow_links_or_block_on_fifos(sandboxes, tmp_path):
    outside = tmp_path / "another-visitor"
    outside.mkdir()
    (outside / "big.bin").write_bytes(b"x" * (3 << 20))
    sandbox = sandboxes(LINKS_AND_FIFOS, disk_mb=2)  # the file behind the link alone is over the quota
    assert sandbox.call("reward", ["a"], outside=str(outside)).values == [0.0]
    assert os.listdir(sandbox.workdir) == []  # cleaned between calls (public mode)
    assert (outside / "big.bin").stat().st_size == 3 << 20  # what the link pointed at is untouched


DEEP = """
import os

def reward(completions, **kwargs):
    os.makedirs("/".join(["deep"] * 40))  # data hidden below what the walk descends would go uncounted
    return [0.0] * len(completions)
"""


def test_a_folder_nested_deeper_than_the_walk_is_over_the_quota(sandboxes):
    sandbox = sandboxes(DEEP)
    assert "wrote more than the sandbox's disk quota" in str(fails(sandbox))
    assert sandbox.pid is None


# --- listing --------------------------------------------------------------------------------------------------------

LIST = """
import os

def reward(completions, paths, **kwargs):
    out = []
    for path in paths:
        try:
            out.append(float(len(os.listdir(path))))
        except PermissionError:
            out.append(-1.0)
    return out
"""


@ABIS
def test_the_worker_lists_only_its_folder_and_python(sandboxes, abi):
    folder = planted()
    try:
        sandbox = sandboxes(LIST + "import json, numpy  # imports still work\n", abi=abi)
        require(sandbox, "landlock")
        numpy_dir = os.path.dirname(__import__("numpy").__file__)
        outside = ["/", tempfile.gettempdir(), str(folder), "/etc", "/proc", os.path.expanduser("~")]
        outside += ["/proc/self/root/tmp", "/proc/self/cwd/.."]  # the same folders through /proc's links
        paths = [*outside, ".", numpy_dir]
        values = sandbox.call("reward", paths, paths=paths).values
        assert values[: len(outside)] == [-1.0] * len(outside)
        assert values[-2] == 0.0 and values[-1] > 10  # its own (empty) folder, and a package it imports from
    finally:
        (folder / "recipe-of-another-visitor.zip").unlink()
        folder.rmdir()


READ = """
def reward(completions, path, **kwargs):
    with open(path) as f:
        return [float(len(f.read()))] * len(completions)
"""


@ABIS
def test_another_visitors_file_in_the_temporary_folder_is_unreadable(sandboxes, abi):
    folder = planted()
    try:
        sandbox = sandboxes(READ, abi=abi)
        require(sandbox, "landlock")
        error = fails(sandbox, path=str(folder / "recipe-of-another-visitor.zip"))
        assert "PermissionError: [Errno 13] Permission denied" in str(error)
        assert SECRET not in str(error) + error.output
    finally:
        (folder / "recipe-of-another-visitor.zip").unlink()
        folder.rmdir()


TRUNCATE = """
import os

def reward(completions, path, **kwargs):
    os.truncate(path, 0)
    return [0.0] * len(completions)
"""


@pytest.mark.parametrize("abi", [0, 5, 2], ids=["kernel_abi", "abi5", "abi2"])
def test_another_visitors_file_cannot_be_truncated(sandboxes, abi, tmp_path):
    """Before Landlock ABI 3 (Linux 6.2) truncate() by path is not a right Landlock handles; seccomp refuses it."""
    victim = tmp_path / "status.json"
    victim.write_text(SECRET)
    sandbox = sandboxes(TRUNCATE, abi=abi)
    require(sandbox, "landlock", "seccomp")
    assert "raised PermissionError" in str(fails(sandbox, path=str(victim)))
    assert victim.read_text() == SECRET


# --- memory outside the limits ---------------------------------------------------------------------------------------

MEMFD = """
import os

held = []

def reward(completions, **kwargs):
    fd = os.memfd_create("hold")  # filled with posix_fallocate, it held 2 GB after the call returned
    os.posix_fallocate(fd, 0, 2 << 30)
    held.append(fd)
    return [0.0] * len(completions)
"""
TMPFILE = """
import os

held = []

def reward(completions, **kwargs):
    for _ in range(4):  # anonymous files in its own folder: out of sight of a walk of the folder
        fd = os.open(".", os.O_TMPFILE | os.O_RDWR)
        os.posix_fallocate(fd, 0, 60 << 20)
        held.append(fd)
    return [0.0] * len(completions)
"""


@ABIS
def test_memfd_is_refused(sandboxes, abi):
    sandbox = sandboxes(MEMFD, abi=abi)
    require(sandbox, "seccomp")
    error = fails(sandbox)
    assert "PermissionError: [Errno 1] Operation not permitted" in str(error)
    assert sandbox.call("probe", ["ab"]).values == [2.0]


IPC = """
import ctypes
import os

libc = ctypes.CDLL(None, use_errno=True)
IPC_PRIVATE, IPC_CREAT = 0, 0o1000


def errno_of(result):
    return float(ctypes.get_errno()) if result == -1 else 0.0


def reward(completions, **kwargs):
    return [
        errno_of(libc.shmget(IPC_PRIVATE, 1 << 30, IPC_CREAT | 0o600)),  # a segment outlives the worker
        errno_of(libc.msgget(IPC_PRIVATE, IPC_CREAT | 0o600)),  # 32000 queues of 16 KB do too
        errno_of(libc.semget(IPC_PRIVATE, 1, IPC_CREAT | 0o600)),
        errno_of(libc.mq_open(b"/playground-hold", os.O_CREAT | os.O_RDWR, 0o600, None)),
    ]
"""


@ABIS
def test_ipc_objects_that_outlive_the_worker_are_refused(sandboxes, abi):
    sandbox = sandboxes(IPC, abi=abi)
    require(sandbox, "seccomp")
    assert sandbox.call("reward", ["a"] * 4).values == [1.0] * 4  # EPERM from each


def test_deleted_files_held_open_count_against_the_disk_quota(sandboxes):
    sandbox = sandboxes(TMPFILE)  # 240 MB against the public 128 MB
    pid = sandbox.pid
    error = fails(sandbox)
    assert "disk quota" in str(error) and "in deleted files it kept open" in str(error)
    assert sandbox.pid is None and not os.path.exists(f"/proc/{pid}")  # stopped: what it held is freed


# --- signals through a descriptor's owner ---------------------------------------------------------------------------

SIGIO_OWNER = """
import fcntl
import os
import signal
import socket
import struct

F_SETSIG, F_SETOWN_EX = 10, 15


def attempt(call):
    try:
        call()
        return 1.0
    except PermissionError:
        return -1.0


def reward(completions, victim, **kwargs):
    read, write = os.pipe()
    a, b = socket.socketpair()
    owner = struct.pack("ii", 1, victim)  # struct f_owner_ex: F_OWNER_PID, the victim
    values = [
        attempt(lambda: fcntl.fcntl(read, fcntl.F_SETOWN, victim)),
        attempt(lambda: fcntl.fcntl(read, F_SETOWN_EX, owner)),
        attempt(lambda: fcntl.fcntl(read, F_SETSIG, signal.SIGKILL)),
        attempt(lambda: fcntl.fcntl(read, fcntl.F_SETFL, os.O_ASYNC | os.O_NONBLOCK)),
        attempt(lambda: fcntl.ioctl(a, 0x8901, struct.pack("i", victim))),  # FIOSETOWN
        attempt(lambda: fcntl.ioctl(a, 0x8902, struct.pack("i", victim))),  # SIOCSPGRP
        attempt(lambda: fcntl.ioctl(a, 0x5452, struct.pack("i", 1))),  # FIOASYNC
        attempt(lambda: fcntl.fcntl(read, fcntl.F_SETFL, os.O_NONBLOCK)),  # ordinary use stays allowed
    ]
    os.write(write, b"x")
    b.send(b"x")
    return values
"""


@pytest.fixture
def victim():
    """Another process of the app's user (on a Space: the app itself, or another visitor's worker)."""
    proc = subprocess.Popen(["sleep", "60"])
    yield proc
    proc.kill()
    proc.wait()


def test_the_attack_kills_a_process_outside_the_sandbox(victim, tmp_path):
    """The same code, run unconfined: it does kill the victim, so the sandboxed runs below test a real attack."""
    script = tmp_path / "attack.py"
    script.write_text(SIGIO_OWNER + f"\nprint(reward([], victim={victim.pid}))\n")
    subprocess.run([sys.executable, str(script)], check=True, capture_output=True, timeout=30)
    assert victim.wait(5) in (-signal.SIGKILL, -signal.SIGIO)  # whichever of its two signals arrives first


@ABIS
def test_no_descriptor_owner_or_signal_can_be_set(sandboxes, abi, victim):
    sandbox = sandboxes(SIGIO_OWNER, abi=abi)
    require(sandbox, "seccomp")
    values = sandbox.call("reward", ["a"] * 8, victim=victim.pid).values
    assert values == [-1.0] * 7 + [1.0]
    time.sleep(0.3)
    assert victim.poll() is None


# --- threads --------------------------------------------------------------------------------------------------------

SPIN = """
import threading

def _spin():
    while True:
        pass

def reward(completions, **kwargs):
    threading.Thread(target=_spin, daemon=True).start()
    return [0.0] * len(completions)

def pooled(completions, **kwargs):
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(4) as pool:  # joined before it returns: allowed
        return list(pool.map(float, range(len(completions))))
"""


def test_a_worker_left_running_threads_is_replaced(sandboxes):
    sandbox = sandboxes(SPIN, functions=("reward", "pooled"))
    for _ in range(3):
        assert sandbox.call("pooled", ["a", "b", "c"]).values == [0.0, 1.0, 2.0]
    pid = sandbox.pid
    error = fails(sandbox)
    assert "left 1 thread running after it returned, and the worker was stopped" in str(error)
    assert sandbox.pid is None and not os.path.exists(f"/proc/{pid}")  # no thread burns CPU any longer
    assert sandbox.call("probe", ["abc"]).values == [3.0]  # a fresh worker
    assert sandbox.pid != pid


def test_code_that_leaves_a_thread_running_at_load_is_refused(sandboxes):
    source = SPIN + "\nthreading.Thread(target=_spin, daemon=True).start()\n"
    with pytest.raises(SandboxError, match="Loading the custom code left 1 thread running"):
        sandboxes(source)
