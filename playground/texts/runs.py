"""Training runs: starting, queueing, stopping and the run store (playground/training/), and the caps of a public app.
Run ids, field names and environment variables stay as they are."""

TEXTS: dict[str, tuple[str, str]] = {
    # starting and stopping
    "job.in_progress": (
        "A training run is already in progress ({run}, step {step} of {total}); wait for it to finish or stop it "
        "first.",
        "已有训练正在进行（{run}，第 {step} / {total} 步）；请等它结束，或先停止它。",
    ),
    "job.queue_session": (
        "A run is in progress; a queued run needs a session. Reload the page.",
        "已有训练正在进行；排队需要会话。请刷新页面。",
    ),
    "job.queued_already": (
        "You already have a run waiting in the queue (position {position}); cancel it before queueing another, or "
        "wait for it to start.",
        "你已有一个训练在排队（第 {position} 位）；请先取消它再排新的，或等它开始。",
    ),
    "job.queued_address": (
        "Your network address already has {count} run(s) waiting in the queue, the most one address may have "
        "(PLAYGROUND_MAX_QUEUED_PER_ADDRESS={cap}); try again when it has started.",
        "你的网络地址已有 {count} 个训练在排队，已达到单个地址的上限（PLAYGROUND_MAX_QUEUED_PER_ADDRESS={cap}）；"
        "请等它开始后再试。",
    ),
    "job.queue_full": (
        "The training queue is full ({count} runs waiting, PLAYGROUND_MAX_QUEUED); try again when one has started.",
        "训练队列已满（{count} 个在等待，PLAYGROUND_MAX_QUEUED）；请等其中一个开始后再试。",
    ),
    "job.not_queued": ("You have no run waiting in the queue.", "你没有在排队的训练。"),
    "job.none_running": ("No training run is in progress.", "没有正在进行的训练。"),
    "job.not_owner": ("Only the session that started this run can stop it.", "只有启动这次训练的会话才能停止它。"),
    # continuing a run from its last checkpoint (playground/training/checkpoint.py)
    "job.no_checkpoint": (
        "Run '{run}' has no checkpoint to continue from (it saves one every save_steps steps and when stopped).",
        "训练 '{run}' 没有可继续的检查点（每 save_steps 步和停止时会保存一个）。",
    ),
    "job.not_owner_continue": (
        "Only the session that started this run can continue it.",
        "只有启动这次训练的会话才能继续它。",
    ),
    "job.continue_active": (
        "Run '{run}' is still {status}; it can be continued once it has ended.",
        "训练 '{run}' 尚未结束（{status}）；结束后才能继续。",
    ),
    "job.continue_done": (
        "Run '{run}' already reached step {step} of {total}; give it a larger max_steps to train it further.",
        "训练 '{run}' 已到第 {step} / {total} 步；要继续训练，请给它更大的 max_steps。",
    ),
    "job.continue_processes": (
        "A run of several processes cannot be continued yet; continue it with num_processes=1 or start a new run.",
        "多进程训练暂不能继续；请以 num_processes=1 继续，或开始新的训练。",
    ),
    "job.compiled_rewards": (
        "Rewards compiled in this process cannot reach other processes: pass their code as the spec's custom_code, "
        "or train with num_processes 1.",
        "在本进程中编译的奖励函数无法传给其他进程：请把代码放进运行规格的 custom_code，或用 num_processes 1 训练。",
    ),
    # comparing a run's adapter with its base model: the progress bar's messages
    "job.compare.loading_base": ("Loading the base model", "正在加载基座模型"),
    "job.compare.sampling_base": ("Base model: prompt {i} of {n}", "基座模型：第 {i} 个提示词，共 {n} 个"),
    "job.compare.loading_adapter": ("Loading the adapter", "正在加载适配器"),
    "job.compare.sampling_trained": (
        "Trained model: prompt {i} of {n}",
        "训练后的模型：第 {i} 个提示词，共 {n} 个",
    ),
    "job.compare.delta": ("Mean reward delta {delta:+.3f}", "平均奖励变化 {delta:+.3f}"),
    # the run store
    "job.bad_run_name": (
        "{run!r} is not a valid run name; use the name shown in the run list.",
        "{run!r} 不是有效的训练名称；请使用训练记录中显示的名称。",
    ),
    "job.no_spec": ("Run '{run}' has no spec.json.", "训练 '{run}' 没有 spec.json。"),
    "job.bad_spec": (
        "The spec.json of run '{run}' is unreadable ({error}).",
        "训练 '{run}' 的 spec.json 无法读取（{error}）。",
    ),
    "job.no_free_name": ("Could not find a free run name in {root}/.", "在 {root}/ 中找不到可用的训练名称。"),
    "job.no_run": ("No run named '{run}' in {root}/.", "{root}/ 中没有名为 '{run}' 的训练。"),
    "job.still_active": (
        "Run '{run}' is still {status} (process {pid} on {host}); stop it first.",
        "训练 '{run}' 仍处于 {status} 状态（{host} 上的进程 {pid}）；请先停止它。",
    ),
    "job.this_machine": ("this machine", "本机"),
    # why a run ended without finishing
    "job.dead_process": (
        "The process running this run ended before it finished (killed or crashed).",
        "运行这次训练的进程在训练完成前就结束了（被杀死或崩溃）。",
    ),
    "job.status_unreadable": ("status.json is unreadable", "`status.json` 无法读取"),
    "job.status_missing": ("status.json is missing", "缺少 `status.json`"),
    "job.failed_with": ("Training failed with {error}: {detail}", "训练失败，出现 {error}：{detail}"),
    "job.processes_exited": (
        "The {count} training processes exited with code {code}: {detail}",
        "{count} 个训练进程以退出码 {code} 结束：{detail}",
    ),
    "job.wall_time": (
        "Stopped after the public limit of {minutes:g} minutes per run (PLAYGROUND_MAX_RUN_MINUTES).",
        "已达到公开应用每次训练 {minutes:g} 分钟的上限，训练已停止（PLAYGROUND_MAX_RUN_MINUTES）。",
    ),
    "access.secret_short": (
        "{name} must be at least 16 characters long.",
        "{name} 至少需要 16 个字符。",
    ),
    # runs of other visitors
    "access.published": (
        "Run '{run}' was published by another visitor; it is read-only for you.",
        "训练 '{run}' 由另一位访客公开；对你来说是只读的。",
    ),
    "access.not_yours": (
        "Run '{run}' belongs to another visitor of this public app; only its owner can open, download or delete it "
        "(unless they publish it).",
        "训练 '{run}' 属于这个公开应用的另一位访客；只有它的主人能打开、下载或删除它（除非对方将其公开）。",
    ),
    # the caps of a public app
    "public.max_steps": (
        "This app is public: a run may take at most {cap} steps (PLAYGROUND_MAX_STEPS); this one asks for {steps}. "
        "Lower max_steps, or run the app yourself for longer runs.",
        "这是公开的应用：一次训练最多 {cap} 步（PLAYGROUND_MAX_STEPS），这次要求 {steps} 步。请减小 max_steps，"
        "或自己运行本应用来做更长的训练。",
    ),
    "public.custom_functions": (
        "This app is public: a run may use at most {cap} custom reward functions (PLAYGROUND_MAX_CUSTOM_FUNCTIONS); "
        "this one uses {count} ({names}).",
        "这是公开的应用：一次训练最多使用 {cap} 个自定义奖励函数（PLAYGROUND_MAX_CUSTOM_FUNCTIONS），这次用了 "
        "{count} 个（{names}）。",
    ),
    "public.reward_seconds": (
        "This app is public: the custom rewards of one step may take at most {cap:g} s "
        "(PLAYGROUND_MAX_REWARD_SECONDS); {count} functions × {timeout:g} s per call could take {seconds:g} s.",
        "这是公开的应用：每一步的自定义奖励最多可用 {cap:g} 秒（PLAYGROUND_MAX_REWARD_SECONDS）；{count} 个函数 × "
        "每次调用 {timeout:g} 秒，可能需要 {seconds:g} 秒。",
    ),
    "public.step_tokens": (
        "This app is public: {what} may generate at most {cap:,} tokens (PLAYGROUND_MAX_STEP_TOKENS); this run asks "
        "for {count} × {cap_name} {length} = {tokens:,}. Lower {cap_name}, the batch or num_generations.",
        "这是公开的应用：{what}最多可生成 {cap:,} 个 token（PLAYGROUND_MAX_STEP_TOKENS）；这次训练要求 {count} × "
        "{cap_name} {length} = {tokens:,}。请减小 {cap_name}、批量或 num_generations。",
    ),
    "public.tokens.step": ("one step", "一步"),
    "public.tokens.eval": ("one held-out eval", "一次留出评估"),
    "public.tokens.warmup": ("the warm-up's examples", "预热示例"),
    "public.count.completions": ("{n} completions", "{n} 个生成结果"),
    "public.count.eval": ("{prompts} prompts × {g} completions", "{prompts} 个提示词 × {g} 个生成结果"),
    "public.count.examples": ("{n} examples", "{n} 个示例"),
    "public.warmup_steps": (
        "This app is public: the warm-up may take at most {cap} steps (PLAYGROUND_MAX_STEPS); this one asks for "
        "{steps}.",
        "这是公开的应用：预热最多 {cap} 步（PLAYGROUND_MAX_STEPS），这次要求 {steps} 步。",
    ),
    "public.lora_r": (
        "This app is public: lora_r may be at most {cap} (PLAYGROUND_MAX_LORA_R); this run asks for {value}.",
        "这是公开的应用：lora_r 最大为 {cap}（PLAYGROUND_MAX_LORA_R），这次训练要求 {value}。",
    ),
    # exports: downloads, scripts and the Hub
    "export.reward_model": (
        "The reward_model reward needs a model (a Hub id or a local folder) to be exported.",
        "要导出 reward_model 奖励，需要一个模型（Hub id 或本地文件夹）。",
    ),
    "export.syntax": (
        "The custom reward code has a syntax error on line {line}: {detail}.",
        "自定义奖励代码第 {line} 行有语法错误：{detail}。",
    ),
    "export.push_kind": (
        "Unknown push kind {kind!r}; use one of: {valid}.",
        "未知的推送类型 {kind!r}；请使用其中之一：{valid}。",
    ),
    "export.repo_shape": (
        "Repo id {repo!r} must look like 'your-name/model-name'.",
        "仓库 id {repo!r} 必须形如 'your-name/model-name'。",
    ),
    "export.repo_invalid": (
        "Repo id {repo!r} is not a valid Hugging Face repo id.",
        "仓库 id {repo!r} 不是有效的 Hugging Face 仓库 id。",
    ),
    "export.no_adapter": (
        "Run {run} has no saved adapter yet, so there is nothing to download.",
        "训练 {run} 还没有保存的适配器，所以没有可下载的内容。",
    ),
    "export.folder_exists": (
        "{folder} already exists and is not empty; choose a new folder.",
        "{folder} 已存在且不为空；请换一个新文件夹。",
    ),
    # what an export cannot carry over
    "export.not_judge": (
        "The 'judge' reward cannot be exported as standalone code: it loads its judge model through the playground's "
        "model loader ('embedded' is the playground's own converted copy of SmolLM2, loaded through the playground), "
        "which an exported script or recipe does not have. Export without it, or score with a reward model (a "
        "sequence classifier, which TRL loads itself).",
        "'judge' 奖励无法导出为独立代码：它通过实验场的模型加载器加载评判模型（'embedded' 是实验场自己转换的 "
        "SmolLM2 副本，也由实验场加载），而导出的脚本或配方里没有这个加载器。请去掉它再导出，或改用奖励模型打分"
        "（一个序列分类模型，TRL 会自己加载）。",
    ),
    "export.not_code_tests": (
        "The 'code_tests' reward cannot be exported as standalone code: it runs the completions' programs in the "
        "playground's sandbox, which an exported script or recipe does not have. Export without it, or use "
        "open-r1's code reward (E2B or Morph) in the exported script.",
        "'code_tests' 奖励无法导出为独立代码：它在实验场的沙箱中运行生成结果里的程序，而导出的脚本或配方里没有"
        "这个沙箱。请去掉它再导出，或在导出的脚本中改用 `open-r1` 的代码奖励（E2B 或 Morph）。",
    ),
    "export.custom_clash": (
        "Your custom code defines {name!r}, which the exported library rewards also define; rename it.",
        "你的自定义代码定义了 {name!r}，而导出的库奖励中也有同名定义；请改个名。",
    ),
    "export.custom_playground": (
        "Custom code that imports the playground ({module}) cannot be exported: an export carries the reward library "
        "(rewards), not the playground.",
        "导入 playground（{module}）的自定义代码无法导出：导出的内容只带奖励库（`rewards`），不带 playground。",
    ),
    "export.sft_auto": (
        "sft_examples is 'auto': the examples are built when the run starts, so export the run after it started "
        "(or give a .jsonl file of prompt/completion rows).",
        "sft_examples 为 'auto'：示例在训练开始时才生成，所以请在训练开始后再导出这次训练（或给出一个由 "
        "prompt/completion 行组成的 .jsonl 文件）。",
    ),
    "export.cold_start": (
        "The trl grpo recipe cannot run {name} (a playground cold-start tool); export as a script instead.",
        "`trl grpo` 配方无法运行 {name}（实验场的冷启动工具）；请改为导出脚本。",
    ),
    # uploads to the Hub; `{kept}` says where the files stay
    "export.push_kept": (
        "nothing was uploaded, and the files are kept in {folder}",
        "没有上传任何内容，文件保留在 {folder}",
    ),
    "export.push_offline": (
        "The Hugging Face Hub cannot be reached in offline mode (HF_HUB_OFFLINE is set); {kept}.",
        "离线模式下无法连接 Hugging Face Hub（已设置 HF_HUB_OFFLINE）；{kept}。",
    ),
    "export.push_no_token": (
        "No Hugging Face token: enter one, or set HF_TOKEN; {kept}.",
        "没有 Hugging Face 令牌：请输入一个，或设置 HF_TOKEN；{kept}。",
    ),
    "export.push_401": (
        "The Hugging Face Hub refused the token (401 Unauthorized); {kept}.",
        "Hugging Face Hub 拒绝了这个令牌（401 未授权）；{kept}。",
    ),
    "export.push_403": (
        "The token may not write to {repo} (403 Forbidden): use a token with write access; {kept}.",
        "这个令牌无权写入 {repo}（403 禁止访问）：请使用有写权限的令牌；{kept}。",
    ),
    "export.push_http": (
        "The Hugging Face Hub answered {status} for {repo}; {kept}.",
        "Hugging Face Hub 对 {repo} 返回了 {status}；{kept}。",
    ),
    "export.push_an_error": ("an error", "错误"),
    "export.push_network": (
        "Could not reach the Hugging Face Hub (no network?); {kept}.",
        "无法连接 Hugging Face Hub（没有网络？）；{kept}。",
    ),
    "export.push_failed": ("Uploading to {repo} failed ({error}); {kept}.", "上传到 {repo} 失败（{error}）；{kept}。"),
}
