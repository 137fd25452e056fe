"""The Reward lab tab: dry run, re-scoring, probe and OpenAI graders."""

TEXTS: dict[str, tuple[str, str]] = {
    # --- reward lab (dry run, re-scoring, probe, OpenAI graders) ---
    "lab.tab": ("Reward lab", "奖励实验室"),
    "lab.intro": (
        (
            "Before spending compute: does the reward give a learning signal on your prompts, can it be gamed, and "
            "can your OpenAI grader run here? The dry run samples G completions for each of N prompts and reports "
            "what TRL would log at step 0."
        ),
        (
            "在花费算力之前先弄清楚：这个奖励在你的提示词上有没有学习信号，会不会被钻空子，你的 OpenAI 评分器能否在"
            "这里运行？试运行为 N 个提示词各采样 G 个生成结果，并给出 TRL 在第 0 步会记录的指标。"
        ),
    ),
    "lab.model": ("Model", "模型"),
    "lab.set": ("Prompt set", "提示词集"),
    "lab.num_prompts": ("Prompts (N)", "提示词数（N）"),
    "lab.run": ("Dry run", "试运行"),
    "lab.prompts": (
        "Prompts: mean, std and whether the group gives a signal",
        "各提示词：均值、标准差，以及该组是否有学习信号",
    ),
    "lab.signal_file": ("Prompts that give a signal (JSONL dataset)", "有学习信号的提示词（JSONL 数据集）"),
    "lab.rescore.title": ("Re-score without generating", "不重新生成，直接重新打分"),
    "lab.weights": (
        "Weights (edit a weight or untick a reward: the dry run is re-scored at once)",
        "权重（修改权重或取消勾选某个奖励，试运行结果会立即重新计算）",
    ),
    "lab.probe.title": ("Reward-hacking probe", "奖励漏洞探测"),
    "lab.probe.run": ("Probe the selected rewards", "探测所选奖励"),
    "lab.probe.findings": (
        "Degenerate texts that score at or above the real completions",
        "得分不低于真实生成结果的退化文本",
    ),
    "lab.probe.none": (
        "None of the {n} degenerate texts scored at or above the real completions.",
        "{n} 个退化文本的得分都低于真实生成结果。",
    ),
    "lab.probe.found": (
        "**{n} findings**: these degenerate texts score at or above the real completions.",
        "**发现 {n} 处问题**：这些退化文本的得分不低于真实生成结果。",
    ),
    "lab.grader.title": ("OpenAI grader import / export", "导入 / 导出 OpenAI 评分器"),
    "lab.grader.paste": ("Paste an OpenAI grader JSON", "粘贴 OpenAI 评分器的 JSON"),
    "lab.grader.export": ("The current selection as an OpenAI grader", "当前所选奖励对应的 OpenAI 评分器"),
    "lab.grader.import": ("Import grader", "导入评分器"),
    "lab.grader.export_run": ("Export selection", "导出所选奖励"),
    "lab.grader.empty": ("Paste a grader JSON first.", "请先粘贴评分器的 JSON。"),
    "lab.grader.imported": (
        "Imported: {n} reward(s) selected (see the Rewards tab).",
        "已导入：选中了 {n} 个奖励（见“奖励”页）。",
    ),
    "lab.grader.replaced": (
        "It replaced the selection {old}: **Undo import** brings that selection (and the custom code) back.",
        "它替换了之前所选的 {old}：点“**撤销导入**”可恢复之前所选的奖励（以及自定义代码）。",
    ),
    "lab.grader.undo": ("Undo import", "撤销导入"),
    "lab.grader.nothing_to_undo": (
        "Nothing to undo: no import has replaced a selection in this page.",
        "没有可撤销的导入：本页还没有导入替换过所选奖励。",
    ),
    "lab.grader.undone": (
        "Import undone: the selection is {old} again.",
        "已撤销导入：所选奖励恢复为 {old}。",
    ),
    "lab.grader.columns": ("They read these dataset columns: {columns}.", "它们读取这些数据集列：{columns}。"),
    "lab.no_signal": ("no signal", "无信号"),
    "lab.correlation": (
        "Rank correlation (Spearman) between rewards: {pairs}.",
        "奖励之间的秩相关（Spearman）：{pairs}。",
    ),
    "lab.shares": (
        "Share of the within-group spread of the total: {shares}.",
        "各奖励在组内总分波动中所占比例：{shares}。",
    ),
    "lab.rescored": ("Scored in {ms} ms.", "打分用时 {ms} 毫秒。"),
    "lab.flat": (
        "{names} scored every completion of each group the same, which moves no advantage.",
        "{names} 给每组内所有生成结果的分数都一样，这不会改变任何优势。",
    ),
    "lab.timing": ("Sampled in {seconds} s.", "生成用时 {seconds} 秒。"),
    "lab.sampling": ("Sampling {g} completions for each of {n} prompts…", "正在为 {n} 个提示词各采样 {g} 个生成结果…"),
    # --- reward lab, headers of the probe's findings table ---
    "lab.col.reward": ("reward", "奖励"),
    "lab.col.mean": ("mean", "均值"),
    "lab.col.std": ("std", "标准差"),
    "lab.col.zero_std": ("no spread", "组内无差异"),
    "lab.col.score": ("score", "得分"),
    "lab.col.text": ("degenerate text", "退化文本"),
    "lab.col.why": ("why it is a finding", "为什么是问题"),
}
