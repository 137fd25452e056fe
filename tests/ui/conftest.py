"""The launched app fixture (the tiny model as its default model, a fresh runs folder), the headless Chromium the
browser tests share, and a screenshot of every page a failed browser test left open (tests/artifacts/)."""

import re
from pathlib import Path

import pytest

from tests.support.chromium import CHROMIUM
from tests.ui.live_app import fresh_module_state, running_app


@pytest.fixture(scope="session")
def shared_app(tiny_model_dir, tmp_path_factory):
    """One running app on the tiny model per test process (each pytest-xdist worker), shared by the modules that take
    `app`: building and launching one costs seconds, and its model cache keeps the tiny model loaded."""
    with running_app(str(tiny_model_dir), str(tmp_path_factory.mktemp("runs"))) as live:
        yield live


@pytest.fixture(scope="module")
def app(shared_app, tmp_path_factory):
    """The shared app as a module finds it fresh: a new runs folder with its own run queue, no code sessions."""
    with fresh_module_state(shared_app, str(tmp_path_factory.mktemp("runs"))) as live:
        yield live


# Gradio's spinners, pulses and fades repaint the page many times a second, and a headless Chromium without a GPU
# paints in software: on 2 cores that costs as much CPU as the page's own work. The tests read what the page shows,
# not how it moves, so every context starts with CSS animations and transitions off, and with Gradio's status trackers
# drawing two frames a second instead of sixty. A tracker counts a pending event's seconds in a requestAnimationFrame
# loop, and the page's first loader leaves its loop running once the app has loaded: an idle page otherwise draws
# sixty frames a second for as long as it is open. The trackers' own frames are told apart by the module that asks for
# them (Gradio's `statustracker` chunk).
STILL = """(() => {
    const frame = window.requestAnimationFrame.bind(window), cancel = window.cancelAnimationFrame.bind(window);
    const slowed = new Map();
    let last = 0;
    window.requestAnimationFrame = (callback) => {
        if (!(new Error().stack || '').includes('statustracker')) return frame(callback);
        const id = --last;  // negative: never the id of a real frame
        slowed.set(id, setTimeout(() => { slowed.delete(id); callback(performance.now()); }, 500));
        return id;
    };
    window.cancelAnimationFrame = (id) => {
        if (!slowed.has(id)) return cancel(id);
        clearTimeout(slowed.get(id));
        slowed.delete(id);
    };
    document.addEventListener('DOMContentLoaded', () => {
        const style = document.createElement('style');
        style.textContent = '*, *::before, *::after { animation: none !important; transition: none !important; }';
        document.head.appendChild(style);
    });
})();"""


# How long a browser step (a click's result, a download, a tab's text) may take before the test fails. Far above what
# any step takes on a loaded 2-core machine (the slowest seen: about a minute at a load of 24), so a failure here is a
# page that never answers, not a slow machine. Waits end as soon as the page shows what they wait for.
PATIENCE_MS = 300_000


class StillBrowser:
    """A Playwright browser whose new contexts have animations off (`STILL`) and wait up to `PATIENCE_MS` for the page;
    anything else goes to the browser."""

    def __init__(self, browser):
        self._browser = browser

    def new_context(self, **kwargs):
        context = self._browser.new_context(reduced_motion="reduce", **kwargs)
        context.add_init_script(STILL)
        context.set_default_timeout(PATIENCE_MS)
        return context

    def new_page(self, **kwargs):
        """A page in a context of its own, as Playwright's `Browser.new_page`, with this browser's settings."""
        return self.new_context(**kwargs).new_page()

    def open_pages(self) -> list:
        return [page for context in self._browser.contexts for page in context.pages if not page.is_closed()]

    def __getattr__(self, name):
        return getattr(self._browser, name)


# Debian's Chromium (`tests/support/chromium.py`), headless without a GPU, quiet on the network.
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium through Playwright, one per test module; each test opens its own context in it. Every
    browser test takes this fixture, so without Playwright or Chromium they are skipped here, in one place. Not one per
    process: Playwright's sync API keeps an asyncio loop running on the main thread while it is open, and a later
    module's `asyncio.run` (the MCP client) refuses to start inside it."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM}")

    with sync_api.sync_playwright() as p:
        # launch() runs Chromium with a fresh temporary user-data dir.
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield StillBrowser(browser)
        browser.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """When a test that drives the browser fails, a full-page screenshot of each page it left open, named after the
    test, in tests/artifacts/ (a passing test takes none: a full-page screenshot costs seconds of CPU)."""
    report = yield
    browser = item.funcargs.get("browser") if report.failed and call.when == "call" else None
    if isinstance(browser, StillBrowser):
        from tests.ui.test_browser import ARTIFACTS

        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        name = re.sub(r"[^A-Za-z0-9_.-]+", "-", item.name)
        for i, page in enumerate(browser.open_pages()):
            try:
                page.screenshot(path=str(ARTIFACTS / f"{name}-{i}.png"), full_page=True, timeout=30_000)
            except Exception as exc:  # the page may be what failed; the report says so and keeps the test's error
                report.sections.append(("screenshot", f"page {i}: no screenshot ({exc})"))
    return report
