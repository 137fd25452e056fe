"""How long the paths that must answer at once take: a model id the Hub cannot serve, a cached load of the embedded
model, a sandbox worker whose log was swapped for a FIFO or /dev/zero, and the quota walk over links and FIFOs.

The tests check what these paths answer (tests/playground/test_models.py, tests/security/test_sandbox_boundary.py);
this prints their times, which depend on the machine and its load (one JSON line per path):

    HF_HUB_OFFLINE=1 python bench/failure_paths.py
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import sys
import tempfile
import time
from pathlib import Path


ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")


def timed(name: str, fn) -> None:
    from bench.common import cpu_name

    start = time.perf_counter()
    try:
        fn()
        outcome = "ok"
    except Exception as exc:  # noqa: BLE001 - the expected refusals are what is timed
        outcome = type(exc).__name__
    seconds = round(time.perf_counter() - start, 3)
    print(json.dumps({"path": name, "seconds": seconds, "outcome": outcome, "cpu": cpu_name()}))


def main() -> None:
    from playground.models import ensure_embedded_model, load_model
    from playground.sandbox import PUBLIC_LIMITS, Sandbox
    from tests.security.test_sandbox_boundary import LINKS_AND_FIFOS, PROBE, SWAP_LOG

    timed("hub_unreachable", lambda: load_model("someone/definitely-not-a-real-model-xyz"))
    ensure_embedded_model()
    timed("embedded_cached_load", lambda: load_model("embedded"))

    limits = dataclasses.replace(PUBLIC_LIMITS, timeout=3.0, load_timeout=10.0)
    for target in ("/dev/zero", "fifo"):
        sandbox = Sandbox(SWAP_LOG + PROBE, ["reward", "probe"], limits)
        sandbox.start()
        try:
            name = f"swapped_log_{target.strip('/').replace('/', '_')}"
            timed(name, functools.partial(sandbox.call, "reward", ["a"], target=target))
        finally:
            sandbox.close()
    outside = Path(tempfile.mkdtemp(prefix="bench-outside-"))
    (outside / "big.bin").write_bytes(b"x" * (3 << 20))
    sandbox = Sandbox(LINKS_AND_FIFOS + PROBE, ["reward", "probe"], dataclasses.replace(limits, disk_mb=2))
    sandbox.start()
    try:
        timed("quota_walk_links_fifos", lambda: sandbox.call("reward", ["a"], outside=str(outside)))
    finally:
        sandbox.close()


if __name__ == "__main__":
    import playground

    playground.bootstrap()  # an entry point: the settings, the reward library's host, the code_tests runner
    main()
