"""A bystander for the attack tests: another visitor who keeps loading the page while an attack runs. The attacks
themselves are raw queue calls (`tests.support.queue_client`)."""

import contextlib
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field


# The bystander's process: one line on its stdin per command, one line of page load seconds back per command.
# "quiet N": N page loads back to back. "watch": "watching" at once, then a page load every `interval` seconds until
# the next line ("stop"), at least one however short the attack.
BYSTANDER_LOOP = """
import queue, sys, threading, time
import httpx

url, interval, commands = sys.argv[1], float(sys.argv[2]), queue.Queue()


def read():
    for line in sys.stdin:
        commands.put(line.split())
    commands.put(None)


def load(http):
    started = time.monotonic()
    http.get(url + "config").raise_for_status()
    return time.monotonic() - started


threading.Thread(target=read, daemon=True).start()
with httpx.Client(timeout=120) as http:
    print("ready", flush=True)
    while (command := commands.get()) is not None:
        if command[0] == "quiet":
            times = [load(http) for _ in range(int(command[1]))]
        else:
            print("watching", flush=True)
            times = [load(http)]
            while True:
                try:
                    commands.get(timeout=interval)  # "stop"
                    break
                except queue.Empty:
                    times.append(load(http))
        print(" ".join(map(str, times)), flush=True)
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


@dataclass
class Window:
    """The bystander's page loads during one attack, known once its block ends: `times` (seconds of each), `worst`
    (the slowest) and `count`."""

    times: list[float] = field(default_factory=list)

    @property
    def worst(self) -> float:
        return max(self.times, default=0.0)

    @property
    def count(self) -> int:
        return len(self.times)


class Bystander:
    """A visitor who loads the page (GET /config) from a process of its own (as another browser would: nothing the
    test process does meanwhile delays it), over one connection, for as long as the block runs: `quiet_worst` is its
    slowest page load with no attack running, and `watching` a block during which it loads the page every `interval`
    seconds (an attack's window). One process serves a module's attacks, each measured against its own quiet figure
    taken just before."""

    def __init__(self, url: str, interval: float = 0.2):
        self.url, self.interval = url, interval
        self._process: subprocess.Popen | None = None

    def __enter__(self):
        self._process = subprocess.Popen(
            [sys.executable, "-c", BYSTANDER_LOOP, self.url, str(self.interval)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self._read() == "ready"  # its interpreter is up
        return self

    def __exit__(self, *exc):
        self._process.communicate(timeout=150)  # stdin closed: it ends

    def _send(self, line: str) -> None:
        self._process.stdin.write(line + "\n")
        self._process.stdin.flush()

    def _read(self) -> str:
        line = self._process.stdout.readline()
        if not line:
            raise RuntimeError(f"the bystander ended (exit status {self._process.wait(150)})")
        return line.strip()

    def _times(self) -> list[float]:
        return [float(seconds) for seconds in self._read().split()]

    def quiet_worst(self, loads: int = 5) -> float:
        """The slowest of `loads` page loads with no attack running: what this machine's load alone costs a page."""
        self._send(f"quiet {loads}")
        return max(self._times())

    @contextlib.contextmanager
    def watching(self) -> Iterator[Window]:
        """A page load every `interval` seconds from the block's start (the first starts as it is entered) until it
        ends, at least one."""
        window = Window()
        self._send("watch")
        assert self._read() == "watching"
        try:
            yield window
        finally:
            self._send("stop")
            window.times = self._times()
