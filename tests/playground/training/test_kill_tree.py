"""Ending a launched run ends every process of it: the ranks run in sessions of their own (torch's elastic agent
starts them so), so killing the launcher's process group alone would orphan them."""

import os
import subprocess
import sys
import time

from playground.training.launcher import descendants, kill_tree
from tests.conftest import leftover_processes


# A launcher stand-in: starts a "rank" in a session of its own, prints its pid, and waits.
LAUNCHER = (
    "import subprocess, sys, time\n"
    "rank = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(120)'], start_new_session=True)\n"
    "print(rank.pid, flush=True)\n"
    "time.sleep(120)\n"
)


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] not in "ZX"
    except OSError:
        return False


def wait_gone(pid: int, timeout: float = 10) -> bool:
    deadline = time.monotonic() + timeout
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    return not alive(pid)


def test_kill_tree_ends_a_rank_in_a_session_of_its_own():
    launcher = subprocess.Popen([sys.executable, "-c", LAUNCHER], stdout=subprocess.PIPE, start_new_session=True)
    try:
        rank = int(launcher.stdout.readline())
        assert os.getsid(rank) == rank != os.getsid(launcher.pid)  # not in the launcher's group: killpg misses it
        assert descendants(launcher.pid) == [rank]
        assert leftover_processes(os.getpid()).keys() >= {launcher.pid, rank}  # both carry this session's mark
        kill_tree(launcher.pid)
        launcher.wait(10)
        assert wait_gone(rank)
        assert not leftover_processes(os.getpid()).keys() & {launcher.pid, rank}
    finally:
        kill_tree(launcher.pid)
        launcher.wait(10)
        launcher.stdout.close()


def test_an_orphan_is_found_by_the_session_mark():
    """A rank whose launcher died is no child of this process any more; the session's check still finds it."""
    launcher = subprocess.Popen([sys.executable, "-c", LAUNCHER], stdout=subprocess.PIPE)
    rank = int(launcher.stdout.readline())
    try:
        launcher.kill()
        launcher.wait(10)
        assert alive(rank) and rank in leftover_processes(os.getpid())
    finally:
        kill_tree(rank)
        launcher.stdout.close()
    assert wait_gone(rank)
