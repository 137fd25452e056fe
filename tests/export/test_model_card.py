"""The model card records the rewards with their code, the spec, the final metrics and a before/after sample."""

import json
import re
import shutil

from huggingface_hub import ModelCard

from playground.export.model_card import build_model_card
from playground.scoring import RewardChoice, build_rewards, score_group
from playground.spec import RunSpec
from playground.training.compare import Comparison, PromptComparison
from playground.training.store import Run


def _json_block(card: str) -> dict:
    return json.loads(re.search(r"```json\n(.*?)\n```", card, re.S).group(1))


def test_adapter_card_of_a_run(trained_run):
    card = build_model_card(trained_run, "alice/tiny-grpo")
    data = ModelCard(card).data
    assert data.library_name == "peft" and data.pipeline_tag == "text-generation"
    assert {"trl", "grpo", "lora", "peft"} <= set(data.tags)
    assert data.base_model is None  # a local folder is not a Hub id
    assert card.splitlines()[card.splitlines().index("---", 1) + 2] == "# tiny-grpo"

    # Rewards: names, weights, parameters, and the library code itself.
    assert "| `length(ideal_length=5)` | 1 | `ideal_length=5` |" in card
    assert "| `format` | 0.5 | defaults |" in card
    assert "def get_length_reward(ideal_length: int = 100):" in card and "class _LengthReward:" in card
    assert "def format_reward(completions" in card

    # The spec, as JSON, is the run's spec.
    assert _json_block(card) == RunSpec.from_dict(trained_run.spec()).to_dict()

    # Final metrics: first and last logged step.
    rows = [m for m in trained_run.metrics() if "reward" in m]
    assert "| Metric | Step 1 | Step 2 |" in card
    assert f"| `reward` | {rows[0]['reward']:.4g} | {rows[1]['reward']:.4g} |" in card
    assert "| `rewards/length(ideal_length=5)/mean` |" in card

    # No comparison given: the last step's samples.
    last = trained_run.samples(last_step_only=True)
    assert "Completions from the last logged training step (2):" in card
    first_text = " ".join(last[0]["completion"].split()).replace("|", "\\|").replace("<", "&lt;")
    assert first_text[:40] in card
    assert 'PeftModel.from_pretrained(base, "alice/tiny-grpo")' in card


def test_merged_card_of_the_embedded_model_with_a_comparison(trained_run, tmp_path):
    run = Run(shutil.copytree(trained_run.path, tmp_path / "run"))
    spec = run.spec()
    spec["model"]["model_name_or_path"] = "embedded"
    (run.path / "spec.json").write_text(json.dumps(spec))
    funcs, weights = build_rewards([RewardChoice("length", 1.0, {"ideal_length": 5})])
    before = score_group(["A very long answer indeed.", "Long answer."], funcs, weights)
    after = score_group(["Short", "Tiny!!"], funcs, weights)
    comparison = Comparison(run.id, [PromptComparison("Say something | short", 0, before, after)])

    card = build_model_card(run, "alice/smol-grpo", kind="merged", comparison=comparison)
    data = ModelCard(card).data
    assert data.base_model == "HuggingFaceTB/SmolLM2-135M-Instruct" and data.library_name == "transformers"
    assert "[HuggingFaceTB/SmolLM2-135M-Instruct](https://huggingface.co/HuggingFaceTB/SmolLM2-135M-Instruct)" in card
    assert f"mean reward change **{comparison.mean_delta:+.4g}**" in card and comparison.mean_delta == 13.5
    assert "| Say something \\| short | A very long answer indeed. (reward -21" in card
    assert "| Short (reward 0, group mean -0.5) |" in card
    assert 'AutoModelForCausalLM.from_pretrained("alice/smol-grpo")' in card


def test_custom_code_is_recorded(trained_run, tmp_path):
    run = Run(shutil.copytree(trained_run.path, tmp_path / "run"))
    spec = run.spec()
    spec["custom_code"] = "def shout(completions, **kwargs):\n    return [float('```' in c) for c in completions]\n"
    spec["rewards"].append({"name": "shout", "weight": 0.5, "params": {}})
    (run.path / "spec.json").write_text(json.dumps(spec))
    card = build_model_card(run, "alice/tiny-grpo")
    assert "| `shout` | 0.5 |  | custom function (code below) |" in card
    # A fence longer than the ``` inside the code keeps the block whole.
    assert "### Custom reward code\n\n````python\ndef shout(completions, **kwargs):\n" in card
    assert "for c in completions]\n````" in card
