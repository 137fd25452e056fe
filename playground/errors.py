"""User-facing errors.

Every error the playground raises for bad input is a `PlaygroundError` whose message is one clear sentence a user can
act on. The UI and the CLI show `str(error)` and never a traceback.
"""


class PlaygroundError(Exception):
    """An error caused by user input or the environment, with a message meant for the user."""


class ModelLoadError(PlaygroundError):
    """A model could not be loaded (unknown id, unreachable Hub, bad folder)."""


class DataError(PlaygroundError):
    """A prompt set could not be loaded or is unusable."""


class RewardError(PlaygroundError):
    """A reward is unknown, badly configured, or returned something unusable."""


class SpecError(PlaygroundError):
    """A run spec field is invalid. `field` names the offending field."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field
