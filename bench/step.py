"""GRPO step: the playground's training job against a bare `GRPOTrainer` script, twice: with TRL's defaults, and as
the fairest bare TRL a user could configure (gradient checkpointing off, as the playground has it, under the
playground's allocator settings), so that the speed-up is quoted against both.

Same spec for all (embedded SmolLM2-135M, G=8, 64 new tokens, LoRA r=16 on all linear layers, fp32; `--four_bit`
for nf4), same seed, each in a fresh process, one after the other. Prints a table and one JSON line.

    python bench/step.py --steps 5            # fp32
    python bench/step.py --steps 1 --model /path/to/tiny-model  # a smoke run of the bench itself (no figures)
    python bench/step.py --steps 5 --four_bit # QLoRA
    python bench/step.py --steps 5 --bare_allocator  # also bare TRL under the playground's allocator settings
    python bench/step.py --steps 5 --bf16_rollout    # also the playground with fast_rollout=bfloat16 (bf16 rollout
                                                     # copy under TRL's importance-sampling correction)
    python bench/step.py --steps 5 --trl_tiles       # also the playground with TRL's own LM-head tiles
    python bench/step.py --steps 5 --rollouts float32,bfloat16,int8  # the playground with each rollout copy (bf16 and
                                                     # int8 under TRL's importance-sampling correction)
    python bench/step.py --steps 5 --compile         # also the playground with transformers' torch_compile (inductor;
                                                     # not a run-spec field: the bench sets it on the job's config)

The first step (excluded from the averages) is reported as `first_step_s`: it holds one-off set-up, and with
`--compile` the compilation.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import time
from pathlib import Path


sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("HF_HUB_OFFLINE", "1")


def bench_spec(steps: int, four_bit: bool, model: str | None = None):
    from playground.spec import RunSpec

    spec = RunSpec()
    if model:
        spec.set("model_name_or_path", model)
    for name, value in dict(max_steps=steps, num_generations=8, per_device_train_batch_size=8).items():
        spec.set(name, value)
    spec.set("max_completion_length", 64)
    spec.set("lora_r", 16)
    spec.set("load_in_4bit", four_bit)
    spec.set("save_steps", 10_000)
    return spec


def run_playground(spec, out: Path) -> list[dict]:
    from playground.training.run_queue import JobManager
    from playground.training.store import RunStore

    cpu: dict[int, float] = {}
    job = JobManager(RunStore(out)).start(spec)
    job.listeners.append(lambda row: cpu.setdefault(row["step"], time.process_time()))
    job.join()
    if job.status != "finished":
        raise SystemExit(f"playground job {job.status}: {job.error}")
    return [{**m, "cpu_time": cpu.get(m["step"], 0.0)} for m in job.run.metrics() if "reward" in m]


BARE_OVERRIDES: dict = {}  # GRPOConfig fields a caller wants to differ from TRL's defaults


def bare_config(spec, out: Path, device: str = "cpu", gradient_checkpointing: bool | None = None):
    """The bare script's `GRPOConfig`: the spec's own, with TRL's default gradient checkpointing (on; the playground
    turns it off) unless `gradient_checkpointing` says otherwise, and what the device needs."""
    from trl import GRPOConfig

    settings = {"gradient_checkpointing": GRPOConfig.__dataclass_fields__["gradient_checkpointing"].default}
    settings |= BARE_OVERRIDES
    if gradient_checkpointing is not None:
        settings["gradient_checkpointing"] = gradient_checkpointing
    return spec.grpo_config(
        str(out / "bare"),
        use_cpu=device == "cpu",
        bf16=device == "cuda",  # TRL's default on a GPU; the playground trains in bf16 there too
        **settings,
    )


def run_bare(
    spec, out: Path, allocator: bool = False, device: str = "cpu", gradient_checkpointing: bool | None = None
) -> list[dict]:
    """A plain TRL script: GRPOTrainer with TRL's defaults, except what the spec sets and CPU needs.

    `allocator`: run it under the playground's glibc settings (playground/fastpath/allocator.py), to separate that
    gain. `gradient_checkpointing`: None keeps TRL's default (on); False is what the playground trains with.
    """
    from transformers import TrainerCallback
    from trl import GRPOTrainer

    from playground.data.sources import load_prompts
    from playground.scoring import LOCAL, build_rewards
    from playground.training.job import as_chat, load_training_model

    rows: list[dict] = []

    class Timed(GRPOTrainer):  # measures generation time only; behaviour is TRL's
        def _generate_single_turn(self, *args, **kwargs):
            start = time.perf_counter()
            result = super()._generate_single_turn(*args, **kwargs)
            self._metrics["train"]["timing/rollout"].append(time.perf_counter() - start)
            return result

    class Collect(TrainerCallback):
        def on_log(self, args, state, control, logs=None, **kwargs):
            if logs and "reward" in logs:
                rows.append({"step": state.global_step, **logs, "cpu_time": time.process_time()})

    args = bare_config(spec, out, device, gradient_checkpointing)
    model, tokenizer = load_training_model(spec)
    funcs, _ = build_rewards(spec.rewards, executor=LOCAL)
    trainer = Timed(
        model=model,
        reward_funcs=funcs,
        args=args,
        train_dataset=as_chat(load_prompts(spec.data).dataset, tokenizer),
        processing_class=tokenizer,
        peft_config=spec.lora_config(),
        callbacks=[Collect()],
    )
    from playground.fastpath.allocator import training_allocator

    with training_allocator(allocator):
        trainer.train()
    return rows


def summarise(name: str, rows: list[dict], g: int) -> dict:
    steps = rows[1:] if len(rows) > 1 else rows  # the first step includes one-off set-up (and the rollout copy)
    step_s = statistics.mean(r["step_time"] for r in steps)
    gen_s = statistics.mean(r.get("timing/rollout", 0.0) for r in steps)
    tokens = statistics.mean(r["completions/mean_length"] for r in steps) * g
    # CPU seconds of the whole process per step: less sensitive than wall time to other load on the machine.
    cpu = [b["cpu_time"] - a["cpu_time"] for a, b in zip(rows, rows[1:], strict=False)]
    return {
        "name": name,
        "s_per_step": round(step_s, 2),
        "cpu_s_per_step": round(statistics.mean(cpu), 2) if cpu else None,
        "generation_s": round(gen_s, 2),
        "train_s": round(step_s - gen_s, 2),
        "completions_per_s": round(g / step_s, 3),
        "tokens_per_s": round(tokens / step_s, 1),
        "first_step_s": round(rows[0]["step_time"], 2),
        "rewards": [round(r["reward"], 2) for r in rows],
        **_importance_sampling(rows),
    }


def _importance_sampling(rows: list[dict]) -> dict:
    """TRL's importance-sampling metrics averaged over the steps, where the run logged them (the bf16 rollout)."""
    names = ("sampling/importance_sampling_ratio/mean", "sampling/sampling_logp_difference/mean")
    if not all(name in rows[0] for name in names):
        return {}
    mean = {name: statistics.mean(r[name] for r in rows) for name in names}
    return {"is_ratio_mean": round(mean[names[0]], 4), "logp_difference_mean": round(mean[names[1]], 4)}


# The bare TRL rows: (allocator settings, gradient checkpointing; None is TRL's default, on).
BARE = {"bare": (False, None), "bare-allocator": (True, None), "bare-no-checkpointing": (True, False)}


def run_one(name: str, steps: int, four_bit: bool, spec=None, model: str | None = None) -> dict:
    """Run one contender in this process and return its summary (peak RSS is this process's)."""
    import tempfile

    spec = spec or bench_spec(steps, four_bit, model)
    labels = {
        "bare": "bare TRL",
        "bare-no-checkpointing": "bare ckpt off",
        "bare-allocator": "bare+alloc",
        "playground": "playground",
        "playground-bf16": "pg bf16+IS",
        "playground-bf16-train": "pg bf16 all",
        "playground-trl-tiles": "pg TRL tiles",
        "playground-int8": "pg int8+IS",
        "playground-compile": "pg compile",
    }
    if name == "playground-int8":
        spec.set("fast_rollout", "int8")  # always under TRL's correction (validation refuses it without)
    if name == "playground-compile":  # transformers' field: accelerate compiles the policy (inductor on CPU)
        from playground.spec import RunSpec

        config = RunSpec.grpo_config
        RunSpec.grpo_config = lambda self, output_dir, **kw: config(self, output_dir, **{"torch_compile": True, **kw})
    if name.startswith("playground-bf16"):
        spec.set("fast_rollout", "bfloat16")  # TRL's correction is on by default (vllm_importance_sampling_*)
    if name == "playground-bf16-train":
        spec.set("bf16", True)  # the training forward and backward in bf16 autocast, LoRA weights fp32
    with tempfile.TemporaryDirectory() as tmp:
        if name.startswith("playground"):
            rows = run_playground(spec, Path(tmp))
        else:
            allocator, checkpointing = BARE[name]
            rows = run_bare(spec, Path(tmp), allocator=allocator, gradient_checkpointing=checkpointing)
        result = summarise(labels[name], rows, 8)
    result["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    return result


def main() -> None:
    import subprocess

    import torch

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=5)
    parser.add_argument("--four_bit", action="store_true")
    parser.add_argument("--bare_allocator", action="store_true", help="also run bare TRL with the allocator settings")
    parser.add_argument("--bf16_rollout", action="store_true", help="also run the playground with a bf16 rollout")
    parser.add_argument("--bf16", action="store_true", help="also run the playground in bf16 (training and rollout)")
    parser.add_argument(
        "--trl_tiles", action="store_true", help="also run the playground with TRL's own LM-head tiles (fp32)"
    )
    parser.add_argument(
        "--reference",
        choices=("packed", "policy"),
        default="policy",
        help="the playground's reference pass: its packed copy of the base, or the policy with the adapter disabled",
    )
    parser.add_argument("--model", help="the model (default: the embedded one); a tiny one smoke-tests the bench")
    contenders = [*BARE, "playground", "playground-bf16", "playground-bf16-train"]
    contenders += ["playground-trl-tiles", "playground-int8", "playground-compile"]
    parser.add_argument(
        "--rollouts",
        default="float32",
        help="comma-separated fast_rollout choices for the playground rows: float32 (always run), bfloat16, int8",
    )
    parser.add_argument("--compile", action="store_true", help="also run the playground with torch_compile")
    parser.add_argument("--only", choices=contenders, help="run one contender, print its JSON")
    args = parser.parse_args()
    from playground.fastpath.trainer import FastGRPOTrainer

    FastGRPOTrainer.pack_reference = args.reference == "packed"
    FastGRPOTrainer.lean_lm_head = args.only != "playground-trl-tiles"
    if args.only:
        print(json.dumps(run_one(args.only, args.steps, args.four_bit, model=args.model)))
        return
    from playground.fastpath.packing import cpu_has_native_bf16, cpu_model_name

    if args.bf16 and not cpu_has_native_bf16():
        print("This CPU has no native bf16 (AVX512-BF16 or AMX): --bf16 is left out, fp32 only.", file=sys.stderr)
        args.bf16 = False
    rollouts = {r.strip() for r in args.rollouts.split(",") if r.strip()}
    unknown = rollouts - {"float32", "bfloat16", "int8"}
    if unknown:
        raise SystemExit(f"--rollouts: unknown choice(s) {sorted(unknown)}")
    args.bf16_rollout = args.bf16_rollout or "bfloat16" in rollouts
    results = []
    names = (
        ["bare", "bare-no-checkpointing"]
        + ["bare-allocator"] * args.bare_allocator
        + ["playground"]
        + ["playground-trl-tiles"] * args.trl_tiles
        + ["playground-bf16"] * args.bf16_rollout
        + ["playground-int8"] * ("int8" in rollouts)
        + ["playground-bf16-train"] * args.bf16
        + ["playground-compile"] * args.compile
    )
    for name in names:  # each in a fresh process, so peak RSS and warm-up are its own
        cmd = [sys.executable, __file__, "--only", name, "--steps", str(args.steps), "--reference", args.reference]
        cmd += ["--four_bit"] * args.four_bit + (["--model", args.model] if args.model else [])
        out = subprocess.run(cmd, capture_output=True, text=True)
        if out.returncode:
            raise SystemExit(f"{name} failed:\n{out.stderr[-3000:]}")
        results.append(json.loads(out.stdout.strip().splitlines()[-1]))
    print(
        f"\nGRPO step, {args.model or 'SmolLM2-135M'}, G=8, 64 new tokens, LoRA r=16, "
        f"{'4-bit nf4' if args.four_bit else 'fp32'}, {torch.get_num_threads()} threads, "
        f"steps 2..{args.steps} averaged, {cpu_model_name()}"
    )
    header = ("s/step", "cpu s", "gen s", "train s", "compl/s", "tok/s", "peak RSS MB", "step 1 s")
    keys = (
        "s_per_step",
        "cpu_s_per_step",
        "generation_s",
        "train_s",
        "completions_per_s",
        "tokens_per_s",
        "peak_rss_mb",
        "first_step_s",
    )
    print(f"{'':14} " + " ".join(f"{h:>11}" for h in header))
    for r in results:
        print(
            f"{r['name']:14} " + " ".join(f"{'-' if r[k] is None else r[k]:>11}" for k in keys)
        )  # one step: no cpu s
    for r in results:
        print(f"{r['name']:14} reward per step: {r['rewards']}")
    by_name = dict(zip(names, results, strict=True))
    speedup = round(results[0]["s_per_step"] / by_name["playground"]["s_per_step"], 2)
    tuned = by_name["bare-no-checkpointing"]["s_per_step"]
    speedup_tuned = round(tuned / by_name["playground"]["s_per_step"], 2)
    print(f"speed-up: {speedup}x against bare TRL's defaults (gradient checkpointing on)")
    print(f"speed-up: {speedup_tuned}x against bare TRL with gradient checkpointing off and the same allocator")
    extra = {"speedup_vs_bare_no_checkpointing": speedup_tuned}
    if args.bf16_rollout:
        bf16 = by_name["playground-bf16"]
        extra["speedup_bf16"] = round(results[0]["s_per_step"] / bf16["s_per_step"], 2)
        print(
            f"speed-up with the bf16 rollout: {extra['speedup_bf16']}x (importance-sampling ratio "
            f"{bf16.get('is_ratio_mean')}, mean per-token log-prob gap {bf16.get('logp_difference_mean')})"
        )
    if args.bf16:
        full = by_name["playground-bf16-train"]
        extra["speedup_bf16_train"] = round(results[0]["s_per_step"] / full["s_per_step"], 2)
        print(f"speed-up in bf16 (training and rollout): {extra['speedup_bf16_train']}x")
    bare_rss = results[0]["peak_rss_mb"]
    for key, name in (("int8", "playground-int8"), ("compile", "playground-compile")):
        if name in by_name:
            row = by_name[name]
            extra[f"speedup_{key}"] = round(results[0]["s_per_step"] / row["s_per_step"], 2)
            extra[f"speedup_{key}_vs_bare_no_checkpointing"] = round(tuned / row["s_per_step"], 2)
            extra[f"speedup_{key}_vs_fp32"] = round(by_name["playground"]["s_per_step"] / row["s_per_step"], 2)
            same = row["rewards"] == by_name["playground"]["rewards"]
            print(
                f"{row['name']}: {extra[f'speedup_{key}']}x bare TRL's defaults, "
                f"{extra[f'speedup_{key}_vs_bare_no_checkpointing']}x bare TRL tuned, "
                f"{extra[f'speedup_{key}_vs_fp32']}x the fp32 playground; "
                f"RSS {row['peak_rss_mb'] / bare_rss:.2f}x bare; "
                f"rewards {'identical to' if same else 'differ from'} the fp32 playground's; first step "
                f"{row['first_step_s']} s; importance-sampling ratio {row.get('is_ratio_mean')}, "
                f"log-prob gap {row.get('logp_difference_mean')}"
            )
    if args.trl_tiles:
        tiles = by_name["playground-trl-tiles"]
        extra["speedup_trl_tiles"] = round(results[0]["s_per_step"] / tiles["s_per_step"], 2)
        print(f"speed-up with TRL's own LM-head tiles: {extra['speedup_trl_tiles']}x")
    if args.bare_allocator:
        alone = results[0]["s_per_step"] / by_name["bare-allocator"]["s_per_step"]
        print(f"bare TRL with the allocator settings alone: {alone:.2f}x")
    print(
        json.dumps(
            {
                "bench": "step",
                "four_bit": args.four_bit,
                "steps": args.steps,
                "results": results,
                "speedup": speedup,
                "reference": args.reference,
                "cpu": cpu_model_name(),
                "load_avg_1min": round(os.getloadavg()[0], 2),
                **extra,
            }
        )
    )


if __name__ == "__main__":
    import playground

    playground.bootstrap()  # an entry point: the settings, the reward library's host, the code_tests runner
    main()
