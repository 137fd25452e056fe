"""The command line (playground/cli/) and the MCP server's tools: what a bad argument, file or config gets back.

The command line speaks English (argparse's own messages stay argparse's); these are the sentences the playground
writes itself. Flags, file names and TRL's keys stay as they are.
"""

TEXTS: dict[str, tuple[str, str]] = {
    # arguments
    "cli.column_malformed": (
        "Malformed --column {item!r}; use NAME=VALUE.",
        "`--column` {item!r} 格式不对；请写成 `NAME=VALUE`。",
    ),
    "cli.run_or_spec": ("Give either --run or --spec.", "请给出 `--run` 或 `--spec` 中的一个。"),
    "cli.format_needs_run": (
        "--format {format} needs a trained run (--run), not a spec.",
        "`--format {format}` 需要一次训练好的运行（`--run`），而不是运行规格。",
    ),
    "cli.give_run": ("Give --run.", "请给出 `--run`。"),
    "cli.prompt_empty": ("The prompt is empty.", "提示词为空。"),
    "cli.spec_or_lesson": ("Give --spec or --lesson, not both.", "`--spec` 和 `--lesson` 只能给一个。"),
    "cli.num_samples": ("--num_samples must be at least 2.", "`--num_samples` 至少为 2。"),
    "cli.unrecognized": ("unrecognized arguments: {args}", "无法识别的参数：{args}"),
    "cli.auth": ("use --auth USER:PASSWORD", "请写成 `--auth USER:PASSWORD`"),
    "cli.unknown_lesson": (
        "Unknown lesson {name!r}; the lessons are: {valid}.",
        "没有名为 {name!r} 的课程；现有课程：{valid}。",
    ),
    "cli.stopping": (
        "stopping after this step (the adapter will be saved)...",
        "这一步结束后停止（适配器会被保存）……",
    ),
    "cli.interrupted": ("interrupted", "已中断"),
    # files
    "cli.cannot_read": ("Cannot read {path}: {error}.", "无法读取 {path}：{error}。"),
    "cli.spec_unreadable": ("Cannot read spec file {path}: {error}.", "无法读取运行规格文件 {path}：{error}。"),
    "cli.spec_json": (
        "Spec file {path} is not valid JSON (line {line}: {error}).",
        "运行规格文件 {path} 不是有效的 JSON（第 {line} 行：{error}）。",
    ),
    "cli.config_unreadable": ("Cannot read config file {path}: {error}.", "无法读取配置文件 {path}：{error}。"),
    "cli.config_yaml": ("Config file {path} is not valid YAML: {error}", "配置文件 {path} 不是有效的 YAML：{error}"),
    "cli.config_bf16_cpu": (
        "{path} sets bf16 for a GPU; no CUDA here: training in bf16 autocast, which this CPU computes natively.",
        "{path} 为 GPU 设置了 bf16；这里没有 CUDA：训练使用 bf16 自动混合精度，这台 CPU 原生支持 bf16。",
    ),
    "cli.config_bf16_fp32": (
        "{path} sets bf16 for a GPU; no CUDA here and this CPU has no native bf16 (AVX512-BF16 or AMX): "
        "training in fp32.",
        "{path} 为 GPU 设置了 bf16；这里没有 CUDA，这台 CPU 也不原生支持 bf16（AVX512-BF16 或 AMX）：训练使用 fp32。",
    ),
    "cli.config_mapping": (
        "Config file {path} must hold a YAML mapping of TRL's keys.",
        "配置文件 {path} 必须是一个以 TRL 参数名为键的 YAML 映射。",
    ),
    "cli.not_a_setting": (
        "{config}: {keys}: not a setting the playground trains with (train it with `trl grpo`)",
        "{config}：{keys}：不是实验场训练时使用的设置（请用 `trl grpo` 训练）",
    ),
    "cli.trial_no_columns": (
        "The trial run passed no dataset columns; give them with --column NAME=VALUE or a case.",
        "试运行没有传入数据集的列；请用 `--column NAME=VALUE` 或一个测试用例给出。",
    ),
    # the rewards of a `trl grpo` config file
    "cli.recipe_weights": (
        "{config}: reward_weights has {count} values for {n} reward_funcs.",
        "{config}：`reward_weights` 有 {count} 个值，而 `reward_funcs` 有 {n} 个。",
    ),
    "cli.recipe_entry": (
        "{config}: reward {entry!r} is neither TRL's nor a module.function path.",
        "{config}：奖励 {entry!r} 既不是 TRL 自带的奖励，也不是 `module.function` 形式的路径。",
    ),
    "cli.recipe_module": ("Cannot read the rewards module {path}: {error}.", "无法读取奖励模块 {path}：{error}。"),
    "cli.recipe_no_reward": ("{file} defines no reward {name!r}.", "{file} 中没有定义奖励 {name!r}。"),
    "cli.recipe_unreadable": (
        "{file}: {name} is not a library reward the playground can read back; train it with `trl grpo`.",
        "{file}：{name} 不是实验场能读回的库奖励；请用 `trl grpo` 训练它。",
    ),
    "cli.mcp_extra": (
        'app.py: --mcp needs Gradio\'s MCP extra, which is not installed: pip install "gradio[mcp]=={gradio}"',
        '`app.py`：`--mcp` 需要 Gradio 的 MCP 扩展，但它没有安装：`pip install "gradio[mcp]=={gradio}"`',
    ),
    # the MCP server's tools
    "mcp.rewards_json": (
        "rewards must be a JSON list: line {line}: {error}",
        "`rewards` 必须是 JSON 列表：第 {line} 行：{error}",
    ),
    "mcp.rewards_shape": (
        'rewards must be a JSON list like [{{"name": "length", "weight": 1.0, "params": {{}}}}].',
        '`rewards` 必须是形如 `[{{"name": "length", "weight": 1.0, "params": {{}}}}]` 的 JSON 列表。',
    ),
    "mcp.group_size": ("A GRPO group needs at least two completions.", "一个 GRPO 组至少需要两个生成结果。"),
}
