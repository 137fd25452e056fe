"""The reward lab's kinds in exports: a reward model goes to TRL as its folder, a formula is carried with its terms
(same scores as in the app, in a Python without the playground), the judge is refused with its reason, and
multi_objective_aggregation reaches the recipe and the script."""

import json
import subprocess
import sys

import pytest
import yaml

from playground.errors import PlaygroundError
from playground.export import export_recipe, export_script
from playground.scoring import RewardChoice
from rewards.registry import build_reward, metric_name
from tests.export.conftest import tiny_spec
from tests.export.test_recipe import parse_recipe
from tests.export.test_script import load_script


FORMULA = {
    "expression": "max(gate(f == 1, 0.5 * a, -100), -50) + min(a, -3)",
    "terms": json.dumps({"a": {"name": "length", "params": {"ideal_length": 20}}, "f": {"name": "format"}}),
}
TEXTS = [
    "<intro>Hi.</intro><body>Sun.</body><conclusion>Bye.</conclusion>",
    "<intro>Plants</intro><body>use light to make sugar</body><conclusion>so they grow</conclusion>",
    "no tags at all, but about twenty",
    "",
]
RUNNER = """
import importlib.util, json, os, sys
# The product may be installed (pip install -e .): block the playground so the script proves it does not need it, and
# read the reward library from the export's copy.
sys.modules["playground"] = None
sys.path.insert(0, os.path.dirname(sys.argv[1]))
spec = importlib.util.spec_from_file_location("train_grpo", sys.argv[1])
script = importlib.util.module_from_spec(spec)
spec.loader.exec_module(script)
texts = json.loads(sys.argv[2])
print(json.dumps([script.reward_formula.__name__, script.reward_formula(texts), script.REWARD_WEIGHTS]))
"""


@pytest.mark.slow
def test_script_formula_scores_as_in_the_app_without_the_playground(tiny_model_dir, tmp_path):
    spec = tiny_spec(tiny_model_dir)
    spec.rewards = [RewardChoice("formula", 2.0, FORMULA)]
    folder = export_script(spec, tmp_path / "script")
    source = (folder / "train_grpo.py").read_text()
    assert 'reward_formula = build_reward(\n    "formula",' in source and "class _FormulaReward" not in source
    library = (folder / "rewards" / "formula.py").read_text()  # the library's formula, copied as it is
    assert "eval(" not in library.replace("def evaluate(", "").replace("evaluate(", "")  # the AST walker, never eval
    proc = subprocess.run(
        [sys.executable, "-I", "-c", RUNNER, str(folder / "train_grpo.py"), json.dumps(TEXTS)],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    name, values, weights = json.loads(proc.stdout.strip().splitlines()[-1])
    app = build_reward("formula", FORMULA)
    assert name == metric_name("formula", FORMULA) == app.__name__ and weights == [2.0]
    assert values == app(TEXTS)
    # By hand: a = length(ideal 20) = -|len - 20| over lengths 64, 94, 32, 0 = -44, -74, -12, -20; f = format is 1
    # for the first two texts only: max(0.5 * a, -50) + a, then max(-100, -50) + min(a, -3).
    assert values == [-22 - 44, -37 - 74, -50 - 12, -50 - 20]


def test_judge_is_refused_with_its_reason(tiny_model_dir, tmp_path):
    spec = tiny_spec(tiny_model_dir)
    spec.rewards.append(RewardChoice("judge"))
    with pytest.raises(PlaygroundError, match="'judge' reward cannot be exported.*model loader"):
        export_script(spec, tmp_path / "script")
    assert not (tmp_path / "script").exists()


def test_recipe_and_script_hand_trl_the_reward_model_folder_and_the_aggregation(tiny_model_dir, tmp_path):
    from datasets import Dataset
    from transformers import PreTrainedModel
    from trl import GRPOConfig, GRPOTrainer

    from tests.support.tiny_models import save_tiny_model

    rm = save_tiny_model(tmp_path / "my-rm", classifier=True)
    spec = tiny_spec(tiny_model_dir, multi_objective_aggregation="normalize_then_sum")
    spec.rewards = [
        RewardChoice("length", 1.0, {"ideal_length": 5}),
        RewardChoice("reward_model", 0.5, {"model": str(rm)}),
    ]

    recipe = export_recipe(spec, tmp_path / "recipe")
    text = (recipe / "recipe.yaml").read_text()
    assert yaml.safe_load(text)["multi_objective_aggregation"] == "normalize_then_sum"
    assert "rewards/length(ideal_length=5)/mean, rewards/my-rm/mean" in text  # TRL names a reward model by its folder
    script_args, training, _, _ = parse_recipe(recipe)
    assert training.multi_objective_aggregation == "normalize_then_sum" and training.reward_weights == [1.0, 0.5]
    assert script_args.reward_funcs == ["rewards_module.reward_length", "rewards_module.reward_reward_model"]
    module = load_script(recipe / "rewards_module.py")  # `trl grpo` imports the dotted path: a string, TRL loads it
    assert module.reward_reward_model == str(rm)

    folder = export_script(spec, tmp_path / "script")
    script = load_script(folder / "train_grpo.py")
    assert script.TRAINING["multi_objective_aggregation"] == "normalize_then_sum"
    assert script.REWARD_FUNCS[1] == str(rm) and script.REWARD_WEIGHTS == [1.0, 0.5]
    trainer = GRPOTrainer(  # as the script builds it (without training): TRL loads the classifier from the folder
        model=str(tiny_model_dir),
        reward_funcs=script.REWARD_FUNCS,
        args=GRPOConfig(output_dir=str(tmp_path / "out"), use_cpu=True, bf16=False, report_to=[], **script.TRAINING),
        train_dataset=Dataset.from_dict({"prompt": ["Say hi."]}),
    )
    assert isinstance(trainer.reward_funcs[1], PreTrainedModel)
    assert trainer.reward_func_names == ["length(ideal_length=5)", "my-rm"]
