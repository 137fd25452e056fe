"""The Reward lab over HTTP with gradio_client: dry run, re-score from the cached table, probe, graders."""

import json
import tempfile
from pathlib import Path

from tests.lab.test_graders import STRING_CHECK
from tests.support.queue_client import app_client
from tests.ui.test_lab_zh import english_left


LENGTH_AND_FORMAT = json.dumps(
    [{"name": "length", "weight": 1.0, "params": {}}, {"name": "format", "weight": 1.0, "params": {}}]
)


def test_dry_run_then_rescore_probe_and_graders(app):
    c = app_client(app.url)
    c.predict(LENGTH_AND_FORMAT, api_name="/set_rewards")
    metrics, prompts, weights, signal, result = c.predict(
        str(app.ctx.settings.model), "arithmetic", "", 3, 2, 8, 0, "group", "sum_then_normalize", api_name="/dry_run"
    )
    assert set(result) == {"reward", "reward_std", "frac_reward_zero_std", "rewards", "prompts", "verdict"}
    assert set(result["rewards"]) == {"length", "format"} and len(result["prompts"]) == 3
    assert result["rewards"]["format"] == {"mean": 0.0, "std": 0.0}  # random tokens never make the sections
    assert result["verdict"] in metrics and "`frac_reward_zero_std`" in metrics
    assert weights["data"] == [["length", 1.0, True], ["format", 1.0, True]]

    # Re-score: length switched off leaves format alone, which gives no signal anywhere (the session keeps the table).
    off = {"headers": ["reward", "weight", "on"], "data": [["length", 1.0, False], ["format", 1.0, True]]}
    _, frame, signal_file, rescored = c.predict(off, "group", "sum_then_normalize", api_name="/lab_rescore")
    assert list(rescored["rewards"]) == ["format"] and rescored["frac_reward_zero_std"] == 1.0
    assert all(p["zero_std"] for p in rescored["prompts"]) and signal_file is None
    assert rescored["prompts"][0]["prompt"] == result["prompts"][0]["prompt"]

    findings, note, report = c.predict("", api_name="/probe_rewards")
    texts = [f["text"] for f in report["findings"] if f["reward"] == "format"]
    assert "<intro>Hello.</intro><body>Bananas are yellow.</body><conclusion>Bye.</conclusion>" in texts
    assert str(len(report["findings"])) in note

    # The selection itself is session state (not returned to a client); the Rewards tab's summary and JSON are.
    code, grader_note, summary, selection_json, *_ = c.predict(json.dumps(STRING_CHECK), "", api_name="/import_grader")
    assert "`string_check`" in summary and "`length`" not in summary
    assert json.loads(selection_json) == [
        {"name": "string_check", "weight": 1.0, "params": {"column": "reference_answer"}}  # eq is the default
    ]
    assert "`reference_answer`" in grader_note
    exported, _ = c.predict(api_name="/export_grader")
    assert json.loads(exported)["type"] == "string_check"
    assert json.loads(exported)["reference"] == "{{item.reference_answer}}"


def test_the_signal_file_is_one_of_the_apps_downloads_and_re_scoring_leaves_nothing_behind(app):
    """Each dry run and re-score that finds signal hands over a JSONL file of its prompts: it is made in a download
    folder of the app's (which removes such folders after `DOWNLOAD_SECONDS`), never in a new folder of the system's
    temporary folder that nothing removes (a visitor re-scoring in a loop would fill the disk)."""
    c = app_client(app.url)
    c.predict(LENGTH_AND_FORMAT, api_name="/set_rewards")
    downloads = set(app.ctx.downloads.iterdir())
    elsewhere = set(Path(tempfile.gettempdir()).glob("playground-lab-*"))
    *_, signal, result = c.predict(
        str(app.ctx.settings.model), "arithmetic", "", 3, 2, 8, 0, "group", "sum_then_normalize", api_name="/dry_run"
    )
    assert result["frac_reward_zero_std"] < 1.0 and signal is not None  # length differs within a group
    both = {"headers": ["reward", "weight", "on"], "data": [["length", 1.0, True], ["format", 1.0, True]]}
    for _ in range(3):
        assert c.predict(both, "group", "sum_then_normalize", api_name="/lab_rescore")[2] is not None
    made = set(app.ctx.downloads.iterdir()) - downloads
    assert len(made) == 4  # the dry run's file and each re-score's, each in a folder of its own
    signal_rows = [json.loads(line) for line in Path(signal["path"]).read_text().splitlines()]  # the served copy
    for folder in made:
        rows = [json.loads(line) for line in (folder / "signal_prompts.jsonl").read_text().splitlines()]
        assert rows == signal_rows and all(row["prompt"] for row in rows)
    assert set(Path(tempfile.gettempdir()).glob("playground-lab-*")) == elsewhere


def test_zh_page_gets_the_verdict_the_probe_and_the_headers_in_chinese(app):
    zh = app_client(app.url, headers={"Accept-Language": "zh-CN,zh;q=0.9"})
    zh.predict(LENGTH_AND_FORMAT, api_name="/set_rewards")
    metrics, prompts, weights, _, result = zh.predict(
        str(app.ctx.settings.model), "arithmetic", "", 3, 2, 8, 0, "group", "sum_then_normalize", api_name="/dry_run"
    )
    assert result["verdict"].startswith(("信号", "没有学习信号")) and result["verdict"] in metrics
    data = [p["prompt"] for p in result["prompts"]]  # the prompt set's own (English) text is data, not UI text
    assert not english_left(metrics, tuple(data)), metrics
    assert prompts["headers"] == ["提示词", "均值", "标准差", "组内无差异"]
    assert weights["headers"] == ["奖励", "权重", "使用"]  # re-scoring reads the table by position
    assert not english_left(" ".join(str(cell) for row in prompts["data"] for cell in row[1:]))  # mean, std, signal

    findings, note, report = zh.predict("", api_name="/probe_rewards")
    assert findings["headers"] == ["奖励", "得分", "退化文本", "为什么是问题"] and "发现" in note
    assert report["findings"] and [row[3] for row in findings["data"]] == [f["why"] for f in report["findings"]]
    for finding in report["findings"]:
        assert not english_left(finding["why"]), finding["why"]
    off_topic = next(f for f in report["findings"] if "Bananas" in f["text"])
    assert off_topic["why"].startswith("一个退化文本（格式正确但答非所问）")
