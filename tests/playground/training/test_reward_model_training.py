"""A reward model trains as TRL takes it (its folder in `reward_funcs`), beside a callable, under normalize_then_sum.

One real GRPO step on the tiny model: TRL loads the classifier itself, the logged `rewards/<name>/mean` and the
samples' values are the classifier's own logits on prompt + completion, and the advantages are TRL's
normalize_then_sum ones.
"""

import pytest
import torch
from transformers import PreTrainedModel

from playground.advantages import compute_advantages
from playground.errors import RewardError
from playground.scoring import LOCAL, RewardChoice, build_rewards
from playground.training.job import TrainingJob, trl_reward_model
from playground.training.store import RunStore
from rewards.model import get_reward_model_reward
from rewards.registry import metric_name
from tests.support.tiny_models import save_tiny_model, tiny_spec


def test_trl_reward_model_is_the_folder_for_a_reward_model_only(tmp_path):
    funcs, _ = build_rewards(
        [RewardChoice("reward_model", 1.0, {"model": "/some/rm"}), RewardChoice("length")], executor=LOCAL
    )
    assert [trl_reward_model(f) for f in funcs] == ["/some/rm", None]
    (empty,), _ = build_rewards([RewardChoice("reward_model")], executor=LOCAL)
    with pytest.raises(RewardError, match="needs a model"):
        trl_reward_model(empty)


def test_one_step_with_a_reward_model_logs_the_classifiers_values(tiny_model_dir, embedded_dir, tmp_path):
    folder = str(save_tiny_model(tmp_path / "rm", classifier=True))
    rewards = [RewardChoice("reward_model", 1.0, {"model": folder}), RewardChoice("length", 0.5, {"ideal_length": 5})]
    spec = tiny_spec(
        tiny_model_dir,
        rewards,
        device="cpu",
        max_steps=1,
        per_device_train_batch_size=8,  # two prompts of four completions: the batch-level step of normalize_then_sum
        max_completion_length=8,
        multi_objective_aggregation="normalize_then_sum",
    )
    rm_name, length_name = metric_name("reward_model", {"model": folder}), "length(ideal_length=5)"
    job = TrainingJob(spec, RunStore(tmp_path / "runs").create(spec.to_dict()))
    trainer = job._build_trainer()
    # TRL loaded the classifier from the folder (not our callable); the callable reward is guarded as before.
    assert isinstance(trainer.reward_funcs[0], PreTrainedModel) and callable(trainer.reward_funcs[1])
    assert trainer.reward_func_names == [rm_name, length_name] and len(job.guarded) == 1
    assert trainer.args.multi_objective_aggregation == "normalize_then_sum"
    trainer.train()

    (row,) = [m for m in job.run.metrics() if "reward" in m]
    samples = job.run.samples()
    assert len(samples) == 8
    prompts = [[{"role": "user", "content": s["prompt"]}] for s in samples]  # the tiny model has a chat template
    completions = [[{"role": "assistant", "content": s["completion"]}] for s in samples]
    expected = get_reward_model_reward(folder)(completions, prompts=prompts)
    logged = [s["rewards"][rm_name] for s in samples]
    assert logged == pytest.approx(expected, abs=1e-4)
    assert max(logged) - min(logged) > 1e-3  # the classifier tells the completions apart
    assert row[f"rewards/{rm_name}/mean"] == pytest.approx(sum(expected) / 8, abs=1e-4)
    assert f"rewards/{length_name}/mean" in row

    table = [[s["rewards"][rm_name], s["rewards"][length_name]] for s in samples]
    ours = compute_advantages(table, [1.0, 0.5], 4, "group", "normalize_then_sum").advantages
    assert [s["advantage"] for s in samples] == pytest.approx(ours.tolist(), abs=1e-4)
    summed = compute_advantages(table, [1.0, 0.5], 4, "group", "sum_then_normalize").advantages
    assert not torch.allclose(ours, summed, atol=1e-2)  # the aggregation mode made a difference
