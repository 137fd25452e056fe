"""Public mode, read from the environment: a leaf module, so the reward library can ask without the engine."""

from __future__ import annotations

import os


OFF_WORDS = ("off", "0", "false", "no", "disabled")
ON_WORDS = ("1", "true", "yes", "on")


def env_flag(name: str) -> bool | None:
    """True or False for a recognised on/off word in environment variable `name`; None when unset or unrecognised."""
    value = os.environ.get(name, "").strip().lower()
    if value in ON_WORDS:
        return True
    if value in OFF_WORDS:
        return False
    return None


def is_public(public: bool | None = None) -> bool:
    """Public mode: `public` if given (a UI flag), else `PLAYGROUND_PUBLIC`, else on when running on a Space."""
    if public is not None:
        return public
    flag = env_flag("PLAYGROUND_PUBLIC")
    return flag if flag is not None else bool(os.environ.get("SPACE_ID"))
