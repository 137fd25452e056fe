"""The alert log: every alert a run raised stays in status.json with the steps it was seen at; one that clears is
marked resolved, not dropped. Fed through a real job's `on_log` (the path every logged row takes), with rows as TRL
logs them."""

import json

from playground.training.alert_log import log_alerts, log_up_to, open_alerts
from playground.training.checkpoint import checkpoint_root
from playground.training.health import alert_record, health_alerts
from playground.training.job import TrainingJob
from playground.training.store import RunStore
from tests.support import tiny_models as testing


def row(step: int, spread: float) -> dict:
    """A GRPO row: every group flat (`spread` 0) or every group varied."""
    flat = spread == 0.0
    return {
        "step": step,
        "phase": "grpo",
        "reward": 0.5 + 0.01 * step,
        "reward_std": spread,
        "frac_reward_zero_std": 1.0 if flat else 0.0,
        "kl": 0.0,
        "completions/mean_length": 20.0,
        "completions/clipped_ratio": 0.0,
    }


def test_an_alert_that_clears_stays_in_the_log_marked_resolved(tmp_path, tiny_model_dir):
    run = RunStore(tmp_path).create({})
    job = TrainingJob(testing.tiny_spec(tiny_model_dir), run)  # not started: its rows come from here
    for step in range(1, 4):  # three flat steps: no_signal at step 3
        job.on_log(row(step, 0.0))
    assert [a["code"] for a in run.status()["alerts"]] == ["no_signal"]
    for step in range(4, 7):  # the groups vary again: the alert clears at step 4
        job.on_log(row(step, 0.4))
    status = json.loads((run.path / "status.json").read_text())
    assert status["alerts"] == []
    [entry] = status["alert_log"]
    assert (entry["code"], entry["first_step"], entry["last_step"], entry["resolved_step"]) == ("no_signal", 3, 3, 4)
    assert "same reward" in entry["message"] and entry["texts"]["message"]["key"].startswith("alert.no_signal")
    assert job.snapshot()["alert_log"] == status["alert_log"]


def test_an_alert_raised_again_opens_its_entry_and_keeps_its_first_step():
    alert = {"code": "clipped", "message": "m", "advice": "a"}
    log = log_alerts([], [alert | {"step": 5}], 5)
    log = log_alerts(log, [alert | {"step": 6}], 6)
    log = log_alerts(log, [], 7)
    assert [(e["first_step"], e["last_step"], e["resolved_step"]) for e in log] == [(5, 6, 7)]
    assert open_alerts(log) == []
    log = log_alerts(log, [alert | {"step": 9, "message": "m2"}], 9)
    assert [(e["first_step"], e["last_step"], e["resolved_step"], e["message"]) for e in log] == [(5, 9, None, "m2")]
    assert open_alerts(log) == log
    # a resolved entry stays resolved at its first clearing step while later rows come without it
    later = log_alerts(log_alerts(log, [], 10), [], 11)
    assert later[0]["resolved_step"] == 10


def test_a_continued_run_keeps_the_log_up_to_its_checkpoint(tmp_path, tiny_model_dir):
    run = RunStore(tmp_path).create(testing.tiny_spec(tiny_model_dir).to_dict())
    job = TrainingJob(testing.tiny_spec(tiny_model_dir), run)
    for step, spread in enumerate([0.0, 0.0, 0.0, 0.4, 0.4, 0.4, 0.0, 0.0, 0.0], start=1):
        run.append_metrics(row(step, spread))  # as the trainer's callback does
        job.on_log(row(step, spread))
    codes = [(e["code"], e["first_step"], e["resolved_step"]) for e in run.status()["alert_log"]]
    assert codes == [("no_signal", 3, None)]  # raised at 3, cleared at 4, raised again at 9: open again
    checkpoint = checkpoint_root(run.path) / "checkpoint-5"
    checkpoint.mkdir(parents=True)
    (checkpoint / "trainer_state.json").write_text(json.dumps({"global_step": 5}))
    continued = TrainingJob(testing.tiny_spec(tiny_model_dir), run, resume_from=checkpoint)
    continued._continue_records()
    # steps 6-9 are taken again: as of step 5 the alert does not hold (the log keeps its first step)
    assert [(e["code"], e["first_step"], e["last_step"], e["resolved_step"]) for e in continued.alert_log] == [
        ("no_signal", 3, 5, 5)
    ]
    assert log_up_to(continued.alert_log, 2, []) == []  # first raised after step 2: not in the log of step 2


def two_reward_row(step: int) -> dict:
    """A GRPO row of two rewards: 'format' varies within every group, 'length' gave every completion 0.5."""
    return row(step, 0.4) | {
        "rewards/format/mean": 0.5,
        "rewards/format/std": 0.4,
        "rewards/length/mean": 0.5,
        "rewards/length/std": 0.0,
    }


def test_an_alert_that_a_broader_one_replaces_is_marked_replaced_not_resolved():
    """'length' never varies: at steps 1-2 'format' is the only reward that varies (nothing to weigh); from step 3
    (k = 3 flat steps) constant_reward names 'length' and the dominance check leaves it out. The first alert's
    condition still holds, so its entry says what replaced it."""
    rows, log = [], []
    for step in range(1, 5):
        rows.append(two_reward_row(step))
        current = [alert_record(a) for a in health_alerts(rows, weights={"format": 1.0, "length": 1.0})]
        log = log_alerts(log, current, step)
    entries = {e["code"]: e for e in log}
    assert set(entries) == {"nothing_to_weigh", "constant_reward"}
    replaced, broader = entries["nothing_to_weigh"], entries["constant_reward"]
    assert (replaced["first_step"], replaced["last_step"], replaced["resolved_step"]) == (1, 2, 3)
    assert replaced["superseded_by"] == "constant_reward"
    assert (broader["first_step"], broader["resolved_step"]) == (3, None) and "superseded_by" not in broader
    assert open_alerts(log) == [broader]
    # an alert that clears on its own is resolved, with nothing replacing it
    cleared = log_alerts(log_alerts([], [{"code": "nothing_to_weigh", "message": "m", "advice": "a"}], 1), [], 2)
    assert cleared[0]["resolved_step"] == 2 and "superseded_by" not in cleared[0]
    # a run continued from step 2 takes step 3 again: the entry is open, and no longer replaced
    fresh = {"code": "nothing_to_weigh", "message": "m", "advice": "a", "step": 2}
    [back] = log_up_to(log, 2, [fresh])
    assert (back["code"], back["resolved_step"]) == ("nothing_to_weigh", None) and "superseded_by" not in back
