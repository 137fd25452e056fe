"""Drive the launched app over HTTP with gradio_client, as an API user would: every key event has an api_name."""

import json
import threading
import time
import zipfile

import pytest
from gradio_client import Client
from gradio_client.exceptions import AppError

from playground.ui.charts import CHARTS, spec_of
from tests.support.queue_client import app_client


pytestmark = pytest.mark.slow  # a launched app and real runs


LENGTH_5 = json.dumps([{"name": "length", "weight": 1.0, "params": {"ideal_length": 5}}])
TINY_RUN = {
    "max_steps": 3,
    "num_generations": 4,
    "per_device_train_batch_size": 4,
    "max_completion_length": 8,
    "learning_rate": 1e-3,
}


def client(app) -> Client:
    """A new client is a new browser session."""
    return app_client(app.url)


def form_kwargs(c: Client, **fields) -> dict:
    """Keyword arguments for /start_training: its inputs are labelled with the run spec's field names.

    Inputs whose form value is empty (e.g. steps_per_generation) have no default in the API, so they are sent as None.
    """
    params = c.view_api(return_format="dict", print_info=False)["named_endpoints"]["/start_training"]["parameters"]
    by_label = {p["label"]: p["parameter_name"] for p in params if isinstance(p["label"], str)}
    kwargs = {p["parameter_name"]: None for p in params if not p["parameter_has_default"]}
    return kwargs | {by_label[name]: value for name, value in fields.items()}


def table(value: dict) -> list[dict]:
    return [dict(zip(value["headers"], row, strict=True)) for row in value["data"]]


def plot_points(value) -> int:
    """How many points a chart sent over the API holds (its Vega-Lite spec's data)."""
    if isinstance(value, dict) and value.get("__type__") == "update":  # data sent with visibility
        value = value.get("value")
    return len(spec_of(value).get("data", {}).get("values", []))


# --- Rewards tab -------------------------------------------------------------------------------------------------


def test_try_on_text_scores_totals_and_advantages(app):
    c = client(app)
    c.predict(LENGTH_5, api_name="/set_rewards")
    scores, summary = c.predict("abcde\n---\nabcdefghij\n  ---  \nabcde", api_name="/try_on_text")
    rows = table(scores)
    assert [r["length(ideal_length=5)"] for r in rows] == [0.0, -5.0, 0.0]
    assert [r["total"] for r in rows] == [0.0, -5.0, 0.0]
    # TRL: (r - mean) / (std + 1e-4) with the unbiased std of the group: mean -5/3, std 2.8868
    assert [round(r["advantage"], 3) for r in rows] == [0.577, -1.155, 0.577]
    assert "mean reward -1.667" in summary
    advantage = scores["headers"].index("advantage")
    assert "background-color" in scores["metadata"]["styling"][0][advantage]  # the advantage is colour-coded


def test_try_on_text_flags_a_group_without_signal_and_refuses_one_completion(app):
    c = client(app)
    c.predict(LENGTH_5, api_name="/set_rewards")
    _, summary = c.predict("abcde\n---\nvwxyz", api_name="/try_on_text")
    assert "No learning signal" in summary
    with pytest.raises(AppError, match="at least two completions"):
        c.predict("only one", api_name="/try_on_text")


def test_the_zero_spread_flag_reads_chinese_on_the_chinese_page(app):
    c = app_client(app.url, headers={"Accept-Language": "zh-CN,zh;q=0.9"})
    c.predict(LENGTH_5, api_name="/set_rewards")
    _, summary = c.predict("abcde\n---\nvwxyz", api_name="/try_on_text")
    assert "没有学习信号" in summary and "全部 2 个生成结果得分相同" in summary and "所有优势都是 0" in summary
    assert "learning signal" not in summary and "scored the same" not in summary


def test_selection_is_per_session_and_unknown_rewards_list_the_valid_ones(app):
    a, b = client(app), client(app)
    a.predict(LENGTH_5, api_name="/set_rewards")
    scores_b, _ = b.predict("abcde\n---\nabcdefghij", api_name="/try_on_text")
    assert "length(ideal_length=5)" not in scores_b["headers"]  # b still has the default selection
    with pytest.raises(AppError, match="Valid rewards: .*length"):
        a.predict(json.dumps([{"name": "nope"}]), api_name="/set_rewards")


# --- Preview tab -------------------------------------------------------------------------------------------------


def test_generate_group_with_the_tiny_model(app):
    c = client(app)
    c.predict(LENGTH_5, api_name="/set_rewards")
    group, summary = c.predict(num_generations=4, max_new_tokens=8, seed=1, api_name="/generate_group")
    rows = table(group)
    assert len(rows) == 4
    assert {"completion", "length(ideal_length=5)", "total", "advantage"} <= set(group["headers"])
    assert "Generated 4 completions" in summary and "Group of 4" in summary
    again, _ = c.predict(num_generations=4, max_new_tokens=8, seed=1, api_name="/generate_group")
    assert table(again) == rows  # same seed, same group


def test_generate_group_reports_a_bad_model_in_one_sentence(app):
    c = client(app)
    with pytest.raises(AppError, match="does not exist"):
        c.predict(model="./no/such/folder", num_generations=2, max_new_tokens=4, api_name="/generate_group")


# --- Train, Runs and Compare tabs ----------------------------------------------------------------------------------


def poll_status(c: Client) -> dict:
    """The live view, as one dict: status text, progress, the reward chart's points, and the Stop button."""
    out = c.predict(api_name="/train_status")
    # outputs: timer, status, progress, the charts, samples (an update with its column widths), alerts, start button,
    # stop button, ...
    samples = out[3 + len(CHARTS)]
    samples = samples.get("value", samples) if isinstance(samples, dict) else samples
    return {"status": out[1], "progress": out[2], "reward_points": plot_points(out[3]), "samples": samples}


def test_training_run_end_to_end(app):
    owner, other = client(app), client(app)
    owner.predict(LENGTH_5, api_name="/set_rewards")
    owner.predict(**form_kwargs(owner, **TINY_RUN), api_name="/start_training")
    # The run's three steps take well under a second: from the second step on, a step's row waits (in the training
    # thread, once written) until the client has seen the live chart's points, so a poll lands while the run is going.
    shown, rows = threading.Event(), []

    def hold(row):
        rows.append(row) if "reward" in row else None
        if len(rows) >= 2:
            shown.wait(120)

    app.ctx.jobs.current.listeners.append(hold)

    with pytest.raises(AppError, match="already in progress"):
        other.predict(**form_kwargs(other, **TINY_RUN), api_name="/start_training")
    with pytest.raises(AppError, match="Only the session that started this run can stop it"):
        other.predict(api_name="/stop_training")
    assert "another session" in poll_status(other)["status"]

    seen_running, deadline = None, time.monotonic() + 300
    while time.monotonic() < deadline:
        live = poll_status(owner)
        if "is running" in live["status"] and live["reward_points"] >= 1:
            seen_running = live
            shown.set()
        if "finished" in live["status"] or "failed" in live["status"]:
            break
        time.sleep(0.1)
    assert seen_running is not None, "no metrics reached the client while the run was going"
    assert "of 3" in seen_running["progress"]
    assert "finished" in live["status"], live["status"]
    job = app.ctx.jobs.current
    run_id = job.run.id

    runs, _, _ = owner.predict(None, api_name="/list_runs")
    listed = {r["run"]: r for r in table(runs)}
    assert listed[run_id]["status"] == "finished" and listed[run_id]["steps"] == "3/3"

    shown = owner.predict(run_id, api_name="/show_run")  # the charts, samples, alerts
    assert plot_points(shown[CHARTS.index("reward")]) == 3  # the reward chart of a stored run
    assert plot_points(shown[CHARTS.index(None)]) == 3  # rewards/<fn>/mean: one function, 3 steps
    assert len(table(shown[len(CHARTS)])) == 4  # the last step's samples: one group of G=4

    zipped = owner.predict(run_id, api_name="/download_adapter")
    with zipfile.ZipFile(zipped["path"] if isinstance(zipped, dict) else zipped) as z:
        assert f"{run_id}-adapter/adapter_config.json" in z.namelist()

    summary, comparison = owner.predict(run_id, "Say hi.", 2, 0, api_name="/compare")
    assert "Mean reward delta" in summary
    (row,) = table(comparison)
    assert row["delta"] == pytest.approx(row["after: mean reward"] - row["before: mean reward"])

    runs = owner.predict(run_id, api_name="/delete_run")[0]
    assert run_id not in [r["run"] for r in table(runs)]


def test_delete_is_refused_while_a_run_is_active(app):
    c = client(app)
    c.predict(LENGTH_5, api_name="/set_rewards")
    c.predict(**form_kwargs(c, **{**TINY_RUN, "max_steps": 50}), api_name="/start_training")
    run_id = app.ctx.jobs.current.run.id
    try:
        with pytest.raises(AppError, match="stop it first"):
            c.predict(run_id, api_name="/delete_run")
    finally:
        c.predict(api_name="/stop_training")
        app.ctx.jobs.current.join(180)
    assert app.ctx.jobs.current.status == "stopped"
    c.predict(run_id, api_name="/delete_run")
