"""The Learn tab: the lessons, and the run's phase on the Train tab."""

TEXTS: dict[str, tuple[str, str]] = {
    # learn tab: the lessons, and the run's phase on the Train tab
    "learn.tab": ("Learn", "学习"),
    "learn.intro": (
        (
            "Guided lessons that follow the Hugging Face course chapter [“Implementing GRPO in TRL”]"
            "(https://huggingface.co/learn/llm-course/chapter12/4), “the article” below, one idea each. Pick a "
            "lesson and read it, then press **Load**: "
            "it fills the Rewards, Preview and Train tabs with the lesson's recipe. Generate a group on Preview, or "
            "start the run on Train and watch its charts."
        ),
        (
            "跟随 Hugging Face 课程中[“在 TRL 中实现 GRPO”](https://huggingface.co/learn/llm-course/chapter12/4)一章"
            "的引导课程，每课讲一个要点（下文说的“文章”就是这一章）。选择一课并阅读，然后点击 **载入**：它会把本课的"
            "配方填入“奖励”“预览”和“训练”页。可以在“预览”页生成一组生成结果，或在“训练”页开始训练并观察图表。"
        ),
    ),
    "learn.pick": ("Lesson", "课程"),
    "learn.load": ("Load into Rewards, Preview and Train", "载入到奖励、预览和训练页"),
    "learn.load_trap": ("Load the trap", "载入陷阱配方"),
    "learn.no_trap": ("The lesson “{title}” has no trap to load.", "“{title}”一课没有可载入的陷阱配方。"),
    "learn.expected": ("What to expect:", "预期结果："),
    "learn.recipe": ("What Load sets", "载入会设置的内容"),
    "learn.recipe.rewards": ("Rewards:", "奖励："),
    "learn.recipe.fields": ("Train settings (TRL's names):", "训练设置（TRL 参数名）："),
    "learn.recipe.prompt": ("Preview prompt:", "预览提示词："),
    "learn.recipe.trap": ("What “Load the trap” sets instead:", "“载入陷阱配方”改为设置的内容："),
    "learn.loaded": (
        (
            "Loaded “{title}”. The Rewards, Preview and Train tabs now hold its recipe: generate a group on "
            "Preview, or press Start training on Train."
        ),
        (
            "已载入“{title}”。奖励、预览和训练页已填入本课的配方：可以在“预览”页生成一组生成结果，或在“训练”页点击“开"
            "始训练”。"
        ),
    ),
    "learn.loaded_trap": (
        (
            "Loaded the trap of “{title}”. The Rewards, Preview and Train tabs now hold the recipe that fails: "
            "train it to see the failure, then Load the fix."
        ),
        "已载入“{title}”的陷阱配方。奖励、预览和训练页已填入会失败的配方：训练它看看失败的样子，再载入解决办法。",
    ),
    "learn.ref.title": ("Reference run", "参考训练"),
    "learn.ref.title_both": ("Reference runs: the fix and the trap", "参考训练：解决办法与陷阱"),
    "learn.ref.fix_title": ("The fix (what Load sets)", "解决办法（“载入”设置的配方）"),
    "learn.ref.trap_title": ("The trap (what “Load the trap” sets)", "陷阱（“载入陷阱配方”设置的配方）"),
    "learn.ref.busy": (
        (
            "The machine was shared with other work (load average {load} on {cores} cores): this is not a quiet "
            "machine's time, which is shorter."
        ),
        "当时机器还在做别的工作（{cores} 个核心上的平均负载为 {load}）：这不是空闲机器的用时，空闲时会更短。",
    ),
    "learn.ref.none": (
        "This lesson has no reference run: it trains nothing, or it has not been measured yet.",
        "这一课没有参考训练：它不训练，或者还没有实测。",
    ),
    "learn.ref.summary": (
        (
            "Measured on {where} of {cpu}: {wall} in all, "
            "{steps} GRPO steps, {samples} held-out answers per eval point ({prompts} prompts × {per} answers)."
        ),
        (
            "在 {cpu} 的 {where}上实测：共用时 {wall}，{steps} 步 GRPO，每个评估点 {samples} 个留出生成结果"
            "（{prompts} 个提示词 × 每个 {per} 个生成结果）。"
        ),
    ),
    "learn.ref.summary_train": (
        (
            "Measured on {where} of {cpu}: {wall} in all, "
            "{steps} GRPO steps, no held-out eval (the chart shows the training reward of "
            "each step)."
        ),
        (
            "在 {cpu} 的 {where}上实测：共用时 {wall}，"
            "{steps} 步 GRPO，没有留出提示词评估（图表显示每一步的训练奖励）。"
        ),
    ),
    "learn.ref.other_machine": (
        "This run was measured on {threads} thread(s) of {cpu} while a second run used its other core; the other "
        "lessons' runs on both cores of a quiet 2-core AMD EPYC. A run with all the cores takes less time.",
        "这次训练是在 {cpu} 上用 {threads} 个线程测的，另一个核心当时在跑另一次训练；其他课程的参考训练都在一台空闲的 "
        "2 核 AMD EPYC 上用两个核心测得。用上全部核心的训练会更快。",
    ),
    "learn.duration": (
        "⏱ About {wall} (the reference run, on {where} of {cpu}).",
        "⏱ 约 {wall}（参考训练，{cpu} 的 {where}）。",
    ),
    "learn.duration.none": ("⏱ No training run in this lesson.", "⏱ 这一课不需要训练。"),
    "learn.ref.cores": ("{cores} cores", "{cores} 个核心"),
    "learn.ref.threads": ("{threads} thread(s) of its {cores} cores", "{cores} 个核心中的 {threads} 个线程"),
    "learn.ref.alerts": ("Alerts the run raised: {alerts}.", "这次训练发出的提醒：{alerts}。"),
    "learn.ref.share": (
        (
            "`{metric}` on the held-out prompts: {base} before training → {warmup} after the warm-up → {final} "
            "after GRPO. The warm-up added {from_warmup}, GRPO {from_grpo}."
        ),
        (
            "留出提示词上的 `{metric}`：训练前 {base} → 预热后 {warmup} → GRPO 后 {final}。预热带来 {from_warmup}，"
            "GRPO 带来 {from_grpo}。"
        ),
    ),
    "learn.ref.share_grpo": (
        "`{metric}` on the held-out prompts: {base} before training → {final} after GRPO ({from_grpo}).",
        "留出提示词上的 `{metric}`：训练前 {base} → GRPO 后 {final}（{from_grpo}）。",
    ),
    # one line at a phone's width: a two-line label covered the plot's top (the legend names the runs)
    "learn.ref.chart": ("Eval curve", "评估曲线"),
    "learn.ref.reference": ("reference", "参考"),
    "learn.ref.live": ("your run", "你的训练"),
    "learn.ref.fix": ("fix", "解决办法"),
    "learn.ref.trap": ("trap", "陷阱"),
    "learn.ref.answers": (
        (
            "The reference run's held-out answers: the same prompt and seed before training, after the warm-up and "
            "after GRPO"
        ),
        "参考训练的留出提示词上的生成结果：同一个提示词、同一个随机种子，训练前、预热后和 GRPO 后",
    ),
    "learn.ref.fix_answers": (
        "The fix's held-out answers: the same prompt and seed before training, after the warm-up and after GRPO",
        "解决办法的留出提示词上的生成结果：同一个提示词、同一个随机种子，训练前、预热后和 GRPO 后",
    ),
    "learn.ref.trap_answers": (
        "The trap's held-out answers: the same prompt and seed before training, after the warm-up and after GRPO",
        "陷阱配方的留出提示词上的生成结果：同一个提示词、同一个随机种子，训练前、预热后和 GRPO 后",
    ),
    "learn.ref.col.prompt": ("Prompt", "提示词"),
    "learn.ref.col.base": ("Before training", "训练前"),
    "learn.ref.col.warmup": ("After the warm-up", "预热后"),
    "learn.ref.col.grpo": ("After GRPO", "GRPO 后"),
}
