"""Who may see, download, delete or publish a run: the rules of public mode, where strangers share one app.

A run started from the page belongs to its owner: the browser that started it. The server issues each browser a token
(`Tokens.issue`: a random value signed with the app's secret), which the browser keeps so that it survives a page
reload; a run folder stores only the token's hash (`owner_key`, `status.json`'s `owner`). A token this server did not
issue is worth nothing: `Tokens.owner` maps it to no owner, so a string read from a run folder, or made up, opens no
run. In public mode only the owner may read a run's content (charts, samples, code, adapter, recipe), delete it or
publish it; a published run can be read by everyone, read-only. Others see that it exists, its status and step, while
it is queued or going. Runs without an owner (the CLI's) belong to whoever runs the app: everyone may read them,
nobody deletes them from a public page. Outside public mode every session may do everything, as on one person's
machine.

The functions below take the owner key (`Tokens.owner(token)`), never the token itself.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from typing import Any

from playground.settings import current
from playground.texts import msg
from playground.training.store import ACTIVE


SECRET_ENV = "PLAYGROUND_SECRET"  # a fixed secret keeps browsers' tokens valid across restarts of the app
_PREFIX = "pg1"


def owner_key(token: str) -> str:
    """What a run folder stores for the token's browser: its SHA-256, which cannot be turned back into the token."""
    return "sha256:" + hashlib.sha256(token.encode("utf-8")).hexdigest()


class Tokens:
    """Browser tokens signed with this app's secret: `<prefix>.<random>.<HMAC-SHA256 of the random part>`.

    Args:
        secret (`bytes`, *optional*):
            The signing key; defaults to `PLAYGROUND_SECRET` when set, else 32 random bytes made at start (tokens then
            stop opening runs when the app restarts).
    """

    def __init__(self, secret: bytes | None = None):
        if secret is None:
            configured = current().secret
            secret = configured.encode("utf-8") if configured else secrets.token_bytes(32)
        if len(secret) < 16:
            raise ValueError(msg("access.secret_short", name=SECRET_ENV))
        self._secret = secret

    def _sign(self, nonce: str) -> str:
        digest = hmac.new(self._secret, f"{_PREFIX}.{nonce}".encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).decode().rstrip("=")

    def issue(self) -> str:
        nonce = secrets.token_urlsafe(24)
        return f"{_PREFIX}.{nonce}.{self._sign(nonce)}"

    def verify(self, token: Any) -> bool:
        """Whether this server issued `token`."""
        if not isinstance(token, str) or len(token) > 200:
            return False
        parts = token.split(".")
        if len(parts) != 3 or parts[0] != _PREFIX or not parts[1]:
            return False
        return hmac.compare_digest(parts[2], self._sign(parts[1]))

    def owner(self, token: Any) -> str | None:
        """The owner key of a token this server issued; None for anything else."""
        return owner_key(token) if self.verify(token) else None

    def keep_or_issue(self, token: Any) -> str:
        """`token` when this server issued it, else a new one (a made-up or foreign token gets a fresh identity)."""
        return token if self.verify(token) else self.issue()


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
