"""The page state Gradio keeps per session, in public mode. Any client makes up a session hash a call, and Gradio keeps
a copy of every component's config for each (about 1.4 MB of this page): unbounded, cheap calls from one address grew
the app by that much each, up to Gradio's default of 10,000 sessions. `PLAYGROUND_MAX_SESSIONS` bounds them; the
session used longest ago goes first, so a page in use (its timers call every few seconds) keeps its state."""

import uuid

import pytest

from tests.support.queue_client import app_config, backend_events, http_client, issue_token, raw_call
from tests.ui.live_app import running_app


CAP = 12


@pytest.fixture(scope="module")
def public_app(tiny_model_dir, tmp_path_factory):
    env = {"PLAYGROUND_PUBLIC": "1", "PLAYGROUND_MAX_SESSIONS": str(CAP)}
    with running_app(str(tiny_model_dir), str(tmp_path_factory.mktemp("runs")), env=env) as live:
        yield live


def test_fresh_session_hashes_are_bounded_and_a_page_in_use_keeps_its_state(public_app):
    holder = public_app.demo.state_holder
    status = next(i for i, dep in backend_events(app_config(public_app.url)) if dep.get("api_name") == "train_status")
    visitor = uuid.uuid4().hex
    token = issue_token(public_app.url, visitor)  # the page load keeps the browser's token in the session's state
    first = []
    with http_client(60) as http:
        for n in range(5 * CAP):
            session = uuid.uuid4().hex
            first = first or [session]
            answer = raw_call(public_app.url, session, status, [None, None, None], http=http)
            assert answer["success"], answer
            if n % 4 == 0:  # the visitor's page ticks meanwhile
                assert raw_call(public_app.url, visitor, status, [None, None, None], http=http)["success"]
            assert len(holder.session_data) <= CAP
    assert first[0] not in holder  # the attacker's first session went
    assert visitor in holder and token in holder.session_data[visitor].state_data.values()
