"""The hook for custom reward code. Off until custom code is switched on in the UI.

The editor on the Rewards tab is read-only for now, with the note "custom code arrives with the sandbox". Every place
that builds rewards already goes through this module, so switching custom code on is a change here only:

1. set `SANDBOX_ENABLED = True` (the editor becomes editable);
2. `custom_rewards(code)`: return `playground.sandbox.compile_rewards(code)` (sandboxed callables by name) for
   "Try on text" and the preview, and close them after scoring (`playground.sandbox.close_rewards`);
3. `attach_to_spec(spec, code)`: set `spec.custom_code = code`; the training job compiles it in its own sandbox.

Library and custom rewards are then picked by name in the same selection (`RewardChoice.name`).
"""

from collections.abc import Callable

from playground.spec import RunSpec


SANDBOX_ENABLED = False

TEMPLATE = '''\
def ends_with_period(completions, **kwargs):
    """1.0 when the completion ends with a period, else 0.0.

    TRL passes the completions (str, or chat messages) and every dataset column as keyword arguments
    (e.g. kwargs["answer"]), one value per completion. Return one float (or None) per completion.
    """
    texts = [c if isinstance(c, str) else c[-1]["content"] for c in completions]
    return [1.0 if t.strip().endswith(".") else 0.0 for t in texts]
'''


def custom_rewards(code: str | None) -> dict[str, Callable]:
    """Custom reward functions defined by `code`, by name, for scoring in the app. Empty while custom code is off."""
    return {}


def attach_to_spec(spec: RunSpec, code: str | None) -> None:
    """Put the custom code into a run spec, for the training job to compile. Nothing while custom code is off."""
