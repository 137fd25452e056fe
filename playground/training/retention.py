"""Public mode's retention: what a visitor leaves on disk is bounded in age, in size per visitor and in all.

- A run that is not going expires `Caps.run_retention_hours` after it ended (`expires_at`) and is deleted with its
  checkpoints (`expire_runs`: at each Start and Continue, when a run ends, and every few minutes).
- A finished run keeps only the checkpoint Continue starts from (`thin_checkpoints`): its newest.
- A new run is refused when the visitor's runs and uploads hold `max_visitor_disk_mb` or more, or when the runs
  folder's disk has less than `min_free_disk_mb` free (`check_disk`).
"""

from __future__ import annotations

import logging
import os
import shutil
import stat
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from playground.errors import PlaygroundError
from playground.training.checkpoint import STAGING, checkpoint_root, last_checkpoint
from playground.training.files import locked
from playground.training.store import ACTIVE, RunStore, _parse_time


logger = logging.getLogger(__name__)

MB = 1024 * 1024
SWEEP_SECONDS = 300.0  # how often a public app looks for expired runs between Starts


def expires_at(status: dict, hours: float) -> datetime | None:
    """When a run with `status` is deleted: `hours` after it ended (or was last written); None while it goes."""
    if status.get("status") in ACTIVE:
        return None
    ended = _parse_time(status.get("finished_at") or status.get("updated_at") or status.get("created_at"))
    return None if ended is None else ended + timedelta(hours=hours)


def expire_runs(store: RunStore, hours: float, now: datetime | None = None) -> list[str]:
    """Delete every run (checkpoints included) whose time is up; returns their ids."""
    now = now or datetime.now(UTC)
    gone = []
    for info in store.list():
        try:
            run = store.get(info.id)
            when = expires_at(run.status(), hours)
            if when is not None and when <= now:
                store.delete(info.id)
                gone.append(info.id)
        except (PlaygroundError, OSError) as exc:  # started again, or removed meanwhile
            logger.info("Run %s not expired: %s", info.id, exc)
    if gone:
        logger.info("Expired %d run(s) older than %g h.", len(gone), hours)
    return gone


def thin_checkpoints(run_path: Path) -> None:
    """Keep the newest checkpoint of a finished run (the one Continue starts from); delete the others. Holds the run
    folder's lock, as Delete does: a run deleted meanwhile has nothing left to thin."""
    try:
        with locked(run_path):
            root = checkpoint_root(run_path)
            if not root.is_dir():
                return
            keep = last_checkpoint(run_path)
            shutil.rmtree(root / STAGING, ignore_errors=True)
            for path in root.iterdir():
                if path != keep and path.is_dir() and not path.is_symlink():
                    shutil.rmtree(path, ignore_errors=True)
    except FileNotFoundError:
        logger.info("Run folder %s was deleted before its checkpoints were thinned.", run_path)


def tree_bytes(path: Path) -> int:
    """Bytes of the files under `path`, links counted, never followed."""
    total = 0
    for folder, _, files in os.walk(path, followlinks=False):
        for name in files:
            try:
                info = os.lstat(os.path.join(folder, name))
            except OSError:
                continue
            if stat.S_ISREG(info.st_mode):
                total += info.st_size
    return total


def owner_bytes(store: RunStore, owner: str) -> int:
    """Bytes of the runs of `owner` (a browser token's owner key)."""
    return sum(tree_bytes(store.root / info.id) for info in store.list() if info.owner == owner)


def check_disk(store: RunStore, owner: str | None, caps, uploaded: Callable[[str], int] | None = None) -> None:
    """Refuse a new run when the runs folder's disk is low, or when the visitor's runs and uploads are over their
    quota (messages name the variable)."""
    from playground.admission import refuse

    store.root.mkdir(parents=True, exist_ok=True)
    free_mb = shutil.disk_usage(store.root).free // MB
    if free_mb < caps.min_free_disk_mb:
        raise PlaygroundError("retention.low_disk", free=f"{free_mb:,}", cap=f"{caps.min_free_disk_mb:,}")
    if owner:
        used = owner_bytes(store, owner) + (uploaded(owner) if uploaded else 0)
        if used >= caps.max_visitor_disk_mb * MB:
            raise refuse("max_visitor_disk_mb", used // MB, caps)
