"""The app's temporary folders: named after the process that made them, swept when that process is gone.

Sandbox workers (`playground-sandbox-<pid>-*`) and zipped downloads (`playground-downloads-<pid>-*`) live in the
system's temporary folder. A process killed with SIGKILL cannot remove its own, so `sweep_orphans()` (run when the app
starts) removes those whose process no longer exists, and those of older versions (no pid in the name) untouched for a
day. `folder_usage` measures a folder for the sandbox's disk quota; `expire_files` removes old download files.
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import stat
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path


logger = logging.getLogger(__name__)

KINDS = ("sandbox", "downloads")
NAME = re.compile(r"^playground-(sandbox|downloads)-(?:(\d+)-)?")
LEGACY_AGE = 24 * 3600  # a folder without a pid (made by an older version) is an orphan after a day untouched


def make_temp_dir(kind: str) -> str:
    """A fresh private folder `playground-<kind>-<this pid>-<random>` in the system's temporary folder."""
    if kind not in KINDS:
        raise ValueError(f"Unknown temporary folder kind {kind!r}; one of {KINDS}.")
    return tempfile.mkdtemp(prefix=f"playground-{kind}-{os.getpid()}-")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: alive
        return True
    return True


def sweep_orphans(root: str | None = None, now: float | None = None) -> list[str]:
    """Remove the temporary folders of app processes that no longer run; returns the removed paths."""
    root = root or tempfile.gettempdir()
    now = time.time() if now is None else now
    removed = []
    try:
        entries = list(os.scandir(root))
    except OSError:
        return removed
    for entry in entries:
        match = NAME.match(entry.name)
        if not match or not entry.is_dir(follow_symlinks=False):
            continue
        try:
            if entry.stat(follow_symlinks=False).st_uid != os.getuid():
                continue  # another account's folder (a shared /tmp): not ours to judge
            if match.group(2):
                orphan = int(match.group(2)) != os.getpid() and not _alive(int(match.group(2)))
            else:
                orphan = now - entry.stat(follow_symlinks=False).st_mtime > LEGACY_AGE
        except OSError:
            continue
        if orphan:
            shutil.rmtree(entry.path, ignore_errors=True)
            removed.append(entry.path)
    if removed:
        logger.info("Removed %d orphaned temporary folders: %s", len(removed), ", ".join(removed[:5]))
    return removed


def expire_files(folder: str | Path, max_age: float, now: float | None = None) -> int:
    """Remove files and folders directly in `folder` not modified for `max_age` seconds; returns how many."""
    now = time.time() if now is None else now
    count = 0
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return 0
    for entry in entries:
        try:
            if now - entry.stat(follow_symlinks=False).st_mtime <= max_age:
                continue
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path, ignore_errors=True)
            else:
                os.unlink(entry.path)
            count += 1
        except OSError:
            continue
    return count


MAX_DEPTH = 32  # folder levels the walk descends (one open descriptor a level); deeper counts as over the quota


def folder_usage(path: str, max_files: int) -> tuple[int, int]:
    """(bytes of disk blocks used, files and folders) under `path`; counting stops past `max_files` entries.

    The sandbox worker writes this folder while it is measured, so each folder is opened from its parent's descriptor
    with `O_NOFOLLOW | O_NONBLOCK`: a symbolic link is counted, never followed (even one swapped in for a folder
    during the walk), a FIFO is never opened, and every folder is opened once. A folder nested deeper than
    `MAX_DEPTH` levels counts as `max_files + 1`. Sparse files count what they really use.
    """
    flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        top = os.open(path, flags)
    except OSError:
        return 0, 0
    used, count = 0, 0
    stack = [(top, _names(top))]  # the open folders along the current branch, each with its names left to visit
    try:
        while stack and count <= max_files:
            fd, names = stack[-1]
            name = next(names, None)
            if name is None:
                os.close(stack.pop()[0])
                continue
            count += 1
            try:
                info = os.stat(name, dir_fd=fd, follow_symlinks=False)
            except OSError:
                continue
            used += info.st_blocks * 512
            if not stat.S_ISDIR(info.st_mode):
                continue
            if len(stack) >= MAX_DEPTH:
                return used, max_files + 1
            try:
                child = os.open(name, flags, dir_fd=fd)
            except OSError:
                continue
            stack.append((child, _names(child)))
    finally:
        for fd, _ in stack:
            os.close(fd)
    return used, count


def _names(fd: int) -> Iterator[str]:
    try:
        return iter(os.listdir(fd))
    except OSError:
        return iter(())
