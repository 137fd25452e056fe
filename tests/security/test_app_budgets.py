"""What a visitor spends, charged to that visitor, on a real public app on 127.0.0.1 with the default settings (no
trusted proxy):

- forwarded headers: a client on loopback that writes `X-Forwarded-For` is still one address to the queue cap;
- upload width: one JSONL line of 120,000 keys, or of 45 MB, is refused by the gate in the upload worker, with the
  app's memory unchanged, in English and Chinese; a narrow file of the same rows still reads;
- calls without a browser token: concurrent judge calls through the unqueued `/gradio_api/run/score_completions`
  start at most the shared pool's one model worker, and calls past the address's share are refused;
- a bystander: while one address makes 8 token-less judge calls, a browser on another loopback address (127.0.0.2)
  keeps scoring on Try on text within twice its own latency measured just before;
- retention: the Runs tab says when a visitor's run is deleted (English and Chinese).
"""

import contextlib
import json
import logging
import os
import statistics
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta

import pytest
from gradio_client import Client, handle_file
from gradio_client.exceptions import AppError

from playground import settings
from playground.errors import RewardError
from playground.isolation.visitor import WORKERS, AddressCharges
from playground.spec import RunSpec
from tests.support.queue_client import app_client, app_config, error_of, find_event, issue_token, raw_call, run_call
from tests.ui.live_app import fresh_module_state
from tests.ui.test_client import TINY_RUN, form_kwargs


ENV = {"PLAYGROUND_PUBLIC": "1"}  # PLAYGROUND_PROXY_HOPS unset: 0, as off a Space


@pytest.fixture(scope="module")
def public_app(shared_public_app, tmp_path_factory):
    with fresh_module_state(shared_public_app, str(tmp_path_factory.mktemp("runs")), ENV) as live:
        yield live


def forging(app, written: str) -> Client:
    """A browser session on 127.0.0.1 that writes `written` into X-Forwarded-For (as through `--share`'s tunnel, or a
    proxy that does not append)."""
    return app_client(app.url, headers={"X-Forwarded-For": written})


def test_forwarded_headers_from_loopback_choose_no_address(public_app):
    ctx = public_app.ctx
    runner = app_client(public_app.url)
    runner.predict(**form_kwargs(runner, **{**TINY_RUN, "max_steps": 60}), api_name="/start_training")
    job = ctx.jobs.current
    try:
        first = forging(public_app, "203.0.113.1")
        first.predict(**form_kwargs(first, **{**TINY_RUN, "max_steps": 1}), api_name="/start_training")  # queued
        assert [w.address for w in ctx.jobs.waiting] == ["127.0.0.1"]
        for n in (2, 3):  # the same client, a made-up address each time
            forged = forging(public_app, f"203.0.113.{n}")
            with pytest.raises(AppError, match="Your network address already has 1 run"):
                forged.predict(**form_kwargs(forged, **{**TINY_RUN, "max_steps": 1}), api_name="/start_training")
        assert [w.address for w in ctx.jobs.waiting] == ["127.0.0.1"]
    finally:
        ctx.jobs.waiting.clear()
        job.stop()
        job.join(300)


# --- upload width ----------------------------------------------------------------------------------------------------


def rss_bytes() -> int:
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


class PeakRSS:
    """The app's (this process's) largest resident memory while the block runs, sampled every 20 ms."""

    def __enter__(self):
        self.before, self.peak, self._stop = rss_bytes(), rss_bytes(), threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()
        return self

    def _sample(self):
        while not self._stop.wait(0.02):
            self.peak = max(self.peak, rss_bytes())

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, rss_bytes())


def wide_row(path, keys: int) -> None:
    with open(path, "w") as handle:
        handle.write('{"prompt": "Say hi."')
        for start in range(0, keys, 100_000):
            handle.write("".join(f', "k{n:07d}": 1' for n in range(start, min(keys, start + 100_000))))
        handle.write("}\n")


@pytest.mark.parametrize("keys", [120_000, 2_900_000], ids=["120k-keys", "45MB"])
def test_a_wide_row_upload_is_refused_in_the_upload_worker(public_app, tmp_path, keys, caplog):
    path = tmp_path / "wide.jsonl"
    wide_row(path, keys)
    size = path.stat().st_size
    assert size > (40 * 2**20 if keys > 1_000_000 else 1_500_000)
    c = app_client(public_app.url)
    uploaded = handle_file(str(path))
    with caplog.at_level(logging.INFO), PeakRSS() as memory, pytest.raises(AppError) as err:
        started = time.monotonic()
        c.predict(uploaded, api_name="/upload_prompts")
    seconds = time.monotonic() - started
    assert f"PLAYGROUND_MAX_UPLOAD_ROW_CHARS); this request has {size - 1:,}" in str(err.value), str(err.value)
    assert memory.peak - memory.before < 200 * 2**20, (memory.before, memory.peak)
    logged = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
    assert (
        logged
        and all(len(line) < 300 for line in logged)
        and not any("k0000001" in r.getMessage() for r in caplog.records)
    )
    print(f"{size / 2**20:.1f} MB refused in {seconds:.2f} s, app RSS +{(memory.peak - memory.before) / 2**20:.0f} MB")


def test_upload_refusals_are_in_chinese_too(public_app, tmp_path):
    path = tmp_path / "wide.jsonl"
    wide_row(path, 120_000)
    c = app_client(public_app.url, headers={"Accept-Language": "zh-CN"})
    with pytest.raises(AppError, match="上传文件中一行的字符数最多为 100,000（PLAYGROUND_MAX_UPLOAD_ROW_CHARS）"):
        c.predict(handle_file(str(path)), api_name="/upload_prompts")


def test_uploads_are_priced_by_width_and_nesting(public_app, tmp_path):
    c = app_client(public_app.url)
    wide = tmp_path / "wide.csv"  # short lines, but 65 columns
    wide.write_text(",".join(["prompt", *(f"c{n}" for n in range(64))]) + "\n" + ",".join("x" * 65) + "\n")
    deep = tmp_path / "deep.json"
    deep.write_text(json.dumps([{"prompt": "hi", "meta": [[[[[[[[[[1]]]]]]]]]]}]))
    for path, env in ((wide, "PLAYGROUND_MAX_UPLOAD_COLUMNS"), (deep, "PLAYGROUND_MAX_UPLOAD_DEPTH")):
        with pytest.raises(AppError, match=env):
            c.predict(handle_file(str(path)), api_name="/upload_prompts")
    narrow = tmp_path / "narrow.jsonl"
    narrow.write_text('{"prompt": "Say hi.", "answer": "hi"}\n' * 3)
    kind, name = c.predict(handle_file(str(narrow)), api_name="/upload_prompts")
    assert kind == "file" and name["value"].endswith("narrow.jsonl")


# --- calls without a browser token -----------------------------------------------------------------------------------


def worker_pids() -> set[int]:
    """The sandbox worker processes (visitor workers among them) that are children of the app (this process)."""
    found = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                parent = int(handle.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                command = handle.read()
        except (OSError, ValueError, IndexError):
            continue
        if parent == os.getpid() and b"playground.sandbox.worker" in command:
            found.add(int(entry))
    return found


class WorkerWatch:
    """Every sandbox worker process started while the block runs (sampled every 20 ms)."""

    def __enter__(self):
        self.before, self.started, self._stop = worker_pids(), set(), threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()
        return self

    def _sample(self):
        while not self._stop.wait(0.02):
            self.started |= worker_pids() - self.before

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()


JUDGE = json.dumps([{"name": "judge", "weight": 1.0, "params": {"rubric": "Is it polite?", "model": "embedded"}}])
# score_completions' inputs: completions, rewards, prompt, code, scale_rewards, multi_objective_aggregation
JUDGE_CALL = [["Hello there.", "Go away."], JUDGE, "Greet me.", "", "group", "sum_then_normalize"]


def test_token_less_judge_calls_share_one_pool_worker(public_app):
    calls = 4
    data = JUDGE_CALL
    with WorkerWatch() as watch, ThreadPoolExecutor(calls) as pool:
        answers = list(pool.map(lambda _: run_call(public_app.url, "score_completions", data), range(calls)))
    scored = [a for a in answers if a["success"]]
    refused = [error_of(a) for a in answers if not a["success"]]
    assert scored, refused
    assert all("PLAYGROUND_MAX_ANONYMOUS_CALLS_PER_ADDRESS" in e for e in refused), refused
    assert len(watch.started) <= 1, watch.started  # the shared pool's model worker, never one per call
    assert [key for key in WORKERS.live() if key[1] == "model"] == [("anonymous:0", "model")]


BYSTANDER = "127.0.0.2"  # another loopback address: another visitor to the app's per-address checks


class TryOnText:
    """A browser on `BYSTANDER` with its page's token, scoring a group on Try on text (the selection its page starts
    with) over the raw queue."""

    def __init__(self, url: str):
        import uuid

        self.url, self.session = url, uuid.uuid4().hex
        issue_token(url, self.session, local_address=BYSTANDER)
        self.index, _ = find_event(app_config(url, BYSTANDER), lambda dep, _: dep.get("api_name") == "try_on_text")

    def seconds(self) -> float:
        start = time.perf_counter()
        done = raw_call(
            self.url,
            self.session,
            self.index,
            [None, "abcde\n---\nabcdefghij", "", "", None, ""],
            None,
            300,
            BYSTANDER,
        )
        assert done["success"], error_of(done)
        return time.perf_counter() - start


def test_a_bystander_keeps_scoring_while_one_address_makes_token_less_judge_calls(public_app, monkeypatch):
    bystander = TryOnText(public_app.url)
    bystander.seconds()  # its worker starts
    before = [bystander.seconds() for _ in range(5)]
    calls = 8
    during, attack_over = [], threading.Event()
    share = settings.current().caps.max_anonymous_calls_per_address
    # The calls the address's share admits hold (before they score) until the others were refused: all eight overlap
    # on any machine, where a loaded one let the first answers end before the last calls arrived. The real charge
    # decides; with a cap that admits more, they all wait here in vain and then score.
    charge, refusals, overlapped = AddressCharges.charge, [], threading.Event()

    @contextlib.contextmanager
    def held_charge(charges, address, cap):
        with contextlib.ExitStack() as stack:
            try:
                stack.enter_context(charge(charges, address, cap))
            except RewardError:
                refusals.append(address)
                if len(refusals) >= calls - share:
                    overlapped.set()
                raise
            overlapped.wait(300)
            yield

    monkeypatch.setattr(AddressCharges, "charge", held_charge)

    def attack():
        with ThreadPoolExecutor(calls) as pool:
            try:
                return list(
                    pool.map(lambda _: run_call(public_app.url, "score_completions", JUDGE_CALL), range(calls))
                )
            finally:
                attack_over.set()

    with WorkerWatch() as watch, ThreadPoolExecutor(1) as attacker:
        answers = attacker.submit(attack)
        while not attack_over.is_set() or len(during) < 3:
            during.append(bystander.seconds())
        answers = answers.result()
    refused = [error_of(a) for a in answers if not a["success"]]
    assert len(refused) == calls - share, refused  # every call past the address's share
    assert all("PLAYGROUND_MAX_ANONYMOUS_CALLS_PER_ADDRESS" in e for e in refused), refused
    assert len(watch.started) <= settings.current().caps.anonymous_workers, watch.started  # the shared pool only
    quiet, busy = statistics.median(before), statistics.median(during)
    print(
        f"bystander Try on text: median {quiet:.3f} s before (n={len(before)}), {busy:.3f} s during (n={len(during)}) "
        f"{calls} token-less judge calls ({calls - len(refused)} scored, {len(refused)} refused); "
        f"workers started {len(watch.started)}"
    )
    assert busy <= max(2 * quiet, quiet + 1.0), (before, during)


# --- retention -------------------------------------------------------------------------------------------------------


def test_the_runs_tab_says_when_a_run_is_deleted(public_app):
    import uuid

    session = uuid.uuid4().hex
    token = issue_token(public_app.url, session)
    run = public_app.ctx.store.create(RunSpec().to_dict(), owner=public_app.ctx.viewer(token))
    run.write_status(status="finished", step=1)
    ended = run.status()["finished_at"]
    config = app_config(public_app.url)
    index, dep = find_event(config, lambda dep, by_id: dep.get("api_name") == "show_run")
    data = [run.id if by_id_type == "dropdown" else None for by_id_type in _input_types(config, dep)]
    for lang, text in (("en", "Deleted at"), ("zh", "删除")):
        done = raw_call(public_app.url, session, index, data, {"Accept-Language": lang})
        shown = json.dumps(done["output"]["data"], ensure_ascii=False)
        assert done["success"] and text in shown and "PLAYGROUND_RUN_RETENTION_HOURS" in shown, shown[-600:]
    expected = (datetime.fromisoformat(ended) + timedelta(hours=6)).strftime("%Y-%m-%d %H:%M")
    assert expected in shown


def _input_types(config: dict, dep: dict) -> list[str]:
    by_id = {c["id"]: c for c in config["components"]}
    return [by_id[i]["type"] for i in dep["inputs"]]
