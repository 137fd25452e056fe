"""The Preview tab: a scored group of completions."""

TEXTS: dict[str, tuple[str, str]] = {
    # preview tab
    "preview.tab": ("Preview", "预览"),
    "preview.intro": (
        (
            "Sample a group of completions for one prompt and score it exactly as GRPO will: rewards, weighted "
            "total and advantage of each completion."
        ),
        "为一个提示词采样一组生成结果，并完全按 GRPO 的方式打分：每个生成结果的各项奖励、加权总分和优势。",
    ),
    "preview.model": ("Model", "模型"),
    "preview.model.embedded": ("SmolLM2-135M-Instruct (embedded)", "SmolLM2-135M-Instruct（内置）"),
    "preview.model.info": (
        "The embedded SmolLM2, a Hugging Face Hub id, or a local folder (type it in).",
        "内置的 SmolLM2、Hugging Face Hub 模型 id，或本地文件夹（直接输入）。",
    ),
    "preview.set": ("Prompt set", "提示词集"),
    "preview.row": ("Prompt from the set", "从提示词集中选择"),
    "preview.prompt": ("Prompt", "提示词"),
    "preview.prompt.info": ("Edit it or type your own.", "可以修改，也可以自己输入。"),
    "preview.g": ("Group size G", "组大小 G"),
    "preview.g.info": (
        "num_generations: completions sampled for the prompt",
        "num_generations：为该提示词采样的生成结果数",
    ),
    "preview.generate": ("Generate group", "生成一组"),
    "preview.table": ("Group", "生成组"),
    "preview.empty_prompt": (
        "The prompt is empty; type a prompt or pick one from a prompt set.",
        "提示词为空；请输入提示词，或从提示词集中选择一个。",
    ),
    "preview.generating": ("Generating {g} completions", "正在生成 {g} 个生成结果"),
    "preview.timing": ("Generated {g} completions in {seconds} s.", "{seconds} 秒内得到 {g} 个生成结果。"),
    "preview.g.range": (
        "The group size G must be a whole number from {low} to {high}, got {g}.",
        "组大小 G 必须是 {low} 到 {high} 之间的整数，实际为 {g}。",
    ),
    "preview.advantage.help": (
        (
            "**Advantage**: how much better (green) or worse (red) a completion scored than the mean of its group, "
            "divided by the group's std (TRL's `scale_rewards=group`; the summary under the table names the settings "
            "used). Training makes green completions more likely and red ones less likely; the stronger the colour, "
            "the larger the push. A group where all scores are equal has advantage 0 everywhere: nothing to learn."
        ),
        (
            "**优势（advantage）**：某个生成结果的得分比组内平均分高多少（绿色）或低多少（红色），再除以组内标准差（"
            "TRL 的 `scale_rewards=group`；表格下方的摘要写明所用的设置）。"
            "训练会让绿色的生成结果更可能出现、红色的更少出现；颜色越深，推动越大。"
            "如果一组的得分全都相同，优势全为 0：没有可学的信号。"
        ),
    ),
    # which advantage settings the group was scored with (the Train tab's recipe)
    "preview.advantage.settings": (
        "Advantages as training computes them, with the Train tab's recipe: `scale_rewards={scale}`, "
        "`multi_objective_aggregation={aggregation}`, the Rewards tab's weights.",
        "优势按训练时的方式计算，用的是训练页配方：`scale_rewards={scale}`，"
        "`multi_objective_aggregation={aggregation}`，奖励页的权重。",
    ),
    "preview.advantage.batch": (
        "With these settings an advantage depends on the whole batch; here the batch is this one group, in training "
        "it is the generation batch of {batch} completions, so the values there differ.",
        "在这些设置下，优势取决于整个批次；这里的批次只有这一组，训练时则是 {batch} 个生成结果的生成批量，"
        "所以训练中的数值会不同。",
    ),
}
