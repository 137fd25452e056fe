"""Custom reward code: the checks before it runs, and what the sandbox reports when it runs (playground/sandbox/).
`{what}` is "Reward 'name'" or "Loading the custom code", a phrase rendered in the same language."""

TEXTS: dict[str, tuple[str, str]] = {
    # what failed
    "sandbox.what.reward": ("Reward {name!r}", "奖励 {name!r} "),
    "sandbox.what.load": ("Loading the custom code", "加载自定义代码时"),
    "sandbox.what.worker": ("The sandbox worker", "沙箱工作进程"),
    "sandbox.too_many_waiting": (
        "You already have several requests of this kind waiting; let them finish, then try again.",
        "你已有多个同类请求在排队；请等它们完成后再试。",
    ),
    "sandbox.unconfined": (
        "Custom code and code_tests are off on this public server: its kernel or container cannot confine the sandbox "
        "({missing} unavailable). The library rewards still work. An operator who accepts the risk sets "
        "PLAYGROUND_ALLOW_UNCONFINED=1.",
        "此公开服务器已关闭自定义代码和 code_tests：它的内核或容器无法限制沙箱（{missing} 不可用）。奖励库中的奖励仍"
        "可使用。接受此风险的运维人员可以设置 PLAYGROUND_ALLOW_UNCONFINED=1。",
    ),
    # how it failed
    "sandbox.start_failed": ("The sandbox worker failed to start: {detail}", "沙箱工作进程启动失败：{detail}"),
    "sandbox.problem": ("{what} {problem}.", "{what}{problem}。"),
    "sandbox.timed_out": ("{what} timed out after {seconds:g} s.", "{what}超时（{seconds:g} 秒）。"),
    "sandbox.memory": ("{what} exceeded the {mb} MB memory limit.", "{what}超出了 {mb} MB 的内存上限。"),
    "sandbox.exit_load": (
        "{what} called sys.exit({code!r}); remove it from the module level.",
        "{what}调用了 sys.exit({code!r})；请把它从模块顶层删掉。",
    ),
    "sandbox.exit_call": (
        "{what} called sys.exit({code!r}); a reward must return its values.",
        "{what}调用了 sys.exit({code!r})；奖励函数必须返回它的值。",
    ),
    "sandbox.not_callable": (
        "`{function}` is not a function once the custom code has run (it is {kind}).",
        "自定义代码运行后，`{function}` 不是函数（它是 {kind}）。",
    ),
    "sandbox.raised": ("{what} raised {error}: {detail}", "{what}抛出了 {error}：{detail}"),
    "sandbox.raised_line": (
        "{what} raised {error}: {detail} (line {at_line}).",
        "{what}抛出了 {error}：{detail}（第 {at_line} 行）。",
    ),
    "sandbox.failed": ("{what} failed in the sandbox ({detail}).", "{what}在沙箱中失败（{detail}）。"),
    "sandbox.disk_quota": (
        "wrote more than the sandbox's disk quota ({mb} MB and {files} files in its folder; it held {used_mb:.0f} MB "
        "in {count} files{held}); the worker was stopped and its folder removed",
        "写入的内容超过了沙箱的磁盘配额（文件夹中 {mb} MB、{files} 个文件；它占用了 {used_mb:.0f} MB、{count} 个文件"
        "{held}）；工作进程已停止，文件夹已删除",
    ),
    "sandbox.disk_held": (
        " and {mb:.0f} MB in deleted files it kept open",
        "，另有 {mb:.0f} MB 在它仍打开的已删除文件中",
    ),
    "sandbox.thread_left": (
        "left 1 thread running after it returned, and the worker was stopped; join the threads you start "
        "(e.g. `with ThreadPoolExecutor() as pool:`) before returning",
        "返回后还留着 1 个线程在运行，工作进程已停止；请在返回前等待你启动的线程结束"
        "（例如用 `with ThreadPoolExecutor() as pool:`）",
    ),
    "sandbox.threads_left": (
        "left {count} threads running after it returned, and the worker was stopped; join the threads you start "
        "(e.g. `with ThreadPoolExecutor() as pool:`) before returning",
        "返回后还留着 {count} 个线程在运行，工作进程已停止；请在返回前等待你启动的线程结束"
        "（例如用 `with ThreadPoolExecutor() as pool:`）",
    ),
    "sandbox.network_off": (
        "Network access is off in the public sandbox: a reward cannot open sockets or look up hosts "
        "(seccomp refuses socket() for every family).",
        "公开沙箱中的网络访问已关闭：奖励函数不能打开套接字，也不能查询主机"
        "（`seccomp` 对所有协议族都拒绝 `socket()`）。",
    ),
    "sandbox.protocol": ("broke the sandbox protocol ({detail})", "破坏了沙箱协议（{detail}）"),
    "sandbox.wire.closed_input": ("the worker closed its input", "工作进程关闭了它的输入"),
    "sandbox.wire.closed_output": ("the worker closed its output", "工作进程关闭了它的输出"),
    "sandbox.wire.too_big": (
        "the worker sent a reply of {size} bytes (more than {max})",
        "工作进程发回了 {size} 字节的回复（超过 {max}）",
    ),
    "sandbox.wire.malformed": ("the worker sent a malformed reply", "工作进程发回的回复格式不对"),
    "sandbox.wire.timed_out": ("timed out", "超时"),
    # the sandbox's own settings (PLAYGROUND_SANDBOX_*)
    "sandbox.setting_timeouts": ("Sandbox timeouts must be above 0 seconds.", "沙箱的超时时间必须大于 0 秒。"),
    "sandbox.setting_memory": (
        "The sandbox memory limit must be at least 64 MB, got {mb}.",
        "沙箱的内存上限至少为 64 MB，实际为 {mb}。",
    ),
    "sandbox.setting_disk": (
        "The sandbox disk quota must be at least 1 MB and 10 files, got {mb} MB.",
        "沙箱的磁盘配额至少为 1 MB 和 10 个文件，实际为 {mb} MB。",
    ),
    "sandbox.exited": (
        "ended the sandbox worker: it exited with code {code} (os._exit / sys.exit)",
        "结束了沙箱工作进程：它以退出码 {code} 退出（os._exit / sys.exit）",
    ),
    "sandbox.cpu": ("used more than its CPU time limit and was stopped", "用完了 CPU 时间上限，已被停止"),
    "sandbox.killed": (
        "was killed by SIGKILL (by the system's out-of-memory killer, or by the code itself)",
        "被 SIGKILL 杀死（系统的内存不足保护，或代码自身所为）",
    ),
    "sandbox.crashed": (
        "crashed the sandbox worker ({signal}: a native crash, a stack overflow or the memory limit)",
        "让沙箱工作进程崩溃了（{signal}：原生代码崩溃、栈溢出或内存上限）",
    ),
    "sandbox.stopped": ("stopped the sandbox worker ({signal})", "让沙箱工作进程停止了（{signal}）"),
    "sandbox.malformed": (
        "Reward {name!r}: the sandbox worker sent malformed values.",
        "奖励 {name!r}：沙箱工作进程发回的值格式不对。",
    ),
    "sandbox.session": ("Custom code needs a session; reload the page.", "自定义代码需要会话；请刷新页面。"),
    # the checks before any code runs
    "sandbox.custom_code": ("Custom code: {message}", "自定义代码：{message}"),
    "sandbox.custom_code_more": (
        "Custom code: {message} ({count} more problems)",
        "自定义代码：{message}（另有 {count} 个问题）",
    ),
    "sandbox.at_line": ("{message} (line {line})", "{message}（第 {line} 行）"),
    "sandbox.example": (
        "`def my_reward(completions, **kwargs):` returning one float (or None) per completion",
        "`def my_reward(completions, **kwargs):`，为每个生成结果返回一个浮点数（或 None）",
    ),
    "sandbox.empty": (
        "The code is empty; define a reward like {example}.",
        "代码为空；请像这样定义一个奖励：{example}。",
    ),
    "sandbox.unparsable": ("The code cannot be parsed: {detail}.", "代码无法解析：{detail}。"),
    "sandbox.syntax": ("Syntax error at line {line}: {detail}.", "第 {line} 行有语法错误：{detail}。"),
    "sandbox.syntax_column": (
        "Syntax error at line {line}, column {column}: {detail}.",
        "第 {line} 行第 {column} 列有语法错误：{detail}。",
    ),
    "sandbox.twice": (
        "`{name}` is defined twice (lines {first} and {second}); the second definition replaces the first.",
        "`{name}` 定义了两次（第 {first} 行和第 {second} 行）；第二个定义会覆盖第一个。",
    ),
    "sandbox.no_function": (
        "No function found; define a reward like {example}.",
        "没有找到函数；请像这样定义一个奖励：{example}。",
    ),
    "sandbox.library_name": (
        "`{name}` is the name of a library reward; rename it (e.g. `my_{name}`) so that the two stay apart in the run "
        "and its metrics.",
        "`{name}` 是奖励库中某个奖励的名字；请改个名（例如 `my_{name}`），让两者在训练和指标中区分开。",
    ),
    "sandbox.signature": (
        "found {signature}: a reward must accept `completions` and `**kwargs` (TRL passes prompts, completion_ids, "
        "trainer_state and the dataset columns as keywords too).",
        "找到的是 {signature}：奖励函数必须接受 `completions` 和 `**kwargs`（TRL 还会以关键字参数传入 prompts、"
        "completion_ids、trainer_state 和数据集各列）。",
    ),
    # the trial run's warnings
    "sandbox.chat_hint": (
        "With a system prompt or a conversational dataset, TRL hands each completion over as a list of messages: "
        'read the text with c if isinstance(c, str) else c[-1]["content"], or set completions_as_text.',
        "有系统提示词或对话式数据集时，TRL 把每个生成结果作为消息列表传入："
        '用 c if isinstance(c, str) else c[-1]["content"] 读取文本，或设置 completions_as_text。',
    ),
    "sandbox.chat_fails": (
        "Fails on chat completions ({error}). {hint}",
        "在聊天形式的生成结果上出错（{error}）。{hint}",
    ),
    "sandbox.chat_constant": (
        "Gives every chat completion the same value ({value!r}) where their texts differ: it treats the list of "
        "messages as text (len(c) of a one-message list is 1). {hint}",
        "对每个聊天形式的生成结果都给出同一个值（{value!r}），而它们的文本各不相同：它把消息列表当成了文本"
        "（单条消息列表的 len(c) 是 1）。{hint}",
    ),
    "sandbox.trial_non_finite": (
        "NaN or inf for completion {indices}; training treats these as None.",
        "第 {indices} 个生成结果得到 NaN 或无穷大；训练时按 None 处理。",
    ),
    "sandbox.trial_no_number": (
        "No completion got a number (all None or NaN), so this reward gives no signal here.",
        "没有一个生成结果得到数值（全是 None 或 NaN），所以这个奖励在这里没有信号。",
    ),
    "sandbox.trial_constant": (
        "Every completion got {value:g}: no spread within the group, so no learning signal.",
        "每个生成结果都得到 {value:g}：组内没有差异，所以没有学习信号。",
    ),
}
