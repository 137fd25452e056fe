"""Shared fixtures: the embedded model (converted once per machine) and a tiny random model with its real tokenizer.

The suite runs on pytest-xdist workers (`scripts/test.sh`: `-n 2 --dist loadgroup`). A module's tests stay on one
worker, so its module-scoped app or sandbox starts once (the plain app on the tiny model and the browser start once per
worker and are shared: tests/ui/conftest.py); the tests that start several training processes share one worker, so two
of them never compete for the cores side by side.
"""

import atexit
import contextlib
import functools
import gc
import os
import shutil
import signal
import sys
import tempfile
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
# Each test process keeps Gradio's upload cache to itself: an app that shuts down deletes the files it served, and two
# apps of two pytest workers given the same bytes under the same name share one path of a common cache (a module's
# upload vanished between its upload and its Start while the other worker closed an app).
os.environ["GRADIO_TEMP_DIR"] = tempfile.mkdtemp(prefix=f"gradio-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}-")
atexit.register(shutil.rmtree, os.environ["GRADIO_TEMP_DIR"], ignore_errors=True)

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
    """A 2-layer random Llama with SmolLM2's tokenizer cut to its first 1,024 tokens (`small_vocab_tokenizer`) and its
    chat template, saved as a local model folder."""
    from tests.support.tiny_models import save_tiny_model, small_vocab_tokenizer

    return save_tiny_model(tmp_path_factory.mktemp("tiny-model"), small_vocab_tokenizer())


@pytest.fixture(scope="session")
def tiny_full_vocab_dir(tmp_path_factory, embedded_dir):
    """The same 2-layer random Llama with SmolLM2's whole tokenizer (49,152 tokens): for the fast path's sampling and
    log-probs at a real vocabulary's width, and for a judge (it reads the logits of 'yes' and 'no', single tokens)."""
    from tests.support.tiny_models import save_tiny_model

    return save_tiny_model(tmp_path_factory.mktemp("tiny-full-vocab"))


@pytest.fixture(scope="session")
def tiny(tiny_model_dir):
    """(model, tokenizer) of the tiny model, loaded through the playground's own loader."""
    from playground.models import load_model

    return load_model(str(tiny_model_dir))


@pytest.fixture(scope="session")
def shared_public_app(tiny_model_dir, tmp_path_factory):
    """One public-mode app (PLAYGROUND_PUBLIC=1) on the tiny model per test process, shared by the modules that take
    `public_app` from `tests.ui.live_app.fresh_module_state`, each with its own caps in the environment."""
    from tests.ui.live_app import running_app

    runs = str(tmp_path_factory.mktemp("runs"))
    with running_app(str(tiny_model_dir), runs, {"PLAYGROUND_PUBLIC": "1"}, env_for_life=False) as live:
        yield live


@pytest.fixture(scope="session")
def char_model_dir(tmp_path_factory):
    from tests.support.tiny_models import save_char_model

    return save_char_model(tmp_path_factory.mktemp("char-model"))


# --- tiers ----------------------------------------------------------------------------------------------------------
# Each test is in exactly one tier (markers registered in pyproject.toml):
# - `unit`: no model, no app, no subprocess, no socket server; `bash scripts/test.sh -m unit` after each edit;
# - `integration`: tiny models, sandbox and visitor workers, launched apps, real runs;
# - `browser`: drives the system Chromium (any test that takes the `browser` fixture);
# - `multiproc`: starts several training processes (set where the test is).
# The tier is set here: a test is `integration` when it takes a fixture of INTEGRATION_FIXTURES (or one that depends on
# one), when its module is in INTEGRATION_MODULES (it starts processes, apps or models in its body), or when it carries
# `integration` or `slow` itself; otherwise it is `unit`. `unit_guard` keeps the mark honest: inside a unit test (its
# setup included), starting a process, listening on a socket or building a model raises.
# `slow` stays an extra mark for tests of more than about 10 s on 2 CPU cores (browser and multi-process tests are
# slow), so `-m "not slow"` still skips the long ones.
INTEGRATION_FIXTURES = {
    "embedded_dir",  # the embedded model (tiny_model_dir and tiny depend on it)
    "char_model_dir",
    "browser",
    "make_sandbox",  # tests/sandbox/conftest.py: sandbox worker processes
    "bystander",
}
INTEGRATION_MODULES = {  # modules whose tests start processes, apps or models without one of the fixtures above
    "tests/bench/test_gpu_check.py",
    "tests/export/test_dockerfile.py",
    "tests/export/test_recipe_offline.py",
    "tests/export/test_recipe_processes.py",
    "tests/export/test_reward_code.py",
    "tests/export/test_script.py",
    "tests/export/test_script_cold_start.py",
    "tests/playground/cli/test_cli.py",
    "tests/playground/fastpath/test_decode.py",
    "tests/playground/fastpath/test_fast.py",
    "tests/playground/fastpath/test_prefix.py",
    "tests/playground/training/test_kill_tree.py",
    "tests/playground/training/test_launcher.py",
    "tests/playground/training/test_trackio.py",
    "tests/rewards/test_code_tests.py",
    "tests/rewards/test_custom_completions.py",
    "tests/sandbox/test_cli_check.py",
    "tests/sandbox/test_confine.py",
    "tests/sandbox/test_quota.py",
    "tests/sandbox/test_sandbox.py",
    "tests/security/test_isolation_confinement.py",
    "tests/security/test_isolation_disk.py",
    "tests/security/test_isolation_programs.py",
    "tests/security/test_isolation_registry.py",
    "tests/security/test_sandbox_boundary.py",
    "tests/test_package.py",
    "tests/ui/test_engine_has_no_gradio.py",
    "tests/ui/test_space.py",
}
TIERS = ("unit", "integration", "browser", "multiproc")


def tier(item) -> str:
    marks = {m.name for m in item.iter_markers()}
    names = set(getattr(item, "fixturenames", ()))
    if "browser" in marks or "browser" in names:
        return "browser"
    if "multiproc" in marks:
        return "multiproc"
    module = item.nodeid.split("::")[0]
    if marks & {"integration", "slow"} or names & INTEGRATION_FIXTURES or module in INTEGRATION_MODULES:
        return "integration"
    return "unit"


@pytest.hookimpl(tryfirst=True)  # before xdist reads the xdist_group marks
def pytest_collection_modifyitems(config, items):
    for item in items:
        kind = tier(item)
        marks = {m.name for m in item.iter_markers()}
        if kind not in marks:
            item.add_marker(getattr(pytest.mark, kind))
        if "slow" not in marks and kind in ("browser", "multiproc"):
            item.add_marker(pytest.mark.slow)
        if "xdist_group" not in marks:
            # --dist loadgroup: the multi-process tests run one after another on one worker; any other test stays
            # with its module (one worker starts the module's app, browser, sandbox or run once). The browser modules
            # spread over the workers: together they are longer than half the suite, and they wait on the page a lot.
            group = "multiproc" if kind == "multiproc" else item.nodeid.split("::")[0]
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


def pytest_collection_finish(session):
    """The test modules are imported: what they built (torch, transformers, gradio, TRL: millions of objects) lives
    as long as the process, so later collections skip it, as the app does once its page is built. Without this each
    full collection walks it all, and pytest's own five at the session's end took about 2 s."""
    gc.collect()
    gc.freeze()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    """After a module's last test (its module fixtures torn down): its garbage collected, and what outlives it (the
    process's shared apps and models, caches) frozen too. A run's end collects all garbage (`gc.collect()`, so that
    its model's memory goes back at once): with this, such a collection walks the objects of the module it runs in,
    not every object the earlier modules left."""
    result = yield
    if nextitem is None or nextitem.module is not item.module:
        gc.collect()
        gc.freeze()
    return result


class NotAUnitTest(RuntimeError):
    """Raised inside a `unit` test that starts a process, listens on a socket or builds a model."""


def _importing() -> bool:
    """Whether a module is being imported: what a library does at its import (huggingface_hub asks `git` for its
    version) is not the test's doing."""
    frame = sys._getframe(2)
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib"):
            return True
        frame = frame.f_back
    return False


def _refuse(original, what: str):
    @functools.wraps(original)
    def refuse(*args, **kwargs):
        if _importing():
            return original(*args, **kwargs)
        raise NotAUnitTest(
            f"a unit test {what}: mark it `integration` (or list its module in INTEGRATION_MODULES, tests/conftest.py)"
        )

    return refuse


@contextlib.contextmanager
def unit_guard():
    """While a unit test sets up, runs and tears down: no subprocess, no fork, no socket server, no model."""
    import multiprocessing.process
    import socket
    import subprocess

    # Every model is built through here; imported before the patches (its first import runs `ldconfig`).
    from transformers.modeling_utils import PreTrainedModel

    refused = [
        (subprocess.Popen, "__init__", "started a subprocess"),
        (multiprocessing.process.BaseProcess, "start", "started a process"),
        (socket.socket, "listen", "listened on a socket (a server)"),
        (PreTrainedModel, "__init__", "built a model"),
    ]
    spawns = ("fork", "forkpty", "posix_spawn", "posix_spawnp", "system", "execv", "execve")
    refused += [(os, name, f"called os.{name}") for name in spawns]
    with pytest.MonkeyPatch.context() as patch:
        for owner, name, what in refused:
            if hasattr(owner, name):
                patch.setattr(owner, name, _refuse(getattr(owner, name), what))
        yield


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item):
    if item.get_closest_marker("unit") is None:
        return (yield)
    with unit_guard():
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    if item.get_closest_marker("unit") is None:
        return (yield)
    with unit_guard():
        return (yield)
