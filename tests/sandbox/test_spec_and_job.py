"""The run spec carries custom code and the reward error policy; training runs custom rewards in a sandbox."""

from functools import partial

import pytest

from playground.cli.train import parse_train
from playground.errors import SpecError
from playground.scoring import RewardChoice
from playground.spec import RunSpec, field_help
from playground.training.run_queue import JobManager
from playground.training.store import RunStore
from playground.validation import validate_spec
from tests.support.tiny_models import tiny_spec


VOWELS = """\
def vowels(completions, **kwargs):
    texts = [c if isinstance(c, str) else c[-1]["content"] for c in completions]
    return [sum(ch in "aeiou" for ch in t) / max(len(t), 1) for t in texts]
"""
BROKEN = """\
def broken(completions, **kwargs):
    values = [1.0] * len(completions)
    return [kwargs["solution"] for _ in values]
"""


class TestSpec:
    def test_custom_code_round_trips(self):
        spec = RunSpec(custom_code=VOWELS, rewards=[RewardChoice("vowels")])
        assert RunSpec.from_json(spec.to_json()).custom_code == VOWELS
        assert RunSpec.from_dict(spec.to_dict()).to_dict() == spec.to_dict()
        assert RunSpec().to_dict()["custom_code"] is None
        assert RunSpec.from_dict({"grpo": {"max_steps": 3}}).custom_code is None

    def test_custom_code_must_be_text(self):
        with pytest.raises(SpecError) as err:
            RunSpec.from_dict({"custom_code": ["def f(): pass"]})
        assert (err.value.field, str(err.value)) == (
            "custom_code",
            "custom_code must be Python source text, got list.",
        )

    @pytest.mark.parametrize(
        "code,rewards,field,message",
        [
            (None, ["vowels"], "rewards", "Unknown reward 'vowels'."),
            (
                "def vowels(completions, **kwargs):\n    return [\n",
                ["vowels"],
                "custom_code",
                "Custom code: Syntax error at line 2",
            ),
            ("def vowels(text):\n    return []\n", ["vowels"], "custom_code", "Custom code: found `def vowels(text)`"),
            (VOWELS, ["consonants"], "rewards", "Unknown reward 'consonants'."),
        ],
    )
    def test_validate_checks_the_code_by_parsing(self, code, rewards, field, message):
        spec = RunSpec(custom_code=code, rewards=[RewardChoice(r) for r in rewards])
        with pytest.raises(SpecError) as err:
            validate_spec(spec)
        assert err.value.field == field and str(err.value).startswith(message)

    def test_validate_accepts_a_custom_function(self):
        validate_spec(RunSpec(custom_code=VOWELS, rewards=[RewardChoice("vowels"), RewardChoice("length")]))

    def test_reward_error_policy(self):
        spec = RunSpec()
        assert spec.grpo.reward_error_policy == "fail"
        assert "'none' scores that batch None" in field_help("reward_error_policy")
        spec.set("reward_error_policy", "ignore")
        with pytest.raises(SpecError) as err:
            validate_spec(spec)
        assert (err.value.field, str(err.value)) == (
            "reward_error_policy",
            "reward_error_policy must be one of fail, none, got 'ignore'.",
        )

    def test_cli_flag(self):
        spec, _ = parse_train(["--reward_error_policy", "none"])
        assert spec.grpo.reward_error_policy == "none"


sandboxed_spec = partial(tiny_spec, max_steps=2, max_completion_length=8)


@pytest.fixture
def manager(tmp_path):
    return JobManager(RunStore(tmp_path / "runs"))


def finished(job, timeout=300):
    job.join(timeout)
    assert not job.active, f"job still {job.status} after {timeout} s"
    return job


def test_training_compiles_the_spec_code_into_a_sandbox(manager, tiny_model_dir):
    job = finished(manager.start(sandboxed_spec(tiny_model_dir, [RewardChoice("vowels")], custom_code=VOWELS)))
    assert job.status == "finished", job.error
    rows = [m for m in job.run.metrics() if "reward" in m]
    assert len(rows) == 2 and all(0 <= r["rewards/vowels/mean"] <= 1 for r in rows)
    assert job.run.spec()["custom_code"] == VOWELS  # the run can be rebuilt and exported from its folder
    sandbox = job._own_rewards["vowels"].sandbox
    assert sandbox.pid is None and sandbox.starts == 1  # one worker for the run, stopped at its end
    assert job.snapshot()["reward_errors"] == 0


def test_failing_custom_reward_fails_the_run_with_its_line(manager, tiny_model_dir):
    job = finished(
        manager.start(
            sandboxed_spec(tiny_model_dir, [RewardChoice("broken"), RewardChoice("length")], custom_code=BROKEN)
        )
    )
    assert job.status == "failed"
    assert job.error == "Reward 'broken' raised KeyError: 'solution' (line 3)."
    assert job.run.status()["error"] == job.error


def test_none_policy_scores_none_and_counts(manager, tiny_model_dir):
    spec = sandboxed_spec(
        tiny_model_dir,
        [RewardChoice("broken"), RewardChoice("length")],
        custom_code=BROKEN,
        reward_error_policy="none",
    )
    job = finished(manager.start(spec))
    assert job.status == "finished", job.error
    assert job.reward_errors() == 2  # one generation batch per step, two steps
    status = job.run.status()
    assert status["reward_errors"] == 2 and job.snapshot()["reward_errors"] == 2
    assert status["last_reward_error"] == "Reward 'broken' raised KeyError: 'solution' (line 3)."
    rows = [m for m in job.run.metrics() if "reward" in m]
    assert len(rows) == 2 and all(r["rewards/length/mean"] < 0 for r in rows)
