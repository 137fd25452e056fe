"""The Compare tab: base model against the trained adapter."""

TEXTS: dict[str, tuple[str, str]] = {
    # compare tab
    "compare.tab": ("Compare", "对比"),
    "compare.intro": (
        (
            "Sample the base model and the base model with a run's adapter on the same prompts and seeds, and score "
            "both with the run's rewards."
        ),
        "在相同的提示词和随机种子下，分别采样基础模型和加载了训练适配器的模型，并用该训练的奖励打分。",
    ),
    "compare.run": ("Run", "训练记录"),
    "compare.prompts": ("Prompts, one per line", "提示词，每行一个"),
    "compare.prompts.info": (
        "Leave empty to use the first prompts of the run's prompt set.",
        "留空则使用该训练提示词集中的前几个提示词。",
    ),
    "compare.prompts.placeholder": ("Empty: the run's first prompts", "留空：使用该训练的前几个提示词"),
    "compare.samples": ("Completions per prompt and model", "每个提示词、每个模型的生成结果数"),
    "compare.run_button": ("Compare", "对比"),
    "compare.table": ("Before and after", "训练前后"),
    "compare.before": ("before (base)", "训练前（基础模型）"),
    "compare.before_reward": ("before: mean reward", "训练前：平均奖励"),
    "compare.after": ("after (trained)", "训练后"),
    "compare.after_reward": ("after: mean reward", "训练后：平均奖励"),
    "compare.delta": ("delta", "差值"),
    "compare.no_run": ("Pick a run with a saved adapter first.", "请先选择一个已保存适配器的训练。"),
    "compare.summary": (
        "**Mean reward delta {delta}** (run `{run}`): the weighted total of the run's own rewards (its recipe, not "
        "the Rewards tab's selection), averaged over {n} prompts × {k} completions each, trained minus base, same "
        "seeds. Each row's means are over its {k} completions; the table shows the first of each.",
        "**平均奖励差值 {delta}**（训练 `{run}`）：这次训练自己的奖励（它的配方，而不是奖励页当前所选）的"
        "加权总分，在 {n} 个提示词、每个 {k} 个生成结果上取平均，训练后减训练前，随机种子相同。"
        "每行的均值取自它的 {k} 个生成结果；表中只显示各自的第一个。",
    ),
}
