"""The samples a run logs show the user's prompt as the prompt set has it, also when a completion prefix makes the
trainer sample after the rendered chat template."""

from playground.data.sources import load_prompts
from playground.training.run_queue import JobManager
from playground.training.store import RunStore
from tests.playground.training.test_job import tiny_spec, wait


def test_samples_of_a_prefixed_run_show_the_users_prompt_not_the_template(tmp_path, tiny_model_dir):
    spec = tiny_spec(tiny_model_dir, max_steps=1, completion_prefix="<intro>")
    job = JobManager(RunStore(tmp_path / "runs")).start(spec)
    wait(job)
    assert job.status == "finished", job.error
    own = set(load_prompts(spec.data).dataset["prompt"])
    samples = job.run.samples()
    assert samples and all(s["prompt"] in own for s in samples), samples[0]["prompt"]
    assert all("<|im_start|>" not in s["prompt"] for s in samples)
    assert all(s["completion"].startswith("<intro>") for s in samples)  # what the rewards scored: prefix + text
