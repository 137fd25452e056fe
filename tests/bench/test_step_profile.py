"""bench/step_profile.py's attribution: each op's self time goes to its innermost phase and its kind, from a real
`torch.profiler` trace of a small computation run inside the bench's own phase ranges."""

import torch

from bench.step_profile import PhaseClock, attribute, kind_of


def test_op_kinds_by_name():
    assert kind_of("aten::mm") == "matmul"
    assert kind_of("mkldnn::_linear_pointwise") == "matmul"
    assert kind_of("autograd::engine::evaluate_function: MmBackward0") == "matmul"
    assert kind_of("mkldnn::_reorder_linear_weight") == "weight_repack"
    assert kind_of("aten::_scaled_dot_product_flash_attention_for_cpu") == "attention"
    assert kind_of("aten::log_softmax") == "vocab_softmax"
    assert kind_of("aten::exponential_") == "sampling"
    assert kind_of("aten::_to_copy") == "copies_casts"
    assert kind_of("aten::silu") == "elementwise_other"


def test_attribute_splits_a_trace_by_phase_and_kind():
    clock = PhaseClock()
    clock.counting = True
    a, b = torch.randn(256, 256), torch.randn(256, 256)
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU], with_flops=True) as prof:
        with clock.phase("rollout"):
            for _ in range(20):
                a @ b
            with clock.phase("rewards"):  # nested: its ops and wall are its own, not the rollout's
                torch.softmax(a, dim=-1)
        torch.sigmoid(a)
    times, flops, walls, ops = attribute(prof.events())
    assert times[("rollout", "matmul")] > 0
    assert ("rollout", "vocab_softmax") not in times and times[("rewards", "vocab_softmax")] > 0
    assert times[("other", "elementwise_other")] > 0  # outside every phase
    assert flops["rollout"] == 20 * 2 * 256**3
    # by op name too: the rollout's matmuls, the nested phase's softmax
    assert (
        ops[("rollout", "aten::mm")] > 0 and ops[("rewards", "aten::softmax")] + ops[("rewards", "aten::_softmax")] > 0
    )
    assert ("rollout", "aten::softmax") not in ops
    assert 0 < walls["rewards"] < walls["rollout"] + walls["rewards"]
    # the clock's own wall per phase: the nested phase's time is not counted twice
    assert set(clock.totals) == {"rollout", "rewards"}
    assert clock.totals["rollout"] > 0 and clock.totals["rewards"] > 0
