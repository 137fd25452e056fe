"""Keep freed memory in the process while a CPU training run goes (glibc only).

A GRPO step on a CPU allocates and frees the same large tensors again and again: activations, the LM head's
(tokens x vocab) tiles, their gradients. glibc serves allocations above its mmap threshold with fresh `mmap`s and
hands freed heap memory back to the OS, so every step pays page faults (the kernel zeroes each new page) on memory it
has just released. Profiled on SmolLM2: element-wise ops on the LM head's 60 MB tiles ran ~20x slower in the policy
pass than in the reference pass, and these settings cut the policy forward from 1.9 to 1.1-1.4 s and the backward
from 2.4 to 1.6 s per step (`bench/step.py` shows the whole effect). PyTorch's CPU
performance guide suggests jemalloc or tcmalloc for this; here the same effect comes from glibc's own `mallopt`
settings, applied for the duration of a run and undone afterwards (`malloc_trim` then returns the memory).

`bench/step.py --bare-allocator` runs bare TRL under the same settings, to show how much of the speed-up this is.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import threading
from contextlib import contextmanager


logger = logging.getLogger(__name__)

_M_TRIM_THRESHOLD, _M_TOP_PAD, _M_MMAP_THRESHOLD = -1, -2, -3
# After a run. glibc starts at 128 KB and raises its mmap threshold as large blocks are freed, up to 32 MB, with the
# trim threshold at twice that; once mallopt has set a value that adaptation stops, so this restores where it ends up
# in a process that has seen large tensors, rather than 128 KB (which would mmap, and page-fault, every tensor).
_DEFAULTS = {_M_TRIM_THRESHOLD: 64 * 1024 * 1024, _M_TOP_PAD: 128 * 1024, _M_MMAP_THRESHOLD: 32 * 1024 * 1024}
_TRAINING = {
    _M_TRIM_THRESHOLD: 2**31 - 1,  # never give the top of the heap back during the run
    _M_TOP_PAD: 256 * 1024 * 1024,  # grow the heap in large steps
    _M_MMAP_THRESHOLD: 32 * 1024 * 1024,  # glibc's maximum: up to 32 MB comes from the (reused) heap
}
_lock = threading.Lock()
_depth = 0


def _libc():
    name = ctypes.util.find_library("c")
    if not name:
        return None
    try:
        libc = ctypes.CDLL(name)
        libc.mallopt  # noqa: B018 - missing on musl and other C libraries
        libc.malloc_trim  # noqa: B018
    except (OSError, AttributeError):
        return None
    return libc


def _apply(libc, settings: dict[int, int]) -> bool:
    return all(libc.mallopt(option, value) == 1 for option, value in settings.items())


@contextmanager
def training_allocator(enabled: bool = True):
    """Within the block, freed memory stays with the process; on leaving, `_DEFAULTS` return and it is trimmed.

    Nested or concurrent blocks share one setting (it is process-wide); the last one out restores `_DEFAULTS`.
    Does nothing where the C library is not glibc.
    """
    global _depth
    libc = _libc() if enabled else None
    if libc is None:
        yield False
        return
    with _lock:
        _depth += 1
        applied = _apply(libc, _TRAINING) if _depth == 1 else True
    if not applied:
        logger.info("mallopt refused the training allocator settings; continuing with the defaults")
    try:
        yield applied
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0:
                _apply(libc, _DEFAULTS)
                libc.malloc_trim(0)
