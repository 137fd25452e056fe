"""An attack generated from the app's route table: every event `/config` lists, named or not, is called over the raw
queue API (by its `fn_index`, from a fresh session of its own) three times: with another visitor's run id, with a
server path, and with inputs over the admission gate's caps. An event added later is attacked without a new test.

Each answer is a refusal, or an answer that reveals nothing: not the other visitor's run, not a server path. The
oversize call is refused wherever the event takes text. Nothing starts, and the other visitor's run is untouched.
Every event is also called with its default inputs and no browser token: none starts a worker of its own.
"""

import itertools
import json
import uuid

import pytest

from playground.isolation.visitor import ANONYMOUS, WORKERS
from playground.spec import RunSpec
from tests.support.queue_client import app_config, backend_events, http_client, payload, raw_call
from tests.ui.live_app import running_app


SECRET = "victim-secret-7c1f9"  # in the other visitor's run: its prompt set, its samples and its adapter
OVERSIZE = 1_000_001  # characters: over any one input's cap and over a whole request's
TEXT = ("textbox", "code", "dropdown", "radio", "api", "markdown", "browserstate", "json", "html")


@pytest.fixture(scope="module")
def public_app(tiny_model_dir, tmp_path_factory):
    env = {"PLAYGROUND_PUBLIC": "1", "PLAYGROUND_PROXY_HOPS": "1"}
    with running_app(str(tiny_model_dir), str(tmp_path_factory.mktemp("runs")), env=env) as live:
        yield live


@pytest.fixture(scope="module")
def http():
    """One HTTP client for the module's raw calls (each call is a session of its own, with no cookie kept)."""
    with http_client(300) as http:
        yield http


@pytest.fixture(scope="module")
def victims_run(public_app):
    """A finished run of another visitor (unpublished), with an adapter, samples and metrics."""
    spec = RunSpec()
    spec.set("dataset_name", SECRET)
    run = public_app.ctx.store.create(spec.to_dict(), owner="sha256:" + "7" * 64)
    run.write_status(status="finished", step=3)
    run.append_samples([{"step": 3, "prompt": SECRET, "completion": SECRET, "reward": 1.0}])
    run.append_metrics({"step": 3, "reward": 0.5})
    run.adapter_dir.mkdir(parents=True, exist_ok=True)
    (run.adapter_dir / "adapter_config.json").write_text(json.dumps({"note": SECRET}))
    return run


def attack_value(kind: str, run, oversize: int):
    """The input an attacker sends to a component of type `kind`, for each of the three attacks."""

    def value(component: dict):
        ctype, default = component["type"], component["props"].get("value")
        text = {"run": run.id, "path": str(run.path), "oversize": "x" * oversize}[kind]
        if ctype in TEXT:
            return text
        if ctype == "file":  # a file of the other visitor's run, in the path attack
            path = str(run.adapter_dir / "adapter_config.json")
            return {"path": path, "meta": {"_type": "gradio.FileData"}} if kind == "path" else None
        if ctype == "dataframe":
            headers = (default or {}).get("headers") or ["a"]
            return {"headers": headers, "data": [[text] * len(headers)]}
        if ctype in ("number", "slider") and kind == "oversize":
            return 10**12
        return default

    return value


@pytest.mark.slow
def test_every_event_refuses_another_visitors_run_a_server_path_and_oversize_input(public_app, victims_run, http):
    ctx = public_app.ctx
    config = app_config(public_app.url)
    events = backend_events(config)
    oversize = OVERSIZE
    leaks = [SECRET, str(ctx.store.root), str(victims_run.path)]
    attacked, sent_calls, refused = 0, 0, {"run": 0, "path": 0, "oversize": 0}
    for index, dep in events:
        answers: dict[str, dict] = {}  # an event that takes none of an attack's values is called once for all three
        session = uuid.uuid4().hex  # one attacker's session per event, as a script keeps one
        for kind in ("run", "path", "oversize"):
            data = payload(config, dep, attack_value(kind, victims_run, oversize))
            key = json.dumps(data)
            if key not in answers:
                answers[key] = raw_call(public_app.url, session, index, data, timeout=120, http=http)
                sent_calls += 1
            done = answers[key]
            sent = {"run": victims_run.id, "path": str(victims_run.path), "oversize": "x" * oversize}[kind]
            shown = json.dumps(done, ensure_ascii=False).replace(sent, "<sent>")  # an echo of the input tells nothing
            where = f"event {index} ({dep.get('api_name')}), {kind}"
            for leak in leaks:
                assert leak not in shown, f"{where} shows {leak!r}: {shown[:600]}"
            refused[kind] += not done["success"]
            takes_text = any(d is not None and not isinstance(d, bool | int | float) for d in data)
            if kind == "oversize" and takes_text:
                assert not done["success"], f"{where} took an input over the caps: {shown[:600]}"
        attacked += 1
    print(f"\nroute table: {attacked} events attacked × 3 in {sent_calls} distinct calls (refused: {refused})")
    assert attacked == len(events) >= 80
    assert ctx.jobs.current is None and not ctx.jobs.waiting  # nothing started or queued
    status = victims_run.status()
    assert status["status"] == "finished" and not status.get("published")
    assert (victims_run.adapter_dir / "adapter_config.json").is_file()


SAMPLE = "Hello there.\n---\nGo away."  # two completions, as Try on text splits them


def honest_value(fill: bool):
    """The page's default for each input; with `fill`, an empty text input holds two completions instead."""

    def value(component: dict):
        default = component["props"].get("value")
        return SAMPLE if fill and component["type"] in ("textbox", "code") and default in (None, "") else default

    return value


@pytest.mark.slow
def test_every_event_called_without_a_token_gets_no_worker_of_its_own(public_app, http):
    """Every event with the page's default inputs, from a session that never loaded the page (no browser token): what
    scores runs in the shared pool's workers ("anonymous:N"), never in a worker started for the call."""
    ctx = public_app.ctx
    config = app_config(public_app.url)
    own, scored, sent = [], 0, set()
    sessions = {index: uuid.uuid4().hex for index, _ in backend_events(config)}  # one per event, never a page's
    for (index, dep), fill in itertools.product(backend_events(config), (False, True)):
        data = payload(config, dep, honest_value(fill))
        if (index, json.dumps(data)) in sent:  # no empty text input to fill: the call with the defaults was this one
            continue
        sent.add((index, json.dumps(data)))
        fresh = WORKERS.fresh
        done = raw_call(public_app.url, sessions[index], index, data, timeout=300, http=http)
        scored += done["success"] and "Go away." in json.dumps(done)
        job = ctx.jobs.current
        if job is not None:  # Start with the defaults: a run's rewards get workers of the run, stopped with it
            job.stop()
            job.join(300)
            ctx.jobs.waiting.clear()
        elif WORKERS.fresh > fresh:
            own.append(dep.get("api_name") or index)
    assert scored  # some events scored the filled-in completions
    owners = {owner for owner, _ in WORKERS.live()}
    assert all(owner.startswith(ANONYMOUS) for owner in owners), owners
    assert not own, f"events that started workers of their own: {own}"
