"""The charts of a run: titles, axes and captions of each metric."""

TEXTS: dict[str, tuple[str, str]] = {
    "chart.step": ("step (optimizer step)", "步（优化器步数）"),
    "chart.series.function": ("reward function", "奖励函数"),
    "chart.series.run": ("run", "训练记录"),
    "chart.series.series": ("curve", "曲线"),
    "chart.reward.title": ("reward: mean total reward", "reward：平均总奖励"),
    "chart.reward.y": ("reward (weighted sum)", "奖励（加权和）"),
    "chart.reward.caption": (
        (
            "The weighted sum of the selected rewards, averaged over the step's completions. Up is good. "
            "eval_reward, when set, is the same on held-out prompts."
        ),
        (
            "所选奖励的加权和，在该步所有生成结果上取平均。越高越好。若开启评估，eval_reward 是在留出提示词上的同一"
            "指标。"
        ),
    ),
    "chart.per_function.title": ("rewards/<fn>/mean: each reward function", "rewards/<fn>/mean：各奖励函数"),
    "chart.per_function.y": ("reward (unweighted)", "奖励（未加权）"),
    "chart.per_function.caption": (
        (
            "Each reward function's mean score before weighting, one line per function. Up is good; one line rising "
            "while another falls is a trade-off."
        ),
        "各奖励函数加权前的平均分，每个函数一条线。越高越好；一条上升而另一条下降说明二者此消彼长。",
    ),
    "chart.reward_std.title": ("reward_std: spread of rewards", "reward_std：奖励的离散程度"),
    "chart.reward_std.y": ("std of reward", "奖励标准差"),
    "chart.reward_std.caption": (
        (
            "How much the rewards of a group's completions differ. It must stay above 0: GRPO learns only from "
            "differences within a group."
        ),
        "同一组生成结果的奖励差异有多大。必须保持大于 0：GRPO 只能从组内差异中学习。",
    ),
    "chart.zero_std.title": ("frac_reward_zero_std: groups without signal", "frac_reward_zero_std：没有学习信号的组"),
    "chart.zero_std.y": ("fraction of groups (0-1)", "组的比例（0-1）"),
    "chart.zero_std.caption": (
        "Share of groups whose completions all scored the same, so they teach nothing. Down is good.",
        "所有生成结果得分都相同（因此学不到东西）的组所占比例。越低越好。",
    ),
    "chart.kl.not_logged": (
        "kl not logged: TRL logs it only when beta > 0",
        "没有记录 kl：只有 beta > 0 时 TRL 才记录它",
    ),
    "chart.not_logged": ("{metric} not logged in this run", "这次训练没有记录 {metric}"),
    "chart.kl.title": ("kl: drift from the base model", "kl：偏离基础模型的程度"),
    "chart.kl.y": ("KL divergence (per token)", "KL 散度（每个 token）"),
    "chart.kl.caption": (
        (
            "How far the trained model has moved from the base model (logged when beta > 0). Small and slowly "
            "rising is healthy; a sudden jump is a warning."
        ),
        "训练后的模型偏离基础模型有多远（beta > 0 时记录）。数值小且缓慢上升是健康的；突然跳升需要警惕。",
    ),
    "chart.loss.title": ("loss: GRPO loss (and the SFT warm-up's)", "loss：GRPO 损失（及 SFT 预热的损失）"),
    "chart.loss.y": ("loss", "损失"),
    "chart.loss.caption": (
        (
            "The objective the optimizer minimises. Not a quality score: it moves either way around 0 (above 0 when "
            "the longer answers are the worse ones); watch the reward instead. warmup/loss is the SFT warm-up's "
            "cross-entropy at its own steps, drawn while the warm-up runs: down is good."
        ),
        (
            "优化器最小化的目标。它不是质量分数：在 0 上下波动（较长的生成结果较差时会高于 0）；请以奖励曲线为准。"
            "warmup/loss 是 SFT 预热按其自身步数记录的交叉熵，预热期间就会画出：越低越好。"
        ),
    ),
    "chart.mean_length.title": ("completions/mean_length: completion length", "completions/mean_length：生成长度"),
    "chart.mean_length.y": ("tokens", "token 数"),
    "chart.mean_length.caption": (
        (
            "Mean completion length in tokens (the length reward counts characters; an English token is about 4 "
            "characters). Neither way is good in itself: compare it with your target."
        ),
        (
            "生成结果的平均长度，单位是 token（长度奖励按字符计；一个英文 token 约 4 个字符）。本身无所谓高低：请与"
            "你的目标对比。"
        ),
    ),
    "chart.clipped.title": (
        "completions/clipped_ratio: cut-off completions",
        "completions/clipped_ratio：被截断的生成结果",
    ),
    "chart.clipped.y": ("fraction of completions (0-1)", "生成结果的比例（0-1）"),
    "chart.clipped.caption": (
        (
            "Share of completions cut off at max_completion_length before they finished. Down is good; near 1, "
            "raise max_completion_length or reward shorter answers."
        ),
        (
            "在写完之前就被 max_completion_length 截断的生成结果所占比例。越低越好；接近 1 时，请调大 "
            "max_completion_length 或奖励更短的生成结果。"
        ),
    ),
    "chart.overlay.title": ("reward of each run", "各次训练的奖励"),
    "chart.overlay.y": ("reward (weighted sum)", "奖励（加权和）"),
    "chart.overlay.caption": (
        (
            "The mean total reward per step, one line per run (runs with different rewards are not comparable). Up "
            "is good."
        ),
        "每步的平均总奖励，每次训练一条线（奖励设置不同的训练不可直接比较）。越高越好。",
    ),
    "chart.series.metric": ("metric", "指标"),
    # --- the held-out eval charts: one per reward, the run's eval points beside the lesson's reference run ---
    "chart.eval.label": ("held-out eval", "留出评估"),
    "chart.eval.title": ("held-out eval: {metric}", "留出评估：{metric}"),
    "chart.eval.x": ("eval point (GRPO step)", "评估点（GRPO 步）"),
    "chart.eval.y": ("mean on the held-out prompts", "留出提示词上的平均值"),
    "chart.eval.base": ("base", "基础模型"),
    "chart.eval.warmup": ("warm-up", "预热后"),
    "chart.eval.run": ("this run", "本次训练"),
    "chart.eval.reference": ("lesson reference", "课程参考"),
    "chart.eval.caption": (
        (
            "Held-out eval: each reward's mean on the same held-out prompts and seeds at every eval point (the base "
            "model, after the SFT warm-up, after GRPO steps), and sentence_rate where the answers are in tags. A run "
            "of a lesson's recipe has the lesson's reference run beside it (dashed). Up is good."
        ),
        (
            "留出评估：每个奖励在同一批留出提示词、同样随机种子上的平均值，评估点依次为基础模型、SFT 预热后、各 GRPO "
            "步之后；生成结果用标签分段时还有 sentence_rate。按课程配方训练时，课程的参考训练（虚线）画在旁边。越高越"
            "好。"
        ),
    ),
    # --- the Learn tab's curve: each chart metric of a lesson (a reward function's mean, or eval_reward) ---
    "chart.lesson.y": ("reward (mean)", "奖励（平均）"),
    # --- the bf16 rollout's importance-sampling chart ---
    "chart.is_ratio.title": (
        "sampling/importance_sampling_ratio/mean: sampler vs policy",
        "sampling/importance_sampling_ratio/mean：采样器与策略之比",
    ),
    "chart.is_ratio.y": ("ratio (1 = same distribution)", "比率（1 = 分布相同）"),
    "chart.is_ratio.caption": (
        (
            "Only with fast_rollout=bfloat16 or int8: the policy's probability of a completion over the sampler's, "
            "which TRL weights the loss by. Near 1 is good; far from 1, use float32."
        ),
        (
            "仅在 fast_rollout=bfloat16 或 int8 时出现：策略生成某个结果的概率与采样器的概率之比，TRL 用它为损失加权。"
            "接近 1 为好；远离 1 时，请改用 float32。"
        ),
    ),
}
