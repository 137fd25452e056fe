"""How far the int8 sampler is from the policy it samples for: the per-token log-prob gap and the per-completion
importance-sampling ratio, with each group of linears in int8 alone, all of them, and the bf16 copy for comparison.

The embedded SmolLM2-135M with a fresh LoRA adapter (the policy at step 0), one writing prompt, 8 completions of 64
new tokens at temperature 1 (seed 0), sampled by the rollout copy's lean sampler with its log-probs; the policy's fp32
log-probs of the same tokens are the reference. TRL's correction (`vllm_importance_sampling_mode=sequence_mask`)
weights a completion's loss by exp(sum of its per-token gaps): a ratio near 0 takes the completion out of the loss.

    python bench/int8_gap.py
"""

from __future__ import annotations

import json
import os
import sys
import warnings
from pathlib import Path


sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

GROUPS = ("qkv", "o", "gate_up", "down", "lm_head")


def main() -> None:
    import torch
    from peft import LoraConfig, get_peft_model
    from transformers import GenerationConfig

    from playground.fastpath.packing import Int8Linear, cpu_model_name
    from playground.fastpath.trainer import RolloutModel
    from playground.models import ensure_embedded_model, load_model

    warnings.filterwarnings("ignore")
    model, tok = load_model(str(ensure_embedded_model()))
    model = get_peft_model(model, LoraConfig(r=16, target_modules="all-linear", task_type="CAUSAL_LM")).eval()
    chat = [{"role": "user", "content": "Write a short paragraph about why walking every day is good for you."}]
    text = tok.apply_chat_template(chat, add_generation_prompt=True, tokenize=False)
    prompt = torch.tensor(tok(text, add_special_tokens=False)["input_ids"])
    config = GenerationConfig(
        do_sample=True, temperature=1.0, top_p=1.0, top_k=0, max_new_tokens=64,
        eos_token_id=tok.eos_token_id, pad_token_id=tok.pad_token_id,
    )  # fmt: skip

    def measure(label: str, rollout: RolloutModel) -> dict:
        torch.manual_seed(0)
        ids, sampler = rollout.decoder.generate(prompt, 8, config, with_logps=True)
        new = sampler.size(1)
        with torch.no_grad():
            logits = model(ids).logits[:, -new - 1 : -1].float()
        policy = logits.log_softmax(-1).gather(2, ids[:, -new:, None])[..., 0]
        eos = (ids[:, -new:] == tok.eos_token_id).int()
        mask = (eos.cumsum(1) - eos) == 0  # up to and including the first EOS, as TRL masks
        gap = (policy - sampler)[mask]
        ratio = ((policy - sampler) * mask).sum(1).exp()
        row = {
            "sampler": label,
            "tokens": int(mask.sum()),
            "mean_abs_gap": round(gap.abs().mean().item(), 4),
            "max_abs_gap": round(gap.abs().max().item(), 3),
            "sequence_ratios": [round(r, 2) for r in ratio.tolist()],
        }
        print(json.dumps(row), flush=True)
        return row

    rows = [measure("bf16", RolloutModel(model, torch.bfloat16, lean=True))]
    for groups in [set(GROUPS), *({g} for g in GROUPS)]:
        rollout = RolloutModel(model, torch.float32, lean=True)
        for key, members in rollout.decoder.groups.items():
            if (key if key == "lm_head" else key[1]) in groups:
                weight = torch.cat([rollout.merged_weight(name) for name in members])
                rollout.decoder.packs[key] = Int8Linear(weight, None)
        label = "int8: all" if len(groups) > 1 else f"int8: {next(iter(groups))} only"
        rows.append(measure(label, rollout))
    print(json.dumps({"bench": "int8_gap", "cpu": cpu_model_name(), "rows": rows}))


if __name__ == "__main__":
    import playground

    playground.bootstrap()
    main()
