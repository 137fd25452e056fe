"""bench/gpu_check.sh's dry run: on a CPU machine it finds and imports all the GPU check needs and builds its model."""

import json
import subprocess
from pathlib import Path

import pytest


ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_gpu_check_dry_run_finds_what_it_needs():
    out = subprocess.run(
        ["bash", "bench/gpu_check.sh", "--dry_run"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr[-2000:]
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert report["gpu_check"] == "dry-run"
    assert report["ok"] is True and report["model_ok"] is True
    assert {"torch", "transformers", "trl", "peft", "datasets", "playground.training.job"} <= set(report["versions"])
    assert not [name for name in report["missing"] if "optional" not in name]


def test_gpu_check_model_has_smollm2_135m_shape(tmp_path):
    import sys

    sys.path.insert(0, str(ROOT / "bench"))
    from gpu_check import SMOLLM2_135M, VOCAB, build_model
    from transformers import AutoConfig, AutoTokenizer

    tiny = {**SMOLLM2_135M, "num_hidden_layers": 1}  # one layer: the same widths, a tenth of the disk
    path = build_model(tmp_path, tiny)
    config = AutoConfig.from_pretrained(path)
    assert (config.hidden_size, config.intermediate_size, config.num_attention_heads) == (576, 1536, 9)
    assert (config.num_key_value_heads, config.vocab_size) == (3, VOCAB)
    tokenizer = AutoTokenizer.from_pretrained(path)
    text = "Write a haiku."
    assert tokenizer.decode(tokenizer(text)["input_ids"]) == text
    assert tokenizer.apply_chat_template([{"role": "user", "content": "Hi"}], tokenize=False).startswith("user: Hi")
