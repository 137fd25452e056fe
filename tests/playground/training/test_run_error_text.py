"""A run's failure keeps its catalogue key through status.json: the file holds the English sentence (for the CLI and
older readers) and `error_text` (key and values), and what the store reads back renders in the page's language."""

import json

import pytest

from playground.errors import DataError
from playground.texts import Text, msg
from playground.training.job import _describe
from playground.training.store import DEAD_PROCESS_ERROR, RunStore
from tests.playground.training.test_store import SPEC, dead_pid


def test_a_keyed_failure_reads_english_in_the_file_and_chinese_on_the_page(tmp_path):
    run = RunStore(tmp_path / "runs").create(SPEC)
    error = _describe(DataError("warmup.too_few", path="w.jsonl", count=1))
    run.write_status(status="failed", error=error)
    stored = json.loads((run.path / "status.json").read_text(encoding="utf-8"))
    assert stored["error"] == "w.jsonl holds 1 warm-up example(s); give at least 2."
    assert stored["error_text"] == {"key": "warmup.too_few", "values": {"path": "w.jsonl", "count": 1}}
    for read in (run.status()["error"], run.info().error):
        assert isinstance(read, Text) and read.render("zh") == "w.jsonl 中有 1 个预热示例；至少需要 2 个。"
    run.write_status(status="failed", error="A sentence from a library.")  # a plain error drops the old key
    stored = json.loads((run.path / "status.json").read_text(encoding="utf-8"))
    assert "error_text" not in stored and run.info().error == "A sentence from a library."


@pytest.mark.integration  # a process that exits
def test_a_run_whose_process_died_reads_chinese_after_recovery(tmp_path):
    run = RunStore(tmp_path / "runs").create(SPEC)
    run.write_status(status="running", pid=dead_pid())
    assert run.status()["error"] == DEAD_PROCESS_ERROR  # recovered, and status.json rewritten
    stored = json.loads((run.path / "status.json").read_text(encoding="utf-8"))
    assert stored["status"] == "interrupted" and stored["error_text"]["key"] == "job.dead_process"
    assert run.info().error.render("zh") == DEAD_PROCESS_ERROR.render("zh")


def test_an_unexpected_exception_and_a_dead_process_are_keyed_too():
    failed = _describe(RuntimeError("CUDA error: out of memory\nmore"))
    assert failed == "Training failed with RuntimeError: CUDA error: out of memory"
    assert failed.render("zh") == "训练失败，出现 RuntimeError：CUDA error: out of memory"
    assert DEAD_PROCESS_ERROR.render("zh").startswith("运行这次训练的进程在训练完成前就结束了")
    assert msg("job.wall_time", minutes=30).render("zh").startswith("已达到公开应用每次训练 30 分钟的上限")


def test_an_unreadable_error_text_leaves_the_english_error(tmp_path):
    run = RunStore(tmp_path / "runs").create(SPEC)
    stored = json.loads((run.path / "status.json").read_text(encoding="utf-8"))
    for broken in ({"key": "job.wall_time", "values": {}}, {"key": "job.wall_time", "values": {"minutes": "x"}}, [1]):
        stored.update(status="failed", error="An English sentence.", error_text=broken)
        (run.path / "status.json").write_text(json.dumps(stored), encoding="utf-8")
        assert run.info().error == "An English sentence." and not isinstance(run.info().error, Text)
