"""The Runs tab: the run store, downloads, publishing."""

TEXTS: dict[str, tuple[str, str]] = {
    # runs tab
    "runs.tab": ("Runs", "训练记录"),
    "runs.intro": (
        (
            "Past runs. Show a run's charts, put several runs' reward curves on one chart, download an adapter or "
            "delete a run."
        ),
        "以往的训练。查看某次训练的图表，把多次训练的奖励曲线画在一张图上，下载适配器，或删除训练。",
    ),
    "runs.refresh": ("Refresh", "刷新"),
    "runs.table": ("All runs", "全部训练记录"),
    "runs.run": ("Run", "训练记录"),
    "runs.show": ("Show charts", "显示图表"),
    "runs.download": ("Download adapter (.zip)", "下载适配器（.zip）"),
    "runs.delete": ("Delete run", "删除训练"),
    "runs.zip": ("Adapter", "适配器"),
    "runs.export": ("Download trl recipe (.zip)", "下载 trl 训练配方（.zip）"),
    "runs.export_script": ("Download Python script (.zip)", "下载 Python 脚本（.zip）"),
    "runs.script": ("Python script", "Python 脚本"),
    "runs.recipe": ("trl recipe", "trl 训练配方"),
    "runs.overlay": ("Reward curves of several runs", "多次训练的奖励曲线"),
    "runs.overlay.pick": ("Runs to overlay", "要叠加的训练"),
    "runs.overlay.mixed": (
        "These runs have different rewards, so their reward totals are on different scales and the lines above "
        "cannot be compared as they stand. Each run's rewards:",
        "这些训练用的奖励不同，总奖励的尺度也不同，上面的曲线不能直接比较。各次训练的奖励：",
    ),
    "runs.none_selected": ("Pick a run first.", "请先选择一个训练。"),
    "runs.no_adapter": ("Run {run} has no saved adapter yet.", "训练 {run} 还没有保存的适配器。"),
    "runs.deleted": ("Deleted run {run}.", "已删除训练 {run}。"),
    "runs.col.run": ("run", "训练记录"),
    "runs.col.status": ("status", "状态"),
    "runs.col.step": ("steps", "步数"),
    "runs.label": (
        "{run} · {created} · {status} · {step}/{total} steps",
        "{run} · {created} · {status} · {step}/{total} 步",
    ),
    "runs.label.reward": ("reward {reward}", "奖励 {reward}"),
    "runs.recipe_blocked": (
        "No trl grpo recipe for this run: `trl grpo` cannot run its {name}. Download the Python script instead.",
        "这次训练无法导出 trl grpo 配方：`trl grpo` 不支持它的 {name}。请改为下载 Python 脚本。",
    ),
    "runs.summary": (
        "`{run}` · {status} · {step}/{total} steps · wall time {wall}",
        "`{run}` · {status} · {step}/{total} 步 · 用时 {wall}",
    ),
    "runs.col.duration": ("wall time", "用时"),
    "runs.col.created": ("created", "创建时间"),
    "runs.col.model": ("model", "模型"),
    "runs.col.rewards": ("rewards", "奖励"),
    "runs.col.final_reward": ("final reward", "最终奖励"),
    "runs.col.error": ("error", "错误"),
    "runs.published_mark": ("published", "已公开"),
    "runs.delete.confirm": (
        "Delete run `{run}` with its charts and adapter? This cannot be undone.",
        "删除训练 `{run}` 及其图表和适配器？此操作无法撤销。",
    ),
    "runs.delete.yes": ("Yes, delete it", "确认删除"),
    "runs.delete.no": ("Cancel", "取消"),
    # --- public mode (run ownership, training queue) ---
    "runs.publish": ("Publish (read-only)", "公开（只读）"),
    "runs.continue": ("Continue", "继续训练"),
    "runs.continue.steps": ("Train to step (max_steps)", "训练到第几步（max_steps）"),
    "runs.continue.steps_info": (
        "0 (or empty): the run's own max_steps. Larger: trains a finished run further.",
        "0（或留空）：沿用该训练的 max_steps。更大：让已完成的训练继续训练。",
    ),
    "runs.continued": (
        "Run {run} continues from step {step} (its last checkpoint); follow it on the Train tab.",
        "训练 {run} 从第 {step} 步（其最后一个检查点）继续；可在“训练”页查看进度。",
    ),
    "runs.continue_queued": (
        "Run {run} will continue from its last checkpoint when the machine is free.",
        "机器空闲后，训练 {run} 将从其最后一个检查点继续。",
    ),
    "runs.published": (
        "Run {run} is now visible to every visitor, read-only.",
        "训练 {run} 已公开：所有访客都能查看，但不能修改或删除。",
    ),
}
