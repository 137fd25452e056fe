"""The `code_tests` reward in the page: Try on text scores a correct and a wrong program against the built-in
`code` set's tests, in local and in public mode (the public sandbox: no network, 512 MB, 2 s per call)."""

import json

import pytest

from playground.data.sources import PromptSource, load_prompts
from tests.support.queue_client import app_client
from tests.ui.live_app import fresh_module_state


pytestmark = pytest.mark.integration  # the app fixture takes its shared app by name


@pytest.fixture(scope="module", params=["local", "public"])
def app(request, tmp_path_factory):
    """The process's shared app of each mode (tests/ui/conftest.py, tests/conftest.py), as a module finds it fresh."""
    shared = request.getfixturevalue("shared_app" if request.param == "local" else "shared_public_app")
    with fresh_module_state(shared, str(tmp_path_factory.mktemp("runs"))) as live:
        yield live


def test_try_on_text_scores_a_correct_and_a_wrong_program(app):
    row = load_prompts(PromptSource(kind="builtin", name="code")).dataset[0]  # the sum of two integers
    c = app_client(app.url)
    c.predict(json.dumps([{"name": "code_tests", "weight": 1.0}]), api_name="/set_rewards")
    wrong = "```python\nprint(int(input()) + int(input()) + 1)\n```"  # off by one: fails every test
    text = f"{row['solution_code']}\n---\n{wrong}\n---\nno code at all"
    scores, _ = c.predict(text, row["prompt"], json.dumps({"tests": row["tests"]}), api_name="/try_on_text")
    rows = [dict(zip(scores["headers"], r, strict=True)) for r in scores["data"]]
    assert [r["code_tests"] for r in rows] == [1.0, 0.0, 0.0]
