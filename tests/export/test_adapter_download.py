"""The adapter download is portable: its config names the embedded model's Hub id, not the server's cache
folder; its README is the model card of a Hub push; and it loads with PEFT onto the base found from that id."""

import json
import zipfile

import pytest

from playground.export import EMBEDDED_HUB_ID, export_adapter_zip
from playground.spec import demo_spec
from playground.training.store import RunStore


@pytest.fixture(scope="module")
def embedded_run(tmp_path_factory, embedded_dir):
    """A run of the embedded model whose adapter is a real (untrained) PEFT LoRA adapter of it."""
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM

    spec = demo_spec()
    spec.model.model_name_or_path = "embedded"
    run = RunStore(tmp_path_factory.mktemp("runs")).create(spec.to_dict())
    model = get_peft_model(
        AutoModelForCausalLM.from_pretrained(embedded_dir), LoraConfig(r=4, target_modules=["q_proj", "v_proj"])
    )
    model.save_pretrained(run.adapter_dir)
    return run


def test_the_adapter_zip_names_the_hub_id_carries_a_card_and_loads(embedded_run, embedded_dir, tmp_path):
    from peft import PeftModel
    from transformers import AutoModelForCausalLM

    with zipfile.ZipFile(export_adapter_zip(embedded_run, tmp_path)) as zf:
        zf.extractall(tmp_path / "unzipped")
    folder = tmp_path / "unzipped" / f"{embedded_run.id}-adapter"
    config = json.loads((folder / "adapter_config.json").read_text())
    assert config["base_model_name_or_path"] == EMBEDDED_HUB_ID == "HuggingFaceTB/SmolLM2-135M-Instruct"
    card = (folder / "README.md").read_text()
    assert f"base_model: {EMBEDDED_HUB_ID}" in card and "library_name: peft" in card
    assert "length" in card and f'PeftModel.from_pretrained(base, "./{folder.name}")' in card
    # Offline, the Hub id maps to the local copy of the same model.
    local = {EMBEDDED_HUB_ID: str(embedded_dir)}[config["base_model_name_or_path"]]
    model = PeftModel.from_pretrained(AutoModelForCausalLM.from_pretrained(local), folder)
    assert model.peft_config["default"].r == 4
    assert sorted(model.peft_config["default"].target_modules) == ["q_proj", "v_proj"]
