"""A faster GRPO step on CPU, computing what TRL computes.

Where the time of a CPU step goes, and what this module does about it (each measured by `bench/step.py`):

- Decoding is bound by reading the weights once per token, and LoRA on every linear layer triples the matmuls. For
  the rollout only, `RolloutModel` keeps a plain copy of the model with the LoRA deltas merged in (4-bit weights
  dequantized), its linears pre-packed for oneDNN (`PackedLinear`), re-synced after each optimizer step.
- The G completions of a group share one prompt, which TRL runs G times in the prefill, the policy's forward and
  backward and the reference forward. `playground/fastpath/prefix.py` runs it once per group.
- The reference log-probs come from the policy with its adapter disabled, as in TRL, through the shared-prompt path
  (a pre-packed copy of the base, `pack_reference`, was no faster and cost ~400 MB), and TRL's fused LM head scores
  only completion positions, in cache-sized tiles, without subnormal exponentials (`playground/fastpath/lm_head.py`).
- glibc hands freed memory back to the OS, so every step paid page faults on the tensors of the step before;
  `playground/fastpath/allocator.py` keeps it in the process while training.

The loss, the gradients and the optimizer are TRL's. A test checks that the job reproduces bare TRL's reward curve
step for step and its kl within 1e-3. The rollout copy is fp32 by default; `bfloat16` halves its bytes where the
CPU has native bf16, but then samples come from a slightly different distribution than the policy's. TRL corrects
exactly that mismatch for vLLM with importance sampling (`vllm_importance_sampling_correction`, on by default in
`GRPOConfig`): the sampler hands over the log-probability of each sampled token, TRL recomputes the policy's, and
weights the loss by their ratio (truncated or masked per `vllm_importance_sampling_mode`), logging
`sampling/importance_sampling_ratio/*` and `sampling/sampling_logp_difference/*`. With a bf16 copy this trainer
returns the lean sampler's log-probs where TRL's vLLM path puts them and sets `use_vllm` after TRL's `__init__`
(which it only reads there to start vLLM): TRL's own code then computes the correction. TRL's vLLM path pays one
gradient-free forward of the policy per generation round for it (`old_per_token_logps`). On-policy (no optimizer step
between a generation round and the losses that use it: TRL's `gradient_accumulation_steps % (steps_per_generation *
num_iterations) == 0`), those log-probs equal the training forward's own, detached: this trainer then skips that
forward and computes the same ratio, truncation or mask and `sampling/*` metrics from the training forward
(`_deferred_correction`). bf16 stays opt-in until a learning comparison (bench/bf16_learning.py) shows it matches
fp32. `int8` packs the copy's linears as torch's dynamically quantized int8 linears (`Int8Linear`: int8 weights per
output channel, each input quantized to 8 bits over its own range), re-quantized after each optimizer step like the
fp32 packs; it is further off-policy than bf16 and runs only under the same correction.

`FastGRPOTrainer` overrides `_generate_single_turn` and `_get_per_token_logps_and_entropies` for plain-text prompts
on CPU without vLLM, `_compute_loss` for the deferred correction (and `train`, for the allocator); every other case
goes to TRL's own code. Those three are TRL's private methods, and the other parts use private names of TRL,
transformers, torch and bitsandbytes too: every one is in `playground/fastpath/internals.py`, which the trainer asks at
start. A part whose names do not match steps aside (TRL's own methods and generate, as bare TRL; TRL's own head), says
so in one log line and in `fast_path_off`.
"""

from __future__ import annotations

import logging
import time

import torch
from trl import GRPOTrainer

from playground.fastpath import decode, internals
from playground.fastpath.allocator import training_allocator
from playground.fastpath.internals import OVERRIDDEN
from playground.fastpath.lm_head import cpu_lm_head
from playground.fastpath.lm_head import tiles as lm_head_tiles
from playground.fastpath.packing import PackedLinear, pack_linears, packed_linear_available
from playground.fastpath.prefix import generate_with_logps, shared_prefix_generate, shared_prefix_logps
from playground.fastpath.stopping import stopping_criteria


logger = logging.getLogger(__name__)


def rollout_dtype(setting: str = "auto") -> torch.dtype:
    """ "auto" is fp32: it samples exactly the policy's distribution (bf16 is opt-in, see the module docstring). The
    int8 copy holds fp32 tensors; its decoder packs the linears in int8."""
    return torch.bfloat16 if setting == "bfloat16" else torch.float32


def _dense_weight(module: torch.nn.Module) -> torch.Tensor:
    """The full-precision weight of a linear layer, dequantizing bitsandbytes 4-bit weights."""
    weight = module.weight
    quant_state = getattr(weight, "quant_state", None)
    if quant_state is not None:
        import copy

        import bitsandbytes.functional as bnbf

        data = weight.data
        if getattr(quant_state, "packing_format_for_cpu", False):  # repacked in place by bnb's CPU inference path
            data, quant_state = internals.unpack_bnb_cpu(data.clone(), copy.deepcopy(quant_state))
        return bnbf.dequantize_4bit(data, quant_state).to(torch.float32)
    return weight.data.to(torch.float32)


class RolloutModel:
    """A plain (non-PEFT) copy of a PEFT causal LM, with the LoRA deltas merged in, for sampling only.

    For a Llama-architecture model in fp32 (or bf16 where the CPU has it), `decoder` is a `LlamaDecoder`
    (playground/fastpath/decode.py) over the copy's weights; otherwise the copy's own linears are pre-packed.
    `sampling=False` (the reference copy) never builds one.

    Memory: the copy is built on the meta device (no random init, no transient full-size copy); parameters the
    adapter never changes (embeddings, norms, a tied LM head, linears without LoRA) are the policy's own frozen
    tensors where dtype and layout allow. With `lean=True` (the trainer's rollout copy) the decoder's packed matrices
    are the only copy of the layers' linear weights: their dense weights are never built (the decoder packs them from
    the policy), unless a rollout needs `generate` (options or a batch the decoder does not cover): `ensure_dense()`.
    """

    def __init__(
        self,
        peft_model,
        dtype: torch.dtype = torch.float32,
        merge_lora: bool = True,
        skip: tuple = (),
        sampling: bool = True,
        lean: bool = False,
        int8: bool = False,
    ):
        from peft.tuners.lora import LoraLayer
        from transformers import AutoModelForCausalLM

        base = peft_model.get_base_model()
        config = base.config
        self.dtype = dtype
        if getattr(config, "quantization_config", None) is not None:
            config = type(config).from_dict({k: v for k, v in config.to_dict().items() if k != "quantization_config"})
        from accelerate import init_empty_weights

        # Parameters on the meta device (no random init, no transient full-size copy); buffers (rotary tables) real.
        with init_empty_weights(include_buffers=False):
            self.model = AutoModelForCausalLM.from_config(config, dtype=dtype).eval()
        self.model.generation_config = base.generation_config
        self.lora_layers = {n: m for n, m in base.named_modules() if isinstance(m, LoraLayer)}
        self.adapter = peft_model.active_adapter
        self.merge_lora = merge_lora
        self.source = dict(base.named_modules())
        sampler = sampling and decode.supports(self.model)  # fp32, or bf16 where oneDNN has bf16 kernels
        # linears whose dense weight the copy does not hold (the decoder's packs do)
        self.dropped: list[str] = decode.layer_linears(self.model) if sampler and lean else []
        self._materialize(set(self.dropped))
        self.model.tie_weights()
        self.packed = dtype == torch.float32 and packed_linear_available()
        if self.packed and not sampler:
            pack_linears(self.model, skip)
        self.decoder = None
        self.sync()
        if sampler:  # built after sync(), so its first packs already hold the merged weights
            weights = self.merged_weight if self.dropped else None
            self.decoder = decode.LlamaDecoder(self.model, weights=weights, int8=int8)

    @torch.no_grad()
    def _materialize(self, leave: set[str]) -> None:
        """Give every parameter of the copy (but the weights of the modules in `leave`) its value: the policy's own
        tensor where it is frozen and plain, else a converted copy (merged with the LoRA delta on LoRA layers)."""
        for name, target in self.model.named_modules():
            for pname, param in list(target.named_parameters(recurse=False)):
                if pname == "weight" and name in leave:
                    continue
                if name not in self.source:
                    raise RuntimeError(f"The rollout copy has a parameter the policy lacks: {name}.{pname}")
                module = self.source[name]
                original = getattr(module, pname)
                if name not in self.lora_layers and _shareable(original, param):
                    value = original.data
                elif pname == "weight":
                    value = self.merged_weight(name).to(self.dtype, copy=True).reshape(param.shape)
                else:
                    value = original.data.to(self.dtype, copy=True)
                setattr(target, pname, torch.nn.Parameter(value, requires_grad=False))

    def merged_weight(self, name: str) -> torch.Tensor:
        """The fp32 weight module `name` has in the copy: the policy's base weight, plus the LoRA delta if merged."""
        layer = self.lora_layers.get(name)
        if layer is None:
            return _dense_weight(self.source[name])
        weight = _dense_weight(layer.get_base_layer())
        if self.merge_lora and self.adapter in layer.lora_A:
            weight = weight + layer.get_delta_weight(self.adapter).to(torch.float32)
        return weight

    def for_sampling(self):
        """The copy's model, ready for `decode.sample`: it samples through the decoder (where there is one), and
        rebuilds the dense weights the decoder's packs replaced first if a call needs `generate`."""
        if self.decoder is not None:
            self.model.playground_sampler = self.decoder
            self.model.playground_ensure_dense = self.ensure_dense
        return self.model

    @torch.no_grad()
    def ensure_dense(self) -> None:
        """Rebuild the dropped dense weights (for `generate`); they are then kept and synced like the others."""
        for name in self.dropped:
            weight = self.merged_weight(name).to(self.dtype, copy=True)  # sync() writes into it
            self.model.get_submodule(name).weight = torch.nn.Parameter(weight, requires_grad=False)
        self.dropped = []

    @torch.no_grad()
    def sync(self) -> None:
        """Copy `base + delta` of every LoRA layer into the rollout copy (after each optimizer step)."""
        dropped = set(self.dropped)
        for name in self.lora_layers:
            if name in dropped:
                continue  # the decoder packs it below, straight from the policy
            target = self.model.get_submodule(name)
            if isinstance(target, PackedLinear):
                target.set_weight(self.merged_weight(name))
            else:
                target.weight.copy_(self.merged_weight(name).to(self.dtype))
        if self.decoder is not None:
            self.decoder.refresh(changed=set(self.lora_layers), weights=self.merged_weight if dropped else None)


def _shareable(original: torch.Tensor, param: torch.Tensor) -> bool:
    """Whether the copy can use the policy's tensor itself: frozen, plain (not quantized), same dtype and shape."""
    return (
        not original.requires_grad
        and type(original) in (torch.Tensor, torch.nn.Parameter)
        and getattr(original, "quant_state", None) is None
        and original.dtype == param.dtype
        and original.shape == param.shape
        and original.device.type == "cpu"
    )


def private_method_mismatches(cls: type) -> list[str]:
    """How the methods `cls` inherits below `FastGRPOTrainer` (TRL's) differ from what its overrides expect; empty
    when they match."""
    return internals.trainer_mismatches(cls.__mro__[cls.__mro__.index(FastGRPOTrainer) + 1 :])


class FastGRPOTrainer(GRPOTrainer):
    """`GRPOTrainer` with the CPU fast path of the module docstring.

    `rollout_dtype`: "auto" or "float32" (exact), "bfloat16" (with TRL's importance-sampling correction unless
    `vllm_importance_sampling_correction=False`), or "int8" (int8 weights in the sampler, always under that
    correction). `rollout=False` and `tune_allocator=False` give bare TRL.
    """

    def __init__(
        self, *args, rollout: bool = True, rollout_dtype: str = "auto", tune_allocator: bool = True, **kwargs
    ):
        mro = type(self).__mro__
        # {part: why}: the parts of the fast path whose private names this install does not have, each stepping aside
        self.fast_path_off = internals.check(mro[mro.index(FastGRPOTrainer) + 1 :])
        internals.say_once(self.fast_path_off)
        if {"decode", "bitsandbytes"} & set(self.fast_path_off):
            rollout = False  # the lean rollout samples through transformers' processors and reads 4-bit weights
        if rollout_dtype == "int8" and "int8" in self.fast_path_off:
            rollout_dtype = "float32"  # the exact rollout: without torch's int8 kernels there is no int8 copy
        if "trainer" in self.fast_path_off:
            rollout = False
            for name in OVERRIDDEN:  # an instance attribute wins over the class's override: TRL calls its own
                if hasattr(super(), name):
                    setattr(self, name, getattr(super(), name))
        super().__init__(*args, **kwargs)
        self._tune_allocator = tune_allocator and self.accelerator.device.type == "cpu"
        self._rollout: RolloutModel | None = None
        self._shared_scoring = 0
        self._reference = None
        self._rollout_step = -1
        self._rollout_enabled = rollout and self._rollout_supported()
        self._rollout_dtype = globals()["rollout_dtype"](rollout_dtype)
        self._rollout_int8 = self._rollout_enabled and rollout_dtype == "int8"
        if self._rollout_int8 and not self.args.vllm_importance_sampling_correction:
            raise ValueError("The int8 rollout needs TRL's importance-sampling correction on.")
        if rollout and not self._rollout_enabled:
            logger.info("Fast rollout is off here (needs a PEFT model on CPU without vLLM); using TRL's generate.")
        # A rollout copy in another dtype samples from a slightly different distribution: hand TRL the sampler's
        # log-probs as its vLLM path does, and let TRL's importance-sampling correction (gated on `use_vllm`) run.
        self._sampler_logps = (
            self._rollout_enabled
            and (self._rollout_dtype != torch.float32 or self._rollout_int8)
            and bool(self.args.vllm_importance_sampling_correction)
        )
        # On-policy, the correction is computed from the training forward (see the module docstring); otherwise TRL's
        # own vLLM-path code computes it, with its extra forward. (vespo reads the ratio in its own weights: TRL's.)
        generate_every = self.args.steps_per_generation * self.num_iterations
        self._deferred_correction = (
            self.defer_correction
            and self._sampler_logps
            and self.args.gradient_accumulation_steps % generate_every == 0
            and self.loss_type != "vespo"
        )
        self._correcting: dict | None = None  # the loss inputs awaiting their ratio, during `_compute_loss`
        if self._sampler_logps and not self._deferred_correction:
            self.use_vllm = True  # read by TRL's __init__ (done) to start vLLM, afterwards only to gate the correction

    def train(self, *args, **kwargs):
        try:
            # the lean head tiles for the whole step: TRL's backward looks its tile up at `loss.backward()`
            with training_allocator(self._tune_allocator), lm_head_tiles(self.lean_lm_head):
                return super().train(*args, **kwargs)
        finally:
            sampled = self._rollout.decoder.samples if self._rollout and self._rollout.decoder else 0
            logger.info(
                "Fast path: %d scoring passes shared their prompts; %d rollouts came from the lean sampler",
                self._shared_scoring,
                sampled,
            )

    # The completions of a group share their prompt: run it once per group, in the rollout and when scoring
    # (playground/fastpath/prefix.py). Otherwise (e.g. gradient checkpointing) the unpadded path below is used.
    share_prompts = True
    # Completions in a batch have very different lengths, and TRL pads them all to the longest. Sorting the rows by
    # length and scoring them in this many chunks, each cut to its own longest row, skips most of the padding.
    unpad_chunks = 4
    # The reference pass: False (default) scores the policy itself with its adapter disabled, as TRL does, through the
    # shared-prompt path; True uses a frozen pre-packed copy of the base. Measured with bench/step.py (1 thread):
    # train 6.44-6.55 s vs 6.34-6.38 s per step, peak RSS 3076-3095 MB vs 3473-3500 MB: the copy is not worth its
    # ~400 MB.
    pack_reference = False
    # On-policy, the bf16 rollout's importance-sampling ratio comes from the training forward instead of TRL's extra
    # gradient-free forward (module docstring); False takes TRL's vLLM-path code and its forward.
    defer_correction = True
    # TRL's fused LM head folds its tiles with `playground/fastpath/lm_head.py`'s in-place tiles; False keeps TRL's own
    # torch tiles (bench/step.py --trl_tiles measures the difference).
    lean_lm_head = True

    def _compute_loss(self, model, inputs):
        if not self._deferred_correction or "sampling_per_token_logps" not in inputs:
            return super()._compute_loss(model, inputs)
        self._correcting = inputs
        try:
            return super()._compute_loss(model, inputs)
        finally:
            self._correcting = None
            self.use_vllm = False

    def _get_per_token_logps_and_entropies(
        self, model, input_ids, attention_mask, logits_to_keep, batch_size=None, compute_entropy=False, **kwargs
    ):
        result = self._logps_and_entropies(
            model, input_ids, attention_mask, logits_to_keep, batch_size, compute_entropy, **kwargs
        )
        if self._correcting is not None:  # the loss's forward: the policy as it sampled, on-policy
            inputs, self._correcting = self._correcting, None
            inputs["importance_sampling_ratio"] = self._sampling_correction(inputs, result[0].detach())
            self.use_vllm = True  # for the rest of this `_compute_loss`: TRL weights the loss by that ratio
        return result

    def _sampling_correction(self, inputs: dict, old_per_token_logps: torch.Tensor) -> torch.Tensor:
        """TRL's importance-sampling ratio of the sampler against the policy, its truncation or mask, and its
        `sampling/*` metrics, as `_generate_and_score_completions` computes them on its vLLM path."""
        import math

        from trl.trainer.utils import nanmax, nanmin

        sampling = inputs["sampling_per_token_logps"]
        mask = (
            inputs["completion_mask"] if "tool_mask" not in inputs else inputs["completion_mask"] * inputs["tool_mask"]
        )
        diff = torch.nan_to_num((old_per_token_logps - sampling) * mask, nan=0.0)
        mode_name = self.vllm_importance_sampling_mode
        sequence_level = mode_name in ("sequence_mask", "sequence_truncate")
        ratio = torch.exp(diff.sum(dim=-1, keepdim=True) if sequence_level else diff)
        low, high = self.vllm_importance_sampling_clip_min, self.vllm_importance_sampling_clip_max
        if mode_name in ("sequence_truncate", "token_truncate"):
            ratio = torch.clamp(ratio, min=low, max=high)
        elif mode_name in ("sequence_mask", "token_mask"):
            low = -math.inf if low is None else low
            high = math.inf if high is None else high
            ratio = ratio.masked_fill((ratio < low) | (ratio > high), value=0.0)
        else:
            raise ValueError(f"Unknown vLLM importance sampling level: {mode_name}.")

        mode = "train" if self.model.training else "eval"
        device, gather, metrics = ratio.device, self.accelerator.gather, self._metrics[mode]
        bool_mask = mask.bool()
        delta = torch.abs(old_per_token_logps - sampling)
        delta = delta[bool_mask & ~torch.isnan(delta)]
        zero = torch.tensor(0.0, device=device)
        metrics["sampling/sampling_logp_difference/mean"].append(
            gather(torch.mean(delta) if delta.numel() else zero).mean().item()
        )
        metrics["sampling/sampling_logp_difference/max"].append(
            gather(torch.max(delta) if delta.numel() else zero).max().item()
        )
        flat = ratio.flatten() if sequence_level else ratio[bool_mask]
        metrics["sampling/importance_sampling_ratio/min"].append(
            nanmin(gather(torch.min(flat) if flat.numel() else zero)).item()
        )
        metrics["sampling/importance_sampling_ratio/mean"].append(
            gather(torch.mean(flat) if flat.numel() else zero).nanmean().item()
        )
        metrics["sampling/importance_sampling_ratio/max"].append(
            nanmax(gather(torch.max(flat) if flat.numel() else zero)).item()
        )
        return ratio

    def _logps_and_entropies(
        self, model, input_ids, attention_mask, logits_to_keep, batch_size=None, compute_entropy=False, **kwargs
    ):
        multimodal = any(v is not None and v is not False for v in kwargs.values())
        if not self._rollout_enabled or multimodal:
            return super()._get_per_token_logps_and_entropies(
                model, input_ids, attention_mask, logits_to_keep, batch_size, compute_entropy, **kwargs
            )
        if self.pack_reference and self._is_reference_call(model):
            model = self._reference_copy()
        with cpu_lm_head(self.lean_lm_head):
            if self.share_prompts and not self.args.gradient_checkpointing:
                shared = shared_prefix_logps(
                    model, input_ids, attention_mask, logits_to_keep, compute_entropy, self.accelerator.autocast
                )
                if shared is not None:
                    self._shared_scoring += 1
                    return *shared, None
            return self._unpadded_logps(model, input_ids, attention_mask, logits_to_keep, compute_entropy)

    def _is_reference_call(self, model) -> bool:
        """TRL scores the reference model as the policy inside `disable_adapter()`; LoRA layers then say so."""
        if self._rollout is None:
            return False
        layer = next(iter(self._rollout.lora_layers.values()), None)
        return model is self.model and layer is not None and bool(layer.disable_adapters)

    def _reference_copy(self):
        """The frozen base model as a plain, pre-packed fp32 copy (its LM head stays dense for TRL's fused head)."""
        if self._reference is None:
            from trl.trainer.utils import add_fused_lm_head

            ref = RolloutModel(self.model, torch.float32, merge_lora=False, skip=("lm_head",), sampling=False).model
            add_fused_lm_head(ref, temperature=self.temperature, cast_lm_head_to_fp32=self.args.cast_lm_head_to_fp32)
            self._reference = ref
        return self._reference

    def _unpadded_logps(self, model, input_ids, attention_mask, logits_to_keep, compute_entropy):
        if self.unpad_chunks <= 1 or input_ids.size(0) < 2:
            return super()._get_per_token_logps_and_entropies(
                model, input_ids, attention_mask, logits_to_keep, None, compute_entropy
            )
        total = input_ids.size(1)
        ends = total - attention_mask.flip(1).int().argmax(dim=1)  # one past each row's last real token
        order = torch.argsort(ends, stable=True)
        logps, entropies = [], []
        for rows in torch.tensor_split(order, min(self.unpad_chunks, input_ids.size(0))):
            end = int(ends[rows].max())
            cut = total - end  # right padding shared by every row of this chunk
            lp, ent, _ = super()._get_per_token_logps_and_entropies(
                model, input_ids[rows, :end], attention_mask[rows, :end], logits_to_keep - cut, None, compute_entropy
            )
            logps.append(torch.nn.functional.pad(lp, (0, cut)))
            if compute_entropy:
                entropies.append(torch.nn.functional.pad(ent, (0, cut)))
        inverse = torch.empty_like(order)
        inverse[order] = torch.arange(order.numel())
        entropy = torch.cat(entropies)[inverse] if compute_entropy else None
        return torch.cat(logps)[inverse], entropy, None

    def _rollout_supported(self) -> bool:
        from peft import PeftModel

        return (
            not self.use_vllm
            and self.accelerator.device.type == "cpu"
            and isinstance(self.model, PeftModel)
            and not getattr(self.args, "use_transformers_continuous_batching", False)
        )

    def _generate_single_turn(self, prompt_ids, images, multimodal_fields, num_generations, has_tool_images=False):
        start = time.perf_counter()
        if not self._rollout_enabled or images or multimodal_fields or has_tool_images:
            if self._sampler_logps:
                raise ValueError("A bf16 or int8 rollout samples plain-text prompts only; use fast_rollout=float32.")
            result = super()._generate_single_turn(
                prompt_ids, images, multimodal_fields, num_generations, has_tool_images
            )
        else:
            result = self._rollout_generate(prompt_ids)
        mode = "train" if self.model.training else "eval"
        self._metrics[mode]["timing/rollout"].append(time.perf_counter() - start)
        return result

    def _synced_rollout(self) -> RolloutModel:
        """The rollout copy, built on first use and re-synced once after each optimizer step."""
        if self._rollout is None:
            self._rollout = RolloutModel(self.model, self._rollout_dtype, lean=True, int8=self._rollout_int8)
        elif self._rollout_step != self.state.global_step:
            self._rollout.sync()
        self._rollout_step = self.state.global_step
        return self._rollout

    def sampling_model(self):
        """The fp32 rollout copy as the policy is now, for sampling outside a rollout (the held-out eval); None where
        the fast rollout is off or its copy is not fp32 (bf16 or int8: an eval samples the policy exactly).

        One copy serves both: an eval between two steps syncs it, and the next rollout then has nothing to sync.
        """
        if not self._rollout_enabled or self._rollout_dtype != torch.float32 or self._rollout_int8:
            return None
        return self._synced_rollout().for_sampling()

    def _rollout_generate(self, prompt_ids) -> tuple[list[list[int]], list[list[float]] | None]:
        """The completions' token ids and, with a bf16 or int8 copy under TRL's correction, each token's sampling
        log-prob."""
        from trl.trainer.utils import pad

        self._synced_rollout()
        pad_id = self._tokenizer.pad_token_id
        prompts = [torch.tensor(p) for p in prompt_ids]
        input_ids = pad(prompts, padding_value=pad_id, padding_side="left")
        attention_mask = pad([torch.ones_like(p) for p in prompts], padding_value=0, padding_side="left")
        model, config, decoder = self._rollout.model, self.generation_config, self._rollout.decoder
        with_logps = self._sampler_logps
        out = None
        if self.share_prompts and decoder is not None:
            out = shared_prefix_generate(model, input_ids, attention_mask, config, decoder, with_logps, fallback=False)
        if out is None:
            self._rollout.ensure_dense()  # `generate` needs the dense weights the decoder's packs replaced
        if out is None and self.share_prompts:
            out = shared_prefix_generate(model, input_ids, attention_mask, config, None, with_logps)
        if out is None:
            inputs = dict(input_ids=input_ids, attention_mask=attention_mask)
            with torch.no_grad():
                out = (
                    generate_with_logps(model, config, **inputs)
                    if with_logps
                    else model.generate(**inputs, generation_config=config, **stopping_criteria())
                )
        out, logps = out if with_logps else (out, None)
        completion_ids = out[:, input_ids.size(1) :]
        # Everything after the first EOS is masked, as in TRL.
        is_eos = torch.isin(completion_ids, torch.tensor(self.eos_token_ids))
        eos_idx = torch.full((is_eos.size(0),), is_eos.size(1), dtype=torch.long)
        eos_idx[is_eos.any(dim=1)] = is_eos.int().argmax(dim=1)[is_eos.any(dim=1)]
        keep = torch.arange(is_eos.size(1)).expand(is_eos.size(0), -1) <= eos_idx.unsqueeze(1)
        ids = [c[m].tolist() for c, m in zip(completion_ids, keep, strict=True)]
        return ids, None if logps is None else [lp[m].tolist() for lp, m in zip(logps, keep, strict=True)]
