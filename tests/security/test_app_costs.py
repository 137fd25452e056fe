"""Public mode's cost caps against a visitor who asks for too much: the tokens one step (an eval, the warm-up)
generates, the LoRA rank, one queued run per browser and per client address, the wall-time cap stopping a run inside
a step, and a Parquet file of millions of rows read only up to the row cap."""

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from gradio_client.exceptions import AppError

from playground.scoring import RewardChoice
from playground.spec import RunSpec
from playground.training.run_queue import JobManager, PublicCaps
from playground.training.store import RunStore
from tests.ui.live_app import fresh_module_state
from tests.ui.test_client import TINY_RUN, client, form_kwargs


ROOT = Path(__file__).resolve().parents[2]
ENV = {"PLAYGROUND_PUBLIC": "1", "PLAYGROUND_MAX_STEPS": "60"}


@pytest.fixture(scope="module")
def public_app(shared_public_app, tmp_path_factory):
    with fresh_module_state(shared_public_app, str(tmp_path_factory.mktemp("runs")), ENV) as live:
        yield live


@pytest.mark.parametrize(
    "fields, message",
    [
        (
            {"num_generations": 4096, "per_device_train_batch_size": 2**20, "max_completion_length": 8},
            "one step may generate at most 8,192 tokens (PLAYGROUND_MAX_STEP_TOKENS); this run asks for 1048576 "
            "completions × max_completion_length 8 = 8,388,608",
        ),
        (
            {"num_generations": 8, "per_device_train_batch_size": 64, "max_completion_length": 256},
            "this run asks for 64 completions × max_completion_length 256 = 16,384",
        ),
        (
            {"eval_every": 1, "eval_prompts": 64, "eval_num_generations": 16, "max_completion_length": 16},
            "one held-out eval may generate at most 8,192 tokens",
        ),
        (
            {"eval_every": 1, "eval_prompts": 4, "eval_num_generations": 4, "eval_max_completion_length": 1024},
            "one held-out eval may generate at most 8,192 tokens (PLAYGROUND_MAX_STEP_TOKENS); this run asks for 4 "
            "prompts × 4 completions × eval_max_completion_length 1024 = 16,384. Lower eval_max_completion_length",
        ),
        (
            {"sft_warmup_steps": 1, "sft_num_examples": 512, "max_completion_length": 32},
            "the warm-up's examples may generate at most 8,192 tokens (PLAYGROUND_MAX_STEP_TOKENS); this run asks "
            "for 512 examples × max_completion_length 32 = 16,384",
        ),
        ({"lora_r": 100000}, "lora_r may be at most 64 (PLAYGROUND_MAX_LORA_R); this run asks for 100000"),
        ({"sft_warmup_steps": 61}, "the warm-up may take at most 60 steps"),
    ],
    ids=["huge-batch", "step-tokens", "eval-tokens", "eval-cap-tokens", "warmup-tokens", "lora-rank", "warmup-steps"],
)
def test_a_run_over_a_size_cap_is_refused_before_it_exists(public_app, fields, message):
    c = client(public_app)
    before = {info.id for info in public_app.ctx.store.list()}
    with pytest.raises(AppError) as err:
        c.predict(**form_kwargs(c, **{**TINY_RUN, **fields}), api_name="/start_training")
    assert "This app is public" in str(err.value) and message in str(err.value), str(err.value)
    assert {info.id for info in public_app.ctx.store.list()} == before
    assert public_app.ctx.jobs.current is None or not public_app.ctx.jobs.current.active


def test_the_caps_read_the_environment():
    caps = PublicCaps.from_env(
        {"PLAYGROUND_MAX_STEP_TOKENS": "100", "PLAYGROUND_MAX_LORA_R": "8", "PLAYGROUND_MAX_QUEUED_PER_ADDRESS": "3"}
    )
    assert (caps.max_step_tokens, caps.max_lora_r, caps.max_queued_per_address) == (100, 8, 3)
    spec = RunSpec()  # the demo recipe: 8 completions × 64 tokens = 512
    PublicCaps().check_size(spec)
    with pytest.raises(Exception, match="this run asks for 8 completions × max_completion_length 64 = 512"):
        caps.check_size(spec)


def test_one_queued_run_per_browser_and_per_address(public_app):
    ctx = public_app.ctx
    alice, bob, carol = client(public_app), client(public_app), client(public_app)  # one address: 127.0.0.1
    alice.predict(**form_kwargs(alice, **{**TINY_RUN, "max_steps": 60}), api_name="/start_training")
    job = ctx.jobs.current
    try:
        bob.predict(**form_kwargs(bob, **{**TINY_RUN, "max_steps": 1}), api_name="/start_training")  # queued
        assert [w.address for w in ctx.jobs.waiting] == ["127.0.0.1"]
        with pytest.raises(AppError, match="already have a run waiting in the queue"):
            bob.predict(**form_kwargs(bob, **{**TINY_RUN, "max_steps": 1}), api_name="/start_training")
        with pytest.raises(AppError, match="Your network address already has 1 run\\(s\\) waiting in the queue"):
            carol.predict(**form_kwargs(carol, **{**TINY_RUN, "max_steps": 1}), api_name="/start_training")
        assert len(ctx.jobs.waiting) == 1
        assert bob.predict(api_name="/cancel_queued") == "Your queued run was cancelled."
    finally:
        ctx.jobs.waiting.clear()
        job.stop()
        job.join(300)


def test_the_wall_time_cap_stops_a_run_inside_its_step(tiny_model_dir, tmp_path, monkeypatch):
    """A step that would take two minutes (a reward that sleeps) ends a few seconds after the wall time, at step 0:
    the run is interrupted where it is, not after the step. The step's grace before the interruption is 1 s here (it
    is how long the queue waits for a step that ends on its own, which this one never does)."""
    from playground.training import run_queue

    monkeypatch.setattr(run_queue, "INTERRUPT_GRACE_SECONDS", 1.0)
    entered, finished = threading.Event(), threading.Event()

    def slow(completions, **kwargs):
        entered.set()
        for _ in range(1200):
            time.sleep(0.1)
        finished.set()
        return [0.0] * len(completions)

    slow.__name__ = "slow"
    spec = RunSpec()
    for name, value in {**TINY_RUN, "max_steps": 2, "model_name_or_path": str(tiny_model_dir)}.items():
        spec.set(name, value)
    spec.rewards = [RewardChoice(name="slow", weight=1.0)]
    jobs = JobManager(RunStore(tmp_path), public=True, caps=PublicCaps(max_minutes=0.3))
    job = jobs.start(spec, owner="sha256:x", custom_rewards={"slow": slow})
    assert entered.wait(18)  # inside step 1, before the wall time (18 s)
    job.join(120)
    assert not job.active and not finished.is_set()
    status = json.loads((job.run.path / "status.json").read_text())
    assert (status["status"], status["step"]) == ("stopped", 0)
    assert "Stopped after the public limit of 0.3 minutes per run" in status["wall_time_error"]


def _write_rows(path: Path, kind: str, rows: int) -> None:
    """`rows` rows of one short prompt: a small file (Parquet) or one under the 50 MB upload limit (text)."""
    if kind == "parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        table = pa.table({"prompt": pa.array(["Say hi."], pa.string()).take(pa.array([0] * rows))})
        pq.write_table(table, path, compression="zstd", row_group_size=rows)
        return
    one = {"jsonl": '{"prompt":"a"}\n', "json": '{"prompt":"a"},', "csv": "a\n"}[kind]
    body = one * rows
    text = {"jsonl": body, "json": "[" + body[:-1] + "]", "csv": "prompt\n" + body}[kind]
    path.write_text(text)


@pytest.mark.parametrize(
    "kind, rows", [("parquet", 4_000_000), ("jsonl", 3_000_000), ("json", 3_000_000), ("csv", 20_000_000)]
)
@pytest.mark.integration  # reads each file in a Python of its own
def test_a_file_of_millions_of_rows_is_read_only_up_to_the_row_cap(tmp_path, kind, rows):
    path = tmp_path / f"rows.{kind}"
    _write_rows(path, kind, rows)
    assert path.stat().st_size < 50 * 1024 * 1024  # within the upload limit
    script = (
        "import json, resource\n"
        "from playground.data.sources import PromptSource, load_prompts\n"
        f"data = load_prompts(PromptSource(kind='file', name={str(path)!r}, max_rows=10_000))\n"
        "rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024\n"
        "print(json.dumps([len(data.dataset), data.warnings, rss]))\n"
    )
    baseline = (
        "import resource, playground.data.sources\nprint(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)"
    )
    # The upload worker's wall-time limit far above a loaded machine's (a CSV's can take longer than the public 20 s):
    # this test is about the row cap and the memory; the limit has its own test (tests/playground/test_upload_worker).
    env = {**os.environ, "OMP_NUM_THREADS": "1", "PLAYGROUND_UPLOAD_PARSE_SECONDS": "300"}
    run = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-2000:]
    count, warnings, peak_mb = json.loads(run.stdout.strip().splitlines()[-1])
    base = subprocess.run([sys.executable, "-c", baseline], cwd=ROOT, env=env, capture_output=True, text=True)
    assert count == 10_000
    assert warnings == [f"The file 'rows.{kind}' has more than 10,000 rows; only the first 10,000 are used."]
    # Decoding every row took gigabytes (1.75 GB for the Parquet file); the file's text and the first 10,000 rows
    # take the file's size twice over at most.
    assert peak_mb - int(base.stdout.strip()) < 2 * path.stat().st_size / 2**20 + 150, (peak_mb, base.stdout)
