"""A bystander for the attack tests: another visitor who keeps loading the page while an attack runs. The attacks
themselves are raw queue calls (`playground.ui.queue_client`)."""

import subprocess
import sys
import time

import httpx


BYSTANDER_LOOP = """
import sys, threading, time
import httpx

url, stop = sys.argv[1], threading.Event()
threading.Thread(target=lambda: (sys.stdin.read(), stop.set()), daemon=True).start()
with httpx.Client(timeout=120) as http:
    print("ready", flush=True)
    while True:  # at least one page load, however short the attack
        started = time.monotonic()
        http.get(url + "config").raise_for_status()
        print(time.monotonic() - started, flush=True)
        if stop.wait(0.2):
            break
"""


class Bystander:
    """A visitor who loads the page (GET /config) every 0.2 s while an attack runs, from a process of its own (as
    another browser would: nothing the test process does meanwhile delays it); `worst` is its slowest answer and
    `count` the number of page loads, both known once the block ends."""

    def __init__(self, url: str):
        self.url, self.worst, self.count = url, 0.0, 0
        self._process: subprocess.Popen | None = None

    def __enter__(self):
        self._process = subprocess.Popen(
            [sys.executable, "-c", BYSTANDER_LOOP, self.url], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        assert self._process.stdout.readline().strip() == "ready"  # its interpreter is up: page loads start now
        return self

    @staticmethod
    def quiet_worst(url: str, loads: int = 5) -> float:
        """The slowest of `loads` page loads with no attack running: what this machine's load alone costs a page."""
        worst = 0.0
        with httpx.Client(timeout=120) as http:
            for _ in range(loads):
                started = time.monotonic()
                http.get(url + "config").raise_for_status()
                worst = max(worst, time.monotonic() - started)
                time.sleep(0.05)
        return worst

    def __exit__(self, *exc):
        out, _ = self._process.communicate(input="stop\n", timeout=150)
        times = [float(line) for line in out.split()]
        self.worst, self.count = max(times, default=0.0), len(times)
