"""The model card records the rewards with their code, the spec (the base model by its Hub id), every held-out eval
point, the warm-up and completion prefix with a usage snippet that applies the prefix, and a before/after sample."""

import json
import re
import shutil

import pytest
from huggingface_hub import ModelCard

from playground.export.model_card import build_model_card
from playground.scoring import LOCAL, RewardChoice, build_rewards, score_group
from playground.spec import RunSpec
from playground.training.compare import Comparison, PromptComparison
from playground.training.run_queue import JobManager
from playground.training.store import Run, RunStore
from tests.export.conftest import tiny_spec


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
    funcs, weights = build_rewards([RewardChoice("length", 1.0, {"ideal_length": 5})], executor=LOCAL)
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


def test_embedded_model_is_named_by_its_hub_id_in_the_spec(trained_run, tmp_path):
    run = Run(shutil.copytree(trained_run.path, tmp_path / "run"))
    spec = run.spec()
    spec["model"]["model_name_or_path"] = "embedded"
    (run.path / "spec.json").write_text(json.dumps(spec))
    card = build_model_card(run, "alice/smol-grpo")
    assert _json_block(card)["model"]["model_name_or_path"] == "HuggingFaceTB/SmolLM2-135M-Instruct"
    assert '"embedded"' not in card
    assert "embedded copy of HuggingFaceTB/SmolLM2-135M-Instruct" in card
    assert 'AutoModelForCausalLM.from_pretrained("HuggingFaceTB/SmolLM2-135M-Instruct")' in card


@pytest.fixture(scope="module")
def cold_start_run(tmp_path_factory, tiny_model_dir):
    """A real 2-step run with a 2-step SFT warm-up on 4 examples, the completion prefix `<intro>` and an eval at
    every step (base, after the warm-up, steps 1 and 2)."""
    folder = tmp_path_factory.mktemp("cold")
    examples = folder / "examples.jsonl"
    rows = [{"prompt": f"Say {w}", "completion": f"<intro>{w}</intro><body>b</body>"} for w in "abcd"]
    examples.write_text("".join(json.dumps(r) + "\n" for r in rows))
    spec = tiny_spec(
        tiny_model_dir,
        sft_warmup_steps=2,
        sft_examples=str(examples),
        completion_prefix="<intro>",
        eval_every=1,
        eval_prompts=2,
        eval_num_generations=2,
    )
    job = JobManager(RunStore(folder / "runs")).start(spec)
    job.join(300)
    assert job.status == "finished", job.error
    return job.run


def test_card_lists_every_eval_point_the_warmup_and_the_prefix(cold_start_run):
    card = build_model_card(cold_start_run, "alice/tiny-cold")
    evals = [m for m in cold_start_run.metrics() if m.get("phase") == "eval"]
    assert [(m["eval_of"], m["step"]) for m in evals] == [("base", 0), ("warmup", 0), ("grpo", 1), ("grpo", 2)]
    section = card.split("## Held-out evals")[1].split("##")[0]
    models = ["before training (base model)", "after the SFT warm-up", "after GRPO step 1", "after GRPO step 2"]
    for model, m in zip(models, evals, strict=True):
        assert f"| {model} | {m['step']} | {m['eval_reward']:.4g} |" in section
    assert "| Model | Step | `eval_reward` | `eval_rewards/length(ideal_length=5)/mean` |" in section
    cold = card.split("## Cold start")[1].split("##")[0]
    assert "2 steps on 4 examples from the file" in cold and "learning rate 0.0005" in cold
    assert "**Completion prefix** `<intro>`" in cold
    assert 'prefix = "<intro>"' in card and "add_generation_prompt=True) + prefix" in card


def test_card_usage_snippet_loads_the_adapter_and_answers_after_the_prefix(cold_start_run, capsys):
    """The card's code, run as written (the repo id pointing at the run's adapter folder): the answer starts with the
    completion prefix."""
    adapter = cold_start_run.path / "adapter"
    card = build_model_card(cold_start_run, str(adapter))
    code = card.split("## How to use")[1].split("```python\n")[1].split("\n```")[0]
    exec(compile(code, "usage", "exec"), {})
    assert capsys.readouterr().out.startswith("<intro>")


def test_card_of_a_run_without_cold_start_or_evals_says_so(trained_run):
    card = build_model_card(trained_run, "alice/tiny-grpo")
    assert "None: GRPO started from the base model, with no warm-up or completion prefix." in card
    assert "No held-out eval was run (`eval_every` 0)." in card
    assert 'prefix = ""' in card and "the completion prefix the run trained with" not in card
