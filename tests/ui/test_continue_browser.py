"""An app process killed while it trains, and started again: the Runs tab lists the run as interrupted, and its
Continue button takes it from its last checkpoint to its end. The app killed is a real `python app.py` process; the
app started again on its runs folder is built and launched in the test's process, as app.py does; Chromium through
Playwright."""

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.ui.live_app import SANDBOX_ENV, free_port, running_app
from tests.ui.test_browser import VIEWPORT, assert_no_error_toast, open_tab, wait_for
from tests.ui.test_client import TINY_RUN, client, form_kwargs


ROOT = Path(__file__).resolve().parents[2]
STEPS = 8


@contextlib.contextmanager
def app_process(model: Path, runs: Path):
    """`python app.py` on a free port of 127.0.0.1, in a process group of its own; killed (SIGKILL) on the way out."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in SANDBOX_ENV}
    env.update(HF_HUB_OFFLINE="1", PYTHONPATH=str(ROOT), GRADIO_ANALYTICS_ENABLED="False")
    cmd = [sys.executable, "app.py", "--host", "127.0.0.1", "--port", str(port), "--model", str(model)]
    proc = subprocess.Popen(
        [*cmd, "--runs", str(runs)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 180
        while True:
            assert proc.poll() is None, "the app exited"
            try:
                urllib.request.urlopen(url, timeout=5).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the app did not answer"
                time.sleep(0.5)
        yield proc, type("Live", (), {"url": url})()
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def test_continue_a_run_after_the_app_was_killed(tiny_model_dir, tmp_path, browser):
    runs = tmp_path / "runs"
    with app_process(tiny_model_dir, runs) as (proc, live):
        c = client(live)
        c.predict(**form_kwargs(c, **{**TINY_RUN, "max_steps": STEPS, "save_steps": 2}), api_name="/start_training")
        wait_for(lambda: list(runs.glob("*/trainer/checkpoint-2")), 300, "the first checkpoint")
        os.killpg(proc.pid, signal.SIGKILL)  # the app dies while it trains
    (run_dir,) = [p for p in runs.iterdir() if p.is_dir() and not p.name.startswith(".")]

    # Started again: a new app on the same runs folder, built in this process, whose imports are loaded already (a
    # second interpreter's start-up would be most of this test's time).
    with running_app(str(tiny_model_dir), str(runs)) as live:
        context = browser.new_context(locale="en-US", viewport=VIEWPORT)
        page = context.new_page()
        page.goto(live.url)
        open_tab(page, "Runs")
        row = page.get_by_role("row").filter(has_text=run_dir.name)
        row.filter(has_text="interrupted").wait_for()
        page.get_by_role("button", name="Continue", exact=True).click()  # the picker holds the newest run: this one
        page.get_by_text(f"Run {run_dir.name} continues from step").wait_for()

        # The run's end, read from its folder (cheap to poll), then the Runs table shows it.
        wait_for(lambda: _status(run_dir).get("status") == "finished", 600, "the continued run to finish")
        page.get_by_role("button", name="Refresh").click()
        row.filter(has_text="finished").filter(has_text=f"{STEPS}/{STEPS}").wait_for()
        assert_no_error_toast(page)
        context.close()

    rows = [r for r in _metrics(run_dir) if r.get("phase") == "grpo" and "reward" in r]
    assert [r["step"] for r in rows] == list(range(1, STEPS + 1))


def _status(run_dir: Path) -> dict:
    try:
        return json.loads((run_dir / "status.json").read_text())
    except (OSError, ValueError):  # not written yet
        return {}


def _metrics(run_dir: Path) -> list[dict]:
    return [json.loads(line) for line in (run_dir / "metrics.jsonl").read_text().splitlines() if line.strip()]
