"""Rewards: the registry's refusals, what a reward returned, the flags of a scored group and the preview's settings
(rewards/registry.py, playground/scoring.py, playground/preview.py). Reward and parameter names stay as they are."""

from rewards.errors import MESSAGES


# The reward library's messages: the English is the library's own (`rewards.errors.MESSAGES`), the Chinese is here.
LIBRARY_ZH: dict[str, str] = {
    "reward.unknown": "未知的奖励 {name!r}。可用的奖励：{valid}。",
    "reward.param_choice": "奖励 {name!r}：参数 {param!r} 必须是 {valid} 之一，实际为 {value!r}。",
    "reward.param_min": "奖励 {name!r}：参数 {param!r} 必须 >= {min}，实际为 {value!r}。",
    "reward.param_max": "奖励 {name!r}：参数 {param!r} 必须 <= {max}，实际为 {value!r}。",
    "reward.param_type": "奖励 {name!r}：参数 {param!r} 的类型必须是 {type}，实际为 {value!r}。",
    "reward.param_unknown": "奖励 {name!r} 没有参数 {param!r}。它的参数有：{known}。",
    "reward.completion_type": "生成结果必须是字符串或对话消息列表，实际为 {kind}：{value}。",
    "reward.column_missing": "奖励 {name!r} 需要数据集列 {column!r}，但这批数据只有这些列：{columns}。",
    "reward.column_missing_none": "奖励 {name!r} 需要数据集列 {column!r}，但这批数据没有任何列。",
    "reward.column_length": "奖励 {name!r}：列 {column!r} 有 {count} 项，而生成结果有 {n} 个。",
    "reward.needs_column": "{name} 奖励需要一个数据集列名，实际为 {value!r}。",
    "reward.option": "{name} 的 {option} 必须是 {valid} 之一，实际为 {value!r}。",
    "reward.code_fence": "代码格式的 language 必须是代码块标记，例如 python，实际为 {value!r}。",
    "reward.code_python": "code_tests 奖励只运行 Python，实际的 language 为 {value!r}。",
    "reward.code_time_limit": "code_tests 的 time_limit 必须在 (0, 60] 秒之间，实际为 {value!r}。",
    "reward.code_sandbox": (
        "code_tests 在实验场的沙箱中运行程序，而这个进程没有设置沙箱（调用 playground.bootstrap()）。"
    ),
    "reward.code_tests_json": "code_tests：某一行的 tests 是文本而不是 JSON；请给出测试用例列表。",
    "reward.code_tests_shape": (
        'code_tests：某一行的 tests 必须是 {{"input": ..., "output": ...}} 对象或 Python 字符串组成的列表。'
    ),
    "reward.keywords_empty": "keywords 奖励至少需要一个要包含（include）或要排除（exclude）的关键词。",
    "reward.regex_empty": "regex 奖励需要一个非空的 pattern，实际为 {value!r}。",
    "reward.regex_invalid": "正则表达式 {pattern!r} 无效：{error}。",
    "reward.regex_slow": (
        "正则表达式 {pattern!r} 匹配 {n} 个生成结果用了超过 {seconds:g} 秒；(a+)+ "
        "这样的嵌套量词会无休止地回溯。请简化这个表达式。"
    ),
    "reward.language_threshold": "language 的 threshold 必须在 0 到 1 之间，实际为 {value!r}。",
    "reward.allow_empty": "allow_empty 必须是 true 或 false，实际为 {value!r}。",
    "reward.tags_empty": "这个奖励至少需要一个标签名，例如 intro,body,conclusion。",
    "reward.tag_invalid": "标签名 {name!r} 无效；请用 intro、body、think、answer 这样的名称。",
    "reward.tags_repeat": "这个奖励的标签不能重复，实际为 {tags}。",
    "reward.formula_empty": "公式为空；请写成例如 `0.9 * similarity + 0.1 * format`。",
    "reward.formula_long": "公式超过了 {max} 个字符。",
    "reward.formula_syntax": "公式 {formula!r} 不是有效的表达式：{error}。",
    "reward.formula_node": "公式 {formula!r} 用到了 {node}，公式中不允许这样做。",
    "reward.formula_constant": "公式 {formula!r} 只能包含数字，不能包含 {value!r}。",
    "reward.formula_call": "公式 {formula!r} 只能调用 {functions}（仅限位置参数）。",
    "reward.formula_name": "公式 {formula!r} 用到了 {name!r}，它不在这些名称之中：{names}。",
    "reward.formula_power": "公式中不允许大于 10 的幂。",
    "reward.formula_unexpected": "公式中出现了意外的 {node}。",
    "reward.formula_terms_json": "公式的 terms 不是有效的 JSON：{error}。",
    "reward.formula_terms_shape": '公式的 terms 必须形如 {{"a": {{"name": "similarity", "params": {{...}}}}}}。',
    "reward.formula_no_reward": "公式 {formula!r} 没有用到任何奖励；请至少写一个，例如 `format`。",
    "reward.formula_nested": "公式中不能再包含公式。",
    "reward.formula_overflow": "公式 {formula!r} 算出的数太大，不能作为奖励。",
    "reward.formula_failed": "公式 {formula!r} 计算失败：{error}。",
    "reward.judge_load": "无法加载评判模型 {model!r}：{error}",
    "reward.judge_rubric": "评判需要一条评分标准（rubric）：用一两句话说明好的生成结果应该做到什么。",
    "reward.judge_model": "评判需要一个模型：'embedded'、Hub id 或本地文件夹。",
    "reward.batch_size": "batch_size 必须是不小于 1 的整数，实际为 {value!r}。",
    "reward.time_limit": "time_limit 必须是正的秒数，实际为 {value!r}。",
    "reward.judge_tokens": "评判模型 {model!r} 没有表示 'yes' 和 'no' 的单个 token。",
    "reward.model_load": "无法加载奖励模型 {model!r}：{error}",
    "reward.model_id": "奖励模型必须是 Hub id 或文件夹，实际为 {value!r}。",
    "reward.model_missing": "reward_model 奖励需要一个模型：Hub id 或本地文件夹。",
    "reward.similarity_metric": "未知的相似度指标 {value!r}；请使用 {valid} 之一。",
    "reward.completion_ids": "收到了 {count} 组 completion_ids，而生成结果有 {n} 个。",
    "reward.ngram_size": "重复惩罚的 ngram_size 必须是 >= 1 的整数，实际为 {value!r}。",
    "reward.max_penalty": "重复惩罚的 max_penalty 不能为正，实际为 {value!r}。",
    "reward.repetition_language": "重复惩罚的 language 必须是 {valid} 之一。",
    "reward.overlong_value": "软超长惩罚的 {param} 必须是非负整数，实际为 {value!r}。",
    "reward.overlong_range": (
        "软超长惩罚需要 0 <= soft_punish_cache <= max_completion_len 且 max_completion_len >= 1，实际 "
        "soft_punish_cache={cache}，max_completion_len={length}。"
    ),
    "reward.delimiters": "推理准确性奖励至少需要一个推理分隔符，例如 </think>。",
    "reward.cosine_max_len": "余弦缩放奖励的 max_len 必须是 >= 1 的整数，实际为 {value!r}。",
    "reward.cosine_unit": "余弦缩放奖励的 length_unit 必须是 {valid} 之一。",
    "reward.ideal_length": "ideal_length 必须是非负整数（字符数），实际为 {value!r}。",
}

TEXTS: dict[str, tuple[str, str]] = {
    **{key: (english, LIBRARY_ZH[key]) for key, english in MESSAGES.items()},
    # the registry and a reward's parameters
    "reward.param_invalid": ("Reward {name!r}: {detail}", "奖励 {name!r}：{detail}"),
    # a selection of rewards
    "reward.empty_name": (
        "Empty reward name in {text!r}; use NAME or NAME:WEIGHT.",
        "{text!r} 中的奖励名为空；请写成 NAME 或 NAME:WEIGHT。",
    ),
    "reward.bad_weight": (
        "Malformed weight {weight!r} in {text!r}; use NAME:WEIGHT with a number.",
        "{text!r} 中的权重 {weight!r} 格式不对；请写成 NAME:WEIGHT，权重为数字。",
    ),
    "reward.weight_empty": (
        "The weight of {name!r} is empty; give a number (1 counts it fully, 0 scores it without training on it).",
        "{name!r} 的权重是空的；请填一个数字（1 表示完全计入，0 表示只打分、不参与训练）。",
    ),
    "reward.weight_negative": (
        "The weight of {name!r} is {weight:g}: below 0 it is a penalty, so GRPO pushes its score down. Use a "
        "positive weight unless that is what you want.",
        "{name!r} 的权重是 {weight:g}：小于 0 就成了惩罚，GRPO 会把它的得分往下压。除非这正是你想要的，请用正的权重。",
    ),
    "reward.weight_huge": (
        "The weight of {name!r} is {weight:g}: above {limit:g} it drowns the other rewards, and the total, kept in "
        "float32 (about 7 digits), loses their small differences. Rescale the reward instead.",
        "{name!r} 的权重是 {weight:g}：超过 {limit:g} 会淹没其他奖励，而总分以 float32（约 7 位有效数字）保存，"
        "会丢掉它们的细小差别。请改为调整该奖励本身的尺度。",
    ),
    "reward.weight_not_number": (
        "Weight of {name!r} must be a number, got {weight!r}.",
        "{name!r} 的权重必须是数字，实际为 {weight!r}。",
    ),
    "reward.weight_finite": (
        "Weight of {name!r} must be a finite number, got {weight!r}.",
        "{name!r} 的权重必须是有限的数，实际为 {weight!r}。",
    ),
    "reward.none_picked": ("Pick at least one reward.", "请至少选择一个奖励。"),
    "reward.twice": (
        "Reward {name!r} is selected twice; change its parameters or remove one.",
        "奖励 {name!r} 被选了两次；请修改其中一个的参数，或删掉一个。",
    ),
    # what a reward returned
    "reward.raised": ("Reward {name!r} raised {error}", "奖励 {name!r} 抛出了 {error}"),
    "reward.not_a_list": (
        "Reward {name!r} must return a list of floats, got {got}.",
        "奖励 {name!r} 必须返回浮点数列表，实际返回了 {got}。",
    ),
    "reward.generator": (
        "Reward {name!r} must return a list of floats, got {got} (a generator: wrap it in list(...)).",
        "奖励 {name!r} 必须返回浮点数列表，实际返回了 {got}（这是生成器：请用 list(...) 包起来）。",
    ),
    "reward.count": (
        "Reward {name!r} returned a list of length {count} for {n} completions: one score per completion is needed.",
        "奖励 {name!r} 为 {n} 个生成结果返回了长度为 {count} 的列表：每个生成结果需要一个分数。",
    ),
    "reward.bad_value": (
        "Reward {name!r} returned {kind} {value!r} for completion {index}; expected a float or None.",
        "奖励 {name!r} 对第 {index} 个生成结果返回了 {kind} {value!r}；应为浮点数或 None。",
    ),
    "reward.bad_value_repr": (
        "Reward {name!r} returned {kind} {value} for completion {index}; expected a float or None.",
        "奖励 {name!r} 对第 {index} 个生成结果返回了 {kind} {value}；应为浮点数或 None。",
    ),
    "reward.group_size": (
        "A group needs at least 2 completions, got {n}.",
        "一组至少需要 2 个生成结果，实际为 {n} 个。",
    ),
    # the flags of a scored group
    "scoring.non_finite": (
        "Reward {name!r} returned NaN or inf for {bad} of {n} completions; treated as None.",
        "奖励 {name!r} 对 {n} 个生成结果中的 {bad} 个返回了 NaN 或无穷大；按 None 处理。",
    ),
    "scoring.none": (
        "Reward {name!r} returned None for {count} of {n} completions, so they are skipped for it.",
        "奖励 {name!r} 对 {n} 个生成结果中的 {count} 个返回了 None，这些结果在该奖励上被跳过。",
    ),
    "scoring.unscorable": (
        "{count} of {n} completions got None from every reward; their advantage is 0.",
        "{n} 个生成结果中有 {count} 个在所有奖励上都是 None；它们的优势为 0。",
    ),
    "scoring.zero_std": (
        "All {n} completions scored the same, so this group gives no learning signal (every advantage is 0).",
        "全部 {n} 个生成结果得分相同，所以这一组没有学习信号（所有优势都是 0）。",
    ),
    "scoring.dominates": (
        "Reward {name!r} makes up {share:.0%} of the spread of the weighted total, so the other rewards ({others}) "
        "have little effect on the advantage; rescale it or lower its weight.",
        "奖励 {name!r} 占加权总分离散程度的 {share:.0%}，所以其他奖励（{others}）几乎影响不了优势；"
        "请调整它的尺度或降低它的权重。",
    ),
    "scoring.flat": (
        "{names} scored every completion of the group the same, which moves no advantage (only the other rewards "
        "tell the completions apart).",
        "{names} 给组内每个生成结果的分数都一样，这不会改变任何优势（只有其他奖励能把生成结果区分开）。",
    ),
    "scoring.clipped": (
        "{count} of {n} completions were cut at the token limit ({limit}); the rewards scored the cut text. "
        "Raise max_completion_length, or reward shorter answers.",
        "{n} 个生成结果中有 {count} 个在 token 上限（{limit}）处被截断；奖励给截断后的文本打分。"
        "请提高 max_completion_length，或奖励更短的生成结果。",
    ),
}
