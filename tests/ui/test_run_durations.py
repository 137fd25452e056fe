"""A run's wall time on the Runs tab: the table's wall-time column and the shown run's summary give every piece (the
first run and each continue) and their sum, in the page's language; the Train tab's closing line too."""

import json

from playground.training.store import RunInfo, RunStore
from playground.ui.i18n import tr
from playground.ui.runs_tab import run_summary, runs_frame
from playground.ui.settings import UISettings
from playground.ui.train_tab import status_text


SPEC = {"rewards": [{"name": "length"}], "grpo": {"max_steps": 20}}


def continued_run(tmp_path):
    """A run that trained 1325.3 s, then 252.5 s more after a Continue."""
    store = RunStore(tmp_path)
    run = store.create(SPEC)
    run.write_status(status="stopped", step=12)
    status = json.loads((run.path / "status.json").read_text())
    first = {"started_at": "2026-12-01T10:00:00+00:00", "finished_at": "2026-12-01T10:22:05.300000+00:00"}
    (run.path / "status.json").write_text(json.dumps(status | first | {"pieces": [1325.3]}))
    run.write_status(status="loading")  # continued, a day later
    status = json.loads((run.path / "status.json").read_text())
    second = {"started_at": "2026-12-02T09:00:00+00:00", "finished_at": "2026-12-02T09:04:12.500000+00:00"}
    (run.path / "status.json").write_text(json.dumps(status | second | {"status": "finished", "step": 20}))
    run.write_status(published=False)  # any later write keeps both pieces
    return store, run


def test_the_runs_table_and_summary_show_the_pieces_and_their_sum(tmp_path):
    store, run = continued_run(tmp_path)
    status = json.loads((run.path / "status.json").read_text())
    assert status["pieces"] == [1325.3, 252.5] and status["elapsed"] == 1577.8
    from playground.ui.context import AppContext

    ctx = AppContext.create(UISettings(runs=str(tmp_path)))
    en, zh = runs_frame(ctx, None, "en"), runs_frame(ctx, None, "zh")
    assert en["wall time"].tolist() == ["26m 18s (22m 05s + 4m 12s)"]
    assert zh["用时"].tolist() == ["26 分 18 秒（分段：22 分 05 秒 + 4 分 12 秒）"]
    info = run.info()
    assert "wall time 26m 18s (22m 05s + 4m 12s)" in run_summary(info, "en")
    assert "用时 26 分 18 秒（分段：22 分 05 秒 + 4 分 12 秒）" in run_summary(info, "zh")
    snap = dict(run_id=run.id, status="finished", step=20, max_steps=20, elapsed=1577.8, error=None)
    assert "20 steps in 26m 18s (22m 05s + 4m 12s)" in status_text(snap | dict(pieces=info.pieces), True, "en")


def test_a_run_of_one_piece_shows_its_time_alone_and_a_queued_one_none(tmp_path):
    store = RunStore(tmp_path)
    run = store.create(SPEC)
    assert run.info().pieces == [] and run_summary(run.info(), "en").endswith("wall time —")
    run.write_status(status="running", step=1)
    status = json.loads((run.path / "status.json").read_text())
    (run.path / "status.json").write_text(json.dumps(status | {"started_at": "2026-12-01T10:00:00+00:00"}))
    run.write_status(status="finished", step=20)
    [piece] = run.info().pieces
    assert piece > 3600 and "(" not in run_summary(run.info(), "en")


def test_the_summary_shows_the_run_id_as_code():
    """A run id (`20261206-085512-bd893b`) is a name: shown as code, so the Chinese page has no bare Latin word."""
    info = RunInfo(
        id="20261206-085512-bd893b", status="finished", step=3, max_steps=3, created_at="", model="m", rewards=[]
    )
    assert run_summary(info, "zh").startswith("`20261206-085512-bd893b` · ")


def test_the_error_column_is_listed_only_while_a_run_has_an_error(tmp_path):
    from playground.ui.context import AppContext

    store = RunStore(tmp_path)
    ok = store.create(SPEC)
    ok.write_status(status="finished", step=20)
    ctx = AppContext.create(UISettings(runs=str(tmp_path)))
    assert list(runs_frame(ctx, None, "en").columns)[-2:] == ["rewards", "final reward"]
    failed = store.create(SPEC)
    failed.write_status(status="failed", step=3, error="Out of memory.")
    en, zh = runs_frame(ctx, None, "en"), runs_frame(ctx, None, "zh")
    errors = dict(zip(en["run"], en[en.columns[-1]], strict=True))
    assert en.columns[-1] == "error" and errors == {ok.id: "", failed.id: "Out of memory."}
    assert zh.columns[-1] == tr("zh", "runs.col.error")
