"""Downloads: the adapter zip loads with PEFT; the merged model loads alone and equals base + adapter."""

import json
import shutil
import zipfile

import pytest

from playground.errors import PlaygroundError
from playground.export import EMBEDDED_HUB_ID, export_adapter_zip, export_merged
from playground.export.weights import copy_adapter
from playground.training.store import Run


def test_adapter_zip_holds_one_loadable_folder(trained_run, tiny_model_dir, tmp_path):
    from peft import PeftModel
    from transformers import AutoModelForCausalLM

    path = export_adapter_zip(trained_run, tmp_path)
    assert path == tmp_path / f"{trained_run.id}-adapter.zip"
    with zipfile.ZipFile(path) as zf:
        names = sorted(zf.namelist())
        zf.extractall(tmp_path / "unzipped")
    folder = f"{trained_run.id}-adapter"
    assert f"{folder}/adapter_config.json" in names and f"{folder}/adapter_model.safetensors" in names
    config = json.loads((tmp_path / "unzipped" / folder / "adapter_config.json").read_text())
    assert config["base_model_name_or_path"] == str(tiny_model_dir)  # a local model stays local
    model = PeftModel.from_pretrained(
        AutoModelForCausalLM.from_pretrained(tiny_model_dir), tmp_path / "unzipped" / folder
    )
    assert model.peft_config["default"].r == 16
    assert export_adapter_zip(trained_run, tmp_path / "named.zip") == tmp_path / "named.zip"


def test_adapter_of_the_embedded_model_names_its_hub_id(trained_run, tmp_path):
    run = Run(shutil.copytree(trained_run.path, tmp_path / "run"))
    spec = run.spec()
    spec["model"]["model_name_or_path"] = "embedded"
    (run.path / "spec.json").write_text(json.dumps(spec))
    out = copy_adapter(run, tmp_path / "adapter")
    assert json.loads((out / "adapter_config.json").read_text())["base_model_name_or_path"] == EMBEDDED_HUB_ID
    # The run's own adapter is untouched.
    original = json.loads((run.adapter_dir / "adapter_config.json").read_text())
    assert original["base_model_name_or_path"] != EMBEDDED_HUB_ID


def test_merged_model_loads_alone_and_equals_base_plus_adapter(trained_run, tiny_model_dir, tmp_path):
    import torch
    from peft import PeftModel
    from transformers import AutoModelForCausalLM, AutoTokenizer

    out = export_merged(trained_run, tmp_path / "merged")
    assert (out / "model.safetensors").is_file() and not (out / "adapter_config.json").exists()
    merged = AutoModelForCausalLM.from_pretrained(out)
    tokenizer = AutoTokenizer.from_pretrained(out)
    base = AutoModelForCausalLM.from_pretrained(tiny_model_dir, dtype=torch.float32)
    with torch.no_grad():
        ids = tokenizer("Write a short poem about rain.", return_tensors="pt").input_ids
        base_logits = base(ids).logits
        peft_logits = PeftModel.from_pretrained(base, trained_run.adapter_dir)(ids).logits
        merged_logits = merged(ids).logits
        generated = merged.generate(ids, max_new_tokens=4, do_sample=False, pad_token_id=tokenizer.eos_token_id)
    assert torch.allclose(merged_logits, peft_logits, atol=1e-5)
    assert (merged_logits - base_logits).abs().max() > 1e-3  # the adapter changed the model
    assert generated.shape == (1, ids.shape[1] + 4)


def test_downloads_need_an_adapter_and_a_new_folder(trained_run, tmp_path):
    bare = Run(tmp_path / "bare")
    bare.path.mkdir()
    (bare.path / "spec.json").write_text(json.dumps(trained_run.spec()))
    with pytest.raises(PlaygroundError, match="has no saved adapter yet"):
        export_adapter_zip(bare, tmp_path / "a.zip")
    with pytest.raises(PlaygroundError, match="has no saved adapter yet"):
        export_merged(bare, tmp_path / "merged")
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("x")
    with pytest.raises(PlaygroundError, match="not empty"):
        export_merged(trained_run, tmp_path / "full")
