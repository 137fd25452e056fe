"""The page's own texts: title, table headers, a scored group's summary and flags."""

TEXTS: dict[str, tuple[str, str]] = {
    # app
    "app.title": ("GRPO Reward Playground", "GRPO 奖励函数试验场"),
    "app.bad_packed": (
        "This form's values did not come as the page sends them (a list of {count}); reload the page.",
        "表单的值不是页面发送的格式（应为 {count} 个值的列表）；请刷新页面。",
    ),
    "app.subtitle": (
        "Design reward functions, preview them on groups of completions, then train with TRL's GRPO.",
        "设计奖励函数，在一组生成结果上预览打分，然后用 TRL 的 GRPO 训练。",
    ),
    # table headers
    "table.prompt": ("prompt", "提示词"),
    "table.completion": ("completion", "生成结果"),
    "table.total": ("total", "总分"),
    "table.advantage": ("advantage", "优势"),
    # group score
    "score.group": (
        "**Group of {n}**: mean reward {mean}, std {std}.",
        "**{n} 个生成结果的组**：平均奖励 {mean}，标准差 {std}。",
    ),
    "score.no_flags": (
        "This group gives a learning signal: the completions score differently.",
        "这一组有学习信号：各生成结果得分不同。",
    ),
    "flag.non_finite": ("NaN or inf rewards", "奖励为 NaN 或无穷大"),
    "flag.none": ("Skipped completions", "部分生成结果被跳过"),
    "flag.unscorable": ("Unscored completions", "有生成结果未被打分"),
    "flag.zero_std": ("No learning signal", "没有学习信号"),
    "flag.dominates": ("One reward dominates", "某个奖励占主导"),
    "flag.flat": ("A reward does not vary", "某个奖励没有变化"),
    "flag.clipped": ("Cut-off completions", "生成结果被截断"),
    # --- first session, charts, Chinese page ---
    "app.error_title": ("Error", "出错了"),
    "app.duplicate": (
        "Duplicate this Space for a private trainer with no queue.",
        "复制这个 Space，就有一个不用排队的私人训练器。",
    ),
    "app.duplicate_button": ("Duplicate Space", "复制 Space"),
    "app.warning_title": ("Warning", "注意"),
    "app.info_title": ("Note", "提示"),
    "app.start_here": ("**New here? Start with a lesson.**", "**第一次来？从一课开始。**"),
    "app.start_here.detail": (
        "The format lesson shows a reward that gives GRPO nothing to learn from, the cold start that fixes it, and a "
        "reference run to compare your own with.",
        "格式这一课展示一个让 GRPO 无从学习的奖励、解决它的冷启动，以及一次可以和你自己的训练对照的参考训练。",
    ),
    # under a table wider than a phone's screen (shown on a phone only)
    "app.scroll_hint": ("→ Swipe the table sideways for more columns.", "→ 左右滑动表格，查看更多列。"),
    "app.start_here.dismiss": ("Hide", "不再显示"),
    "app.start_here.button": ("Start with the format lesson", "从格式课开始"),
    "table.step": ("step", "步"),
    # a parser's English message, kept under its Chinese explanation (`playground.texts.details`)
    "app.original_detail": ("Original message", "原始信息"),
    # durations (`playground.ui.common.duration_text`)
    "app.duration.seconds": ("{s}s", "{s} 秒"),
    "app.duration.minutes": ("{m}m {s:02d}s", "{m} 分 {s:02d} 秒"),
    "app.duration.hours": ("{h}h {m:02d}m", "{h} 小时 {m:02d} 分"),
    "app.duration.pieces": ("{total} ({pieces})", "{total}（分段：{pieces}）"),
}

# Keys Gradio's own frontend asks for but its translations lack: the status tracker's screen-reader line after an
# event ends reads "common.complete" without them.
GRADIO_MISSING = {"common.complete": ("Complete", "完成")}
