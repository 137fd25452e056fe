"""Custom reward code in the page, through gradio_client: check, select, try on text, preview, train, export and unit
tests; each session's code stays its own, and its sandbox worker stops when the session ends."""

import json
import os
import time
import zipfile

import pytest
from gradio_client.exceptions import AppError

from playground.export import export_recipe
from playground.sandbox import SandboxLimits
from playground.ui.context import CodeSessions
from playground.ui.custom_code import TEMPLATE, TEST_CASES
from playground.ui.i18n import tr
from tests.support.queue_client import app_client
from tests.ui.live_app import running_app
from tests.ui.test_client import TINY_RUN, client, form_kwargs, poll_status, table


CODE = '''\
def short_answer(completions, **kwargs):
    """1.0 for a completion under 20 characters, else 0.0."""
    print("scoring", len(completions), "completions")
    texts = [c if isinstance(c, str) else c[-1]["content"] for c in completions]
    return [1.0 if len(t) < 20 else 0.0 for t in texts]
'''
SELECTION = json.dumps(
    [{"name": "length", "weight": 1.0, "params": {"ideal_length": 5}}, {"name": "short_answer", "weight": 0.5}]
)
CASE_HEADERS = ["function", "completion", "prompt", "columns (JSON)", "expected", "min", "max"]


def cases(*rows) -> dict:
    return {"headers": CASE_HEADERS, "data": [list(row) for row in rows], "metadata": None}


def worker_pid(app, c) -> int | None:
    """The pid of the sandbox worker behind a client's session (None when it has none)."""
    if c.session_hash not in app.ctx.code:
        return None
    session = app.ctx.code.get(c.session_hash)
    rewards = session.rewards(session.source) if session.source else {}
    return next(iter(rewards.values())).sandbox.pid if rewards else None


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


# --- check -----------------------------------------------------------------------------------------------------------


def test_check_lists_functions_with_trial_values_and_output(app):
    c = client(app)
    report, choices = c.predict(code=CODE, api_name="/check_code")
    assert "**Reward functions found:** `short_answer`" in report
    assert "| 3 | <code>I am not sure.</code> | 1.000 |" in report  # the trial completions, one column per function
    assert "| 1 | <code>The answer is \\boxed{42}.</code> | 0.000 |" in report
    assert "Printed by `short_answer`" in report and "scoring 4 completions" in report
    assert choices["data"] == [[True, "short_answer", 1.0]]  # found, passed the trial: ticked, weight 1


@pytest.mark.parametrize(
    "code, expected",
    [
        ("def f(completions, **kwargs):\n    return [1.0 for c in completions\n", "Syntax error at line 2, column"),
        ("def f(completions):\n    return [1.0]\n", "a reward must accept `completions` and `**kwargs`"),
        ("def length(completions, **kwargs):\n    return [0.0] * len(completions)\n", "library reward; rename it"),
        ("import os\nos._exit(3)\n", "No function found"),
    ],
    ids=["syntax", "signature", "library-name", "no-function"],
)
def test_check_reports_static_problems_with_their_line(app, code, expected):
    report, choices = client(app).predict(code=code, api_name="/check_code")
    assert expected in report and "Traceback" not in report
    assert choices["data"] == []  # nothing to pick until the code is fixed


def test_check_flags_nan_and_a_failing_function_but_lists_the_others(app):
    code = CODE + (
        "\n\ndef nan_reward(completions, **kwargs):\n    return [float('nan')] + [1.0] * (len(completions) - 1)\n"
        "\n\ndef broken(completions, **kwargs):\n    return [1 / 0 for c in completions]\n"
    )
    report, choices = client(app).predict(code=code, api_name="/check_code")
    assert "nan ⚠" in report and "NaN or inf for completion 1" in report
    assert "Reward 'broken' raised ZeroDivisionError: division by zero (line 13)." in report
    # nan_reward scores every finite trial 1.0: no signal, so it is left unticked like the broken one
    assert choices["data"] == [[True, "short_answer", 1.0], [False, "nan_reward", 1.0], [False, "broken", 1.0]]


# --- end to end --------------------------------------------------------------------------------------------------


def test_custom_reward_from_the_page_previews_trains_and_exports(app, tmp_path):
    c = client(app)
    c.predict(code=CODE, api_name="/check_code")
    summary, selection, choices, *_ = c.predict(SELECTION, code=CODE, api_name="/set_rewards")  # no state outputs
    assert [item["name"] for item in json.loads(selection)] == ["length", "short_answer"]
    assert "`short_answer` × 0.5" in summary
    assert choices["data"] == [[True, "short_answer", 0.5]]

    scores, _ = c.predict("abcde\n---\nthis completion is far too long", code=CODE, api_name="/try_on_text")
    assert [row["short_answer"] for row in table(scores)] == [1.0, 0.0]
    group, _ = c.predict(code=CODE, num_generations=2, max_new_tokens=8, seed=1, api_name="/generate_group")
    assert "short_answer" in group["headers"] and len(group["data"]) == 2

    run = {**TINY_RUN, "max_steps": 2}
    c.predict(**form_kwargs(c, **run), code=CODE, api_name="/start_training")
    job = app.ctx.jobs.current
    deadline = time.monotonic() + 300
    while job.active and time.monotonic() < deadline:
        time.sleep(0.2)
    assert job.status == "finished", poll_status(c)["status"]
    assert job.run.spec()["custom_code"] == CODE  # the run carries its code
    steps = [row for row in job.run.metrics() if "rewards/short_answer/mean" in row]
    assert len(steps) == 2  # under the function's own name, every step

    folder = export_recipe(job.run, tmp_path / "recipe")
    module = next(folder.glob("*.py")).read_text()
    assert "def short_answer(completions, **kwargs):" in module
    zipped = c.predict(job.run.id, api_name="/download_recipe")
    with zipfile.ZipFile(zipped["path"] if isinstance(zipped, dict) else zipped) as z:
        sources = [z.read(name).decode() for name in z.namelist() if name.endswith(".py")]
    assert any("def short_answer(completions, **kwargs):" in source for source in sources)


def test_a_run_without_custom_rewards_does_not_carry_the_editor_code(app):
    c = client(app)
    c.predict(json.dumps([{"name": "length"}]), api_name="/set_rewards")
    c.predict(**form_kwargs(c, **{**TINY_RUN, "max_steps": 1}), code="def broken(:\n", api_name="/start_training")
    job = app.ctx.jobs.current
    job.join(300)
    assert job.status == "finished" and job.run.spec()["custom_code"] is None


def test_selecting_a_function_the_code_no_longer_defines_says_so(app):
    c = client(app)
    c.predict(SELECTION, code=CODE, api_name="/set_rewards")
    with pytest.raises(AppError, match="The custom reward 'short_answer' is selected but the code does not define it"):
        c.predict("a\n---\nb", code=CODE.replace("short_answer", "other_name"), api_name="/try_on_text")


# --- reward unit tests -------------------------------------------------------------------------------------------


def test_reward_unit_tests_pass_and_fail_with_the_value_got(app):
    c = client(app)
    results, summary = c.predict(
        code=CODE,
        cases=cases(
            ["short_answer", "Short.", "", "", "1", "", ""],
            ["short_answer", "A completion that is far too long.", "", "", "1", "", ""],
            ["length", "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwx", "", "", "", "-1", "0"],  # 50 chars
            ["", "", "", "", "", "", ""],  # a blank row is skipped
            ["no_such_reward", "x", "", "", "", "", ""],
        ),
        api_name="/run_reward_tests",
    )
    rows = table(results)
    assert [(r["case"], r["result"], r["got"]) for r in rows] == [
        (1, "✓ pass", 1.0),
        (2, "✗ FAIL", 0.0),
        (3, "✓ pass", 0.0),
        (5, "✗ FAIL", None),
    ]
    assert rows[1]["details"] == "got 0, expected 1"
    assert rows[3]["details"].startswith(
        "no_such_reward is neither a function of the code in the editor (it defines: "
    )
    assert "2 of 4 cases pass." in summary


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_cases_left_from_the_starter_code_say_they_belong_to_it(app, lang):
    """The starter's cases run against code that replaced it: each says its function is not the code's, and names the
    code's own functions, rather than a bare failure."""
    c = app_client(app.url, headers={"Accept-Language": {"en": "en", "zh": "zh-CN"}[lang]})
    results, summary = c.predict(code=CODE, cases=cases(*TEST_CASES), api_name="/run_reward_tests")
    rows = [dict(zip(results["headers"], r, strict=True)) for r in results["data"]]
    detail = tr(lang, "rewards.tests.not_in_code", function="ends_with_period", defined="short_answer")
    assert [row[tr(lang, "rewards.tests.detail")] for row in rows] == [detail, detail]
    assert tr(lang, "rewards.tests.stale", names="`ends_with_period`") in summary
    # The starter's own code passes its cases, with nothing said about other code.
    results, summary = c.predict(code=TEMPLATE, cases=cases(*TEST_CASES), api_name="/run_reward_tests")
    assert summary.endswith(tr(lang, "rewards.tests.summary", passed=2, total=2))


def test_reward_unit_tests_read_prompt_and_columns(app):
    code = """
def echo(completions, prompts, answer, **kwargs):
    return [float(a == p) for a, p in zip(answer, prompts)]
"""
    answer = '{"answer": "4"}'
    results, _ = client(app).predict(
        code=code,
        cases=cases(["echo", "x", "4", answer, "1", "", ""], ["echo", "x", "5", answer, "", "", "0"]),
        api_name="/run_reward_tests",
    )
    assert [r["result"] for r in table(results)] == ["✓ pass", "✓ pass"]


@pytest.mark.parametrize(
    "row, message",
    [
        (["short_answer", "x", "", "[1]", "", "", ""], "Case 1: the columns must be a JSON object"),
        (["short_answer", "x", "", "", "one", "", ""], "Case 1: expected must be a number, got one."),
        (["short_answer", "x", "", "", "", "2", "1"], "Case 1: 'min' (2) is above 'max' (1)."),
    ],
)
def test_reward_unit_tests_refuse_a_bad_case_in_one_sentence(app, row, message):
    with pytest.raises(AppError, match=message.replace("(", r"\(").replace(")", r"\)")):
        client(app).predict(code=CODE, cases=cases(row), api_name="/run_reward_tests")


# --- isolation ---------------------------------------------------------------------------------------------------


def test_a_session_cannot_reach_another_sessions_code(app):
    owner, other = client(app), client(app)
    secret = CODE.replace("short_answer", "secret_reward")
    owner.predict(code=secret, api_name="/check_code")
    owner.predict(json.dumps([{"name": "secret_reward"}]), code=secret, api_name="/set_rewards")

    with pytest.raises(AppError, match="Unknown reward 'secret_reward'"):
        other.predict(json.dumps([{"name": "secret_reward"}]), api_name="/set_rewards")  # its own (template) code
    report, choices = other.predict(api_name="/check_code")  # the template, not the owner's code
    assert "secret_reward" not in report and choices["data"] == [[False, "ends_with_period", 1.0]]
    results, _ = other.predict(cases=cases(["secret_reward", "x", "", "", "", "", ""]), api_name="/run_reward_tests")
    assert (
        "secret_reward is neither a function of the code in the editor (it defines: ends_with_period)"
        in (table(results)[0]["details"])
    )

    assert worker_pid(app, owner) != worker_pid(app, other)  # one worker each
    scores, _ = owner.predict("a\n---\nbb", code=secret, api_name="/try_on_text")
    assert "secret_reward" in scores["headers"]


def test_a_sessions_worker_stops_when_the_session_ends(app):
    c = client(app)
    c.predict(code=CODE, api_name="/check_code")
    pid = worker_pid(app, c)
    assert pid is not None and alive(pid)
    c.close()  # ends the client's heartbeat: Gradio runs the app's unload handler
    deadline = time.monotonic() + 30
    while (c.session_hash in app.ctx.code or alive(pid)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert c.session_hash not in app.ctx.code
    assert not alive(pid)


@pytest.mark.integration  # sandbox worker processes
def test_code_sessions_are_bounded_and_close_the_least_recently_used():
    sessions = CodeSessions(limit=2)
    limits = SandboxLimits(timeout=2.0, load_timeout=5.0, memory_mb=512)
    try:
        pids = {}
        for key in ("a", "b", "c"):
            session = sessions.get(key)
            session.limits = limits
            pids[key] = session.rewards(CODE)["short_answer"].sandbox.pid
        assert len(sessions) == 2 and "a" not in sessions
        assert not alive(pids["a"]) and alive(pids["b"]) and alive(pids["c"])
        with pytest.raises(Exception, match="needs a session"):
            sessions.get(None)
    finally:
        sessions.close_all()
    assert not alive(pids["b"]) and not alive(pids["c"])


# --- policy ------------------------------------------------------------------------------------------------------


def test_custom_code_off_shows_the_policy_message(tiny_model_dir, tmp_path):
    with running_app(str(tiny_model_dir), str(tmp_path), env={"PLAYGROUND_CUSTOM_CODE": "off"}) as live:
        c = client(live)
        editor = next(comp for comp in c.config["components"] if comp.get("props", {}).get("language") == "python")
        assert editor["props"]["interactive"] is False
        with pytest.raises(AppError, match=r"disabled on this server \(PLAYGROUND_CUSTOM_CODE=off\)"):
            c.predict(code=CODE, api_name="/check_code")
        with pytest.raises(AppError, match=r"disabled on this server"):
            c.predict(code=CODE, cases=cases(["short_answer", "x", "", "", "", "", ""]), api_name="/run_reward_tests")
        scores, _ = c.predict("a\n---\nbb", api_name="/try_on_text")  # the library still works
        assert len(scores["data"]) == 2


def test_check_leaves_a_function_that_scores_every_trial_the_same_unticked(app):
    code = CODE + "\n\ndef always_zero(completions, **kwargs):\n    return [0.0] * len(completions)\n"
    report, choices = client(app).predict(code=code, api_name="/check_code")
    assert choices["data"] == [[True, "short_answer", 1.0], [False, "always_zero", 1.0]]
    assert "gave every trial completion the same score" in report


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_constant_reward_gets_one_warning_not_two(lang):
    from playground.sandbox import TRIAL_COMPLETIONS
    from playground.sandbox.custom import TrialResult, trial_flags
    from playground.ui.custom_code import trial_lines
    from playground.ui.i18n import tr

    values = [0.0] * len(TRIAL_COMPLETIONS)
    lines = trial_lines(TrialResult("always_zero", values, flags=trial_flags(values)), lang)
    warnings = [line for line in lines if "⚠" in line]
    assert warnings == [f"  - ⚠ {tr(lang, 'rewards.custom.constant')}"]
    spread = [0.0, 1.0] + [0.5] * (len(TRIAL_COMPLETIONS) - 2)  # a reward that tells them apart: no warning
    assert not [
        line for line in trial_lines(TrialResult("graded", spread, flags=trial_flags(spread)), lang) if "⚠" in line
    ]
