"""Event handlers that share a pool of slots fairly between visitors (`playground.isolation.slots.FairSlots`).

`fair(handler, slots)` turns a handler made by `bind` into an async one that waits for a slot on the event loop (a
waiting call holds no thread), then runs the handler in a worker thread. Wire it with `concurrency_limit=None`: the
slots are the limit, and they let a bystander's call pass another visitor's queued ones.
"""

import functools
from collections.abc import Callable

import anyio
import gradio as gr

from playground.errors import PlaygroundError
from playground.isolation.slots import FairSlots, Visitor
from playground.ui.common import client_address, lang_of, refusal


# Try on text and its rescoring on page load share this pool: scoring runs in workers, so several may run at once.
TRY_SLOTS = FairSlots(8)
# Previews sample from the app's model one at a time.
PREVIEW_SLOTS = FairSlots(1)


def visitor_of(request: gr.Request | None) -> Visitor:
    """(address, session) of a request, as the pool tells visitors apart."""
    return str(client_address(request) or "?"), str(getattr(request, "session_hash", None) or "?")


def fair(handler: Callable, slots: FairSlots) -> Callable:
    @functools.wraps(handler)
    async def wrapper(*args, **kwargs):
        request = next((a for a in (*args, *kwargs.values()) if isinstance(a, gr.Request)), None)
        try:
            async with slots.slot(visitor_of(request)):
                return await anyio.to_thread.run_sync(functools.partial(handler, *args, **kwargs))
        except PlaygroundError as exc:
            raise refusal(lang_of(request), exc) from None

    return wrapper
