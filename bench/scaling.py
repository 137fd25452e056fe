"""Scaling table: s/step and peak RSS of the playground's step against bare TRL as G, completion length and model
size grow. One JSON line per cell; each contender runs in a fresh process (bench/step.py --only ...).

    python bench/scaling.py                       # the whole table (hours on 2 cores)
    python bench/scaling.py --cells g4-l64 g8-l64 # some cells
    python bench/scaling.py --list                # the cell names

Cells: `g{G}-l{L}` on the embedded SmolLM2-135M for G in {4, 8, 16} and L (max_completion_length) in {64, 128, 256};
`random-135m`, `random-360m`, `random-1b` at G=8 x 64: random-init Llama models of SmolLM2-135M's, SmolLM2-360M's and
a ~1B shape (written locally with a character tokenizer, no download; the length reward scores them the same way).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path


ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

SHAPES = {
    "random-135m": dict(
        hidden_size=576, intermediate_size=1536, num_hidden_layers=30, num_attention_heads=9, num_key_value_heads=3
    ),
    "random-360m": dict(
        hidden_size=960, intermediate_size=2560, num_hidden_layers=32, num_attention_heads=15, num_key_value_heads=5
    ),
    "random-1b": dict(  # SmolLM2-1.7B's width with half its layers: about 1.0B parameters
        hidden_size=2048, intermediate_size=8192, num_hidden_layers=12, num_attention_heads=32, num_key_value_heads=32
    ),
}
GRID = [(g, length) for g in (4, 8, 16) for length in (64, 128, 256)]


def cells() -> list[str]:
    return [f"g{g}-l{length}" for g, length in GRID] + list(SHAPES)


def cell_spec(cell: str, steps: int, model_dir: str | None):
    from step import bench_spec

    spec = bench_spec(steps, four_bit=False)
    if cell in SHAPES:
        spec.set("model_name_or_path", model_dir)
        return spec, 8
    g, length = (int(part[1:]) for part in cell.split("-"))
    spec.set("num_generations", g)
    spec.set("per_device_train_batch_size", g)
    spec.set("max_completion_length", length)
    return spec, g


def run_contender(name: str, cell: str, steps: int, model_dir: str | None) -> dict:
    import resource

    from step import run_bare, run_playground, summarise

    spec, g = cell_spec(cell, steps, model_dir)
    with tempfile.TemporaryDirectory() as tmp:
        rows = run_playground(spec, Path(tmp)) if name == "playground" else run_bare(spec, Path(tmp))
    result = summarise(name, rows, g)
    result["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    return result


def run_cell(cell: str, steps: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        model_dir = None
        if cell in SHAPES:
            from gpu_check import build_model

            model_dir = str(build_model(Path(tmp) / cell, SHAPES[cell]))
        out = {"cell": cell, "steps": steps}
        for name in ("bare", "playground"):
            cmd = [sys.executable, __file__, "--only", name, "--cells", cell, "--steps", str(steps)]
            cmd += ["--model_dir", model_dir] if model_dir else []
            proc = subprocess.run(cmd, capture_output=True, text=True)
            if proc.returncode:
                out[name] = {"error": proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else "failed"}
                continue
            r = json.loads(proc.stdout.strip().splitlines()[-1])
            out[name] = {k: r[k] for k in ("s_per_step", "generation_s", "train_s", "peak_rss_mb")}
        if "s_per_step" in out.get("bare", {}) and "s_per_step" in out.get("playground", {}):
            out["speedup"] = round(out["bare"]["s_per_step"] / out["playground"]["s_per_step"], 2)
            out["rss_ratio"] = round(out["playground"]["peak_rss_mb"] / out["bare"]["peak_rss_mb"], 2)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cells", nargs="+", default=cells(), choices=cells(), metavar="CELL")
    parser.add_argument("--steps", type=int, default=3, help="steps per contender; step 1 is left out of the mean")
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--only", choices=["bare", "playground"], help=argparse.SUPPRESS)
    parser.add_argument("--model_dir", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.list:
        print("\n".join(cells()))
        return 0
    if args.only:
        print(json.dumps(run_contender(args.only, args.cells[0], args.steps, args.model_dir)))
        return 0
    for cell in args.cells:
        print(json.dumps(run_cell(cell, args.steps)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
