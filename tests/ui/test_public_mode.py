"""Public mode (a Space): a prompt file must come through the page's upload; typed server paths are refused."""

import pytest
from gradio_client import handle_file
from gradio_client.exceptions import AppError

from playground.spec import RunSpec
from playground.ui.train_form import check_data_file
from tests.ui.live_app import fresh_module_state
from tests.ui.test_client import TINY_RUN, client, form_kwargs


PROMPTS = '{"prompt": "Say hi."}\n{"prompt": "Say bye."}\n'


@pytest.fixture(scope="module")
def public_app(shared_public_app, tmp_path_factory):
    runs = str(tmp_path_factory.mktemp("runs"))
    with fresh_module_state(shared_public_app, runs, {"PLAYGROUND_PUBLIC": "1"}) as live:
        yield live


def test_a_typed_server_path_is_refused_and_no_run_starts(public_app, tmp_path):
    secret = tmp_path / "secrets.jsonl"  # reads as prompts: only the public-mode check stands in the way
    secret.write_text('{"prompt": "the admin password is hunter2"}\n')
    c = client(public_app)
    fields = {**TINY_RUN, "dataset_kind": "file", "dataset_name": str(secret)}
    with pytest.raises(AppError, match="This app is public, so a prompt file must be uploaded through the page"):
        c.predict(**form_kwargs(c, **fields), api_name="/start_training")
    assert public_app.ctx.jobs.current is None


def test_an_uploaded_file_trains(public_app, tmp_path):
    path = tmp_path / "prompts.jsonl"
    path.write_text(PROMPTS)
    c = client(public_app)
    kind, name = c.predict(handle_file(str(path)), api_name="/upload_prompts")
    assert kind == "file"
    fields = {**TINY_RUN, "max_steps": 1, "dataset_kind": "file", "dataset_name": name["value"]}
    c.predict(**form_kwargs(c, **fields), api_name="/start_training")
    job = public_app.ctx.jobs.current
    job.join(300)
    assert job.status == "finished", job.error
    assert job.spec.data.name == name["value"]


def test_the_check_only_applies_in_public_mode(monkeypatch, tmp_path):
    spec = RunSpec()
    spec.set("dataset_kind", "file")
    spec.set("dataset_name", str(tmp_path / "prompts.jsonl"))
    monkeypatch.setenv("PLAYGROUND_PUBLIC", "0")
    check_data_file(spec)  # a local user may point at any file of theirs
    monkeypatch.setenv("PLAYGROUND_PUBLIC", "1")
    with pytest.raises(Exception, match="must be uploaded through the page"):
        check_data_file(spec)
    spec.set("dataset_name", "../../etc/passwd")
    with pytest.raises(Exception, match="must be uploaded through the page"):
        check_data_file(spec)
