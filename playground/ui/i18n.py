"""English and Chinese texts of the UI, keyed by tab (`train.start`, `preview.generate`, ...).

Static texts (labels, headings) go through `t(key)`: Gradio's `gr.I18n` translates them in the browser, following its
locale. Texts made by handlers (status lines, table headers, messages) go through `tr(lang, key, **values)`, with
`lang` taken from the request's Accept-Language, because `gr.I18n` only translates what the page was built with.
Field names of the run spec and metric names stay TRL's, untranslated, so that users can look them up in TRL's docs.
"""

import gradio as gr

from playground.ui.help_zh import generated_keys


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
    "rewards.examples.needs_params": "Set its parameters above to see its scores on the example completions.",
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
    "rewards.family.custom": "Custom (Python)",
    "rewards.custom.intro": "Write reward functions in Python: `def name(completions, **kwargs)`, returning one float "
    "(or None) per completion. The code runs in a sandboxed worker process, never in the app. **Check** it, tick the "
    "functions to use, and they score, preview and train like the library's rewards.",
    "rewards.custom.off": "Custom reward code is disabled on this server (PLAYGROUND_CUSTOM_CODE=off); use the "
    "library rewards.",
    "rewards.custom.label": "Custom reward code",
    "rewards.custom.check": "Check",
    "rewards.custom.choices": "Custom rewards: tick the ones to use and set their weights",
    "rewards.custom.use": "use",
    "rewards.custom.function": "function",
    "rewards.custom.weight": "weight",
    "rewards.custom.found": "**Reward functions found:** {names}",
    "rewards.custom.trial": "Trial run on example completions",
    "rewards.custom.trial_ok": "returned a value for each completion ({ms} ms).",
    "rewards.custom.constant": "it gave every trial completion the same score, so it would give GRPO no signal; it "
    "is not ticked (tick it to use it anyway).",
    "rewards.custom.output": "Printed by `{name}`:",
    "rewards.custom.empty": "(empty)",
    "rewards.custom.missing": "The custom reward `{name}` is selected but the code does not define it; press Check, "
    "or untick it.",
    "rewards.tests.title": "Reward unit tests",
    "rewards.tests.info": "One case per row: the function to test, a completion, optionally a prompt and the dataset "
    "columns as a JSON object, then the value expected (or a min and a max). Leave a cell empty to skip it; write "
    "none to expect None.",
    "rewards.tests.cases": "Cases",
    "rewards.tests.columns": "columns (JSON)",
    "rewards.tests.expected": "expected",
    "rewards.tests.min": "min",
    "rewards.tests.max": "max",
    "rewards.tests.run": "Run tests",
    "rewards.tests.results": "Results",
    "rewards.tests.case": "case",
    "rewards.tests.result": "result",
    "rewards.tests.got": "got",
    "rewards.tests.detail": "details",
    "rewards.tests.pass": "pass",
    "rewards.tests.fail": "FAIL",
    "rewards.tests.summary": "{passed} of {total} cases pass.",
    "rewards.tests.none": "Add at least one case: the function to test and a completion.",
    "rewards.tests.where": "Case {case}",
    "rewards.tests.bad_columns": 'Case {case}: the columns must be a JSON object such as {{"answer": "4"}} ({error}).',
    "rewards.tests.bad_number": "Case {case}: {column} must be a number, got {value}.",
    # preview tab
    "preview.tab": "Preview",
    "preview.intro": "Sample a group of completions for one prompt and score it exactly as GRPO will: "
    "rewards, weighted total and advantage of each completion.",
    "preview.model": "Model",
    "preview.model.embedded": "SmolLM2-135M-Instruct (embedded)",
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
    "train.data.checked": "The uploaded file has {rows} prompts.",
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
    "runs.export": "Download trl recipe (.zip)",
    "runs.export_script": "Download Python script (.zip)",
    "runs.script": "Python script",
    "runs.recipe": "trl recipe",
    "runs.overlay": "Reward curves of several runs",
    "runs.overlay.pick": "Runs to overlay",
    "runs.none_selected": "Pick a run first.",
    "runs.no_adapter": "Run {run} has no saved adapter yet.",
    "runs.deleted": "Deleted run {run}.",
    # learn tab: the lessons, and the run's phase on the Train tab
    "learn.tab": "Learn",
    "learn.intro": "Guided lessons that follow the article, one idea each. Pick a lesson and read it, then press "
    "**Load**: it fills the Rewards, Preview and Train tabs with the lesson's recipe. Generate a group on Preview, or "
    "start the run on Train and watch its charts.",
    "learn.pick": "Lesson",
    "learn.load": "Load into Rewards, Preview and Train",
    "learn.expected": "What to expect:",
    "learn.recipe": "What Load sets",
    "learn.recipe.rewards": "Rewards:",
    "learn.recipe.fields": "Train settings (TRL's names):",
    "learn.recipe.prompt": "Preview prompt:",
    "learn.loaded": "Loaded “{title}”. The Rewards, Preview and Train tabs now hold its recipe: generate a group on "
    "Preview, or press Start training on Train.",
    "learn.ref.title": "Reference run",
    "learn.ref.none": "This lesson has no reference run: it trains nothing, or it has not been measured yet.",
    "learn.ref.summary": "Measured with `bench/lessons.py` on {cores} cores of {cpu}, a machine shared with other "
    "work (load {load}): {wall} in all, {steps} GRPO steps, {samples} held-out answers per eval point.",
    "learn.ref.summary_train": "Measured with `bench/lessons.py` on {cores} cores of {cpu}, a machine shared with "
    "other work (load {load}): {wall} in all, {steps} GRPO steps, no held-out eval (the chart shows the training "
    "reward of each step).",
    "learn.ref.alerts": "Alerts the run raised: {alerts}.",
    "learn.ref.share": "`{metric}` on the held-out prompts: {base} before training → {warmup} after the warm-up → "
    "{final} after GRPO. The warm-up added {from_warmup}, GRPO {from_grpo}.",
    "learn.ref.share_grpo": "`{metric}` on the held-out prompts: {base} before training → {final} after GRPO "
    "({from_grpo}).",
    "learn.ref.chart": "Eval curve: the reference run, and your run of this recipe",
    "learn.ref.reference": "reference",
    "learn.ref.live": "your run",
    "learn.ref.answers": "The reference run's held-out answers: the same prompt and seed before training, after the "
    "warm-up and after GRPO",
    "learn.ref.col.prompt": "Prompt",
    "learn.ref.col.base": "Before training",
    "learn.ref.col.warmup": "After the warm-up",
    "learn.ref.col.grpo": "After GRPO",
    "train.eval_answers": "Held-out answers at each eval point (same prompts and seeds)",
    "train.eval_answers.model": "Model",
    "train.phase.label": "Phase: {phase}",
    "train.phase.warmup": "warm-up (SFT)",
    "train.phase.grpo": "GRPO",
    "train.phase.eval": "scoring the eval prompts",
    "train.status.warmup": "Run `{run}` is warming up with SFT: step {step} of {total}, {elapsed} elapsed, warm-up "
    "ETA {eta}; GRPO starts after it.",
    "train.progress.warmup": "SFT step {step} of {total} · warm-up ETA {eta}",
    "train.progress.warmup_done": "SFT step {step} of {total}",
    "train.progress.done": "Step {step} of {total}",
    "train.status.eval": "Run `{run}` is scoring its held-out eval prompts at step {step} of {total}, {elapsed} "
    "elapsed, ETA {eta}.",
    # --- first session, charts, Chinese page ---
    "app.error_title": "Error",
    "app.duplicate": "Duplicate this Space for a private trainer with no queue.",
    "app.duplicate_button": "Duplicate Space",
    "app.warning_title": "Warning",
    "app.info_title": "Note",
    "train.data.kind_taken": "dataset_name {name} is read as dataset_kind {kind}.",
    "train.status.other_done": "No run of yours is going. The latest run, `{run}`, was started in another session; "
    "it is on the Runs tab.",
    "preview.g.range": "The group size G must be a whole number from {low} to {high}, got {g}.",
    "preview.advantage.help": "**Advantage**: how much better (green) or worse (red) a completion scored than the "
    "mean of its group, divided by the group's std (TRL's `scale_rewards=group`). Training makes green completions "
    "more likely and red ones less likely; the stronger the colour, the larger the push. A group where all scores "
    "are equal has advantage 0 everywhere: nothing to learn.",
    "chart.step": "step (optimizer step)",
    "chart.series.function": "reward function",
    "chart.series.run": "run",
    "chart.series.series": "curve",
    "chart.reward.title": "reward: mean total reward",
    "chart.reward.y": "reward (weighted sum)",
    "chart.reward.caption": "The weighted sum of the selected rewards, averaged over the step's completions. Up is "
    "good. eval_reward, when set, is the same on held-out prompts.",
    "chart.per_function.title": "rewards/<fn>/mean: each reward function",
    "chart.per_function.y": "reward (unweighted)",
    "chart.per_function.caption": "Each reward function's mean score before weighting, one line per function. Up "
    "is good; one line rising while another falls is a trade-off.",
    "chart.reward_std.title": "reward_std: spread of rewards",
    "chart.reward_std.y": "std of reward",
    "chart.reward_std.caption": "How much the rewards of a group's completions differ. It must stay above 0: GRPO "
    "learns only from differences within a group.",
    "chart.zero_std.title": "frac_reward_zero_std: groups without signal",
    "chart.zero_std.y": "fraction of groups (0-1)",
    "chart.zero_std.caption": "Share of groups whose completions all scored the same, so they teach nothing. Down "
    "is good.",
    "chart.kl.title": "kl: drift from the base model",
    "chart.kl.y": "KL divergence (per token)",
    "chart.kl.caption": "How far the trained model has moved from the base model (logged when beta > 0). Small and "
    "slowly rising is healthy; a sudden jump is a warning.",
    "chart.loss.title": "loss: GRPO loss",
    "chart.loss.y": "loss",
    "chart.loss.caption": "The objective the optimizer minimises. Not a quality score: it moves either way around 0 "
    "(above 0 when the longer answers are the worse ones); watch the reward instead.",
    "chart.mean_length.title": "completions/mean_length: completion length",
    "chart.mean_length.y": "tokens",
    "chart.mean_length.caption": "Mean completion length in tokens (the length reward counts characters; an "
    "English token is about 4 characters). Neither way is good in itself: compare it with your target.",
    "chart.clipped.title": "completions/clipped_ratio: cut-off completions",
    "chart.clipped.y": "fraction of completions (0-1)",
    "chart.clipped.caption": "Share of completions cut off at max_completion_length before they finished. Down is "
    "good; near 1, raise max_completion_length or reward shorter answers.",
    "chart.overlay.title": "reward of each run",
    "chart.overlay.y": "reward (weighted sum)",
    "chart.overlay.caption": "The mean total reward per step, one line per run (runs with different rewards are "
    "not comparable). Up is good.",
    "chart.series.metric": "metric",
    "table.step": "step",
    "runs.col.run": "run",
    "runs.col.status": "status",
    "runs.col.step": "step",
    "runs.col.created": "created",
    "runs.col.model": "model",
    "runs.col.rewards": "rewards",
    "runs.col.final_reward": "final reward",
    "runs.col.error": "error",
    "runs.published_mark": "published",
    "runs.delete.confirm": "Delete run `{run}` with its charts and adapter? This cannot be undone.",
    "runs.delete.yes": "Yes, delete it",
    "runs.delete.no": "Cancel",
    "train.state.queued": "queued",
    "train.state.loading": "loading",
    "train.state.running": "running",
    "train.state.stopping": "stopping",
    "train.state.finished": "finished",
    "train.state.failed": "failed",
    "train.state.stopped": "stopped",
    "train.state.interrupted": "interrupted",
    "train.alert.no_signal": "**Most groups gave every completion the same reward, so GRPO has nothing to learn "
    "from.** Make the reward more graded, or raise temperature or num_generations.",
    "train.alert.constant_reward": "**A reward function gives every completion the same score.** Check the reward "
    "and its parameters; it adds no signal.",
    "train.alert.clipped": "**Most completions hit max_completion_length and were cut off.** Raise "
    "max_completion_length, or reward shorter answers.",
    "train.alert.collapse": "**Completions collapsed to a few tokens.** Lower learning_rate, raise beta, and check "
    "that the reward does not pay for empty answers.",
    "train.alert.kl_spike": "**kl jumped: the model moved suddenly away from the base model.** Lower learning_rate "
    "or raise beta.",
    "train.alert.dominant_reward": "**One reward function dominates the total.** Rescale the weights so each "
    "reward can move the total.",
    "train.alert.nothing_to_weigh": "**Only one reward varies; the others give every completion the same score, so "
    "there is nothing to weigh yet.** No weight helps a reward that does not vary: give it a cold start "
    "(sft_warmup_steps, completion_prefix, tag_layout).",
    "train.alert.flat_reward": "**The reward has not improved for many steps.** Check the reward on Preview, raise "
    "learning_rate a little, or try more steps.",
    "train.alert.length_hacking": "**Completions grow longer while the other rewards stay flat: the model may be "
    "gaming a length reward.** Lower the length reward's weight or cap the length.",
    # --- reward lab (dry run, re-scoring, probe, OpenAI graders) ---
    "lab.tab": "Reward lab",
    "lab.intro": "Before spending compute: does the reward give a learning signal on your prompts, can it be gamed, "
    "and can your OpenAI grader run here? The dry run samples G completions for each of N prompts and reports what "
    "TRL would log at step 0.",
    "lab.model": "Model",
    "lab.set": "Prompt set",
    "lab.num_prompts": "Prompts (N)",
    "lab.run": "Dry run",
    "lab.prompts": "Prompts: mean, std and whether the group gives a signal",
    "lab.signal_file": "Prompts that give a signal (JSONL dataset)",
    "lab.rescore.title": "Re-score without generating",
    "lab.weights": "Weights (edit a weight or untick a reward: the dry run is re-scored at once)",
    "lab.probe.title": "Reward-hacking probe",
    "lab.probe.run": "Probe the selected rewards",
    "lab.probe.findings": "Degenerate texts that score at or above the real completions",
    "lab.probe.none": "None of the {n} degenerate texts scored at or above the real completions.",
    "lab.probe.found": "**{n} findings**: these degenerate texts score at or above the real completions.",
    "lab.grader.title": "OpenAI grader import / export",
    "lab.grader.paste": "Paste an OpenAI grader JSON",
    "lab.grader.export": "The current selection as an OpenAI grader",
    "lab.grader.import": "Import grader",
    "lab.grader.export_run": "Export selection",
    "lab.grader.empty": "Paste a grader JSON first.",
    "lab.grader.imported": "Imported: {n} reward(s) selected (see the Rewards tab).",
    "lab.grader.columns": "They read these dataset columns: {columns}.",
    "lab.no_signal": "no signal",
    "lab.correlation": "Rank correlation (Spearman) between rewards: {pairs}.",
    "lab.shares": "Share of the within-group spread of the total: {shares}.",
    "lab.rescored": "Scored in {ms} ms.",
    "lab.timing": "Sampled in {seconds} s.",
    "lab.sampling": "Sampling {g} completions for each of {n} prompts…",
    # --- reward lab, headers of the probe's findings table ---
    "lab.col.reward": "reward",
    "lab.col.mean": "mean",
    "lab.col.std": "std",
    "lab.col.zero_std": "no spread",
    "lab.col.score": "score",
    "lab.col.text": "degenerate text",
    "lab.col.why": "why it is a finding",
    # --- public mode (run ownership, training queue) ---
    "runs.publish": "Publish (read-only)",
    "runs.published": "Run {run} is now visible to every visitor, read-only.",
    "train.queue.cancel": "Cancel my queued run",
    "train.queue.cancelled": "Your queued run was cancelled.",
    "train.queue.position": "Your run is queued: position {position} of {waiting}; it starts in about {eta}.",
    "train.queue.position_no_eta": (
        "Your run is queued: position {position} of {waiting}; it starts when the runs ahead end."
    ),
    # --- the bf16 rollout's importance-sampling chart ---
    "chart.is_ratio.title": "sampling/importance_sampling_ratio/mean: sampler vs policy",
    "chart.is_ratio.y": "ratio (1 = same distribution)",
    "chart.is_ratio.caption": "Only with fast_rollout=bfloat16: the policy's probability of a completion over the "
    "bf16 sampler's, which TRL weights the loss by. Near 1 is good; far from 1, use float32.",
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
    "rewards.examples.needs_params": "在上方设置它的参数，即可看到它在示例生成结果上的得分。",
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
    "rewards.family.custom": "自定义（Python）",
    "rewards.custom.intro": "用 Python 编写奖励函数：`def name(completions, **kwargs)`，为每个生成结果返回一个浮点数"
    "（或 None）。代码在沙箱工作进程中运行，绝不在应用进程中运行。点击**检查**，勾选要使用的函数，"
    "它们就能像库中的奖励一样打分、预览和训练。",
    "rewards.custom.off": "此服务器已禁用自定义奖励代码（PLAYGROUND_CUSTOM_CODE=off）；请使用奖励库中的奖励。",
    "rewards.custom.label": "自定义奖励代码",
    "rewards.custom.check": "检查",
    "rewards.custom.choices": "自定义奖励：勾选要使用的函数并设置权重",
    "rewards.custom.use": "使用",
    "rewards.custom.function": "函数",
    "rewards.custom.weight": "权重",
    "rewards.custom.found": "**找到的奖励函数：** {names}",
    "rewards.custom.trial": "在示例生成结果上试运行",
    "rewards.custom.trial_ok": "为每个生成结果都返回了值（{ms} 毫秒）。",
    "rewards.custom.constant": "它给所有试用生成结果打了同样的分，GRPO 从中得不到信号；因此没有勾选"
    "（仍要使用请手动勾选）。",
    "rewards.custom.output": "`{name}` 打印的内容：",
    "rewards.custom.empty": "（空）",
    "rewards.custom.missing": "已选择自定义奖励 `{name}`，但代码中没有定义它；请点击“检查”，或取消勾选。",
    "rewards.tests.title": "奖励函数单元测试",
    "rewards.tests.info": "每行一个用例：要测试的函数、一个生成结果，可选的提示词和数据集列（JSON 对象），"
    "以及期望值（或最小值和最大值）。单元格留空表示不检查；填 none 表示期望返回 None。",
    "rewards.tests.cases": "用例",
    "rewards.tests.columns": "数据集列（JSON）",
    "rewards.tests.expected": "期望值",
    "rewards.tests.min": "最小值",
    "rewards.tests.max": "最大值",
    "rewards.tests.run": "运行测试",
    "rewards.tests.results": "结果",
    "rewards.tests.case": "用例",
    "rewards.tests.result": "结果",
    "rewards.tests.got": "实际值",
    "rewards.tests.detail": "详情",
    "rewards.tests.pass": "通过",
    "rewards.tests.fail": "未通过",
    "rewards.tests.summary": "{total} 个用例中通过 {passed} 个。",
    "rewards.tests.none": "请至少添加一个用例：要测试的函数和一个生成结果。",
    "rewards.tests.where": "用例 {case}",
    "rewards.tests.bad_columns": '用例 {case}：数据集列必须是 JSON 对象，例如 {{"answer": "4"}}（{error}）。',
    "rewards.tests.bad_number": "用例 {case}：{column} 必须是数字，实际为 {value}。",
    "preview.tab": "预览",
    "preview.intro": "为一个提示词采样一组生成结果，并完全按 GRPO 的方式打分："
    "每个生成结果的各项奖励、加权总分和优势。",
    "preview.model": "模型",
    "preview.model.embedded": "SmolLM2-135M-Instruct（内置）",
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
    "train.data.checked": "上传的文件包含 {rows} 个提示词。",
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
    "compare.run": "训练记录",
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
    "runs.run": "训练记录",
    "runs.show": "显示图表",
    "runs.download": "下载适配器（.zip）",
    "runs.delete": "删除训练",
    "runs.zip": "适配器",
    "runs.export": "下载 trl 训练配方（.zip）",
    "runs.export_script": "下载 Python 脚本（.zip）",
    "runs.script": "Python 脚本",
    "runs.recipe": "trl 训练配方",
    "runs.overlay": "多次训练的奖励曲线",
    "runs.overlay.pick": "要叠加的训练",
    "runs.none_selected": "请先选择一个训练。",
    "runs.no_adapter": "训练 {run} 还没有保存的适配器。",
    "runs.deleted": "已删除训练 {run}。",
    # learn tab: the lessons, and the run's phase on the Train tab
    "learn.tab": "学习",
    "learn.intro": "跟随文章的引导课程，每课讲一个要点。选择一课并阅读，然后点击 **载入**："
    "它会把本课的配方填入“奖励”“预览”和“训练”页。可以在“预览”页生成一组回答，或在“训练”页开始训练并观察图表。",
    "learn.pick": "课程",
    "learn.load": "载入到奖励、预览和训练页",
    "learn.expected": "预期结果：",
    "learn.recipe": "载入会设置的内容",
    "learn.recipe.rewards": "奖励：",
    "learn.recipe.fields": "训练设置（TRL 参数名）：",
    "learn.recipe.prompt": "预览提示词：",
    "learn.loaded": "已载入“{title}”。奖励、预览和训练页已填入本课的配方："
    "可以在“预览”页生成一组回答，或在“训练”页点击“开始训练”。",
    "learn.ref.title": "参考运行",
    "learn.ref.none": "这一课没有参考运行：它不训练，或者还没有实测。",
    "learn.ref.summary": "用 `bench/lessons.py` 在 {cpu} 的 {cores} 个核心上实测，机器同时在做别的工作"
    "（负载 {load}）：共用时 {wall}，{steps} 步 GRPO，每个评估点 {samples} 个预留回答。",
    "learn.ref.summary_train": "用 `bench/lessons.py` 在 {cpu} 的 {cores} 个核心上实测，机器同时在做别的工作"
    "（负载 {load}）：共用时 {wall}，{steps} 步 GRPO，没有预留提示评估（图表显示每一步的训练奖励）。",
    "learn.ref.alerts": "这次运行发出的提醒：{alerts}。",
    "learn.ref.share": "预留提示上的 `{metric}`：训练前 {base} → 预热后 {warmup} → GRPO 后 {final}。"
    "预热带来 {from_warmup}，GRPO 带来 {from_grpo}。",
    "learn.ref.share_grpo": "预留提示上的 `{metric}`：训练前 {base} → GRPO 后 {final}（{from_grpo}）。",
    "learn.ref.chart": "评估曲线：参考运行，以及你用这个配方的运行",
    "learn.ref.reference": "参考",
    "learn.ref.live": "你的运行",
    "learn.ref.answers": "参考运行的预留回答：同一个提示、同一个随机种子，训练前、预热后和 GRPO 后",
    "learn.ref.col.prompt": "提示词",
    "learn.ref.col.base": "训练前",
    "learn.ref.col.warmup": "预热后",
    "learn.ref.col.grpo": "GRPO 后",
    "train.eval_answers": "每个评估点的预留回答（同样的提示和随机种子）",
    "train.eval_answers.model": "模型",
    "train.phase.label": "阶段：{phase}",
    "train.phase.warmup": "热身（SFT）",
    "train.phase.grpo": "GRPO 强化学习",
    "train.phase.eval": "正在为评估提示词打分",
    "train.status.warmup": "训练 `{run}` 正在做 SFT 热身：第 {step} / {total} 步，已用时 {elapsed}，"
    "热身预计剩余 {eta}；热身结束后开始 GRPO。",
    "train.progress.warmup": "SFT 热身第 {step} / {total} 步 · 热身预计剩余 {eta}",
    "train.progress.warmup_done": "SFT 热身第 {step} / {total} 步",
    "train.progress.done": "第 {step} / {total} 步",
    "train.status.eval": "训练 `{run}` 正在为留出的评估提示词打分：第 {step} / {total} 步，已用时 {elapsed}，"
    "预计剩余 {eta}。",
    # --- first session, charts, Chinese page ---
    "app.error_title": "出错了",
    "app.duplicate": "复制这个 Space，就有一个不用排队的私人训练器。",
    "app.duplicate_button": "复制 Space",
    "app.warning_title": "注意",
    "app.info_title": "提示",
    "train.data.kind_taken": "dataset_name {name} 按 dataset_kind {kind} 读取。",
    "train.status.other_done": "你目前没有正在进行的训练。最近一次训练 `{run}` 由另一个会话启动；可在“训练记录”页查"
    "看。",
    "preview.g.range": "组大小 G 必须是 {low} 到 {high} 之间的整数，实际为 {g}。",
    "preview.advantage.help": "**优势（advantage）**：某个生成结果的得分比组内平均分高多少（绿色）或低多少（红色）"
    "，再除以组内标准差（TRL 的 `scale_rewards=group`）。训练会让绿色的生成结果更可能出现、红色的更少出现；颜色越深"
    "，推动越大。如果一组的得分全都相同，优势全为 0：没有可学的信号。",
    "chart.step": "步（优化器步数）",
    "chart.series.function": "奖励函数",
    "chart.series.run": "训练记录",
    "chart.series.series": "曲线",
    "chart.reward.title": "reward：平均总奖励",
    "chart.reward.y": "奖励（加权和）",
    "chart.reward.caption": "所选奖励的加权和，在该步所有生成结果上取平均。越高越好。若开启评估，eval_reward 是在预"
    "留提示词上的同一指标。",
    "chart.per_function.title": "rewards/<fn>/mean：各奖励函数",
    "chart.per_function.y": "奖励（未加权）",
    "chart.per_function.caption": "各奖励函数加权前的平均分，每个函数一条线。越高越好；一条上升而另一条下降说明二者"
    "此消彼长。",
    "chart.reward_std.title": "reward_std：奖励的离散程度",
    "chart.reward_std.y": "奖励标准差",
    "chart.reward_std.caption": "同一组生成结果的奖励差异有多大。必须保持大于 0：GRPO 只能从组内差异中学习。",
    "chart.zero_std.title": "frac_reward_zero_std：没有学习信号的组",
    "chart.zero_std.y": "组的比例（0-1）",
    "chart.zero_std.caption": "所有生成结果得分都相同（因此学不到东西）的组所占比例。越低越好。",
    "chart.kl.title": "kl：偏离基础模型的程度",
    "chart.kl.y": "KL 散度（每个 token）",
    "chart.kl.caption": "训练后的模型偏离基础模型有多远（beta > 0 时记录）。数值小且缓慢上升是健康的；突然跳升需要"
    "警惕。",
    "chart.loss.title": "loss：GRPO 损失",
    "chart.loss.y": "损失",
    "chart.loss.caption": "优化器最小化的目标。它不是质量分数：在 0 上下波动（较长的回答较差时会高于 0）；"
    "请以奖励曲线为准。",
    "chart.mean_length.title": "completions/mean_length：生成长度",
    "chart.mean_length.y": "token 数",
    "chart.mean_length.caption": "生成结果的平均长度，单位是 token（长度奖励按字符计；一个英文 token 约 4 个字符）"
    "。本身无所谓高低：请与你的目标对比。",
    "chart.clipped.title": "completions/clipped_ratio：被截断的生成结果",
    "chart.clipped.y": "生成结果的比例（0-1）",
    "chart.clipped.caption": "在写完之前就被 max_completion_length 截断的生成结果所占比例。越低越好；接近 1 时，请"
    "调大 max_completion_length 或奖励更短的回答。",
    "chart.overlay.title": "各次训练的奖励",
    "chart.overlay.y": "奖励（加权和）",
    "chart.overlay.caption": "每步的平均总奖励，每次训练一条线（奖励设置不同的训练不可直接比较）。越高越好。",
    "chart.series.metric": "指标",
    "table.step": "步",
    "runs.col.run": "训练记录",
    "runs.col.status": "状态",
    "runs.col.step": "步数",
    "runs.col.created": "创建时间",
    "runs.col.model": "模型",
    "runs.col.rewards": "奖励",
    "runs.col.final_reward": "最终奖励",
    "runs.col.error": "错误",
    "runs.published_mark": "已公开",
    "runs.delete.confirm": "删除训练 `{run}` 及其图表和适配器？此操作无法撤销。",
    "runs.delete.yes": "确认删除",
    "runs.delete.no": "取消",
    "train.state.queued": "排队中",
    "train.state.loading": "加载中",
    "train.state.running": "训练中",
    "train.state.stopping": "正在停止",
    "train.state.finished": "已完成",
    "train.state.failed": "失败",
    "train.state.stopped": "已停止",
    "train.state.interrupted": "已中断",
    "train.alert.no_signal": "**大多数组中每个生成结果得分都相同，GRPO 无从学习。** 让奖励更有层次（给部分分），或"
    "调高 temperature 或 num_generations。",
    "train.alert.constant_reward": "**某个奖励函数给所有生成结果打同样的分。** 请检查该奖励及其参数；它没有提供任何"
    "学习信号。",
    "train.alert.clipped": "**大多数生成结果达到 max_completion_length 被截断。** 请调大 max_completion_length，或"
    "奖励更短的回答。",
    "train.alert.collapse": "**生成结果塌缩到只有几个 token。** 请降低 learning_rate、调高 beta，并检查奖励是否在给"
    "空回答加分。",
    "train.alert.kl_spike": "**kl 突然跳升：模型突然偏离基础模型。** 请降低 learning_rate 或调高 beta。",
    "train.alert.dominant_reward": "**某一个奖励函数主导了总分。** 请调整权重，让每个奖励都能影响总分。",
    "train.alert.nothing_to_weigh": "**只有一个奖励在变化，其他奖励给所有生成结果打同样的分，所以现在还谈不上权衡。** "
    "任何权重都帮不了一个不变化的奖励：请先给它冷启动（sft_warmup_steps、completion_prefix、tag_layout）。",
    "train.alert.flat_reward": "**奖励已经很多步没有提升。** 请在“预览”页检查奖励，稍微调高 learning_rate，或增加训"
    "练步数。",
    "train.alert.length_hacking": "**生成结果越来越长而其他奖励没有变化：模型可能在钻长度奖励的空子。** 请降低长度"
    "奖励的权重，或限制长度。",
    # --- reward lab (dry run, re-scoring, probe, OpenAI graders) ---
    "lab.tab": "奖励实验室",
    "lab.intro": "在花费算力之前先弄清楚：这个奖励在你的提示词上有没有学习信号，会不会被钻空子，你的 OpenAI 评分器"
    "能否在这里运行？试运行为 N 个提示词各生成 G 个结果，并给出 TRL 在第 0 步会记录的指标。",
    "lab.model": "模型",
    "lab.set": "提示词集",
    "lab.num_prompts": "提示词数（N）",
    "lab.run": "试运行",
    "lab.prompts": "各提示词：均值、标准差，以及该组是否有学习信号",
    "lab.signal_file": "有学习信号的提示词（JSONL 数据集）",
    "lab.rescore.title": "不重新生成，直接重新打分",
    "lab.weights": "权重（修改权重或取消勾选某个奖励，试运行结果会立即重新计算）",
    "lab.probe.title": "奖励漏洞探测",
    "lab.probe.run": "探测所选奖励",
    "lab.probe.findings": "得分不低于真实生成结果的退化文本",
    "lab.probe.none": "{n} 个退化文本的得分都低于真实生成结果。",
    "lab.probe.found": "**发现 {n} 处问题**：这些退化文本的得分不低于真实生成结果。",
    "lab.grader.title": "导入 / 导出 OpenAI 评分器",
    "lab.grader.paste": "粘贴 OpenAI 评分器的 JSON",
    "lab.grader.export": "当前所选奖励对应的 OpenAI 评分器",
    "lab.grader.import": "导入评分器",
    "lab.grader.export_run": "导出所选奖励",
    "lab.grader.empty": "请先粘贴评分器的 JSON。",
    "lab.grader.imported": "已导入：选中了 {n} 个奖励（见“奖励”页）。",
    "lab.grader.columns": "它们读取这些数据集列：{columns}。",
    "lab.no_signal": "无信号",
    "lab.correlation": "奖励之间的秩相关（Spearman）：{pairs}。",
    "lab.shares": "各奖励在组内总分波动中所占比例：{shares}。",
    "lab.rescored": "打分用时 {ms} 毫秒。",
    "lab.timing": "生成用时 {seconds} 秒。",
    "lab.sampling": "正在为 {n} 个提示词各生成 {g} 个结果…",
    # --- reward lab, headers of the probe's findings table ---
    "lab.col.reward": "奖励",
    "lab.col.mean": "均值",
    "lab.col.std": "标准差",
    "lab.col.zero_std": "组内无差异",
    "lab.col.score": "得分",
    "lab.col.text": "退化文本",
    "lab.col.why": "为什么是问题",
    # --- public mode (run ownership, training queue) ---
    "runs.publish": "公开（只读）",
    "runs.published": "训练 {run} 已公开：所有访客都能查看，但不能修改或删除。",
    "train.queue.cancel": "取消我排队中的训练",
    "train.queue.cancelled": "已取消你排队中的训练。",
    "train.queue.position": "你的训练正在排队：第 {position} 位（共 {waiting} 个）；大约 {eta} 后开始。",
    "train.queue.position_no_eta": "你的训练正在排队：第 {position} 位（共 {waiting} 个）；前面的训练结束后开始。",
    # --- the bf16 rollout's importance-sampling chart ---
    "chart.is_ratio.title": "sampling/importance_sampling_ratio/mean：采样器与策略之比",
    "chart.is_ratio.y": "比率（1 = 分布相同）",
    "chart.is_ratio.caption": "仅在 fast_rollout=bfloat16 时出现：策略生成某个结果的概率与 bf16 采样器的概率之比，"
    "TRL 用它为损失加权。接近 1 为好；远离 1 时，请改用 float32。",
}

# Reward descriptions and parameter help, Train field help and prompt sets (English from their one source).
_GENERATED = generated_keys()
EN.update(_GENERATED[0])
ZH.update(_GENERATED[1])

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
