"""Refusals of public mode's admission gate (playground/admission.py): each names the cap and its variable."""

TEXTS: dict[str, tuple[str, str]] = {
    "admission.over": (
        "This app is public: {what} may be at most {cap} ({env}); this request has {value}.",
        "这是公开的应用：{what}最多为 {cap}（{env}）；这次请求为 {value}。",
    ),
    "admission.no_config": (
        "This app is public: the model {name!r} has no config.json here to read its size from before it loads, so it "
        "is not loaded.",
        "这是公开的应用：模型 {name!r} 在此没有可读取的 config.json，无法在加载前确认其大小，因此不会加载。",
    ),
    "admission.what.min_generations": ("the fewest completions in a group", "一组最少的生成结果数"),
    "admission.what.max_generations": ("the completions in a sampled group", "一组采样的生成结果数"),
    "admission.what.max_new_tokens": ("the new tokens per completion", "每个生成结果的新 token 数"),
    "admission.what.max_prompt_tokens": ("a prompt's tokens", "一个提示词的 token 数"),
    "admission.what.max_sampled_tokens": (
        "the tokens of one request (prompts × G × (prompt tokens + new tokens))",
        "一次请求的 token 数（提示词数 × 每组生成数 × （提示词 token + 新 token））",
    ),
    "admission.what.max_compare_prompts": ("the prompts of one comparison", "一次对比的提示词数"),
    "admission.what.max_completions": ("the completions of a group to score", "一组待评分的生成结果数"),
    "admission.what.max_completion_chars": ("the characters of one completion", "一个生成结果的字符数"),
    "admission.what.max_group_chars": ("the characters of a group's completions", "一组生成结果的总字符数"),
    "admission.what.max_column_chars": (
        "the characters of one column value or prompt (reference, tests, solution, answer)",
        "一个数据列的值或提示词的字符数（reference、tests、solution、answer）",
    ),
    "admission.what.max_pair_chars": (
        "completion characters × column characters in one group",
        "一组中生成结果字符数 × 数据列字符数",
    ),
    "admission.what.max_judge_tokens": (
        "the tokens a judge or reward model reads (completions, with the judge's rubric)",
        "评判奖励或奖励模型读取的 token 数（生成结果，评判还加评分标准）",
    ),
    "admission.what.max_cases": ("the reward test cases", "奖励测试用例数"),
    "admission.what.max_param_chars": ("the characters of one reward parameter", "一个奖励参数的字符数"),
    "admission.what.max_pattern_chars": ("the characters of a regular expression", "一个正则表达式的字符数"),
    "admission.what.max_rewards": ("the rewards of one selection", "一次选择中的奖励数"),
    "admission.what.max_model_params": (
        "the parameters of a reward or judge model",
        "奖励模型或评判模型的参数量",
    ),
    "admission.what.max_field_chars": ("the characters of one input", "一个输入的字符数"),
    "admission.what.max_request_chars": ("the characters of one request's inputs", "一次请求全部输入的字符数"),
    "admission.what.max_steps": ("a run's steps", "一次训练的步数"),
    "admission.what.max_minutes": ("a run's minutes", "一次训练的分钟数"),
    "admission.what.max_custom_functions": ("a run's custom reward functions", "一次训练的自定义奖励函数数"),
    "admission.what.max_reward_seconds": ("a step's reward seconds", "每一步的奖励秒数"),
    "admission.what.max_queued": ("the runs waiting", "排队中的训练数"),
    "admission.what.max_step_tokens": ("the tokens of one step", "每一步的 token 数"),
    "admission.what.max_lora_r": ("lora_r", "LoRA 秩 lora_r"),
    "admission.what.max_queued_per_address": ("the runs waiting from one address", "同一地址排队中的训练数"),
    "admission.what.max_upload_owners": ("the browsers with uploads", "有上传记录的浏览器数"),
    "admission.what.max_upload_owners_per_address": (
        "the browsers of one address with uploads",
        "同一地址有上传记录的浏览器数",
    ),
    "admission.what.max_visitor_workers": ("the live text workers", "运行中的文本评分进程数"),
    "admission.what.max_model_workers": ("the live model workers", "运行中的模型评分进程数"),
    "admission.what.worker_idle_seconds": ("a worker's idle seconds", "评分进程的空闲秒数"),
    "admission.what.max_upload_row_chars": (
        "the characters of one line of an uploaded file",
        "上传文件中一行的字符数",
    ),
    "admission.what.max_upload_columns": ("the columns of an uploaded file", "上传文件的列数"),
    "admission.what.max_upload_keys": ("the keys of one row of an uploaded file", "上传文件中一行的键数"),
    "admission.what.max_upload_depth": ("the nesting of a value of an uploaded file", "上传文件中一个值的嵌套层数"),
    "admission.what.max_upload_cell_chars": (
        "the characters (or items) of one value of an uploaded file",
        "上传文件中一个值的字符数（或元素数）",
    ),
    "admission.what.upload_parse_seconds": ("the seconds to read an upload", "读取上传文件的秒数"),
    "admission.what.upload_parse_memory_mb": ("the memory to read an upload (MB)", "读取上传文件的内存（MB）"),
    "admission.upload_timeout": (
        "This app is public: the file {name!r} took longer than {seconds} s to read ({env}); it is not used.",
        "这是公开的应用：读取文件 {name!r} 超过了 {seconds} 秒（{env}）；该文件不会被使用。",
    ),
    "admission.upload_memory": (
        "This app is public: the file {name!r} needs more than {mb} MB of memory to read ({env}); it is not used.",
        "这是公开的应用：读取文件 {name!r} 需要超过 {mb} MB 的内存（{env}）；该文件不会被使用。",
    ),
    "admission.upload_failed": (
        "This app is public: the file {name!r} could not be read ({detail}); it is not used.",
        "这是公开的应用：无法读取文件 {name!r}（{detail}）；该文件不会被使用。",
    ),
    "admission.what.anonymous_workers": ("the shared workers of calls without a token", "无令牌调用共享的评分进程数"),
    "admission.what.max_anonymous_calls_per_address": (
        "the calls without a browser token from one address",
        "同一地址不带浏览器令牌的调用数",
    ),
    "admission.anonymous_busy": (
        "This app is public: your network address already has {count} calls without a browser token scoring "
        "({env}); wait for them to finish, or use the page.",
        "这是公开的应用：您的网络地址已有 {count} 个不带浏览器令牌的调用正在评分（{env}）；请等它们结束，或使用网页。",
    ),
    "admission.what.run_retention_hours": ("the hours a run is kept", "训练结果保留的小时数"),
    "admission.what.max_visitor_disk_mb": (
        "the MB your runs and uploads hold",
        "您的训练结果和上传文件占用的 MB 数",
    ),
    "admission.what.min_free_disk_mb": ("the free disk (MB)", "剩余磁盘空间（MB）"),
    "retention.low_disk": (
        "This app is public: the disk has {free} MB free, under the {cap} MB kept free (PLAYGROUND_MIN_FREE_DISK_MB); "
        "new runs start again once older runs expire.",
        "这是公开的应用：磁盘仅剩 {free} MB，低于保留的 {cap} MB（PLAYGROUND_MIN_FREE_DISK_MB）；"
        "较早的训练结果过期后即可再开始新的训练。",
    ),
    "retention.expires": (
        "Deleted at {time} UTC, {hours} h after it ended (PLAYGROUND_RUN_RETENTION_HOURS).",
        "将于 {time}（协调世界时）删除，即结束后 {hours} 小时（PLAYGROUND_RUN_RETENTION_HOURS）。",
    ),
    "admission.uploads_full": (
        "This app is public: the table of uploads is full (other visitors' uploads are kept); try again later.",
        "这是公开的应用：上传记录已满（其他访客的上传会被保留）；请稍后再试。",
    ),
}
