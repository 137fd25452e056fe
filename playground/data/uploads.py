"""Public mode's uploads: a browser reads only the files it uploaded, within a quota of files and bytes.

`Uploads` records each browser's files; `check_public_source` is public mode's rule for a prompt source (a built-in
set, a file this browser uploaded, or a Hub dataset id that names no path of the server).
"""

from __future__ import annotations

import logging
import os
import stat
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

from playground.data.parsers import MB, size_text
from playground.data.sources import PromptSource
from playground.errors import DataError
from playground.models import is_hub_id
from playground.settings import current


logger = logging.getLogger(__name__)

UPLOAD_FILES = 20  # most files one browser may upload
# The same sentence whether the path is another visitor's upload or any other file: nothing tells them apart.
NOT_UPLOADED = "data.not_uploaded"


def upload_quota_bytes() -> int:
    """What one browser may upload, all its files together: `PLAYGROUND_UPLOAD_QUOTA_MB` (the settings'), in bytes."""
    return int(current().upload_quota_mb * MB)


def plain_file(path: str) -> str:
    """`path` made absolute, if it names a regular file reached through no symbolic link; else a `DataError`."""
    absolute = os.path.abspath(os.path.expanduser(path))
    try:
        info = os.lstat(absolute)
    except OSError:
        raise DataError("data.no_file", name=Path(absolute).name) from None
    if not stat.S_ISREG(info.st_mode) or os.path.realpath(absolute) != absolute:
        raise DataError("data.not_plain", name=Path(absolute).name)
    return absolute


UPLOAD_SECONDS = 24 * 3600  # Gradio removes an upload after a day (the app's `delete_cache`); so does its record


@dataclass
class _UploadRecord:
    address: str | None
    files: dict[str, int] = field(default_factory=dict)
    seen: float = 0.0


class Uploads:
    """The files each browser uploaded through the page: in public mode the only files the app reads for it.

    A record belongs to a browser's owner key (its server-issued token, never Gradio's session hash, which any client
    makes up afresh) and to the client's address. Each browser may upload `max_files` files and `quota_bytes` bytes in
    all. At most `max_owners` records are kept and at most `per_address` from one address: a new record first replaces
    records older than `max_age` seconds, then its own address's oldest; when neither frees room it is refused. So no
    client replaces another address's uploads, however many sessions or tokens it opens. Thread-safe.
    """

    def __init__(
        self,
        quota_bytes: int | None = None,
        max_files: int = UPLOAD_FILES,
        max_owners: int = 1000,
        per_address: int | None = None,
        max_age: float = UPLOAD_SECONDS,
    ):
        self.quota_bytes = upload_quota_bytes() if quota_bytes is None else quota_bytes
        self.max_files = max_files
        self.max_owners = max_owners
        self.per_address = max_owners if per_address is None else per_address
        self.max_age = max_age
        self._lock = threading.Lock()
        self._records: OrderedDict[str, _UploadRecord] = OrderedDict()

    def add(self, owner: str | None, path: str, address: str | None = None) -> str:
        """Record `path` as uploaded by `owner` from `address` (over the quota, or no room: a `DataError`); returns
        the path as recorded."""
        if not owner:
            raise DataError("data.upload_session")
        absolute = plain_file(path)
        size = os.lstat(absolute).st_size
        with self._lock:
            record = self._records.pop(owner, None) or self._make_room(address)
            record.seen = time.monotonic()
            self._records[owner] = record
            if absolute in record.files:
                return absolute
            if len(record.files) >= self.max_files or sum(record.files.values()) + size > self.quota_bytes:
                raise DataError("data.upload_quota", files=self.max_files, size=size_text(self.quota_bytes))
            record.files[absolute] = size
        return absolute

    def _make_room(self, address: str | None) -> _UploadRecord:
        """A new record for `address`, once room is made for it without touching another address's live records."""
        cutoff = time.monotonic() - self.max_age
        for key in [key for key, record in self._records.items() if record.seen < cutoff]:
            del self._records[key]
        own = [key for key, record in self._records.items() if record.address == address]  # oldest first
        while own and (len(own) >= self.per_address or len(self._records) >= self.max_owners):
            del self._records[own.pop(0)]
        if len(own) >= self.per_address or len(self._records) >= self.max_owners:
            raise DataError("admission.uploads_full")
        return _UploadRecord(address)

    def check(self, owner: str | None, path: str) -> str:
        """`path` as recorded, if `owner` uploaded it and it is still a plain file; else a `DataError`."""
        absolute = os.path.abspath(os.path.expanduser(path or ""))
        with self._lock:
            record = self._records.get(owner) if owner else None
            uploaded = record is not None and absolute in record.files
        if not uploaded:
            raise DataError(NOT_UPLOADED)
        return plain_file(absolute)

    def bytes_of(self, owner: str) -> int:
        """Bytes of the files `owner` uploaded (for the disk quota of `playground.training.retention`)."""
        with self._lock:
            record = self._records.get(owner)
            return sum(record.files.values()) if record is not None else 0

    def __len__(self) -> int:
        return len(self._records)


def check_public_source(source: PromptSource, uploads: Uploads, owner: str | None) -> None:
    """Public mode's rule for a prompt source: a built-in set, a file this browser (`owner`) uploaded, or a Hub dataset
    id that names no path of the server (the `datasets` library would read a local folder of that name)."""
    name = source.name.strip()
    if source.kind == "file":
        uploads.check(owner, name)
    elif source.kind == "hub" and not is_hub_id(name):
        raise DataError("data.public_hub_id", name=name)
