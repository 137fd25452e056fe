"""A shared pool with a per-visitor in-flight limit: one visitor's slow calls queue behind each other, not in front
of other visitors'.

`FairSlots(size)` lets at most `size` calls run at once. A call that finds them taken waits (on the event loop: a
waiting call holds no thread), and each freed slot goes to the waiting call whose visitor has the fewest calls
running, compared by address first, then by session; among equals, the oldest. So a bystander's first call takes the
next free slot even behind a hundred calls of one attacker, and an attacker with many sessions on one address counts
as one address. A visitor may keep at most `waiting_per_session` calls waiting (and an address `waiting_per_address`);
past it the call is refused at once (`sandbox.too_many_waiting`).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections import Counter
from collections.abc import AsyncIterator

from playground.errors import PlaygroundError


Visitor = tuple[str, str]  # (address, session)


class FairSlots:
    """At most `size` calls at once, handed out fairly between visitors (see the module's docstring)."""

    def __init__(self, size: int, waiting_per_session: int = 8, waiting_per_address: int = 32):
        self.size = size
        self.waiting_per_session = waiting_per_session
        self.waiting_per_address = waiting_per_address
        self.running: Counter = Counter()  # by address and by visitor
        self._busy = 0
        self._waiting: list[tuple[int, Visitor, asyncio.Future]] = []
        self._order = itertools.count()

    @contextlib.asynccontextmanager
    async def slot(self, visitor: Visitor) -> AsyncIterator[None]:
        await self._acquire(visitor)
        try:
            yield
        finally:
            self._release(visitor)

    async def _acquire(self, visitor: Visitor) -> None:
        if self._busy < self.size and not self._waiting:
            self._take(visitor)
            return
        address = visitor[0]
        if (
            sum(v == visitor for _, v, _ in self._waiting) >= self.waiting_per_session
            or sum(v[0] == address for _, v, _ in self._waiting) >= self.waiting_per_address
        ):
            raise PlaygroundError("sandbox.too_many_waiting")
        future = asyncio.get_running_loop().create_future()
        entry = (next(self._order), visitor, future)
        self._waiting.append(entry)
        try:
            await future  # `_release` takes the slot for this call before it wakes it
        except asyncio.CancelledError:
            if entry in self._waiting:
                self._waiting.remove(entry)
            elif future.done() and not future.cancelled():  # woken and cancelled at once: give the slot on
                self._release(visitor)
            raise

    def _take(self, visitor: Visitor) -> None:
        self._busy += 1
        self.running[visitor[0]] += 1
        self.running[visitor] += 1

    def _release(self, visitor: Visitor) -> None:
        self._busy -= 1
        self.running[visitor[0]] -= 1
        self.running[visitor] -= 1
        while self._waiting and self._busy < self.size:
            entry = min(self._waiting, key=lambda e: (self.running[e[1][0]], self.running[e[1]], e[0]))
            self._waiting.remove(entry)
            if entry[2].cancelled():
                continue
            self._take(entry[1])
            entry[2].set_result(None)
