"""A comparison says where it is while it runs: which model, which prompt, n of N, in the page's language."""

import pytest

from playground.texts import Text
from playground.training.compare import compare_run
from playground.training.run_queue import JobManager
from playground.training.store import RunStore
from tests.playground.training.test_job import tiny_spec, wait


@pytest.fixture
def trained_run(tmp_path, tiny_model_dir):
    job = JobManager(RunStore(tmp_path / "runs")).start(tiny_spec(tiny_model_dir, max_steps=1))
    wait(job)
    assert job.status == "finished", job.error
    return job.run


def test_compare_reports_each_prompt_of_each_model_before_it_samples(trained_run):
    seen: list[tuple[float, Text]] = []
    compare_run(trained_run, ["Say hi.", "Say bye."], num_samples=2, seed=1, progress=lambda f, m: seen.append((f, m)))
    assert [m.render("en") for _, m in seen] == [
        "Loading the base model",
        "Base model: prompt 1 of 2",
        "Base model: prompt 2 of 2",
        "Loading the adapter",
        "Trained model: prompt 1 of 2",
        "Trained model: prompt 2 of 2",
        seen[-1][1].render("en"),
    ]
    assert seen[-1][1].render("en").startswith("Mean reward delta")
    zh = [m.render("zh") for _, m in seen]
    assert zh[1:3] == ["基座模型：第 1 个提示词，共 2 个", "基座模型：第 2 个提示词，共 2 个"]
    assert seen[4][1].render("zh") == "训练后的模型：第 1 个提示词，共 2 个"
    fractions = [f for f, _ in seen]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
