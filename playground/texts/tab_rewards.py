"""The Rewards tab: the library, custom code, Try on text and the reward unit tests."""

# The custom-code editor's starter: one function, its docstring in each language (the code is the same). Code, not a
# template: kept out of `TEXTS`, whose braces are placeholders.
STARTER_EN = '''\
def ends_with_period(completions, **kwargs):
    """1.0 when the completion ends with a period, else 0.0.

    TRL passes each completion in one of two shapes:
      - a string, "The sky is blue.", when the prompts are plain text;
      - chat messages, [{"role": "assistant", "content": "The sky is blue."}], when the run has a system
        prompt or a conversational dataset (len(c) is then 1, the number of messages).
    The line below reads both; or set completions_as_text (Train) to always get strings.
    Every dataset column comes as a keyword argument (e.g. kwargs["answer"]), one value per completion.
    Return one float (or None) per completion.
    """
    texts = [c if isinstance(c, str) else c[-1]["content"] for c in completions]
    return [1.0 if t.strip().endswith(".") else 0.0 for t in texts]
'''
STARTER_ZH = '''\
def ends_with_period(completions, **kwargs):
    """生成结果以句号 "." 结尾时给 1.0，否则给 0.0。

    TRL 以两种形式之一传入每个生成结果：
      - 字符串，如 "The sky is blue."：提示词是纯文本时；
      - 对话消息，如 [{"role": "assistant", "content": "The sky is blue."}]：训练带系统提示词或
        对话式数据集时（此时 len(c) 为 1，即消息条数）。
    下面这一行两种都能读；也可以在“训练”页设置 completions_as_text，总是得到字符串。
    数据集的每一列都作为关键字参数传入（例如 kwargs["answer"]），每个生成结果一个值。
    每个生成结果返回一个浮点数（或 None）。
    """
    texts = [c if isinstance(c, str) else c[-1]["content"] for c in completions]
    return [1.0 if t.strip().endswith(".") else 0.0 for t in texts]
'''

TEXTS: dict[str, tuple[str, str]] = {
    # rewards tab
    "rewards.tab": ("Rewards", "奖励"),
    "rewards.intro": (
        (
            "Pick rewards from the library, set their parameters and weights, and see how they score completions. "
            "The examples under each reward are scored live with its current parameters."
        ),
        "从奖励库中挑选奖励，设置参数和权重，看看它们如何给生成结果打分。每个奖励下方的示例会按当前参数实时打分。",
    ),
    "rewards.family.format": ("Format", "格式"),
    "rewards.family.length": ("Length", "长度"),
    "rewards.family.accuracy": ("Accuracy", "正确性"),
    "rewards.family.content": ("Content", "内容"),
    "rewards.family.other": ("Other", "其他"),
    "rewards.use": ("Use", "使用"),
    "rewards.examples.needs_params": (
        "Set its parameters above to see its scores on the example completions.",
        "在上方设置它的参数，即可看到它在示例生成结果上的得分。",
    ),
    "rewards.weight": ("Weight", "权重"),
    "rewards.weight.empty": ("no weight", "未填权重"),
    "rewards.needs_columns": ("Needs the dataset column(s):", "需要数据集列："),
    "rewards.selected": ("Selected rewards:", "已选奖励："),
    "rewards.none_selected": (
        "No reward selected: tick “Use” on at least one reward.",
        "尚未选择奖励：请至少勾选一个奖励的“使用”。",
    ),
    "rewards.json": ("Selection as JSON (copy, or paste and apply)", "以 JSON 表示的选择（可复制，或粘贴后应用）"),
    "rewards.apply_json": ("Apply JSON", "应用 JSON"),
    "rewards.bad_json": ("The selection is not valid JSON ({error}).", "选择不是有效的 JSON（{error}）。"),
    "rewards.json_line": ("line {line}: {error}", "第 {line} 行：{error}"),
    "rewards.json_expected": ('expected [{{"name": ..., "weight": ...}}]', '应为 [{{"name": ..., "weight": ...}}]'),
    "rewards.json_not_object": ("not a JSON object", "不是 JSON 对象"),
    "rewards.try.title": ("Try on text", "用文本试一试"),
    "rewards.try.completions": ("Completions", "生成结果"),
    "rewards.try.info": (
        "One completion per block; separate blocks with a line containing only ---",
        "每段一个生成结果；段与段之间用只含 --- 的一行分隔",
    ),
    "rewards.try.context": ("Prompt and dataset columns (optional)", "提示词和数据集列（可选）"),
    "rewards.try.prompt": ("Prompt", "提示词"),
    "rewards.try.columns": (
        "Dataset columns as JSON, the same for every completion",
        "数据集列（JSON），对每个生成结果相同",
    ),
    "rewards.try.run": ("Score", "打分"),
    "rewards.try.needs_column": (
        "The selected rewards read the dataset column {column}: give it a value under “Prompt and dataset columns”, "
        "for example {example}, then press Score.",
        "所选奖励要读取数据集列 {column}：请在“提示词和数据集列”里给它一个值，例如 {example}，然后点击“打分”。",
    ),
    "rewards.try.table": ("Scores, total and advantage", "各项得分、总分和优势"),
    "rewards.try.too_few": (
        "Paste at least two completions, separated by a line containing only ---.",
        "请至少粘贴两个生成结果，用只含 --- 的一行分隔。",
    ),
    "rewards.try.bad_columns": (
        'The dataset columns must be a JSON object such as {{"answer": "4"}} ({error}).',
        '数据集列必须是 JSON 对象，例如 {{"answer": "4"}}（{error}）。',
    ),
    "rewards.family.custom": ("Custom (Python)", "自定义（Python）"),
    "rewards.custom.intro": (
        (
            "Write reward functions in Python: `def name(completions, **kwargs)`, returning one float (or None) per "
            "completion. The code runs in a sandboxed worker process, never in the app. **Check** it, tick the "
            "functions to use, and they score, preview and train like the library's rewards."
        ),
        (
            "用 Python 编写奖励函数：`def name(completions, **kwargs)`，为每个生成结果返回一个浮点数（或 None）。代"
            "码在沙箱工作进程中运行，绝不在应用进程中运行。点击**检查**，勾选要使用的函数，它们就能像库中的奖励一样"
            "打分、预览和训练。"
        ),
    ),
    "rewards.custom.off": (
        "Custom reward code is disabled on this server (PLAYGROUND_CUSTOM_CODE=off); use the library rewards.",
        "此服务器已禁用自定义奖励代码（PLAYGROUND_CUSTOM_CODE=off）；请使用奖励库中的奖励。",
    ),
    "rewards.custom.label": ("Custom reward code", "自定义奖励代码"),
    "rewards.custom.check": ("Check", "检查"),
    "rewards.custom.choices": (
        "Custom rewards: tick the ones to use and set their weights",
        "自定义奖励：勾选要使用的函数并设置权重",
    ),
    "rewards.custom.use": ("use", "使用"),
    "rewards.custom.function": ("function", "函数"),
    "rewards.custom.weight": ("weight", "权重"),
    "rewards.custom.found": ("**Reward functions found:** {names}", "**找到的奖励函数：** {names}"),
    "rewards.custom.trial": ("Trial run on example completions", "在示例生成结果上试运行"),
    "rewards.custom.trial_ok": (
        "returned a value for each completion ({ms} ms).",
        "为每个生成结果都返回了值（{ms} 毫秒）。",
    ),
    "rewards.custom.constant": (
        (
            "it gave every trial completion the same score, so it would give GRPO no signal; it is not ticked (tick "
            "it to use it anyway)."
        ),
        "它给所有试用生成结果打了同样的分，GRPO 从中得不到信号；因此没有勾选（仍要使用请手动勾选）。",
    ),
    "rewards.custom.output": ("Printed by `{name}`:", "`{name}` 打印的内容："),
    "rewards.custom.empty": ("(empty)", "（空）"),
    "rewards.custom.missing": (
        "The custom reward `{name}` is selected but the code does not define it; press Check, or untick it.",
        "已选择自定义奖励 `{name}`，但代码中没有定义它；请点击“检查”，或取消勾选。",
    ),
    "rewards.tests.title": ("Reward unit tests", "奖励函数单元测试"),
    "rewards.tests.info": (
        (
            "One case per row: the function to test, a completion, optionally a prompt and the dataset columns as a "
            "JSON object, then the value expected (or a min and a max). Leave a cell empty to skip it; write none "
            "to expect None."
        ),
        (
            "每行一个用例：要测试的函数、一个生成结果，可选的提示词和数据集列（JSON 对象），以及期望值（或最小值和最"
            "大值）。单元格留空表示不检查；填 none 表示期望返回 None。"
        ),
    ),
    "rewards.tests.cases": ("Cases", "用例"),
    "rewards.tests.columns": ("columns (JSON)", "数据集列（JSON）"),
    "rewards.tests.expected": ("expected", "期望值"),
    "rewards.tests.min": ("min", "最小值"),
    "rewards.tests.max": ("max", "最大值"),
    "rewards.tests.run": ("Run tests", "运行测试"),
    "rewards.tests.results": ("Results", "结果"),
    "rewards.tests.case": ("case", "用例"),
    "rewards.tests.result": ("result", "结果"),
    "rewards.tests.got": ("got", "实际值"),
    "rewards.tests.detail": ("details", "详情"),
    "rewards.tests.pass": ("pass", "通过"),
    "rewards.tests.fail": ("FAIL", "未通过"),
    "rewards.tests.summary": ("{passed} of {total} cases pass.", "{total} 个用例中通过 {passed} 个。"),
    "rewards.tests.none": (
        "Add at least one case: the function to test and a completion.",
        "请至少添加一个用例：要测试的函数和一个生成结果。",
    ),
    "rewards.tests.where": ("Case {case}", "用例 {case}"),
    "rewards.tests.not_in_code": (
        "{function} is neither a function of the code in the editor (it defines: {defined}) nor a library reward: "
        "this case was written for other code. Name one of the code's functions, or delete the case.",
        "{function} 既不是编辑器中代码的函数（代码定义了：{defined}），也不是库中的奖励：这个用例是为别的代码写的。"
        "请改成代码中的某个函数，或删除这个用例。",
    ),
    "rewards.tests.stale": (
        "The cases name {names}, which the code in the editor does not define: they belong to earlier code.",
        "用例里的 {names} 不是编辑器中代码定义的函数：这些用例属于之前的代码。",
    ),
    "rewards.tests.no_functions": ("none", "无"),
    "rewards.tests.bad_columns": (
        'Case {case}: the columns must be a JSON object such as {{"answer": "4"}} ({error}).',
        '用例 {case}：数据集列必须是 JSON 对象，例如 {{"answer": "4"}}（{error}）。',
    ),
    "rewards.tests.bad_number": (
        "Case {case}: {column} must be a number, got {value}.",
        "用例 {case}：{column} 必须是数字，实际为 {value}。",
    ),
}
