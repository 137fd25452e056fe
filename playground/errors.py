"""User-facing errors.

Every error the playground raises for bad input is a `PlaygroundError` whose message is one clear sentence a user can
act on. The UI and the CLI show it and never a traceback.

An error raised with a catalogue key carries the key and its values (`PlaygroundError("spec.max_steps", value=0)`):
`str(error)` is the English sentence, for the CLI, the MCP server and logs, and the page renders `error.message` in
the browser's language (`playground.texts.render`). An error raised with a sentence stays that sentence.

The reward library (`rewards/`) imports nothing of the playground: `playground.bootstrap()` makes the playground its
host (`rewards.host.configure`). Its errors are then this module's `RewardError`, a `PlaygroundError` that every
handler here catches and renders; its answer checks follow the public mode; its judge loads models as the engine does.
"""

from typing import Any

import rewards.errors
from playground.texts import Text, engine_table, msg


def _message(message: str, values: dict[str, Any]) -> str:
    if values or (isinstance(message, str) and not isinstance(message, Text) and message in engine_table()):
        return msg(message, **values)
    return message


class PlaygroundError(Exception):
    """An error caused by user input or the environment, with a message meant for the user."""

    def __init__(self, message: str = "", /, **values: Any):
        super().__init__(_message(message, values))

    @property
    def message(self) -> str:
        """The message: a `Text` (key and values) when it came from the catalogue, else the sentence."""
        return self.args[0] if self.args else ""

    @property
    def key(self) -> str | None:
        return self.message.key if isinstance(self.message, Text) else None

    @property
    def values(self) -> dict[str, Any]:
        return self.message.values if isinstance(self.message, Text) else {}

    def render(self, lang: str | None) -> str:
        """The message in `lang` ('en' or 'zh')."""
        return self.message.render(lang) if isinstance(self.message, Text) else str(self)


class ModelLoadError(PlaygroundError):
    """A model could not be loaded (unknown id, unreachable Hub, bad folder)."""


class DataError(PlaygroundError):
    """A prompt set could not be loaded or is unusable."""


class RewardError(PlaygroundError, rewards.errors.RewardError):
    """A reward is unknown, badly configured, or returned something unusable: the library's `RewardError` (a
    `ValueError`, as TRL's and open-r1's rewards raise for bad arguments) in the playground's family."""


class SpecError(PlaygroundError):
    """A run spec field is invalid. `field` names the offending field."""

    def __init__(self, field: str, message: str, /, **values: Any):
        super().__init__(message, **values)
        self.field = field
