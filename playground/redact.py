"""What a message may show a visitor: no path of the server. One function every refusal and toast passes through."""

from __future__ import annotations

import re


# An absolute path (or one under ~): a slash after a space, a quote, a bracket or the start, never inside a word, a
# number (1/2), a Hub id (org/name) or a URL (https://host/...).
_PATH = re.compile(r"(?<![\w:/.~-])~?/[^\s'\"`<>(){}\[\],;|]+")


def _short(match: re.Match) -> str:
    path, tail = match.group(0), ""
    while path and path[-1] in ".:!?":
        path, tail = path[:-1], path[-1] + tail
    name = path.rstrip("/").rsplit("/", 1)[-1]
    return ("…/" + name if name and name != "~" else "…") + tail


def scrub_paths(text: str) -> str:
    """`text` with each server path cut to its last name (`/home/user/runs/x/spec.json` → `…/spec.json`).

    >>> scrub_paths("No run named 'a' in /home/user/runs/.")
    "No run named 'a' in …/runs."
    """
    return _PATH.sub(_short, text)
