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
    "job.compiled_rewards": (
        "Rewards compiled in this process cannot reach other processes: pass their code as the spec's custom_code, "
        "or train with num_processes 1.",
        "在本进程中编译的奖励函数无法传给其他进程：请把代码放进运行规格的 custom_code，或用 num_processes 1 训练。",
    ),
    # the run store
    "job.bad_run_name": (
        "{run!r} is not a valid run name; use the name shown in the run list.",
        "{run!r} 不是有效的训练名称；请使用训练列表中显示的名称。",
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
    "public.env_number": ("{name} must be a number, got {value!r}.", "{name} 必须是数字，实际为 {value!r}。"),
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
        "for {count} × max_completion_length {length} = {tokens:,}. Lower max_completion_length, the batch or "
        "num_generations.",
        "这是公开的应用：{what}最多可生成 {cap:,} 个 token（PLAYGROUND_MAX_STEP_TOKENS）；这次训练要求 {count} × "
        "max_completion_length {length} = {tokens:,}。请减小 max_completion_length、批量或 num_generations。",
    ),
    "public.tokens.step": ("one step", "一步"),
    "public.tokens.eval": ("one held-out eval", "一次留出评估"),
    "public.tokens.warmup": ("the warm-up's examples", "热身示例"),
    "public.count.completions": ("{n} completions", "{n} 个生成结果"),
    "public.count.eval": ("{prompts} prompts × {g} completions", "{prompts} 个提示词 × {g} 个生成结果"),
    "public.count.examples": ("{n} examples", "{n} 个示例"),
    "public.warmup_steps": (
        "This app is public: the warm-up may take at most {cap} steps (PLAYGROUND_MAX_STEPS); this one asks for "
        "{steps}.",
        "这是公开的应用：热身最多 {cap} 步（PLAYGROUND_MAX_STEPS），这次要求 {steps} 步。",
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
}
