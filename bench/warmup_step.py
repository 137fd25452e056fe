"""The SFT warm-up's step on this CPU: TRL's `SFTTrainer` as it comes, against the playground's CPU settings.

The embedded SmolLM2-135M with LoRA r=16 on all linear layers, 16 examples of the format lesson's shape (a chat prompt,
an answer in the article's three tags), batch 4, completion-only loss, 8 steps; each setting in a fresh process:

- `trl`: `SFTTrainer.train()` as it comes (TRL's fused LM head projects every position, in 32,768-column tiles);
- `allocator`: under the playground's allocator settings (`playground/fastpath/allocator.py`);
- `tiles`: also TRL's fused head on completion positions only, in 2,048-column tiles, with TRL's own tile fold;
- `playground`: also the in-place tile fold of `playground/fastpath/lm_head.py` (what the warm-up runs).

    python bench/warmup_step.py          # the table and one JSON line
    python bench/warmup_step.py --json   # the JSON line only
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from contextlib import nullcontext
from pathlib import Path


ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from bench.common import cpu_name  # noqa: E402


SETTINGS = ("trl", "allocator", "tiles", "playground")
STEPS = 8
ANSWER = (
    "<intro>Pets bring joy to many homes every day.</intro>\n<body>They offer company, comfort and a reason to walk "
    "outside, and caring for them teaches patience.</body>\n<conclusion>That is why so many people keep a pet."
    "</conclusion>"
)


def run(setting: str) -> dict:
    import tempfile

    import torch
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from trl import SFTConfig, SFTTrainer

    from playground.fastpath.allocator import training_allocator
    from playground.fastpath.lm_head import cpu_lm_head
    from playground.models import ensure_embedded_model
    from playground.training.warmup import SFT_BATCH_SIZE, sft_dataset

    path = ensure_embedded_model()
    tokenizer = AutoTokenizer.from_pretrained(path)
    examples = [
        {
            "prompt": [{"role": "user", "content": f"Why do people keep pets? Answer {i} in three tags."}],
            "completion": ANSWER,
        }
        for i in range(16)
    ]
    torch.manual_seed(0)
    lora = LoraConfig(r=16, lora_alpha=32, target_modules="all-linear", task_type="CAUSAL_LM")
    model = get_peft_model(AutoModelForCausalLM.from_pretrained(path, dtype=torch.float32), lora)
    with tempfile.TemporaryDirectory() as out:
        args = SFTConfig(
            output_dir=out,
            max_steps=STEPS,
            learning_rate=5e-4,
            per_device_train_batch_size=SFT_BATCH_SIZE,
            logging_steps=1,
            save_strategy="no",
            report_to=[],
            seed=0,
            use_cpu=True,
            disable_tqdm=True,
            gradient_checkpointing=False,
            max_length=None,
            completion_only_loss=True,
        )
        trainer = SFTTrainer(
            model=model, args=args, train_dataset=sft_dataset(examples, tokenizer), processing_class=tokenizer
        )
        allocator = training_allocator() if setting != "trl" else nullcontext()
        head = cpu_lm_head(lean_tiles=setting == "playground") if setting in ("tiles", "playground") else nullcontext()
        start = time.perf_counter()
        with allocator, head:
            trainer.train()
        seconds = time.perf_counter() - start
    losses = [round(h["loss"], 4) for h in trainer.state.log_history if "loss" in h]
    return {
        "setting": setting,
        "s_per_step": round(seconds / STEPS, 3),
        "first_loss": losses[0],
        "last_loss": losses[-1],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", action="store_true", help="print the JSON line only")
    parser.add_argument("--only", choices=SETTINGS, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.only:
        print(json.dumps(run(args.only)))
        return
    rows = []
    for setting in SETTINGS:  # each in a fresh process: the allocator and the head are process-wide
        out = subprocess.run([sys.executable, __file__, "--only", setting], capture_output=True, text=True)
        if out.returncode:
            raise SystemExit(f"{setting} failed:\n{out.stderr[-3000:]}")
        rows.append(json.loads(out.stdout.strip().splitlines()[-1]))
    base = rows[0]["s_per_step"]
    result = {"bench": "warmup_step", "cpu": cpu_name(), "cores": os.cpu_count(), "steps": STEPS, "rows": rows}
    result["speedup"] = round(base / rows[-1]["s_per_step"], 2)
    if not args.json:
        print(f"SFT warm-up step, SmolLM2-135M, LoRA r=16, batch 4, {cpu_name()}")
        print("| setting | s/step | loss, step 1 -> 8 |\n| --- | --- | --- |")
        for row in rows:
            print(f"| {row['setting']} | {row['s_per_step']} | {row['first_loss']} -> {row['last_loss']} |")
        print(f"speed-up: {result['speedup']}x")
    print(json.dumps(result))


if __name__ == "__main__":
    import playground

    playground.bootstrap()  # an entry point: the settings, the reward library's host, the code_tests runner
    main()
