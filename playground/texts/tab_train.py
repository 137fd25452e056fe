"""The Train tab: the form, the run's status, queue and alerts."""

TEXTS: dict[str, tuple[str, str]] = {
    # train tab
    "train.tab": ("Train", "训练"),
    "train.intro": (
        (
            "Train a LoRA adapter with TRL's GRPOTrainer. The rewards are the ones selected on the Rewards tab. "
            "Field names are TRL's."
        ),
        "用 TRL 的 GRPOTrainer 训练 LoRA 适配器。奖励即“奖励”页中选择的奖励。字段名与 TRL 一致。",
    ),
    "train.rewards": ("Rewards (edit them on the Rewards tab)", "奖励（在“奖励”页中修改）"),
    "train.group.generation": ("Generation: group size, length, sampling", "生成：组大小、长度、采样"),
    "train.group.optimisation": ("Optimisation: KL, clipping, loss, batch", "优化：KL、裁剪、损失、批大小"),
    "train.group.cold_start": ("Cold start: SFT warm-up, completion prefix", "冷启动：SFT 预热、生成前缀"),
    "train.group.evaluation": ("Evaluation: held-out prompts", "评估：留出提示词"),
    "train.group.rollout": (
        "Rollout and correction: vLLM, bf16 rollout, importance sampling",
        "采样与校正：vLLM、bf16 采样、重要性采样",
    ),
    "train.group.run": ("Reward errors, saving and logging", "奖励出错、保存与日志"),
    "train.data": ("Data", "数据"),
    "train.data.info": (
        "A built-in set, an uploaded file (CSV, JSON, JSONL or Parquet), or a Hugging Face dataset id.",
        "内置提示词集、上传的文件（CSV、JSON、JSONL 或 Parquet），或 Hugging Face 数据集 id。",
    ),
    "train.data.upload": ("Upload a prompt file", "上传提示词文件"),
    "train.data.checked": ("The uploaded file has {rows} prompts.", "上传的文件包含 {rows} 个提示词。"),
    "train.lora": ("LoRA", "LoRA"),
    "train.quantization": ("Quantization and device", "量化与设备"),
    "train.start": ("Start training", "开始训练"),
    "train.stop": ("Stop", "停止"),
    "train.samples": ("Latest samples", "最新样本"),
    "train.alerts": ("Health alerts", "健康提醒"),
    "train.alerts.none": ("No alerts so far.", "目前没有提醒。"),
    "train.alerts.at_step": ("(step {step})", "（第 {step} 步）"),
    "train.alerts.steps": ("(steps {first}–{last})", "（第 {first}–{last} 步）"),
    "train.alerts.resolved": ("Resolved at step {step}:", "第 {step} 步起已消除："),
    "train.alerts.superseded": (
        "Replaced at step {step} by a broader alert (not resolved):",
        "第 {step} 步起由更全面的提醒取代（并未消除）：",
    ),
    "train.alerts.none_holding": (
        "No alert holds now; the ones raised earlier in the run are kept below.",
        "目前没有生效的提醒；本次训练中先前出现过的提醒保留在下面。",
    ),
    "train.progress": (
        "Step {step} of {total} · the whole run's ETA {eta}",
        "第 {step} / {total} 步 · 整个训练预计剩余 {eta}",
    ),
    "train.status.none": (
        "No run yet since the app started; past runs are on the Runs tab.",
        "应用启动后还没有训练；以往的训练在“训练记录”页。",
    ),
    "train.status.other_recipe": (
        "The charts and samples below are that run's, `{run}` (rewards {rewards}), not the recipe in your form.",
        "下面的图表和样例属于那次训练 `{run}`（奖励 {rewards}），不是你表单里的配方。",
    ),
    "train.status.other_lesson": (
        "The charts and samples below are that run's, `{run}`: the lesson “{lesson}” (rewards {rewards}), not the "
        "recipe in your form.",
        "下面的图表和样例属于那次训练 `{run}`：“{lesson}”一课（奖励 {rewards}），不是你表单里的配方。",
    ),
    "train.status.other_session": (
        (
            "A run is in progress (step {step} of {total}), started in another session. You can watch it here; only "
            "the session that started it can stop it."
        ),
        (
            "有一个训练正在进行（第 {step} / {total} 步），由另一个会话启动。你可以在这里观看；只有启动它的会话可以"
            "停止它。"
        ),
    ),
    "train.status.queued": ("Run `{run}` is queued.", "训练 `{run}` 正在排队。"),
    "train.status.loading": ("Run `{run}`: loading the model and the data…", "训练 `{run}`：正在加载模型和数据…"),
    "train.status.running": (
        "Run `{run}` is running: step {step} of {total}, {elapsed} elapsed, the whole run's ETA {eta}.",
        "训练 `{run}` 进行中：第 {step} / {total} 步，已用时 {elapsed}，整个训练预计剩余 {eta}。",
    ),
    "train.status.stopping": (
        "Run `{run}` is stopping after the current step; the adapter will be saved.",
        "训练 `{run}` 将在当前步结束后停止；适配器会被保存。",
    ),
    "train.status.stopping_by_you": (
        "Stopping run `{run}` after the current step…",
        "正在停止训练 `{run}`（当前步结束后）…",
    ),
    "train.status.finished": (
        "Run `{run}` finished: {step} steps in {elapsed}. Compare it on the Compare tab.",
        "训练 `{run}` 已完成：{step} 步，用时 {elapsed}。可在“对比”页比较效果。",
    ),
    "train.status.stopped": (
        "Run `{run}` was stopped at step {step}; its adapter was saved.",
        "训练 `{run}` 已在第 {step} 步停止；适配器已保存。",
    ),
    "train.status.failed": ("Run `{run}` failed: {error}", "训练 `{run}` 失败：{error}"),
    "train.status.interrupted": ("Run `{run}` was interrupted: {error}", "训练 `{run}` 被中断：{error}"),
    "train.eval_answers": (
        "Held-out answers at each eval point (same prompts and seeds)",
        "每个评估点的留出提示词上的生成结果（同样的提示词和随机种子）",
    ),
    "train.eval_answers.model": ("Model", "模型"),
    "train.eval_answers.after_step": ("After GRPO step {step}", "GRPO 第 {step} 步后"),
    "train.phase.label": ("Phase: {phase}", "阶段：{phase}"),
    "train.fast_path_off": (
        "ℹ TRL's own code runs where the CPU fast path does not fit this install (correct, slower): {why}",
        "ℹ 在 CPU 快速路径与当前安装不匹配的部分，改用 TRL 自己的代码（结果相同，速度较慢）：{why}",
    ),
    "train.phase.warmup": ("warm-up (SFT)", "预热（SFT）"),
    "train.phase.grpo": ("GRPO", "GRPO 强化学习"),
    "train.phase.eval": ("scoring the eval prompts", "正在为评估提示词打分"),
    "train.status.warmup_run": (
        (
            "Run `{run}` is warming up with SFT: step {step} of {total}, {elapsed} elapsed; the whole run's ETA {eta} "
            "(GRPO starts after the warm-up)."
        ),
        (
            "训练 `{run}` 正在做 SFT 预热：第 {step} / {total} 步，已用时 {elapsed}；整个训练预计剩余 {eta}"
            "（预热结束后开始 GRPO）。"
        ),
    ),
    "train.progress.warmup_run": (
        "SFT step {step} of {total} · the whole run's ETA {eta}",
        "SFT 预热第 {step} / {total} 步 · 整个训练预计剩余 {eta}",
    ),
    "train.progress.warmup_done": ("SFT step {step} of {total}", "SFT 预热第 {step} / {total} 步"),
    "train.progress.done": ("Step {step} of {total}", "第 {step} / {total} 步"),
    "train.status.eval": (
        (
            "Run `{run}` is scoring its held-out eval prompts at step {step} of {total}, {elapsed} elapsed, the "
            "whole run's ETA {eta}."
        ),
        "训练 `{run}` 正在为留出的评估提示词打分：第 {step} / {total} 步，已用时 {elapsed}，整个训练预计剩余 {eta}。",
    ),
    "train.data.kind_taken": (
        "dataset_name {name} is read as dataset_kind {kind}.",
        "dataset_name {name} 按 dataset_kind {kind} 读取。",
    ),
    "train.status.other_done": (
        "No run of yours is going. The latest run, `{run}`, was started in another session; it is on the Runs tab.",
        "你目前没有正在进行的训练。最近一次训练 `{run}` 由另一个会话启动；可在“训练记录”页查看。",
    ),
    "train.state.queued": ("queued", "排队中"),
    "train.state.loading": ("loading", "加载中"),
    "train.state.running": ("running", "训练中"),
    "train.state.stopping": ("stopping", "正在停止"),
    "train.state.finished": ("finished", "已完成"),
    "train.state.failed": ("failed", "失败"),
    "train.state.stopped": ("stopped", "已停止"),
    "train.state.interrupted": ("interrupted", "已中断"),
    "train.alert.no_signal": (
        (
            "**Most groups gave every completion the same reward, so GRPO has nothing to learn from.** Make the "
            "reward more graded, or raise temperature or num_generations."
        ),
        (
            "**大多数组中每个生成结果得分都相同，GRPO 无从学习**。让奖励更有层次（给部分分），或调高 temperature 或"
            " num_generations。"
        ),
    ),
    "train.alert.constant_reward": (
        (
            "**A reward function gives every completion the same score.** Check the reward and its parameters; it "
            "adds no signal."
        ),
        "**某个奖励函数给所有生成结果打同样的分**。请检查该奖励及其参数；它没有提供任何学习信号。",
    ),
    "train.alert.clipped": (
        (
            "**Most completions hit max_completion_length and were cut off.** Raise max_completion_length, or "
            "reward shorter answers."
        ),
        "**大多数生成结果达到 max_completion_length 被截断**。请调大 max_completion_length，或奖励更短的生成结果。",
    ),
    "train.alert.collapse": (
        (
            "**Completions collapsed to a few tokens.** Lower learning_rate, raise beta, and check that the reward "
            "does not pay for empty answers."
        ),
        "**生成结果塌缩到只有几个 token**。请降低 learning_rate、调高 beta，并检查奖励是否在给空的生成结果加分。",
    ),
    "train.alert.kl_spike": (
        "**kl jumped: the model moved suddenly away from the base model.** Lower learning_rate or raise beta.",
        "**kl 突然跳升：模型突然偏离基础模型**。请降低 learning_rate 或调高 beta。",
    ),
    "train.alert.dominant_reward": (
        "**One reward function dominates the total.** Rescale the weights so each reward can move the total.",
        "**某一个奖励函数主导了总分**。请调整权重，让每个奖励都能影响总分。",
    ),
    "train.alert.nothing_to_weigh": (
        (
            "**Only one reward varies; the others give every completion the same score, so there is nothing to "
            "weigh yet.** No weight helps a reward that does not vary: give it a cold start (sft_warmup_steps, "
            "completion_prefix, tag_layout)."
        ),
        (
            "**只有一个奖励在变化，其他奖励给所有生成结果打同样的分，所以现在还谈不上权衡**。任何权重都帮不了一个不"
            "变化的奖励：请先给它冷启动（sft_warmup_steps、completion_prefix、tag_layout）。"
        ),
    ),
    "train.alert.flat_reward": (
        (
            "**The reward has not improved for many steps.** Check the reward on Preview, raise learning_rate a "
            "little, or try more steps."
        ),
        "**奖励已经很多步没有提升**。请在“预览”页检查奖励，稍微调高 learning_rate，或增加训练步数。",
    ),
    "train.alert.length_hacking": (
        (
            "**Completions grow longer while the other rewards stay flat: the model may be gaming a length "
            "reward.** Lower the length reward's weight or cap the length."
        ),
        "**生成结果越来越长而其他奖励没有变化：模型可能在钻长度奖励的空子**。请降低长度奖励的权重，或限制长度。",
    ),
    "train.queue.cancel": ("Cancel my queued run", "取消我排队中的训练"),
    "train.queue.cancelled": ("Your queued run was cancelled.", "已取消你排队中的训练。"),
    "train.queue.position": (
        "Your run is queued: position {position} of {waiting}; it starts in about {eta}.",
        "你的训练正在排队：第 {position} 位（共 {waiting} 个）；大约 {eta} 后开始。",
    ),
    "train.queue.position_no_eta": (
        "Your run is queued: position {position} of {waiting}; it starts when the runs ahead end.",
        "你的训练正在排队：第 {position} 位（共 {waiting} 个）；前面的训练结束后开始。",
    ),
}
