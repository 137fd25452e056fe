"""The launched app fixture (the tiny model as its default model, a fresh runs folder) and the headless Chromium the
browser tests share."""

import pytest

from tests.ui.live_app import running_app


@pytest.fixture(scope="module")
def app(tiny_model_dir, tmp_path_factory):
    """A running app on the tiny model; its runs folder is a fresh temporary folder."""
    with running_app(str(tiny_model_dir), str(tmp_path_factory.mktemp("runs"))) as live:
        yield live


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium through Playwright (see test_browser.py for the path and flags); each test opens its own
    context in it."""
    sync_api = pytest.importorskip("playwright.sync_api")
    from tests.ui.test_browser import ARGS, CHROMIUM

    with sync_api.sync_playwright() as p:
        # launch() runs Chromium with a fresh temporary user-data dir.
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield browser
        browser.close()
