"""English and Chinese texts of the UI, keyed by tab (`train.start`, `preview.generate`, ...).

Static texts (labels, headings) go through `t(key)`: Gradio's `gr.I18n` translates them in the browser, following its
locale. Texts made by handlers (status lines, table headers, messages) go through `tr(lang, key, **values)`, with
`lang` taken from the request's Accept-Language, because `gr.I18n` only translates what the page was built with.
Field names of the run spec and metric names stay TRL's, untranslated, so that users can look them up in TRL's docs.
"""

import gradio as gr


EN: dict[str, str] = {
    # app
    "app.title": "GRPO Reward Playground",
    "app.subtitle": "Design reward functions, preview them on groups of completions, then train with TRL's GRPO.",
    # table headers
    "table.prompt": "prompt",
    "table.completion": "completion",
    "table.total": "total",
    "table.advantage": "advantage",
    # group score
    "score.group": "**Group of {n}**: mean reward {mean}, std {std}.",
    "score.no_flags": "This group gives a learning signal: the completions score differently.",
    "flag.non_finite": "NaN or inf rewards",
    "flag.none": "Skipped completions",
    "flag.unscorable": "Unscored completions",
    "flag.zero_std": "No learning signal",
    "flag.dominates": "One reward dominates",
    # rewards tab
    "rewards.tab": "Rewards",
    "rewards.intro": "Pick rewards from the library, set their parameters and weights, and see how they score "
    "completions. The examples under each reward are scored live with its current parameters.",
    "rewards.family.format": "Format",
    "rewards.family.length": "Length",
    "rewards.family.accuracy": "Accuracy",
    "rewards.family.content": "Content",
    "rewards.family.other": "Other",
    "rewards.use": "Use",
    "rewards.weight": "Weight",
    "rewards.needs_columns": "Needs the dataset column(s):",
    "rewards.selected": "Selected rewards:",
    "rewards.none_selected": "No reward selected: tick “Use” on at least one reward.",
    "rewards.json": "Selection as JSON (copy, or paste and apply)",
    "rewards.apply_json": "Apply JSON",
    "rewards.bad_json": "The selection is not valid JSON ({error}).",
    "rewards.try.title": "Try on text",
    "rewards.try.completions": "Completions",
    "rewards.try.info": "One completion per block; separate blocks with a line containing only ---",
    "rewards.try.context": "Prompt and dataset columns (optional)",
    "rewards.try.prompt": "Prompt",
    "rewards.try.columns": "Dataset columns as JSON, the same for every completion",
    "rewards.try.run": "Score",
    "rewards.try.table": "Scores, total and advantage",
    "rewards.try.too_few": "Paste at least two completions, separated by a line containing only ---.",
    "rewards.try.bad_columns": 'The dataset columns must be a JSON object such as {{"answer": "4"}} ({error}).',
    "rewards.custom.title": "Custom reward (Python)",
    "rewards.custom.label": "Custom reward function",
    "rewards.custom.note": "Custom code arrives with the sandbox. Until then this editor is read-only; the template "
    "shows the signature TRL calls.",
    # preview tab
    "preview.tab": "Preview",
    "preview.intro": "Sample a group of completions for one prompt and score it exactly as GRPO will: "
    "rewards, weighted total and advantage of each completion.",
    "preview.model": "Model",
    "preview.model.info": "The embedded SmolLM2, a Hugging Face Hub id, or a local folder (type it in).",
    "preview.set": "Prompt set",
    "preview.row": "Prompt from the set",
    "preview.prompt": "Prompt",
    "preview.prompt.info": "Edit it or type your own.",
    "preview.g": "Group size G",
    "preview.g.info": "num_generations: completions sampled for the prompt",
    "preview.generate": "Generate group",
    "preview.table": "Group",
    "preview.empty_prompt": "The prompt is empty; type a prompt or pick one from a prompt set.",
    "preview.generating": "Generating {g} completions",
    "preview.timing": "Generated {g} completions in {seconds} s.",
    # train tab
    "train.tab": "Train",
    "train.intro": "Train a LoRA adapter with TRL's GRPOTrainer. The rewards are the ones selected on the Rewards "
    "tab. Field names are TRL's.",
    "train.rewards": "Rewards (edit them on the Rewards tab)",
    "train.advanced": "Advanced GRPO settings",
    "train.data": "Data",
    "train.data.info": "A built-in set, an uploaded file (CSV, JSON, JSONL or Parquet), or a Hugging Face dataset id.",
    "train.data.upload": "Upload a prompt file",
    "train.lora": "LoRA",
    "train.quantization": "Quantization and device",
    "train.start": "Start training",
    "train.stop": "Stop",
    "train.samples": "Latest samples",
    "train.alerts": "Health alerts",
    "train.alerts.none": "No alerts so far.",
    "train.alerts.step": "step",
    "train.progress": "Step {step} of {total} · ETA {eta}",
    "train.status.none": "No run yet since the app started; past runs are on the Runs tab.",
    "train.status.other_session": "A run is in progress (step {step} of {total}), started in another session. "
    "You can watch it here; only the session that started it can stop it.",
    "train.status.queued": "Run `{run}` is queued.",
    "train.status.loading": "Run `{run}`: loading the model and the data…",
    "train.status.running": "Run `{run}` is running: step {step} of {total}, {elapsed} elapsed, ETA {eta}.",
    "train.status.stopping": "Run `{run}` is stopping after the current step; the adapter will be saved.",
    "train.status.stopping_by_you": "Stopping run `{run}` after the current step…",
    "train.status.finished": "Run `{run}` finished: {step} steps in {elapsed}. Compare it on the Compare tab.",
    "train.status.stopped": "Run `{run}` was stopped at step {step}; its adapter was saved.",
    "train.status.failed": "Run `{run}` failed: {error}",
    "train.status.interrupted": "Run `{run}` was interrupted: {error}",
    # compare tab
    "compare.tab": "Compare",
    "compare.intro": "Sample the base model and the base model with a run's adapter on the same prompts and seeds, "
    "and score both with the run's rewards.",
    "compare.run": "Run",
    "compare.prompts": "Prompts, one per line",
    "compare.prompts.info": "Leave empty to use the first prompts of the run's prompt set.",
    "compare.prompts.placeholder": "Empty: the run's first prompts",
    "compare.samples": "Completions per prompt and model",
    "compare.run_button": "Compare",
    "compare.table": "Before and after",
    "compare.before": "before (base)",
    "compare.before_reward": "before: mean reward",
    "compare.after": "after (trained)",
    "compare.after_reward": "after: mean reward",
    "compare.delta": "delta",
    "compare.no_run": "Pick a run with a saved adapter first.",
    "compare.summary": "**Mean reward delta {delta}** over {n} prompts (trained minus base, run `{run}`).",
    # runs tab
    "runs.tab": "Runs",
    "runs.intro": "Past runs. Show a run's charts, put several runs' reward curves on one chart, download an adapter "
    "or delete a run.",
    "runs.refresh": "Refresh",
    "runs.table": "Runs",
    "runs.run": "Run",
    "runs.show": "Show charts",
    "runs.download": "Download adapter (.zip)",
    "runs.delete": "Delete run",
    "runs.zip": "Adapter",
    "runs.overlay": "Reward curves of several runs",
    "runs.overlay.pick": "Runs to overlay",
    "runs.none_selected": "Pick a run first.",
    "runs.no_adapter": "Run {run} has no saved adapter yet.",
    "runs.deleted": "Deleted run {run}.",
}

ZH: dict[str, str] = {
    "app.title": "GRPO 奖励函数试验场",
    "app.subtitle": "设计奖励函数，在一组生成结果上预览打分，然后用 TRL 的 GRPO 训练。",
    "table.prompt": "提示词",
    "table.completion": "生成结果",
    "table.total": "总分",
    "table.advantage": "优势",
    "score.group": "**{n} 个生成结果的组**：平均奖励 {mean}，标准差 {std}。",
    "score.no_flags": "这一组有学习信号：各生成结果得分不同。",
    "flag.non_finite": "奖励为 NaN 或无穷大",
    "flag.none": "部分生成结果被跳过",
    "flag.unscorable": "有生成结果未被打分",
    "flag.zero_std": "没有学习信号",
    "flag.dominates": "某个奖励占主导",
    "rewards.tab": "奖励",
    "rewards.intro": "从奖励库中挑选奖励，设置参数和权重，看看它们如何给生成结果打分。"
    "每个奖励下方的示例会按当前参数实时打分。",
    "rewards.family.format": "格式",
    "rewards.family.length": "长度",
    "rewards.family.accuracy": "正确性",
    "rewards.family.content": "内容",
    "rewards.family.other": "其他",
    "rewards.use": "使用",
    "rewards.weight": "权重",
    "rewards.needs_columns": "需要数据集列：",
    "rewards.selected": "已选奖励：",
    "rewards.none_selected": "尚未选择奖励：请至少勾选一个奖励的“使用”。",
    "rewards.json": "以 JSON 表示的选择（可复制，或粘贴后应用）",
    "rewards.apply_json": "应用 JSON",
    "rewards.bad_json": "选择不是有效的 JSON（{error}）。",
    "rewards.try.title": "用文本试一试",
    "rewards.try.completions": "生成结果",
    "rewards.try.info": "每段一个生成结果；段与段之间用只含 --- 的一行分隔",
    "rewards.try.context": "提示词和数据集列（可选）",
    "rewards.try.prompt": "提示词",
    "rewards.try.columns": "数据集列（JSON），对每个生成结果相同",
    "rewards.try.run": "打分",
    "rewards.try.table": "各项得分、总分和优势",
    "rewards.try.too_few": "请至少粘贴两个生成结果，用只含 --- 的一行分隔。",
    "rewards.try.bad_columns": '数据集列必须是 JSON 对象，例如 {{"answer": "4"}}（{error}）。',
    "rewards.custom.title": "自定义奖励（Python）",
    "rewards.custom.label": "自定义奖励函数",
    "rewards.custom.note": "自定义代码将随沙箱一起推出。在此之前编辑器为只读；模板展示了 TRL 调用奖励函数的签名。",
    "preview.tab": "预览",
    "preview.intro": "为一个提示词采样一组生成结果，并完全按 GRPO 的方式打分："
    "每个生成结果的各项奖励、加权总分和优势。",
    "preview.model": "模型",
    "preview.model.info": "内置的 SmolLM2、Hugging Face Hub 模型 id，或本地文件夹（直接输入）。",
    "preview.set": "提示词集",
    "preview.row": "从提示词集中选择",
    "preview.prompt": "提示词",
    "preview.prompt.info": "可以修改，也可以自己输入。",
    "preview.g": "组大小 G",
    "preview.g.info": "num_generations：为该提示词采样的生成结果数",
    "preview.generate": "生成一组",
    "preview.table": "生成组",
    "preview.empty_prompt": "提示词为空；请输入提示词，或从提示词集中选择一个。",
    "preview.generating": "正在生成 {g} 个结果",
    "preview.timing": "已在 {seconds} 秒内生成 {g} 个结果。",
    "train.tab": "训练",
    "train.intro": "用 TRL 的 GRPOTrainer 训练 LoRA 适配器。奖励即“奖励”页中选择的奖励。字段名与 TRL 一致。",
    "train.rewards": "奖励（在“奖励”页中修改）",
    "train.advanced": "GRPO 高级设置",
    "train.data": "数据",
    "train.data.info": "内置提示词集、上传的文件（CSV、JSON、JSONL 或 Parquet），或 Hugging Face 数据集 id。",
    "train.data.upload": "上传提示词文件",
    "train.lora": "LoRA",
    "train.quantization": "量化与设备",
    "train.start": "开始训练",
    "train.stop": "停止",
    "train.samples": "最新样本",
    "train.alerts": "健康提醒",
    "train.alerts.none": "目前没有提醒。",
    "train.alerts.step": "步",
    "train.progress": "第 {step} / {total} 步 · 预计剩余 {eta}",
    "train.status.none": "应用启动后还没有训练；以往的训练在“训练记录”页。",
    "train.status.other_session": "有一个训练正在进行（第 {step} / {total} 步），由另一个会话启动。你可以在这里观看；"
    "只有启动它的会话可以停止它。",
    "train.status.queued": "训练 `{run}` 正在排队。",
    "train.status.loading": "训练 `{run}`：正在加载模型和数据…",
    "train.status.running": "训练 `{run}` 进行中：第 {step} / {total} 步，已用时 {elapsed}，预计剩余 {eta}。",
    "train.status.stopping": "训练 `{run}` 将在当前步结束后停止；适配器会被保存。",
    "train.status.stopping_by_you": "正在停止训练 `{run}`（当前步结束后）…",
    "train.status.finished": "训练 `{run}` 已完成：{step} 步，用时 {elapsed}。可在“对比”页比较效果。",
    "train.status.stopped": "训练 `{run}` 已在第 {step} 步停止；适配器已保存。",
    "train.status.failed": "训练 `{run}` 失败：{error}",
    "train.status.interrupted": "训练 `{run}` 被中断：{error}",
    "compare.tab": "对比",
    "compare.intro": "在相同的提示词和随机种子下，分别采样基础模型和加载了训练适配器的模型，并用该训练的奖励打分。",
    "compare.run": "训练",
    "compare.prompts": "提示词，每行一个",
    "compare.prompts.info": "留空则使用该训练提示词集中的前几个提示词。",
    "compare.prompts.placeholder": "留空：使用该训练的前几个提示词",
    "compare.samples": "每个提示词、每个模型的生成数",
    "compare.run_button": "对比",
    "compare.table": "训练前后",
    "compare.before": "训练前（基础模型）",
    "compare.before_reward": "训练前：平均奖励",
    "compare.after": "训练后",
    "compare.after_reward": "训练后：平均奖励",
    "compare.delta": "差值",
    "compare.no_run": "请先选择一个已保存适配器的训练。",
    "compare.summary": "**平均奖励差值 {delta}**，共 {n} 个提示词（训练后减训练前，训练 `{run}`）。",
    "runs.tab": "训练记录",
    "runs.intro": "以往的训练。查看某次训练的图表，把多次训练的奖励曲线画在一张图上，下载适配器，或删除训练。",
    "runs.refresh": "刷新",
    "runs.table": "训练列表",
    "runs.run": "训练",
    "runs.show": "显示图表",
    "runs.download": "下载适配器（.zip）",
    "runs.delete": "删除训练",
    "runs.zip": "适配器",
    "runs.overlay": "多次训练的奖励曲线",
    "runs.overlay.pick": "要叠加的训练",
    "runs.none_selected": "请先选择一个训练。",
    "runs.no_adapter": "训练 {run} 还没有保存的适配器。",
    "runs.deleted": "已删除训练 {run}。",
}

TRANSLATIONS = {"en": EN, "zh": ZH}

# Browsers report Chinese as zh-CN, zh-TW, ...; the frontend falls back from those to "zh".
I18N = gr.I18n(en=EN, zh=ZH)


def t(key: str) -> gr.i18n.I18nData:
    """A static text, translated in the browser."""
    if key not in EN:
        raise KeyError(f"Unknown UI text key {key!r}")
    return I18N(key)


def tr(lang: str | None, key: str, **values) -> str:
    """A text made at run time, in `lang` ('en' or 'zh'), with `values` filled in.

    `lang=None` is for text built into the page when the app is built: the key is left for the browser to translate
    (only one key per string, and without values).
    """
    if lang is None:
        if values:
            raise ValueError(f"{key!r}: texts with values cannot be left for the browser to translate")
        return str(t(key))
    text = TRANSLATIONS.get(lang, EN).get(key) or EN[key]
    return text.format(**values) if values else text
