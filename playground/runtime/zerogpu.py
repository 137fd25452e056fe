"""ZeroGPU: a Hugging Face Space lends a GPU to a function only inside a `@spaces.GPU(duration=...)` call.

`on_zerogpu()` says whether this process runs on one (the `spaces` package is installed and the Space set
`SPACES_ZERO_GPU`). `gpu_handler(fn)` wraps a page's event handler that samples (previews, dry runs, Compare);
`gpu_call(target, *args, duration=...)` runs `target` inside such a call there, and directly
anywhere else (off a Space `spaces.GPU` is a no-op too). On ZeroGPU the call runs in a worker process forked from this
one, its arguments and result pickled: `target` is named by `"module:function"` and the arguments are plain values,
so nothing of this process's state has to travel but what the worker inherited when it was forked.
"""

from __future__ import annotations

import importlib
import logging
from typing import Any


logger = logging.getLogger(__name__)

ZEROGPU_ENV = "SPACES_ZERO_GPU"  # set by a ZeroGPU Space


def on_zerogpu() -> bool:
    from playground.settings import current

    if not current().zero_gpu:
        return False
    try:
        import spaces  # noqa: F401
    except ImportError:
        logger.warning("%s is set but the `spaces` package is not installed: running without ZeroGPU", ZEROGPU_ENV)
        return False
    return True


def _run(target: str, args: tuple, seconds: int) -> Any:
    """The GPU call's body: resolve `module:function` (in the worker, from the modules it inherited) and call it."""
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)(*args)


def _seconds(target: str, args: tuple, seconds: int) -> int:
    """The call's duration (spaces' dynamic duration: a function of the call's arguments)."""
    return seconds


_gpu_run = None

# The GPU time a page's sampling asks for: a preview group, a dry run's groups, a comparison of two models.
SAMPLING_SECONDS = 120


def gpu_handler(fn, duration: float = SAMPLING_SECONDS):
    """An event handler that samples, run inside `@spaces.GPU(duration=...)` on ZeroGPU (its inputs are pickled to
    the worker, which inherited the app's state when it was forked); `fn` itself elsewhere."""
    if not on_zerogpu():
        return fn
    import spaces

    return spaces.GPU(fn, duration=int(duration))


def gpu_call(target: str, *args: Any, duration: float = 60) -> Any:
    """`target(*args)` inside one `@spaces.GPU(duration=duration)` call on ZeroGPU; a plain call elsewhere."""
    global _gpu_run
    seconds = max(1, int(duration))
    if not on_zerogpu():
        return _run(target, args, seconds)
    if _gpu_run is None:
        import spaces

        _gpu_run = spaces.GPU(_run, duration=_seconds)
    return _gpu_run(target, args, seconds)
