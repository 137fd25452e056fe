"""The CPU fast path of a GRPO step: `trainer` (a `GRPOTrainer` subclass), the lean sampler, shared-prompt scoring,
pre-packed linears and the allocator settings. Each part keeps TRL's results (tested against plain TRL). Every
private name of TRL, transformers, torch and bitsandbytes they use is in `internals`, checked at a trainer's start: a
part whose names differ steps aside and TRL's own code runs.

Imports torch, transformers and TRL only, nothing else of the project, so `models`, `preview` and training may use it.
"""
