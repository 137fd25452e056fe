"""Where one GRPO step's time goes: the playground's training job, phase by phase and op by op, on this CPU.

The same spec as `bench/step.py` (embedded SmolLM2-135M, G=8, 64 new tokens, LoRA r=16 on all linear layers). The
job runs in this process's main thread; the first step warms up (allocations, packing, the rollout copy) and is not
counted. Two passes over the counted steps:

- phase wall times from `time.perf_counter` around each phase (no profiler, so no profiler overhead):
  `rollout` (the decode), `rewards`, `logprob_forward` (the gradient-free forwards: the reference, the old policy),
  `train_forward` (the loss's forward), `backward`, `optimizer`, and `other` (the rest of the step);
- one step under `torch.profiler`, attributing each op's self time to its phase and to a kind (matmul, attention,
  log-softmax/softmax over the vocabulary, sampling, elementwise and the rest), with what is not inside any op
  counted as Python overhead. Matmul FLOP/s (`with_flops`) against this CPU's measured peak (a 2048^3 matmul).

    python bench/step_profile.py                  # fp32
    python bench/step_profile.py --bf16           # bf16 training and rollout (where the CPU has native bf16)
    python bench/step_profile.py --steps 4 --json # more counted steps; the JSON line only

The shares are what matters; the profiler slows small ops (each op pays a few microseconds to be recorded), so the
profiled step's wall time is longer than the plain steps': the phase table comes from the plain steps.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections import defaultdict
from contextlib import contextmanager
from pathlib import Path


ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from bench.common import cpu_name  # noqa: E402


PHASES = ("rollout", "rewards", "logprob_forward", "train_forward", "backward", "optimizer")
MATMUL = ("mm", "addmm", "bmm", "matmul", "linear", "_linear_pointwise", "baddbmm", "_addmm_activation")
ATTENTION = ("scaled_dot_product", "_flash_attention", "_efficient_attention", "attention")
VOCAB = ("log_softmax", "softmax", "logsumexp", "cross_entropy", "nll_loss", "selective_log_softmax", "gather")
# `exponential_` is torch.multinomial's draw for one sample (argmax of probs / Exp(1) noise over the vocabulary).
SAMPLING = ("multinomial", "topk", "sort", "cumsum", "argmax", "exponential_", "div_", "isin", "where")


TOP_OPS = 8


def kind_of(name: str) -> str:
    """The kind of a profiler op, by its name (`aten::addmm`, `autograd::engine::evaluate_function: MmBackward0`)."""
    short = name.rsplit("::", 1)[-1].split(":")[-1].strip().lower()
    if any(short == m or short.startswith(m) for m in MATMUL) or short.startswith(("mmbackward", "addmmbackward")):
        return "matmul"
    if short.startswith("_reorder_linear_weight"):  # oneDNN repacking a weight for its own layout
        return "weight_repack"
    if any(a in short for a in ATTENTION):
        return "attention"
    if any(short.startswith(v) for v in VOCAB):
        return "vocab_softmax"
    if any(short.startswith(s) for s in SAMPLING):
        return "sampling"
    if short.startswith(("copy_", "to", "_to_copy", "clone", "contiguous", "empty", "zeros", "cat", "stack")):
        return "copies_casts"
    return "elementwise_other"


class PhaseClock:
    """Wall time per phase; nested phases count only in the innermost (the stack keeps them apart)."""

    def __init__(self):
        self.totals: dict[str, float] = defaultdict(float)
        self.stack: list[tuple[str, float]] = []
        self.counting = False

    @contextmanager
    def phase(self, name: str):
        import torch

        start = time.perf_counter()
        if self.stack and self.counting:  # pause the outer phase
            outer, since = self.stack[-1]
            self.totals[outer] += start - since
        self.stack.append((name, start))
        try:
            with torch.profiler.record_function(f"phase::{name}"):
                yield
        finally:
            end = time.perf_counter()
            _, since = self.stack.pop()
            if self.counting:
                self.totals[name] += end - since
            if self.stack:
                outer, _ = self.stack[-1]
                self.stack[-1] = (outer, end)


def instrument(clock: PhaseClock) -> None:
    """Wrap each phase's entry point (bench-only patches; the engine is not changed)."""
    import accelerate
    import torch
    from trl import GRPOTrainer

    from playground.fastpath.trainer import FastGRPOTrainer

    def wrap(cls, attr, phase):
        original = getattr(cls, attr)

        def wrapped(*args, **kwargs):
            name = phase(*args, **kwargs) if callable(phase) else phase
            with clock.phase(name):
                return original(*args, **kwargs)

        setattr(cls, attr, wrapped)

    wrap(FastGRPOTrainer, "_generate_single_turn", "rollout")
    wrap(GRPOTrainer, "_calculate_rewards", "rewards")
    wrap(
        FastGRPOTrainer,
        "_get_per_token_logps_and_entropies",
        lambda *a, **k: "train_forward" if torch.is_grad_enabled() else "logprob_forward",
    )
    wrap(accelerate.Accelerator, "backward", "backward")
    wrap(torch.optim.AdamW, "step", "optimizer")


def bench_spec(steps: int, bf16: bool):
    from playground.spec import RunSpec

    spec = RunSpec()
    for name, value in dict(max_steps=steps, num_generations=8, per_device_train_batch_size=8).items():
        spec.set(name, value)
    spec.set("max_completion_length", 64)
    spec.set("lora_r", 16)
    spec.set("save_steps", 10_000)
    if bf16:
        spec.set("bf16", True)
        spec.set("fast_rollout", "bfloat16")
    return spec


def peak_gflops() -> float:
    """This CPU's fp32 matmul rate with torch's threads, from the best of five 2048^3 matmuls."""
    import torch

    a, b = torch.randn(2048, 2048), torch.randn(2048, 2048)
    a @ b
    best = min(_timed(lambda: a @ b) for _ in range(5))
    return 2 * 2048**3 / best / 1e9


def _timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def _flops(evt) -> float:
    """An op's FLOPs: the profiler's where it counts them, else a packed linear's 2*M*K*N from its input shapes."""
    if getattr(evt, "flops", 0):
        return evt.flops
    shapes = getattr(evt, "input_shapes", None) or []
    if "_linear_pointwise" in evt.name and len(shapes) >= 2 and shapes[0] and shapes[1]:
        rows = 1
        for n in shapes[0][:-1]:
            rows *= n
        return 2.0 * rows * shapes[0][-1] * shapes[1][0]
    return 0.0


def _phase_of(evt) -> str:
    parent = evt.cpu_parent
    while parent is not None:
        if parent.name.startswith("phase::"):
            return parent.name.split("::", 1)[1]
        parent = parent.cpu_parent
    return "other"


def attribute(events) -> tuple[dict, dict, dict, dict]:
    """Of one profiled step: self time in ms by (phase, kind), matmul FLOPs by phase, each phase's own wall in ms
    (its range less the phases nested in it), and self time in ms by (phase, op name)."""
    times: dict[tuple[str, str], float] = defaultdict(float)
    flops: dict[str, float] = defaultdict(float)
    walls: dict[str, float] = defaultdict(float)
    ops: dict[tuple[str, str], float] = defaultdict(float)
    for evt in events:
        if evt.name.startswith("phase::"):
            walls[evt.name.split("::", 1)[1]] += evt.cpu_time_total / 1000
            walls[_phase_of(evt)] -= evt.cpu_time_total / 1000
            continue
        if evt.name.startswith(("ProfilerStep", "Optimizer.")):
            continue
        phase, kind = _phase_of(evt), kind_of(evt.name)
        times[(phase, kind)] += evt.self_cpu_time_total / 1000
        ops[(phase, evt.name)] += evt.self_cpu_time_total / 1000
        if kind == "matmul":
            flops[phase] += _flops(evt)
    return times, flops, walls, ops


def run(steps: int, bf16: bool) -> dict:
    import torch
    from transformers import TrainerCallback

    from playground.training.job import TrainingJob
    from playground.training.store import RunStore

    clock = PhaseClock()
    instrument(clock)
    spec = bench_spec(steps, bf16)
    marks: dict[str, object] = {"step_walls": []}

    class Profile(TrainerCallback):
        """Counts phases from step 2 on; profiles the last step."""

        def on_step_begin(self, args, state, control, **kwargs):
            step = state.global_step + 1
            clock.counting = step >= 2
            marks["begin"] = time.perf_counter()
            if step == steps:
                marks["totals_before"] = dict(clock.totals)
                prof = torch.profiler.profile(
                    activities=[torch.profiler.ProfilerActivity.CPU], with_flops=True, record_shapes=True
                )
                prof.__enter__()
                marks["prof"] = prof

        def on_step_end(self, args, state, control, **kwargs):
            step = state.global_step
            wall = time.perf_counter() - marks["begin"]
            if "prof" in marks and step == steps:
                prof = marks.pop("prof")
                prof.__exit__(None, None, None)
                marks["events"] = prof.events()
                marks["profiled_wall"] = wall
                # the profiled step's phase times stay out of the plain steps' table
                clock.totals.clear()
                clock.totals.update(marks["totals_before"])
            elif step >= 2:
                marks["step_walls"].append(wall)

    with tempfile.TemporaryDirectory() as tmp:
        store = RunStore(Path(tmp))
        run = store.create(spec.to_dict())
        job = TrainingJob(spec, run)
        build = job._build_trainer

        def build_with_profile():
            trainer = build()
            trainer.add_callback(Profile())
            return trainer

        job._build_trainer = build_with_profile
        job._main()  # in this thread: the profiler records this thread's ops
        if job.status != "finished":
            raise SystemExit(f"job {job.status}: {job.error}")

    counted = len(marks["step_walls"])
    step_s = sum(marks["step_walls"]) / counted
    phases = {p: clock.totals.get(p, 0.0) / counted for p in PHASES}
    phases["other"] = max(0.0, step_s - sum(phases.values()))
    times, flops, walls, ops = attribute(marks["events"])
    profiled_ms = marks["profiled_wall"] * 1000
    walls["other"] = profiled_ms - sum(v for k, v in walls.items() if k != "other")
    # Each phase's profiled wall split into its kinds of op, and the time outside any op (Python, the loop): as
    # shares, which the profiler's per-op cost distorts less than the milliseconds themselves.
    op_share: dict[str, dict[str, float]] = {}
    for phase in (*PHASES, "other"):
        wall = walls.get(phase, 0.0)
        if wall <= 0:
            continue
        kinds = {kind: ms for (p, kind), ms in times.items() if p == phase}
        kinds["outside_ops"] = max(0.0, wall - sum(kinds.values()))
        op_share[phase] = {k: round(v / wall, 3) for k, v in sorted(kinds.items(), key=lambda kv: -kv[1])}
    peak = peak_gflops()
    matmul_gflops = {}
    for phase, f in flops.items():
        ms = times.get((phase, "matmul"), 0.0)
        if ms and f:
            matmul_gflops[phase] = round(f / (ms / 1000) / 1e9, 1)
    return {
        "bench": "profile",
        "dtype": "bf16" if bf16 else "fp32",
        "cpu": cpu_name(),
        "threads": torch.get_num_threads(),
        "steps_counted": counted,
        "s_per_step": round(step_s, 3),
        "phase_s": {k: round(v, 3) for k, v in phases.items()},
        "phase_share": {k: round(v / step_s, 3) for k, v in phases.items()},
        "profiled_step_ms": round(profiled_ms, 1),
        "op_share_by_phase": op_share,
        "matmul_gflops_by_phase": matmul_gflops,
        # the profiled step's slowest ops of each phase, in ms of self time
        "top_ops_by_phase": {
            phase: {name: round(ms, 1) for name, ms in sorted(named, key=lambda kv: -kv[1])[:TOP_OPS]}
            for phase in (*PHASES, "other")
            if (named := [(name, ms) for (p, name), ms in ops.items() if p == phase])
        },
        "peak_gflops_2048": round(peak, 1),
        "load_avg_1min": round(os.getloadavg()[0], 2),
    }


def print_table(result: dict) -> None:
    print(
        f"\nOne GRPO step of the playground ({result['dtype']}), {result['cpu']}, {result['threads']} threads, "
        f"mean of {result['steps_counted']} steps: {result['s_per_step']} s"
    )
    print(f"{'phase':16} {'s':>7} {'share':>6}   within the phase (profiled step)")
    for phase in (*PHASES, "other"):
        ops = result["op_share_by_phase"].get(phase, {})
        top = ", ".join(f"{k} {v:.0%}" for k, v in list(ops.items())[:5])
        print(f"{phase:16} {result['phase_s'][phase]:>7.3f} {result['phase_share'][phase]:>6.1%}   {top}")
    print(f"matmul GFLOP/s by phase: {result['matmul_gflops_by_phase']} (peak 2048^3: {result['peak_gflops_2048']})")
    print("slowest ops of the profiled step, ms of self time:")
    for phase, named in result["top_ops_by_phase"].items():
        print(f"  {phase:16} " + ", ".join(f"{name} {ms:g}" for name, ms in list(named.items())[:6]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=3, help="steps in all: the first warms up, the last is profiled")
    parser.add_argument("--bf16", action="store_true", help="bf16 training and rollout (native bf16 CPUs only)")
    parser.add_argument("--json", action="store_true", help="print the JSON line only")
    args = parser.parse_args()
    if args.steps < 3:
        raise SystemExit("--steps must be at least 3: one to warm up, one counted, one profiled")
    if args.bf16:
        from playground.fastpath.packing import cpu_has_native_bf16

        if not cpu_has_native_bf16():
            raise SystemExit("This CPU has no native bf16 (AVX512-BF16 or AMX): run without --bf16.")
    result = run(args.steps, args.bf16)
    if not args.json:
        print_table(result)
    print(json.dumps(result))


if __name__ == "__main__":
    import playground

    playground.bootstrap()  # an entry point: the settings, the reward library's host, the code_tests runner
    main()
