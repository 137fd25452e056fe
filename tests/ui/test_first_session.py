"""What breaks a first session, driven over HTTP with gradio_client: the form's defaults train whatever
section was opened, a CSV without a `prompt` column, a Hub id typed as dataset_name, bad models and datasets refused
before a run exists, and errors in the browser's language."""

import pytest
from gradio_client import handle_file
from gradio_client.exceptions import AppError

from playground.ui.charts import CHARTS
from playground.ui.compare_tab import comparable_runs
from tests.support.queue_client import app_client
from tests.ui.test_client import LENGTH_5, TINY_RUN, client, form_kwargs, plot_points


def run_ids(app) -> list[str]:
    return [info.id for info in app.ctx.store.list()]


def wait_done(app, timeout: float = 180) -> str:
    job = app.ctx.jobs.current
    job.join(timeout)
    return job.status


def train_one_step(app, **fields):
    """One step of the length reward with the tiny run's fields, started by a fresh client session; its job."""
    c = client(app)
    c.predict(LENGTH_5, api_name="/set_rewards")
    c.predict(**form_kwargs(c, **{**TINY_RUN, "max_steps": 1, **fields}), api_name="/start_training")
    assert wait_done(app) == "finished", app.ctx.jobs.current.error
    return app.ctx.jobs.current


@pytest.fixture(scope="module")
def opened_section_run(app):
    """A run started with the Generation group opened: the browser then sends steps_per_generation=0."""
    return train_one_step(app, steps_per_generation=0)


def test_an_opened_advanced_section_still_trains(opened_section_run):
    """steps_per_generation=0 from an opened Generation group means unset."""
    assert opened_section_run.status == "finished"
    assert opened_section_run.spec.grpo.steps_per_generation is None


def test_a_new_session_does_not_take_another_sessions_run_as_its_own(app, opened_section_run):
    """After another session's run, a new visitor is told so, with no progress bar of that run."""
    job = app.ctx.jobs.current  # the fixture's run, or a later test's: another session's, finished
    assert job is not None and not job.active
    out = client(app).predict(api_name="/train_status")
    status, progress = out[1], out[2]
    assert "started in another session" in status and job.run.id in status
    assert progress == ""


def test_runs_table_in_the_page_language_and_delete_clears_the_run_everywhere(app):
    run_id = train_one_step(app).run.id  # its own run: deleting it leaves the other tests' runs alone
    zh = app_client(app.url, headers={"Accept-Language": "zh-CN"})
    runs, picker, _ = zh.predict(None, api_name="/list_runs")
    # no listed run has an error: no error column
    assert runs["headers"] == ["训练记录", "状态", "步数", "用时", "创建时间", "模型", "奖励", "最终奖励"]
    row = next(dict(zip(runs["headers"], r, strict=True)) for r in runs["data"] if r[0] == run_id)
    assert row["状态"] == "已完成" and row["奖励"] == "length(ideal_length=5) × 1"
    assert row["最终奖励"] == round(row["最终奖励"], 3)
    choices, default = comparable_runs(app.ctx, None, "zh")  # the Compare tab's picker
    labels = {value: label for label, value in choices}
    assert default == run_id and labels[run_id].startswith(f"{run_id} · ")
    assert " · 已完成 · 1/1 步 · length · 奖励 " in labels[run_id]
    out = zh.predict(run_id, api_name="/delete_run")
    assert run_id not in [r[0] for r in out[0]["data"]]
    assert out[1]["value"] is None  # the picker is emptied, not moved to another run
    charts = out[3 : 3 + len(CHARTS)]
    assert all(plot_points(c) == 0 for c in charts)  # the deleted run's charts are cleared
    assert out[3 + len(CHARTS) + 2]["visible"] is False  # and its download hidden


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("dataset_name", "someuser/no-such-dataset", "Could not load dataset 'someuser/no-such-dataset'"),
        ("dataset_name", "no such set", "Unknown built-in prompt set 'no such set'"),
        ("model_name_or_path", "someuser/no-such-model", "Could not load model 'someuser/no-such-model'"),
        ("model_name_or_path", "./no/such/folder", "does not exist"),
    ],
)
def test_a_bad_model_or_dataset_is_refused_before_a_run_exists(app, field, value, message):
    c = client(app)
    c.predict(LENGTH_5, api_name="/set_rewards")
    before = run_ids(app)
    with pytest.raises(AppError, match=message):
        c.predict(**form_kwargs(c, **TINY_RUN, **{field: value}), api_name="/start_training")
    assert run_ids(app) == before


def test_a_hub_id_typed_as_dataset_name_is_read_as_hub(app):
    """dataset_kind stays 'builtin' (untouched): the org/name id is still read as a Hub dataset, not a built-in set."""
    c = client(app)
    with pytest.raises(AppError) as caught:
        c.predict(**form_kwargs(c, **TINY_RUN, dataset_name="someuser/no-such-dataset"), api_name="/start_training")
    assert "Hugging Face Hub" in str(caught.value) and "built-in" not in str(caught.value)


def test_a_csv_without_a_prompt_column_is_read_with_prompt_column_or_column_map(app, tmp_path):
    path = tmp_path / "questions.csv"
    path.write_text("question,answer\nWhat is 2+2?,4\nWhat is 3+3?,6\n", encoding="utf-8")
    c = client(app)
    kind, name = c.predict(handle_file(str(path)), "question", "", api_name="/upload_prompts")
    name = name["value"] if isinstance(name, dict) else name  # the dropdown's update
    assert kind == "file" and name.endswith("questions.csv")
    c.predict(LENGTH_5, api_name="/set_rewards")
    before = run_ids(app)
    fields = dict(TINY_RUN, max_steps=1, dataset_kind="file", dataset_name=name, prompt_column="question")
    c.predict(**form_kwargs(c, **fields), api_name="/start_training")
    assert wait_done(app) == "finished", app.ctx.jobs.current.error
    assert len(run_ids(app)) == len(before) + 1
    # The data is checked before the model, so a bad model after good data shows the mapping was understood.
    for column_map in ["question=prompt", "{'question': 'prompt'}"]:
        fields = dict(TINY_RUN, dataset_kind="file", dataset_name=name, column_map=column_map)
        with pytest.raises(AppError, match="does not exist"):
            c.predict(**form_kwargs(c, **fields, model_name_or_path="./no/such/folder"), api_name="/start_training")
    with pytest.raises(AppError, match="set prompt_column to the column that holds the prompts"):
        c.predict(**form_kwargs(c, **TINY_RUN, dataset_kind="file", dataset_name=name), api_name="/start_training")


def test_errors_follow_the_browser_language(app):
    c = app_client(app.url, headers={"Accept-Language": "zh-CN,zh;q=0.9"})
    with pytest.raises(AppError) as caught:
        c.predict(**form_kwargs(c, **TINY_RUN, dataset_name="no such set"), api_name="/start_training")
    assert str(caught.value).startswith("未知的内置提示词集 'no such set'")
    assert caught.value.title == "出错了"


def test_eta_counts_down_within_a_step():  # the accelerate backend's estimate (launcher.py)
    from playground.training.progress import eta_seconds

    # 2 of 10 steps done, the second finished at 20 s: 8 steps of 10 s are left at that moment.
    assert eta_seconds(elapsed=20.0, step=2, total=10, since_step=0.0) == pytest.approx(80.0)
    assert eta_seconds(elapsed=25.0, step=2, total=10, since_step=5.0) == pytest.approx(75.0)
    assert eta_seconds(elapsed=60.0, step=2, total=10, since_step=40.0) == pytest.approx(40.0)  # never grows
    assert eta_seconds(elapsed=500.0, step=2, total=10, since_step=480.0) == 0.0
    assert eta_seconds(elapsed=5.0, step=0, total=10, since_step=5.0) is None


@pytest.mark.parametrize("g", [1, 0, -3, 17])
def test_preview_refuses_a_group_size_outside_2_to_16(app, g):
    with pytest.raises(AppError, match=f"from 2 to 16, got {g}"):
        client(app).predict(num_generations=g, max_new_tokens=4, api_name="/generate_group")
