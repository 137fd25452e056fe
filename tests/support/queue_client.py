"""A running app's raw queue API, spoken as a browser or a script speaks it: the route table (`/config`), any event
sent by its `fn_index` (named or not, with any headers), inputs built per component, and the page load's token.

For the security tests (an attacker's calls are raw queue calls, not the page's) and the load benches (many visitors
without a browser each). Nothing here runs in the app itself.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable

import httpx


TOKEN_KEY = "grpo-playground-session"  # the browser storage key of the session's token


# The apps under test serve plain HTTP on 127.0.0.1: no TLS is spoken, so there is no certificate to check. With
# verification on, httpx builds its default SSL context for every client it makes (it reads the CA bundle: about 13 ms
# of CPU), and gradio_client makes three per call; across the suite that was a tenth of the test processes' CPU.
VERIFY = False


def http_client(timeout: float, headers: dict | None = None, local_address: str | None = None) -> httpx.Client:
    """An HTTP client whose connections leave from `local_address` (another loopback address, 127.0.0.x: another
    visitor to the app's address check); the machine's default source address if None."""
    transport = httpx.HTTPTransport(local_address=local_address, verify=VERIFY) if local_address else None
    return httpx.Client(timeout=timeout, headers=headers or {}, transport=transport, verify=VERIFY)


# gradio_client sends its requests with httpx's default 5-s timeout unless told otherwise. A queue join that opens a
# new session builds the page's config of every component on the server: on a 2-core machine loaded by other work,
# with several clients joining at once, that took longer than 5 s. A ceiling far above any load instead: a call that
# hangs is caught by the test's own bound, not by the client's.
CLIENT_TIMEOUT_S = 120.0


def app_client(url: str, **kwargs):
    """A `gradio_client.Client` of the app at `url`, as a script calls its API: quiet, files not downloaded, each
    request given `CLIENT_TIMEOUT_S`."""
    from gradio_client import Client

    kwargs.setdefault("httpx_kwargs", {"timeout": CLIENT_TIMEOUT_S})
    return Client(url, verbose=False, download_files=False, ssl_verify=VERIFY, **kwargs)


def app_config(url: str, local_address: str | None = None) -> dict:
    with http_client(30, local_address=local_address) as http:
        return http.get(url + "config").json()


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
    url: str,
    session_hash: str,
    fn_index: int,
    data: list,
    headers: dict | None = None,
    timeout: float = 120,
    local_address: str | None = None,
    http: httpx.Client | None = None,
    messages: list | None = None,
) -> dict:
    """One event over the raw queue API, from `local_address` if given, or over `http` (a client kept for many calls:
    its cookies are dropped first, so each call comes as from a browser of its own); returns its final message
    (`success`, `output`). `messages`, if given, receives every message of the call (its logs: toasts), in order."""
    if http is not None:
        http.cookies.clear()
    kept = contextlib.nullcontext(http) if http is not None else http_client(timeout, local_address=local_address)
    with kept as client:
        joined = client.post(
            url + "gradio_api/queue/join",
            json={"data": data, "fn_index": fn_index, "session_hash": session_hash, "event_data": None},
            headers=headers,
            timeout=timeout,
        )
        if joined.status_code != 200:
            return {"success": False, "output": {"error": joined.text}, "rejected": joined.status_code}
        params, stream = {"session_hash": session_hash}, url + "gradio_api/queue/data"
        with client.stream("GET", stream, params=params, headers=headers, timeout=timeout) as answer:
            for line in answer.iter_lines():
                if line.startswith("data:"):
                    message = json.loads(line[5:])
                    if messages is not None:
                        messages.append(message)
                    if message.get("msg") == "process_completed":
                        return message
    raise ConnectionError("the queue closed without an answer")


def run_call(
    url: str,
    api_name: str,
    data: list,
    headers: dict | None = None,
    timeout: float = 300,
    local_address: str | None = None,
) -> dict:
    """One unqueued call of a named endpoint (`/gradio_api/run/<api_name>`), as a script without a page makes it,
    from `local_address` if given; returns `{"success", "output"}` in the shape of `raw_call`'s final message."""
    with http_client(timeout, headers, local_address) as http:
        answer = http.post(url + f"gradio_api/run/{api_name.lstrip('/')}", json={"data": data})
    body = answer.json() if answer.headers.get("content-type", "").startswith("application/json") else {}
    if answer.status_code == 200 and "data" in body:
        return {"success": True, "output": {"data": body["data"]}}
    return {"success": False, "output": {"error": body.get("error") or answer.text}}


def error_of(message: dict) -> str:
    return str((message.get("output") or {}).get("error") or "")


def find_event(config: dict, test: Callable[[dict, dict[int, dict]], bool]) -> tuple[int, dict]:
    by_id = components(config)
    for index, dep in backend_events(config):
        if test(dep, by_id):
            return index, dep
    raise LookupError("no such event in the route table")


def is_load_event(dep: dict, by_id: dict | None = None) -> bool:
    """Whether the route table's `dep` runs when a page loads."""
    return any(event == "load" for _, event in dep["targets"])


def page_load(url: str, session_hash: str, stored: str | None = None, local_address: str | None = None) -> dict:
    """The page's load event as a browser sends it: every input as the page was built, and `stored` as the token the
    browser kept (none by default); returns its final message. From `local_address` if given."""
    config = app_config(url, local_address)
    index, dep = find_event(config, is_load_event)

    def value(component: dict):
        props = component["props"]
        return stored if props.get("storage_key") == TOKEN_KEY else props.get("value")

    return raw_call(url, session_hash, index, payload(config, dep, value), local_address=local_address)


def tokens_of(done: dict) -> list[str]:
    """The session tokens in an event's answer."""
    return [v for v in (done.get("output") or {}).get("data") or [] if isinstance(v, str) and v.startswith("pg1.")]


def issue_token(url: str, session_hash: str, stored: str | None = None, local_address: str | None = None) -> str:
    """What a browser's page load does: the load event reads the token the browser stored (`stored`; none by
    default), keeps it if this server issued it, else issues one, and keeps it in the session's state. Returns the
    session's token, as the browser would store it. From `local_address` if given."""
    done = page_load(url, session_hash, stored, local_address)
    if not done.get("success"):
        raise RuntimeError(f"the page load's token event failed: {error_of(done)}")
    if not tokens_of(done):
        raise RuntimeError(f"the page load issued no token: {done}")
    return tokens_of(done)[0]
