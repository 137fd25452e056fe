"""The live health alerts of a run (playground/training/health.py): what looks wrong, with its reward names and
figures, and what to try. Metric and field names stay TRL's."""

TEXTS: dict[str, tuple[str, str]] = {
    "alert.share.all": ("all", "所有"),
    "alert.share.at_least": ("at least {pct}", "至少 {pct}"),
    # no learning signal
    "alert.no_signal.float_noise": (
        "In the last {k} steps reward_std stayed below {limit:g}: every completion got the same total "
        "reward{score}, so GRPO has no advantage to learn from (frac_reward_zero_std misses a spread of float noise).",
        "最近 {k} 步里 reward_std 一直低于 {limit:g}：每个生成结果的总奖励都一样{score}，GRPO 没有可学习的优势"
        "（frac_reward_zero_std 察觉不到浮点噪声级别的差异）。",
    ),
    "alert.no_signal.score": (" ({value:.4g})", "（{value:.4g}）"),
    "alert.no_signal.recent": (
        "In the last {k} steps, {share} of the groups gave every completion the same reward, so GRPO has no "
        "advantage to learn from.",
        "最近 {k} 步里，{share}的组给每个生成结果打了同样的分，GRPO 没有可学习的优势。",
    ),
    "alert.no_signal.sustained": (
        "Over the last {k} steps, {pct} of the groups on average gave every completion the same reward, so GRPO has "
        "almost no advantage to learn from.",
        "最近 {k} 步里，平均 {pct} 的组给每个生成结果打了同样的分，GRPO 几乎没有可学习的优势。",
    ),
    "alert.no_signal.advice": (
        "Make the reward more graded (partial credit instead of pass/fail), or raise temperature or num_generations "
        "so the completions of a group differ.",
        "让奖励更有层次（给部分分，而不是只分对错），或调高 temperature 或 num_generations，让组内生成结果有差异。",
    ),
    "alert.cold_start": (
        "No weighting can help a reward that never varies; use a cold start: an SFT warm-up (sft_warmup_steps), a "
        "completion prefix such as the first tag (completion_prefix) or a partial-credit reward (tag_layout).",
        "权重帮不了一个从不变化的奖励；请用冷启动：SFT 预热（sft_warmup_steps）、以第一个标签作为生成前缀"
        "（completion_prefix），或给部分分的奖励（tag_layout）。",
    ),
    # a reward that never varies
    "alert.constant_reward.one": (
        "{listed} gave every completion the same score in all {steps} steps, so it adds nothing to the advantages, "
        "whatever the weights.",
        "{listed} 在全部 {steps} 步里给每个生成结果打了同样的分，无论权重多少，它对优势都没有贡献。",
    ),
    "alert.constant_reward.many": (
        "{listed} gave every completion the same score in all {steps} steps, so they add nothing to the advantages, "
        "whatever the weights.",
        "{listed} 在全部 {steps} 步里给每个生成结果打了同样的分，无论权重多少，它们对优势都没有贡献。",
    ),
    # cut off, collapse, KL
    "alert.clipped": (
        "In the last {k} steps, {share} of the completions hit max_completion_length and were cut off before they "
        "finished.",
        "最近 {k} 步里，{share} 的生成结果达到 max_completion_length，没写完就被截断。",
    ),
    "alert.clipped.advice": (
        "Raise max_completion_length, or reward shorter answers (for example with a length penalty).",
        "请调大 max_completion_length，或奖励更短的生成结果（例如加长度惩罚）。",
    ),
    "alert.collapse": (
        "Completions collapsed to {latest:.1f} tokens on average (they were {first:.1f} at step {step}).",
        "生成结果平均塌缩到 {latest:.1f} 个 token（第 {step} 步时为 {first:.1f}）。",
    ),
    "alert.collapse.advice": (
        "Lower learning_rate and raise beta (the KL weight) so the policy stays near the base model, and check that "
        "the reward does not pay for empty or one-token answers.",
        "请降低 learning_rate、调高 beta（KL 权重），让策略靠近基础模型，并检查奖励是否在给空的生成结果或只有一个 tok"
        "en 的生成结果加分。",
    ),
    "alert.kl_spike": (
        "The KL to the base model jumped to {latest:.3g} at step {step}, more than {factor:.0f}x its median so far "
        "({median:.3g}): the policy is moving away from the base model fast.",
        "第 {step} 步时与基础模型的 KL 跳升到 {latest:.3g}，超过此前中位数（{median:.3g}）的 {factor:.0f} 倍："
        "策略正在快速偏离基础模型。",
    ),
    "alert.kl_spike.advice": (
        "Lower learning_rate or raise beta (the KL weight) to keep each update small.",
        "请降低 learning_rate 或调高 beta（KL 权重），让每次更新保持很小。",
    ),
    # weights
    "alert.nothing_to_weigh": (
        "Only '{fn}' varies: {scores} gave every completion of a group the same score at step {step}, so there is "
        "nothing to weigh against it yet.",
        "只有 '{fn}' 在变化：{scores} 在第 {step} 步给一组里的每个生成结果打了同样的分，所以现在还没有什么可以和它"
        "权衡。",
    ),
    "alert.nothing_to_weigh.advice": (
        "No weight can make a reward count before it varies; give it a cold start (sft_warmup_steps, "
        "completion_prefix, a partial-credit reward such as tag_layout) and weigh the rewards once each varies.",
        "奖励在变化之前，任何权重都不能让它起作用；请先给它冷启动（sft_warmup_steps、completion_prefix、"
        "tag_layout 这样给部分分的奖励），等每个奖励都在变化后再权衡。",
    ),
    "alert.dominant_reward": (
        "'{fn}' makes up {pct} of the weighted reward, so the other rewards ({others}) barely change the advantages.",
        "'{fn}' 占加权奖励的 {pct}，其他奖励（{others}）几乎改变不了优势。",
    ),
    "alert.dominant_reward.advice": (
        "Rescale the rewards to similar ranges (for example 0 to 1) or lower the weight of '{fn}', so every reward "
        "counts.",
        "请把各奖励缩放到相近的范围（例如 0 到 1），或调低 '{fn}' 的权重，让每个奖励都起作用。",
    ),
    # not learning
    "alert.flat_reward": (
        "After {n} steps the mean reward is {last:.3g}, about what it was over the first {window} steps "
        "({first:.3g}): the policy is not learning.",
        "{n} 步之后平均奖励为 {last:.3g}，和最初 {window} 步（{first:.3g}）差不多：策略没有在学习。",
    ),
    "alert.flat_reward.advice": (
        "Raise learning_rate, check that the reward function tells good completions from bad ones, or raise "
        "num_generations for more varied groups.",
        "请调高 learning_rate，检查奖励函数能否区分好坏生成结果，或调高 num_generations 让组内更多样。",
    ),
    "alert.flat_eval": (
        "After {n} steps the eval reward on the held-out prompts is {after:.3g}, about what it was when GRPO started "
        "({before:.3g}): the policy is not learning.",
        "{n} 步之后留出提示词上的评估奖励为 {after:.3g}，和 GRPO 开始时（{before:.3g}）差不多：策略没有在学习。",
    ),
    "alert.flat_eval.advice": (
        "Raise learning_rate, check that the reward function tells good completions from bad ones, or raise "
        "num_generations for more varied groups; a reward that never varies needs a cold start.",
        "请调高 learning_rate，检查奖励函数能否区分好坏生成结果，或调高 num_generations 让组内更多样；从不变化的奖励"
        "需要冷启动。",
    ),
    "alert.length_hacking": (
        "Completions grew from {before:.0f} to {after:.0f} tokens on average while the other rewards ({listed}) did "
        "not improve: the policy may be gaming the reward with length.",
        "生成结果平均从 {before:.0f} 个 token 增长到 {after:.0f} 个，而其他奖励（{listed}）没有提升：策略可能在靠"
        "长度钻奖励的空子。",
    ),
    "alert.length_hacking.advice": (
        "Cap max_completion_length, add a length penalty (for example soft_overlong), and check that the reward "
        "cannot be raised by padding the answer.",
        "请限制 max_completion_length，加上长度惩罚（例如 soft_overlong），并检查奖励不能靠填充生成结果来提高。",
    ),
}
