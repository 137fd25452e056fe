"""The reward lab, Compare and the reward unit tests (playground/lab/, playground/training/compare.py,
playground/reward_tests.py): OpenAI grader imports and their notes, the dry run, re-scoring and test cases."""

TEXTS: dict[str, tuple[str, str]] = {
    "lab_engine.python_errors": (
        "python_errors must be one of {valid}, got {value!r}.",
        "python_errors 必须是 {valid} 之一，实际为 {value!r}。",
    ),
    "lab_engine.grader_json": (
        "The grader is not valid JSON: line {line}: {error}.",
        "评分器不是有效的 JSON：第 {line} 行：{error}。",
    ),
    "lab_engine.grader_shape": (
        'A grader is a JSON object with a "type" (string_check, text_similarity, ...).',
        '评分器是带 "type" 的 JSON 对象（string_check、text_similarity 等）。',
    ),
    "lab_engine.where": ("Grader {name!r} ({kind})", "评分器 {name!r}（{kind}）"),
    "lab_engine.reference": (
        "{where}: the reference must be one dataset column such as {{{{item.answer}}}}.",
        "{where}：reference 必须是一个数据集列，例如 {{{{item.answer}}}}。",
    ),
    "lab_engine.input": (
        "{where}: only {{{{sample.output_text}}}} (the completion) is supported as the input.",
        "{where}：input 只支持 {{{{sample.output_text}}}}（即生成结果）。",
    ),
    "lab_engine.operation": (
        "{where}: operation {value!r} is not one of eq, ne, like, ilike.",
        "{where}：operation {value!r} 不是 eq、ne、like、ilike 之一。",
    ),
    "lab_engine.metric_unavailable": (
        "{where}: evaluation_metric {value!r} is not available: {reason}.",
        "{where}：evaluation_metric {value!r} 不可用：{reason}。",
    ),
    "lab_engine.why_cosine": (
        "cosine compares embeddings from OpenAI's text-embedding-3-large, a remote model",
        "`cosine` 比较的是 OpenAI 的 `text-embedding-3-large`（一个远程模型）给出的向量",
    ),
    "lab_engine.why_meteor": (
        "meteor needs the WordNet data, which nltk downloads from the internet at first use and no PyPI package "
        "ships, so it cannot run offline",
        "`meteor` 需要 `WordNet` 数据，而 `nltk` 在第一次使用时才从网上下载它，也没有 `PyPI` 包提供它，"
        "所以离线无法运行",
    ),
    "lab_engine.metric": (
        "{where}: evaluation_metric {value!r} is not supported.",
        "{where}：不支持 evaluation_metric {value!r}。",
    ),
    "lab_engine.label_model": (
        "{where}: label_model graders are not supported; use a score_model with a rubric.",
        "{where}：不支持 label_model 评分器；请用带评分标准的 score_model。",
    ),
    "lab_engine.grader_type": ("{where}: unknown grader type {kind!r}.", "{where}：未知的评分器类型 {kind!r}。"),
    "lab_engine.rubric_messages": (
        "{where}: input must be a list of messages with the rubric.",
        "{where}：input 必须是包含评分标准的消息列表。",
    ),
    "lab_engine.text_only": (
        "{where}: only text message contents are supported (no images or parts).",
        "{where}：消息内容只支持文本（不支持图片或分段内容）。",
    ),
    "lab_engine.note_judge": (
        (
            "{where}: the judge runs locally on the embedded model, not {model}; a 135M judge is weak, pick a "
            "larger local model in its 'model' parameter for real work."
        ),
        (
            "{where}：评判在本地的内置模型上运行，而不是 {model}；135M 的评判模型很弱，实际使用时请在它的 'model' 参"
            "数中选一个更大的本地模型。"
        ),
    ),
    "lab_engine.note_judge_openai": (
        (
            "{where}: the judge runs locally on the embedded model, not an OpenAI model; a 135M judge is weak, pick "
            "a larger local model in its 'model' parameter for real work."
        ),
        (
            "{where}：评判在本地的内置模型上运行，而不是 OpenAI 的模型；135M 的评判模型很弱，实际使用时请在它的 "
            "'model' 参数中选一个更大的本地模型。"
        ),
    ),
    "lab_engine.note_sampling": (
        "{where}: sampling_params are ignored; the local judge reads its logits once.",
        "{where}：sampling_params 会被忽略；本地评判模型只读取一次 logits。",
    ),
    "lab_engine.range": (
        "{where}: range must be two numbers, got {value!r}.",
        "{where}：range 必须是两个数，实际为 {value!r}。",
    ),
    "lab_engine.note_range": (
        "{where}: range [{low}, {high}] is applied as {low} + ({high} - {low}) * P(yes).",
        "{where}：range [{low}, {high}] 按 {low} + ({high} - {low}) * P(yes) 应用。",
    ),
    "lab_engine.source": (
        "{where}: source must define grade(sample, item).",
        "{where}：source 必须定义 grade(sample, item)。",
    ),
    "lab_engine.note_output_json": (
        (
            "{where}: the code reads sample[{key!r}]; completions are text, so it is the completion parsed as JSON "
            "where it parses and None otherwise."
        ),
        "{where}：代码读取 sample[{key!r}]；生成结果是文本，所以它是能解析时按 JSON 解析的生成结果，否则为 None。",
    ),
    "lab_engine.note_sample_key": (
        "{where}: the code reads sample[{key!r}], which the playground does not give (it is None).",
        "{where}：代码读取 sample[{key!r}]，而实验场不提供它（它为 None）。",
    ),
    "lab_engine.note_raises": (
        "{where}: a sample whose grade() raises scores 0.0, as OpenAI scores it.",
        "{where}：grade() 抛出异常的样本得 0.0 分，与 OpenAI 的做法相同。",
    ),
    "lab_engine.note_image_tag": (
        "{where}: image_tag is ignored; the code runs in the playground's sandbox.",
        "{where}：image_tag 会被忽略；代码在实验场的沙箱中运行。",
    ),
    "lab_engine.multi": (
        'A multi grader needs "graders" (an object of named graders) and "calculate_output".',
        'multi 评分器需要 "graders"（由具名评分器组成的对象）和 "calculate_output"。',
    ),
    "lab_engine.multi_name": (
        "Multi grader: {key!r} is not a name a formula can use.",
        "multi 评分器：{key!r} 不是公式能用的名称。",
    ),
    "lab_engine.multi_object": (
        "Multi grader: {key!r} is not a grader object.",
        "multi 评分器：{key!r} 不是评分器对象。",
    ),
    "lab_engine.multi_python": (
        "Multi grader: {key!r} is a python grader; import it on its own (custom code).",
        "multi 评分器：{key!r} 是 python 评分器；请单独导入它（作为自定义代码）。",
    ),
    "lab_engine.no_dry_run": (
        "Run a dry run first; there is nothing to re-score yet.",
        "请先做一次试运行；现在还没有可以重新打分的内容。",
    ),
    "lab_engine.num_prompts": (
        "The number of prompts must be between 1 and {max}, got {value}.",
        "提示词数量必须在 1 到 {max} 之间，实际为 {value}。",
    ),
    "lab_engine.empty_set": ("The prompt set is empty.", "提示词集是空的。"),
    "lab_engine.switches": (
        "Give one weight and one on/off switch per reward function.",
        "请为每个奖励函数给出一个权重和一个开关。",
    ),
    "lab_engine.all_off": (
        "Every reward function is switched off; switch at least one on.",
        "所有奖励函数都已关闭；请至少打开一个。",
    ),
    "lab_engine.no_adapter": (
        "Run {run} has no saved adapter yet, so there is nothing to compare.",
        "训练 {run} 还没有保存的适配器，所以没有可对比的内容。",
    ),
    "lab_engine.compare_empty": ("All the prompts to compare are empty.", "要对比的提示词全是空的。"),
    "lab_engine.case_number": (
        "{where}: {key!r} must be a finite number, got {value!r}.",
        "{where}：{key!r} 必须是有限的数，实际为 {value!r}。",
    ),
    "lab_engine.case_object": (
        "{where}: a case must be a JSON object, got {kind}.",
        "{where}：用例必须是 JSON 对象，实际为 {kind}。",
    ),
    "lab_engine.case_key": (
        "{where}: unknown key {key!r}; a case has {keys}.",
        "{where}：未知的键 {key!r}；用例的键有 {keys}。",
    ),
    "lab_engine.case_function": (
        "{where}: 'function' must name a reward function.",
        "{where}：'function' 必须是一个奖励函数的名字。",
    ),
    "lab_engine.case_completion": (
        "{where}: 'completion' must be a text (or a list of messages).",
        "{where}：'completion' 必须是文本（或消息列表）。",
    ),
    "lab_engine.case_columns": (
        "{where}: 'columns' must be an object of column name to value.",
        "{where}：'columns' 必须是从列名到值的对象。",
    ),
    "lab_engine.case_range": (
        "{where}: 'min' ({min:g}) is above 'max' ({max:g}).",
        "{where}：'min'（{min:g}）大于 'max'（{max:g}）。",
    ),
    "lab_engine.cases_file": ("Cannot read cases file {path}: {error}.", "无法读取用例文件 {path}：{error}。"),
    "lab_engine.cases_list": ("Cases must be a list, got {kind}.", "用例必须是列表，实际为 {kind}。"),
    "lab_engine.case_json": ("{where}: not valid JSON ({error}).", "{where}：不是有效的 JSON（{error}）。"),
    "lab_engine.note_pass_threshold": (
        "{where}: pass_threshold is a pass/fail cut for evals; the reward is the raw score.",
        "{where}：pass_threshold 是评估用的及格线；奖励取原始分数。",
    ),
    "lab_engine.no_equivalent": (
        "Reward {name!r} has no OpenAI grader equivalent; it is left out.",
        "奖励 {name!r} 没有对应的 OpenAI 评分器；已略去。",
    ),
}
