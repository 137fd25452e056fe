"""Bad input through the page (gradio_client): hostile reward code, bad prompt files and uploads, bad run settings.

Each gives a clear one-line message, never a traceback; the app answers the next request, and another session (with
its own custom code and sandbox worker) is untouched.
"""

import json
from pathlib import Path

import httpx
import pytest
from gradio_client import handle_file
from gradio_client.exceptions import AppError

from tests.support.queue_client import app_client
from tests.ui.live_app import running_app
from tests.ui.test_client import LENGTH_5, TINY_RUN, client, form_kwargs, table
from tests.ui.test_custom_code import CODE, worker_pid


CORPUS = Path(__file__).resolve().parents[1] / "sandbox" / "corpus"
MAX_FILE_KB = 16
ENV = {  # the corpus' messages are written for these limits
    "PLAYGROUND_SANDBOX_TIMEOUT": "1",
    "PLAYGROUND_SANDBOX_MEMORY_MB": "512",
    "PLAYGROUND_MAX_FILE_MB": str(MAX_FILE_KB / 1024),
}
REWARD = json.dumps([{"name": "reward", "weight": 1.0}])
TEXT = "abc\n---\nabcdef"


@pytest.fixture(scope="module")
def app(tiny_model_dir, tmp_path_factory):
    with running_app(str(tiny_model_dir), str(tmp_path_factory.mktemp("runs")), env=ENV) as live:
        yield live


@pytest.fixture(scope="module")
def bystander(app):
    """Another session with good custom code, checked once; its worker must survive every bad case."""
    c = client(app)
    c.predict(code=CODE, api_name="/check_code")
    c.predict(json.dumps([{"name": "short_answer"}]), code=CODE, api_name="/set_rewards")
    c.first_pid = worker_pid(app, c)
    return c


def expected_message(name: str) -> str:
    return next(line for line in (CORPUS / name).read_text().splitlines() if line.startswith("# expect:"))[10:]


def assert_one_line(message: str) -> None:
    assert "Traceback" not in message and "\n" not in message.strip() and len(message) < 400, message


def assert_app_answers(app, c, bystander) -> None:
    """The same session scores with library rewards, and the other session's custom reward still works."""
    c.predict(LENGTH_5, api_name="/set_rewards")
    scores, _ = c.predict(TEXT, api_name="/try_on_text")
    assert [r["length(ideal_length=5)"] for r in table(scores)] == [-2.0, -1.0]
    scores, _ = bystander.predict(TEXT, code=CODE, api_name="/try_on_text")
    assert [r["short_answer"] for r in table(scores)] == [1.0, 1.0]
    assert worker_pid(app, bystander) == bystander.first_pid


# --- hostile reward code -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["infinite_loop.py", "os_exit.py", "allocate_50gb.py", "wrong_type_str.py"])
def test_bad_reward_gives_one_line_and_the_app_answers(app, bystander, name):
    source, expected = (CORPUS / name).read_text(), expected_message(name)
    c = client(app)
    report, _ = c.predict(code=source, api_name="/check_code")  # the trial run catches it
    line = next(line for line in report.splitlines() if expected in line)
    assert_one_line(line)
    assert "Traceback" not in report

    c.predict(REWARD, code=source, api_name="/set_rewards")
    with pytest.raises(AppError) as err:
        c.predict(TEXT, code=source, api_name="/try_on_text")
    assert expected in str(err.value)
    assert_one_line(str(err.value))
    assert_app_answers(app, c, bystander)


@pytest.mark.parametrize(
    "name, chinese, english",
    [
        ("infinite_loop.py", "奖励 'reward' 超时（1 秒）。", "timed out"),
        ("wrong_type_str.py", "奖励 'reward' 必须返回浮点数列表", "must return"),
    ],
)
def test_a_bad_rewards_message_reads_chinese_on_the_chinese_page(app, name, chinese, english):
    c = app_client(app.url, headers={"Accept-Language": "zh-CN,zh;q=0.9"})
    source = (CORPUS / name).read_text()
    c.predict(REWARD, code=source, api_name="/set_rewards")
    with pytest.raises(AppError) as err:
        c.predict(TEXT, code=source, api_name="/try_on_text")
    assert chinese in str(err.value) and english not in str(err.value)
    assert_one_line(str(err.value))


def test_syntax_error_gives_one_line_with_its_line_and_column(app, bystander):
    good = "def reward(completions, **kwargs):\n    return [1.0] * len(completions)\n"
    broken = "def reward(completions, **kwargs):\n    return [1.0 for c in completions\n"
    c = client(app)
    report, _ = c.predict(code=broken, api_name="/check_code")
    assert "Syntax error at line 2, column 12: '[' was never closed." in report
    c.predict(REWARD, code=good, api_name="/set_rewards")  # selected while the code was good, then broken
    with pytest.raises(AppError, match=r"Custom code: Syntax error at line 2, column 12") as err:
        c.predict(TEXT, code=broken, api_name="/try_on_text")
    assert_one_line(str(err.value))
    assert_app_answers(app, c, bystander)


def test_code_that_fails_while_loading_gives_one_line(app, bystander):
    c = client(app)
    source = (CORPUS / "module_level_error.py").read_text()
    report, choices = c.predict(code=source, api_name="/check_code")
    line = next(line for line in report.splitlines() if expected_message("module_level_error.py") in line)
    assert_one_line(line)
    assert choices["data"] == []  # nothing to pick until it loads
    assert_app_answers(app, c, bystander)


# --- prompt files and uploads ------------------------------------------------------------------------------------


def upload(c, path: Path):
    return c.predict(handle_file(str(path)), "prompt", "", api_name="/upload_prompts")


def test_a_good_prompt_file_becomes_the_data_source(app, tmp_path):
    path = tmp_path / "prompts.jsonl"
    path.write_text('{"prompt": "Say hi."}\n{"prompt": "Say bye."}\n')
    kind, name = upload(client(app), path)
    assert kind == "file" and name["value"].endswith("prompts.jsonl")  # the dataset_name box, updated


@pytest.mark.parametrize(
    "text, message",
    [
        ('{"question": "Say hi."}\n', "has no 'prompt' column (its columns are: question)"),
        ('{"prompt": "Say hi."}\n{"prompt": "Say bye.\n', "Line 2 of the file 'prompts.jsonl' is not valid JSON"),
    ],
    ids=["no-prompt-column", "broken-line"],
)
def test_a_bad_prompt_file_gives_the_engines_message(app, bystander, tmp_path, text, message):
    path = tmp_path / "prompts.jsonl"
    path.write_text(text)
    c = client(app)
    with pytest.raises(AppError, match=message.replace("(", r"\(").replace(")", r"\)")) as err:
        upload(c, path)
    assert_one_line(str(err.value))
    assert_app_answers(app, c, bystander)


def test_a_wrong_type_upload_is_refused(app, bystander, tmp_path):
    path = tmp_path / "prompts.txt"
    path.write_text("Say hi.\n")
    c = client(app)
    with pytest.raises(AppError, match=r"Invalid file type.*\.csv.*\.jsonl"):
        upload(c, path)
    assert_app_answers(app, c, bystander)


def test_an_oversized_upload_is_refused(app, bystander, tmp_path):
    path = tmp_path / "prompts.jsonl"
    path.write_text('{"prompt": "Say hi."}\n' * (MAX_FILE_KB * 1024 // 20))
    c = client(app)
    with pytest.raises(ValueError, match=f"exceeds the maximum file size of {MAX_FILE_KB * 1024} bytes"):
        upload(c, path)  # gradio_client reads the limit from the app and refuses before sending
    reply = httpx.post(f"{app.url}gradio_api/upload", files={"files": (path.name, path.read_bytes())})
    assert reply.status_code == 413  # and the server refuses it when sent anyway
    assert reply.text == f"File size exceeded maximum allowed size of {MAX_FILE_KB * 1024} bytes."
    assert_app_answers(app, c, bystander)


# --- run settings ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fields, message",
    [
        (
            {"num_generations": 1},
            "num_generations must be at least 2, got 1.",
        ),
        ({"learning_rate": -0.001}, "learning_rate must be above 0 and at most 0.01, got -0.001."),
    ],
    ids=["G=1", "negative-lr"],
)
def test_bad_run_settings_give_one_sentence(app, bystander, fields, message):
    c = client(app)
    with pytest.raises(AppError) as err:
        c.predict(**form_kwargs(c, **{**TINY_RUN, **fields}), api_name="/start_training")
    assert str(err.value).strip().endswith(message)
    assert_one_line(str(err.value))
    assert app.ctx.jobs.active_job() is None
    assert_app_answers(app, c, bystander)
