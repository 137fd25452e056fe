"""GPU check: the playground's training job against a bare `GRPOTrainer` on a CUDA device, in bf16 (and 4-bit).

The model is a random-init Llama of SmolLM2-135M's shape (30 layers, hidden 576, 9 heads, 3 KV heads, vocabulary
49152), with a character-level tokenizer built here, so nothing is downloaded. The spec is the demo recipe's (the
`writing` prompts, the length reward, G=8, 64 new tokens, LoRA r=16 on all linear layers). Each contender runs in a
fresh process; prints a table and one JSON line.

    python bench/gpu_check.py --dry_run   # any machine: import what the check needs, build the model folder
    python bench/gpu_check.py --steps 5   # a CUDA machine

`bench/gpu_check.sh` wraps it with the wheels a bare GPU image lacks.
"""

from __future__ import annotations

import argparse
import importlib
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path


ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

NEEDED = ("torch", "transformers", "accelerate", "peft", "trl", "datasets", "playground.training.job", "rewards")
SMOLLM2_135M = dict(
    hidden_size=576, intermediate_size=1536, num_hidden_layers=30, num_attention_heads=9, num_key_value_heads=3
)
VOCAB = 49152
CHARS = ["<pad>", "<eos>", "<unk>"] + [chr(c) for c in range(32, 127)] + list("\n\t")


def check_imports() -> dict:
    """{"versions": {module: version}, "missing": [module: error]} for everything the check imports."""
    versions, missing = {}, {}
    for name in NEEDED:
        try:
            module = importlib.import_module(name)
            versions[name] = getattr(module, "__version__", "ok")
        except Exception as exc:  # noqa: BLE001 - a dry run reports every failure, whatever its kind
            missing[name] = f"{type(exc).__name__}: {exc}"
    try:
        import bitsandbytes

        versions["bitsandbytes"] = bitsandbytes.__version__
    except Exception as exc:  # noqa: BLE001 - optional: 4-bit is skipped without it
        missing["bitsandbytes (optional, 4-bit)"] = f"{type(exc).__name__}: {exc}"
    return {"versions": versions, "missing": missing}


def build_model(path: Path, shape: dict | None = None) -> Path:
    """Save a random-init Llama of SmolLM2-135M's shape and a character tokenizer with a chat template to `path`."""
    from tests.support.tiny_models import char_tokenizer, save_tiny_model

    template = (
        "{% for m in messages %}{{ m['role'] }}: {{ m['content'] }}\n{% endfor %}"
        "{% if add_generation_prompt %}assistant: {% endif %}"
    )
    tokenizer = char_tokenizer(CHARS, template, vocab_size=VOCAB, fuse=True)  # SmolLM2's vocabulary size
    return save_tiny_model(path, tokenizer, shape=shape or SMOLLM2_135M, max_position_embeddings=2048)


def gpu_spec(model_dir: Path, steps: int, four_bit: bool, device: str):
    from step import bench_spec

    spec = bench_spec(steps, four_bit)
    spec.set("model_name_or_path", str(model_dir))
    spec.set("device", device)
    return spec


def run_one(name: str, model_dir: Path, steps: int, four_bit: bool, device: str) -> dict:
    import torch
    from step import run_bare, run_playground, summarise

    spec = gpu_spec(model_dir, steps, four_bit, device)
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        if name == "playground":
            rows = run_playground(spec, Path(tmp))
        else:
            rows = run_bare(spec, Path(tmp), device=device)
        result = summarise("playground" if name == "playground" else "bare TRL", rows, 8)
    result["wall_s"] = round(time.perf_counter() - start, 1)
    if device == "cuda":
        result["peak_gpu_mb"] = round(torch.cuda.max_memory_allocated() / 2**20)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dry_run", action="store_true", help="import what the check needs and build the model")
    parser.add_argument("--steps", type=int, default=5)
    parser.add_argument("--only", choices=["bare", "playground"])
    parser.add_argument("--four_bit", action="store_true")
    parser.add_argument("--model_dir", type=Path)
    args = parser.parse_args()

    if args.dry_run:
        report = check_imports()
        with tempfile.TemporaryDirectory() as tmp:
            if not {k: v for k, v in report["missing"].items() if "optional" not in k}:
                tiny = dict(hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4)
                path = build_model(Path(tmp), {**tiny, "num_key_value_heads": 2})
                from transformers import AutoModelForCausalLM, AutoTokenizer

                tokenizer = AutoTokenizer.from_pretrained(path)
                model = AutoModelForCausalLM.from_pretrained(path)
                ids = tokenizer.apply_chat_template([{"role": "user", "content": "Hi"}], add_generation_prompt=True)
                report["model_ok"] = model.config.vocab_size == VOCAB and len(ids) > 0
        required_missing = [k for k in report["missing"] if "optional" not in k]
        report["ok"] = not required_missing and report.get("model_ok", False)
        print(json.dumps({"gpu_check": "dry-run", **report}))
        return 0 if report["ok"] else 1

    import torch

    device = "cuda" if torch.cuda.is_available() else "cpu"
    if args.only:
        print(json.dumps(run_one(args.only, args.model_dir, args.steps, args.four_bit, device)))
        return 0
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        model_dir = build_model(Path(tmp) / "smollm2-135m-shaped")
        modes = [False] + ([True] if "bitsandbytes" in check_imports()["versions"] and device == "cuda" else [])
        for four_bit in modes:
            for name in ("bare", "playground"):
                cmd = [sys.executable, __file__, "--only", name, "--steps", str(args.steps), "--model_dir"]
                cmd += [str(model_dir)] + ["--four_bit"] * four_bit
                out = subprocess.run(cmd, capture_output=True, text=True)
                if out.returncode:
                    print(f"{name} ({'4-bit' if four_bit else 'bf16'}) failed:\n{out.stderr[-3000:]}", file=sys.stderr)
                    continue
                result = json.loads(out.stdout.strip().splitlines()[-1])
                results.append({**result, "mode": "4-bit" if four_bit else ("bf16" if device == "cuda" else "fp32")})
    name = torch.cuda.get_device_name() if device == "cuda" else "cpu"
    print(f"\nGRPO step on {name}, SmolLM2-135M-shaped random model, G=8, 64 new tokens, steps 2..{args.steps}")
    for r in results:
        print(
            f"{r['name']:12} {r['mode']:6} {r['s_per_step']:>7} s/step  gen {r['generation_s']:>6} s  "
            f"peak GPU {r.get('peak_gpu_mb', '-')} MB"
        )
    ratios = {}
    for mode in {r["mode"] for r in results}:
        pair = {r["name"]: r["s_per_step"] for r in results if r["mode"] == mode}
        if len(pair) == 2:
            ratios[mode] = round(pair["bare TRL"] / pair["playground"], 2)
    print(json.dumps({"gpu_check": "run", "device": name, "steps": args.steps, "results": results, "ratios": ratios}))
    return 0 if results else 1


if __name__ == "__main__":
    raise SystemExit(main())
