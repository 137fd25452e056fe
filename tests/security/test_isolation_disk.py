"""Disk limits of a public sandbox worker against `fallocate`: blocks allocated past a file's size
(`FALLOC_FL_KEEP_SIZE`) would pass the per-file limit (it counts sizes) and the folder quota (checked between polls),
in the worker's folder and on its stderr file alike. seccomp allows mode 0 only, which grows the size and meets
both."""

import dataclasses

import pytest

from playground.sandbox import PUBLIC_LIMITS, Sandbox
from tests.security.confinement import require_confinement


LIMITS = dataclasses.replace(PUBLIC_LIMITS, timeout=5.0, load_timeout=10.0)
FALLOCATE = """
import ctypes, errno, os

libc = ctypes.CDLL(None, use_errno=True)
libc.fallocate.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_long, ctypes.c_long]
KEEP_SIZE, PUNCH_HOLE = 1, 2
MB = 1 << 20


def allocate(fd, mode, size):
    if libc.fallocate(fd, mode, 0, size) == 0:
        return 0.0
    return float(ctypes.get_errno())


def reward(completions, **kwargs):
    fd = os.open("held", os.O_CREAT | os.O_WRONLY)
    return [
        allocate(fd, KEEP_SIZE, 256 * MB),  # past the 128 MB quota, at size 0
        allocate(2, KEEP_SIZE, 256 * MB),  # the stderr file the app keeps
        allocate(fd, KEEP_SIZE | PUNCH_HOLE, MB),
        allocate(fd, 0, MB),  # posix_fallocate's mode: the size grows, the limits see it
        allocate(fd, 0, 65 * MB),  # past the 64 MB per-file limit
        float(os.fstat(fd).st_blocks * 512 // MB),
    ]
"""


@pytest.fixture
def sandbox(monkeypatch):
    for name in ("PLAYGROUND_CUSTOM_CODE", "PLAYGROUND_PUBLIC", "SPACE_ID", "PLAYGROUND_SANDBOX_READ_PATHS"):
        monkeypatch.delenv(name, raising=False)
    box = Sandbox(FALLOCATE, ["reward"], LIMITS)
    yield box
    box.close()


def test_fallocate_cannot_allocate_past_the_disk_limits(sandbox):
    sandbox.start()
    require_confinement(sandbox.features)
    values = sandbox.call("reward", ["a"] * 6).values
    eperm, efbig = 1.0, 27.0
    assert values[:3] == [eperm, eperm, eperm]
    assert values[3] == 0.0 and values[4] == efbig
    assert values[5] <= 1.0  # the one megabyte of mode 0: nothing held past the file's size
