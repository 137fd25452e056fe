"""The exported script carries the cold start: the SFT warm-up (with the run's examples) and the completion prefix;
the `trl grpo` recipe refuses them with the field named."""

import json

import pytest

from playground.errors import SpecError
from playground.export.recipe import export_recipe, export_script
from tests.export.conftest import tiny_spec, train_exported


pytestmark = pytest.mark.slow  # each test trains the exported script in a subprocess


def test_script_runs_the_warmup_then_grpo_with_the_prefix(tmp_path, tiny_model_dir):
    examples = tmp_path / "examples.jsonl"
    rows = [
        {"prompt": f"Say {w}", "completion": f"<intro>{w}</intro><body>b</body><conclusion>c</conclusion>"}
        for w in "abcd"
    ]
    examples.write_text("".join(json.dumps(r) + "\n" for r in rows))
    spec = tiny_spec(tiny_model_dir, sft_warmup_steps=2, sft_examples=str(examples), completion_prefix="<intro>")
    folder = export_script(spec, tmp_path / "script")
    source = (folder / "train_grpo.py").read_text()
    assert 'COMPLETION_PREFIX = "<intro>"' in source
    assert 'WARMUP = {"steps": 2, "learning_rate": 0.0005, "examples": "data/warmup.jsonl"}' in source
    assert (folder / "data" / "warmup.jsonl").read_text() == examples.read_text()
    out = train_exported(folder, "train_grpo.py")
    assert (out / "warmup").is_dir()  # SFTTrainer's output folder: the warm-up ran before GRPO saved the adapter


@pytest.mark.parametrize(("field", "value"), [("sft_warmup_steps", 3), ("completion_prefix", "<think>")])
def test_recipe_refuses_cold_start_fields(tmp_path, tiny_model_dir, field, value):
    spec = tiny_spec(tiny_model_dir, **{field: value, "sft_examples": str(tmp_path / "x.jsonl")})
    with pytest.raises(SpecError) as err:
        export_recipe(spec, tmp_path / "recipe")
    assert err.value.field == field and "export as a script" in str(err.value)


def test_auto_examples_need_a_started_run(tmp_path, tiny_model_dir):
    with pytest.raises(SpecError) as err:
        export_script(tiny_spec(tiny_model_dir, sft_warmup_steps=2), tmp_path / "script")
    assert err.value.field == "sft_examples"
    assert not (tmp_path / "script").exists()
