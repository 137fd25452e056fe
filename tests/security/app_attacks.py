"""What the attack tests share: the app's route table (`/config`), events sent over the raw queue API as a browser or
an attacker's script sends them (any `fn_index`, named or not, with any headers), and inputs built per component."""

import json
import subprocess
import sys
import time
from collections.abc import Callable

import httpx


def app_config(url: str) -> dict:
    return httpx.get(url + "config", timeout=30).json()


def components(config: dict) -> dict[int, dict]:
    return {c["id"]: c for c in config["components"]}


def backend_events(config: dict) -> list[tuple[int, dict]]:
    """(fn_index, dependency) for each event that runs on the server, named or not."""
    return [(dep.get("id", i), dep) for i, dep in enumerate(config["dependencies"]) if dep.get("backend_fn")]


def payload(config: dict, dep: dict, value: Callable[[dict], object]) -> list:
    """The data of one call of `dep`: `value(component)` for each input; server-held states are sent as None, as the
    page sends them."""
    by_id = components(config)
    data = []
    for input_id in dep["inputs"]:
        component = by_id[input_id]
        data.append(None if component["type"] == "state" else value(component))
    return data


def raw_call(
    url: str, session_hash: str, fn_index: int, data: list, headers: dict | None = None, timeout: float = 120
) -> dict:
    """One event over the raw queue API; returns its final message (`success`, `output`)."""
    with httpx.Client(timeout=timeout, headers=headers or {}) as http:
        joined = http.post(
            url + "gradio_api/queue/join",
            json={"data": data, "fn_index": fn_index, "session_hash": session_hash, "event_data": None},
        )
        if joined.status_code != 200:
            return {"success": False, "output": {"error": joined.text}, "rejected": joined.status_code}
        with http.stream("GET", url + "gradio_api/queue/data", params={"session_hash": session_hash}) as stream:
            for line in stream.iter_lines():
                if line.startswith("data:"):
                    message = json.loads(line[5:])
                    if message.get("msg") == "process_completed":
                        return message
    raise AssertionError("the queue closed without an answer")


def error_of(message: dict) -> str:
    return str((message.get("output") or {}).get("error") or "")


def find_event(config: dict, test: Callable[[dict, dict[int, dict]], bool]) -> tuple[int, dict]:
    by_id = components(config)
    for index, dep in backend_events(config):
        if test(dep, by_id):
            return index, dep
    raise AssertionError("no such event in the route table")


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


def issue_token(url: str, session_hash: str, stored: str | None = None) -> str:
    """What a browser's page load does: the load event reads the token the browser stored (`stored`; none by
    default), keeps it if this server issued it, else issues one, and keeps it in the session's state. Returns the
    session's token, as the browser would store it."""
    config = app_config(url)

    def reads_the_stored_token(dep: dict, by_id: dict[int, dict]) -> bool:
        return [by_id[i]["type"] for i in dep["inputs"]] == ["browserstate"] and any(
            by_id[i]["type"] == "browserstate" for i in dep["outputs"]
        )

    index, _ = find_event(config, reads_the_stored_token)
    done = raw_call(url, session_hash, index, [stored])
    assert done.get("success"), error_of(done)
    tokens = [v for v in done["output"]["data"] if isinstance(v, str) and v.startswith("pg1.")]
    assert tokens, done
    return tokens[0]
