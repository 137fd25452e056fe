"""A bystander for the attack tests: another visitor who keeps loading the page while an attack runs. The attacks
themselves are raw queue calls (`tests.support.queue_client`)."""

import subprocess
import sys
import time

import httpx


BYSTANDER_LOOP = """
import sys, threading, time
import httpx

url, interval, stop = sys.argv[1], float(sys.argv[2]), threading.Event()
threading.Thread(target=lambda: (sys.stdin.read(), stop.set()), daemon=True).start()
with httpx.Client(timeout=120) as http:
    print("ready", flush=True)
    while True:  # at least one page load, however short the attack
        started = time.monotonic()
        http.get(url + "config").raise_for_status()
        print(time.monotonic() - started, flush=True)
        if stop.wait(interval):
            break
"""


# A page load during an attack may take this long whatever else loads the machine (the suite's other pytest worker, a
# worker starting on the same two cores, other work: at a load of 8 a page load took 2.3 s) ...
BYSTANDER_BOUND = 10.0
# ... or this many times the slowest page load just before the attack. What the bound guards against is a freeze: a
# reward run in the app's process froze page loads for 30-60 s.
LOADED_FACTOR = 10


def page_load_bound(quiet: float) -> float:
    """How long a bystander's page load may take during an attack, given its slowest just before (`quiet_worst`)."""
    return max(BYSTANDER_BOUND, LOADED_FACTOR * quiet)


class Bystander:
    """A visitor who loads the page (GET /config) every `interval` seconds while an attack runs, from a process of its
    own (as another browser would: nothing the test process does meanwhile delays it); `worst` is its slowest answer,
    `times` every answer's seconds and `count` the number of page loads, known once the block ends."""

    def __init__(self, url: str, interval: float = 0.2):
        self.url, self.interval, self.worst, self.count, self.times = url, interval, 0.0, 0, []
        self._process: subprocess.Popen | None = None

    def __enter__(self):
        self._process = subprocess.Popen(
            [sys.executable, "-c", BYSTANDER_LOOP, self.url, str(self.interval)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
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
        self.times = [float(line) for line in out.split()]
        self.worst, self.count = max(self.times, default=0.0), len(self.times)
