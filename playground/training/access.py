"""Who may see, download, delete or publish a run: the rules of public mode, where strangers share one app.

A run started from the page belongs to its owner: the token the starter's browser keeps (`status.json`'s `owner`), so
that it survives a page reload. In public mode only the owner may read its content (charts, samples, code, adapter,
recipe), delete it or publish it; a published run can be read by everyone, read-only. Others see that it exists, its
status and step, while it is queued or going. Runs without an owner (the CLI's, or made before owners existed) belong
to whoever runs the app: everyone may read them, nobody deletes them from a public page. Outside public mode every
session may do everything, as on one person's machine.
"""

from __future__ import annotations

import hmac
from typing import Any

from playground.training.store import ACTIVE


def owns(status: dict[str, Any], viewer: str | None) -> bool:
    owner = status.get("owner")
    return isinstance(owner, str) and isinstance(viewer, str) and hmac.compare_digest(owner, viewer)


def can_read(status: dict[str, Any], viewer: str | None, public: bool) -> bool:
    """Charts, samples, code, adapter and recipe."""
    return not public or status.get("owner") is None or bool(status.get("published")) or owns(status, viewer)


def can_change(status: dict[str, Any], viewer: str | None, public: bool) -> bool:
    """Delete or publish."""
    return not public or owns(status, viewer)


def can_list(status: dict[str, Any], viewer: str | None, public: bool) -> bool:
    """In the run list: what may be read, and others' runs while they are queued or going (status and step only)."""
    return can_read(status, viewer, public) or status.get("status") in ACTIVE
