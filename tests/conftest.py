"""Shared fixtures: the embedded model (converted once per machine) and a tiny random model with its real tokenizer.

The suite runs on pytest-xdist workers (`scripts/test.sh`: `-n 2 --dist loadgroup`). A module's tests stay on one
worker, so its module-scoped app, browser or sandbox starts once; the tests that start several training processes
share one worker, so two of them never compete for the cores side by side.
"""

import os
import signal
import time
from pathlib import Path

import pytest

import playground
from playground import settings as playground_settings


os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
# Each xdist worker gets its share of the cores for torch's threads (and passes it on to the processes it starts);
# set before any test imports torch. Two workers on two cores with two threads each would fight over them.
_WORKERS = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT") or 0)
if _WORKERS:
    os.environ.setdefault("OMP_NUM_THREADS", str(max(1, (os.cpu_count() or 1) // _WORKERS)))

# The test process is an entry point (`playground.bootstrap()`), whose tests set variables one test at a time: the
# settings are read from the environment at each look-up rather than installed once.
playground.bootstrap()
playground_settings.install(None)


@pytest.fixture(autouse=True)
def _settings_follow_the_environment():
    """An entry point a test calls in this process (the CLI's `main`) installs its settings; the next test reads the
    environment again."""
    yield
    playground_settings.install(None)


def pytest_configure(config):
    """Under xdist the controller converts the embedded model before the workers start: on a fresh machine two
    workers would otherwise both convert it (about 35 s and 2 GB each) before one rename wins."""
    if getattr(config.option, "numprocesses", None) and not hasattr(config, "workerinput"):
        from playground.errors import ModelLoadError
        from playground.models import ensure_embedded_model

        try:
            ensure_embedded_model()
        except ModelLoadError:
            pass  # not installed: the tests that need it say so themselves


# --- no process outlives the suite ---------------------------------------------------------------------------------
# The marker every process started by this test process inherits (an orphaned rank keeps it after its parent died).
SESSION_MARK = "PLAYGROUND_TEST_SESSION"
# Helpers that the interpreter keeps until it exits, never a test's.
LONG_LIVED = ("multiprocessing.resource_tracker", "multiprocessing.forkserver")


def _process_info(pid: int) -> tuple[int, str, str] | None:
    """(parent pid, state, command line) of a live process, or None when it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return None
    state, ppid = stat[stat.rindex(")") + 2 :].split()[:2]
    return int(ppid), state, cmdline


def _has_mark(pid: int, mark: bytes) -> bool:
    try:
        return mark in Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    except OSError:
        return False


def leftover_processes(session_pid: int) -> dict[int, str]:
    """The processes this test process started, directly or not, that still run: its children, and any process
    (an orphan reparented to init included) whose environment carries this session's mark."""
    mark = f"{SESSION_MARK}={session_pid}".encode()
    found = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit() or int(entry.name) == session_pid:
            continue
        pid = int(entry.name)
        info = _process_info(pid)
        if info is None or info[1] in "ZX" or any(name in info[2] for name in LONG_LIVED):
            continue
        if info[0] == session_pid or _has_mark(pid, mark):
            found[pid] = info[2]
    return found


def stop_group(proc) -> None:
    """Kill a `Popen(..., start_new_session=True)`, its process group and every process below it (the ranks of an
    `accelerate launch` run in sessions of their own), and reap it. Safe when it has already exited."""
    from playground.training.launcher import kill_tree

    kill_tree(proc.pid)
    try:
        proc.wait(30)
    except Exception:  # noqa: BLE001 - killed; a process that will not be reaped is reported at the session's end
        pass


def _close_process_wide_workers() -> None:
    """Close the workers the process keeps for its whole life by design (the code_tests program runner's sandbox,
    public mode's answer checker), so that what is left after them is what a test left."""
    import sys

    for runner in getattr(sys.modules.get("rewards.code"), "_RUNNER", ()):
        sandbox = getattr(runner, "_sandbox", None)
        if sandbox is not None:
            sandbox.close()
    kept = getattr(sys.modules.get("playground.isolation.visitor"), "WORKERS", None)
    if kept is not None:
        kept.close()
    checker = getattr(sys.modules.get("rewards._bounded"), "CHECKER", None)
    if checker is not None:
        with checker._lock:
            checker._stop()


@pytest.fixture(scope="session", autouse=True)
def no_process_outlives_the_suite():
    """Fails the session's last test when a process this test process started is still running at the end (after a
    grace period for processes on their way out); the leftovers are listed and killed."""
    os.environ[SESSION_MARK] = str(os.getpid())
    yield
    _close_process_wide_workers()
    deadline = time.monotonic() + 10
    while (left := leftover_processes(os.getpid())) and time.monotonic() < deadline:
        time.sleep(0.5)
    for pid in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    assert not left, "processes left running by the tests: " + "; ".join(f"{p}: {c[:200]}" for p, c in left.items())


@pytest.fixture(scope="session")
def embedded_dir():
    from playground.models import ensure_embedded_model

    return ensure_embedded_model()


@pytest.fixture(scope="session")
def tiny_model_dir(tmp_path_factory, embedded_dir):
    """A 2-layer random Llama with SmolLM2's real tokenizer and chat template, saved as a local model folder."""
    from playground.testing import save_tiny_model

    return save_tiny_model(tmp_path_factory.mktemp("tiny-model"))


@pytest.fixture(scope="session")
def tiny(tiny_model_dir):
    """(model, tokenizer) of the tiny model, loaded through the playground's own loader."""
    from playground.models import load_model

    return load_model(str(tiny_model_dir))


@pytest.fixture(scope="session")
def char_model_dir(tmp_path_factory):
    from playground.testing import save_char_model

    return save_char_model(tmp_path_factory.mktemp("char-model"))


# --- tiers: `pytest -m "not slow"` for a quick loop. `slow`, `browser` and `multiproc` (registered in pyproject.toml)
# are set where the test is, by a decorator or a module's `pytestmark`: `slow` for tests of more than about 10 s on
# 2 CPU cores (a real run through a subprocess, the embedded model, a launched app), `multiproc` for tests that start
# several training processes. A test that uses the `browser` fixture is a browser test; browser and multi-process
# tests are slow.
@pytest.hookimpl(tryfirst=True)  # before xdist reads the xdist_group marks
def pytest_collection_modifyitems(config, items):
    for item in items:
        marks = {m.name for m in item.iter_markers()}
        if "browser" in getattr(item, "fixturenames", ()) and "browser" not in marks:
            item.add_marker(pytest.mark.browser)
            marks.add("browser")
        if "slow" not in marks and marks & {"browser", "multiproc"}:
            item.add_marker(pytest.mark.slow)
        if "xdist_group" not in marks:
            # --dist loadgroup: the multi-process tests run one after another on one worker; any other test stays
            # with its module (one worker starts the module's app, browser, sandbox or run once). The browser modules
            # spread over the workers: together they are longer than half the suite, and they wait on the page a lot.
            group = "multiproc" if "multiproc" in marks else item.nodeid.split("::")[0]
            item.add_marker(pytest.mark.xdist_group(group))
    if _WORKERS:
        # Longest first (with --no-loadscope-reorder xdist hands out the groups in this order): the browser modules,
        # the multi-process group, the modules with slow tests, then the quick ones that fill the gaps at the end.
        slow_modules = {item.nodeid.split("::")[0] for item in items if item.get_closest_marker("slow")}

        def rank(item) -> int:
            if item.get_closest_marker("browser"):
                return 0
            if item.get_closest_marker("multiproc"):
                return 1
            return 2 if item.nodeid.split("::")[0] in slow_modules else 3

        items.sort(key=rank)  # stable: each module keeps its own order
