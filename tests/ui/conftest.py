"""The launched app fixture: the tiny model as its default model, a fresh runs folder."""

import pytest

from tests.ui.live_app import running_app


@pytest.fixture(scope="module")
def app(tiny_model_dir, tmp_path_factory):
    """A running app on the tiny model; its runs folder is a fresh temporary folder."""
    with running_app(str(tiny_model_dir), str(tmp_path_factory.mktemp("runs"))) as live:
        yield live
