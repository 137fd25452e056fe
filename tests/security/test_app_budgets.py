"""What a visitor spends, charged to that visitor, on a real public app on 127.0.0.1 with the default settings (no
trusted proxy):

- forwarded headers: a client on loopback that writes `X-Forwarded-For` is still one address to the queue cap.
"""

import pytest
from gradio_client import Client
from gradio_client.exceptions import AppError

from tests.ui.live_app import running_app
from tests.ui.test_client import TINY_RUN, form_kwargs


ENV = {"PLAYGROUND_PUBLIC": "1"}  # PLAYGROUND_PROXY_HOPS unset: 0, as off a Space


@pytest.fixture(scope="module")
def public_app(tiny_model_dir, tmp_path_factory):
    with running_app(str(tiny_model_dir), str(tmp_path_factory.mktemp("runs")), env=ENV) as live:
        yield live


def forging(app, written: str) -> Client:
    """A browser session on 127.0.0.1 that writes `written` into X-Forwarded-For (as through `--share`'s tunnel, or a
    proxy that does not append)."""
    return Client(app.url, verbose=False, download_files=False, headers={"X-Forwarded-For": written})


def test_forwarded_headers_from_loopback_choose_no_address(public_app):
    ctx = public_app.ctx
    runner = Client(public_app.url, verbose=False, download_files=False)
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
