"""The sandbox boundary through a real public app on 127.0.0.1: the Check report (gradio_client, as a visitor's page
calls it) and the MCP tool `check_reward` (the real MCP client) never show a file the app can read, never hang, and
the worker cannot list the visitors' files, hold memory, signal another process or leave threads running."""

import asyncio
import json
import os
import resource
import subprocess
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamablehttp_client

from playground.ui.mcp_server import TOOLS, keep_only_mcp_tools
from tests.support.queue_client import app_client
from tests.ui.live_app import SANDBOX_ENV, close_demo, free_port


SECRET = "owner-token-of-another-visitor-9b7e"
# A reward that swaps the log's old name for `target` (a link, or a FIFO), then ends the worker, so the app reports
# the failure with the worker's stderr.
SWAP_LOG = """
import os

def reward(completions, **kwargs):
    os.write(2, b"a line of its own stderr\\n")
    if os.path.lexists("worker.log"):
        os.unlink("worker.log")
    if {target!r} == "fifo":
        os.mkfifo("worker.log")
    else:
        os.symlink({target!r}, "worker.log")
    os._exit(1)
"""


@pytest.fixture(scope="module")
def public_app(tiny_model_dir, tmp_path_factory):
    """A public app (PLAYGROUND_PUBLIC=1, the default on a Space) with its MCP server; yields (url, runs folder)."""
    from playground.ui.app import build_app, launch_kwargs
    from playground.ui.context import AppContext
    from playground.ui.settings import UISettings

    runs = tmp_path_factory.mktemp("runs")
    with pytest.MonkeyPatch.context() as patch:
        for name in SANDBOX_ENV:
            patch.delenv(name, raising=False)
        patch.setenv("PLAYGROUND_PUBLIC", "1")
        patch.setenv("GRADIO_HEARTBEAT_INTERVAL", "1")
        settings = UISettings(host="127.0.0.1", port=free_port(), model=str(tiny_model_dir), runs=str(runs), mcp=True)
        ctx = AppContext.create(settings)
        demo = build_app(settings, ctx=ctx)
        _, url, _ = demo.launch(prevent_thread_lock=True, quiet=True, **launch_kwargs(settings))
        assert keep_only_mcp_tools(demo) == sorted(TOOLS)
        try:
            yield url, runs
        finally:
            close_demo(demo)
            ctx.code.close_all()


@pytest.fixture(scope="module")
def other_visitor(public_app) -> Path:
    """Another visitor's run file, with the owner token a takeover needs."""
    _, runs = public_app
    path = runs / "20260101-000000-other" / "status.json"
    path.parent.mkdir()
    path.write_text(json.dumps({"owner": SECRET}))
    return path


# A FIFO opened for reading blocks until a writer comes: a check that waits on one is held for good. A call that has
# not returned in this long is held, however loaded the machine (a check takes seconds, a minute at most under load).
FOREVER = 300.0


def within(seconds: float, fn):
    """`fn()`'s result; fails when it has not returned within `seconds` (the call is left to its daemon thread)."""
    out: dict = {}

    def run():
        try:
            out["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 - raised again below, in the test's thread
            out["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"held for more than {seconds:g} s"
    if "error" in out:
        raise out["error"]
    return out["value"]


def check(url: str, code: str) -> str:
    report, _ = app_client(url).predict(code=code, api_name="/check_code")
    return report


def check_over_mcp(url: str, code: str) -> tuple[bool, str]:
    async def call():
        async with (
            streamablehttp_client(url + "gradio_api/mcp/") as (read, write, _),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            result = await session.call_tool("check_reward", {"code": code})
            return result.isError, result.content[0].text if result.content else ""

    return asyncio.run(call())


def targets(other_visitor: Path) -> dict[str, str]:
    return {"environ": f"/proc/{os.getpid()}/environ", "other_visitor": str(other_visitor), "zero": "/dev/zero"}


@pytest.mark.parametrize("target", ["environ", "other_visitor", "zero"])
def test_check_report_shows_no_file_behind_a_swapped_log(public_app, other_visitor, target):
    url, _ = public_app
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    report = check(url, SWAP_LOG.format(target=targets(other_visitor)[target]))
    assert "exited with code 1" in report and "a line of its own stderr" in report
    assert SECRET not in report and "PATH=" not in report
    assert (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak) / 1024 < 100  # /dev/zero grew it by 2.6 GB


@pytest.mark.parametrize("target", ["environ", "other_visitor", "fifo"])
def test_mcp_check_reward_shows_no_file_behind_a_swapped_log(public_app, other_visitor, target):
    url, _ = public_app
    path = targets(other_visitor).get(target, target)
    error, text = within(FOREVER, lambda: check_over_mcp(url, SWAP_LOG.format(target=path)))
    assert not error and "exited with code 1" in text
    assert SECRET not in text and "PATH=" not in text


def test_fifo_logs_do_not_use_up_the_check_concurrency(public_app):
    """Eight checks that each left a FIFO for the app to read used to hold all of /check_code's slots for good."""
    url, _ = public_app
    fifo = SWAP_LOG.format(target="fifo")
    good = "def mine(completions, **kwargs):\n    return [1.0] * len(completions)\n"

    def nine_then_one() -> str:
        with ThreadPoolExecutor(9) as pool:
            reports = list(pool.map(lambda code: check(url, code), [fifo] * 9))
        assert all("exited with code 1" in report for report in reports)
        return check(url, good)  # a bystander's check, after them

    assert "1.000" in within(FOREVER, nine_then_one)


def test_check_cannot_list_the_visitors_files(public_app):
    """Listing Gradio's upload folder was the first step to fetching another visitor's recipe zip by its name."""
    url, _ = public_app
    gradio_dir = Path(os.environ.get("GRADIO_TEMP_DIR") or Path(tempfile.gettempdir()) / "gradio")
    planted = gradio_dir / f"security-test-{os.getpid()}"
    planted.mkdir(parents=True, exist_ok=True)
    (planted / "recipe-of-another-visitor.zip").write_text(SECRET)
    code = (
        "import os\n\n"
        "def listing(completions, **kwargs):\n"
        f"    for path in ('/', {tempfile.gettempdir()!r}, {str(gradio_dir)!r}, {str(planted)!r}):\n"
        "        print(path, os.listdir(path))\n"
        "    return [0.0] * len(completions)\n"
    )
    try:
        report = check(url, code)
    finally:
        (planted / "recipe-of-another-visitor.zip").unlink()
        planted.rmdir()
    assert "PermissionError: [Errno 13] Permission denied: '/'" in report
    assert "recipe-of-another-visitor" not in report and planted.name not in report


def test_check_cannot_hold_memory_with_memfd(public_app):
    url, _ = public_app
    code = (
        "import os\n\nheld = []\n\n"
        "def hold(completions, **kwargs):\n"
        "    fd = os.memfd_create('hold')\n"
        "    os.posix_fallocate(fd, 0, 2 << 30)\n"
        "    held.append(fd)\n"
        "    return [0.0] * len(completions)\n"
    )
    report = check(url, code)
    assert "raised PermissionError: [Errno 1] Operation not permitted (line 6)" in report


def test_check_cannot_signal_another_process_through_sigio(public_app):
    url, _ = public_app
    victim = subprocess.Popen(["sleep", "60"])
    code = (
        "import fcntl, os, signal\n\n"
        "def sigio(completions, **kwargs):\n"
        "    read, write = os.pipe()\n"
        "    refused = 0\n"
        f"    for cmd, arg in ((fcntl.F_SETOWN, {victim.pid}), (10, signal.SIGKILL), (fcntl.F_SETFL, os.O_ASYNC)):\n"
        "        try:\n"
        "            fcntl.fcntl(read, cmd, arg)\n"
        "        except PermissionError:\n"
        "            refused += 1\n"
        "    os.write(write, b'x')\n"
        "    return [float(refused)] * len(completions)\n"
    )
    try:
        report = check(url, code)
        time.sleep(0.3)
        assert victim.poll() is None
    finally:
        victim.kill()
        victim.wait()
    assert "| 3.000 |" in report  # all three refused


def test_check_stops_a_worker_left_running_threads(public_app):
    url, _ = public_app
    code = (
        "import threading\n\n"
        "def spin(completions, **kwargs):\n"
        "    threading.Thread(target=lambda: [None for _ in iter(int, 1)], daemon=True).start()\n"
        "    return [0.0] * len(completions)\n"
    )
    report = check(url, code)
    assert "left 1 thread running after it returned, and the worker was stopped" in report
