"""The upload worker's own limits: the memory it may take to read a file and the deadline past which it is killed
(public mode reads every upload in it; playground/data/upload_worker.py)."""

import dataclasses

import pytest

from playground.data.upload_worker import read_upload
from playground.errors import DataError
from playground.settings import Caps


pytestmark = pytest.mark.integration  # each read starts a worker process

ROWS = 20_000


@pytest.fixture
def prompts(tmp_path):
    path = tmp_path / "prompts.jsonl"
    path.write_text('{"prompt": "Say hi to everyone in the room."}\n' * ROWS)
    return path


def caps(**values) -> Caps:
    return dataclasses.replace(Caps(), **values)


def test_a_file_is_read_within_the_default_caps(prompts):
    rows, _ = read_upload(prompts, None, caps())
    assert len(rows) == ROWS and rows[0] == {"prompt": "Say hi to everyone in the room."}


def test_a_file_that_needs_more_memory_than_the_worker_may_take_is_refused(prompts):
    with pytest.raises(DataError) as err:
        read_upload(prompts, None, caps(upload_parse_memory_mb=8))
    assert err.value.key == "admission.upload_memory"
    assert err.value.values["mb"] == 8


def test_a_worker_past_its_deadline_is_killed_and_the_file_refused(prompts):
    with pytest.raises(DataError) as err:
        read_upload(prompts, None, caps(upload_parse_seconds=0.01))
    assert err.value.key == "admission.upload_timeout"
    assert err.value.values["seconds"] == "0.01"
