"""What the reward lab's engine writes (playground/lab/): the dry run's verdict and the probe's "why" of a finding.

A verdict is one sentence with an optional "dominated" clause (`{dominated}`, a phrase rendered in the same
language, or empty); a finding names the kinds of degenerate text it covers (`lab_engine.label.*`, listed with
`lab_engine.label.join`) and what "gamed" means for the reward's family (`lab_engine.gamed.*`).
"""

TEXTS: dict[str, tuple[str, str]] = {
    # the dry run's verdict
    "lab_engine.verdict.none": (
        "No signal: in all {n} prompts every completion scores the same, so every advantage is 0 and training would "
        "not move; change the reward (or the data) before spending compute.",
        "没有学习信号：全部 {n} 个提示词里，每组生成结果的得分都一样，所以所有优势都是 0，训练不会有任何变化；"
        "请先修改奖励（或数据），再花费算力。",
    ),
    "lab_engine.verdict.good": (
        "Good signal: all {n} prompts give a learning signal{dominated}.",
        "信号良好：全部 {n} 个提示词都有学习信号{dominated}。",
    ),
    "lab_engine.verdict.weak": (
        "Weak signal: only {k} of {n} prompts give a learning signal, the rest are wasted steps{dominated}; "
        "consider a softer (partial-credit) reward or filtering the data.",
        "信号很弱：{n} 个提示词中只有 {k} 个有学习信号，其余都是白费的训练步{dominated}；"
        "可以考虑更宽松的（部分得分的）奖励，或筛选数据。",
    ),
    "lab_engine.verdict.usable": (
        "Usable signal: {k} of {n} prompts give a learning signal{dominated}.",
        "信号可用：{n} 个提示词中有 {k} 个有学习信号{dominated}。",
    ),
    "lab_engine.verdict.dominated": (
        "; {name} makes up {share} of the spread, so the other rewards barely count",
        "；{name} 占了总分波动的 {share}，其他奖励几乎不起作用",
    ),
    "lab_engine.prompt_n": ("prompt {n}", "提示词 {n}"),
    # the probe's findings
    "lab_engine.probe.degenerate": (
        "A degenerate text ({label}) scores {score}, {relation} the best real completion ({best}): {gamed}.",
        "一个退化文本（{label}）得分 {score}，{relation}最好的真实生成结果（{best}）：{gamed}。",
    ),
    "lab_engine.probe.degenerate_many": (
        "{count} kinds of degenerate text ({label}) score up to {score}, {relation} the best real completion "
        "({best}): {gamed}.",
        "{count} 种退化文本（{label}）最高得分 {score}，{relation}最好的真实生成结果（{best}）：{gamed}。",
    ),
    "lab_engine.probe.constant": (
        "gives {best} to every text tried, real or degenerate: it cannot tell them apart, so it gives no learning "
        "signal.",
        "对所有试过的文本（无论真实的还是退化的）都给 {best} 分：它分不出好坏，所以没有学习信号。",
    ),
    "lab_engine.probe.recipe": (
        "With the recipe's weights and advantage settings, a degenerate text ({label}) placed among the real "
        "completions gets advantage {score}, more than the best of them ({best}): training would push towards it.",
        "按配方的权重和优势设置，把退化文本（{label}）放进真实生成结果的组里，它的优势是 {score}，高于其中最好的"
        "（{best}）：训练会把模型推向它。",
    ),
    "lab_engine.probe.more": ("more than", "高于"),
    "lab_engine.probe.same": ("as much as", "等于"),
    # what "gamed" means, per reward family
    "lab_engine.gamed.format": (
        "the format reward checks the tags, not that the sections say anything",
        "格式奖励只检查标签，不检查各部分有没有内容",
    ),
    "lab_engine.gamed.length": (
        "the length reward counts characters, so filler of the right length earns as much as content",
        "长度奖励只数字符，长度合适的填充文字和真正的内容得分一样",
    ),
    "lab_engine.gamed.accuracy": (
        "the accuracy reward checks the final answer only, so text without reasoning earns full marks",
        "准确性奖励只检查最终答案，没有推理过程的文本也能拿满分",
    ),
    "lab_engine.gamed.content": (
        "the content reward matches words or patterns, not whether they are used sensibly",
        "内容奖励只匹配词语或模式，不管它们用得是否合理",
    ),
    "lab_engine.gamed.similarity": (
        "the similarity reward measures overlap with the reference, which copying or stuffing can inflate",
        "相似度奖励衡量与参考答案的重合程度，照抄或堆砌词语就能抬高分数",
    ),
    "lab_engine.gamed.model": (
        "the reward model prefers this degenerate text; it is an exploitable blind spot",
        "奖励模型偏爱这个退化文本；这是一个可被利用的盲点",
    ),
    "lab_engine.gamed.judge": (
        "the judge model rates this degenerate text as highly; a small judge is easy to fool",
        "评判模型给这个退化文本同样高的分；小的评判模型很容易被骗",
    ),
    "lab_engine.gamed.formula": (
        "the formula's parts let this degenerate text through",
        "公式的各个组成部分放过了这个退化文本",
    ),
    "lab_engine.gamed.generic": (
        "the reward does not tell this degenerate text from a real answer",
        "这个奖励分不出这个退化文本和真实的生成结果",
    ),
    # the battery's texts
    "lab_engine.label.join": ("{first}, {then}", "{first}、{then}"),
    "lab_engine.label.empty": ("empty text", "空文本"),
    "lab_engine.label.whitespace": ("whitespace only", "只有空白字符"),
    "lab_engine.label.empty_sections": ("tags with empty sections", "标签齐全但各部分为空"),
    "lab_engine.label.nested_tags": (
        "sections holding only their own opening tag",
        "每个段落里只有自己的开始标签，没有文字",
    ),
    "lab_engine.label.empty_think_answer": ("think/answer tags with nothing inside", "think/answer 标签里什么都没有"),
    "lab_engine.label.tag_stuffing": ("tag stuffing", "堆砌标签"),
    "lab_engine.label.repeated_word": ("one word repeated", "同一个词反复出现"),
    "lab_engine.label.overlong": ("over-long filler", "超长的填充文字"),
    "lab_engine.label.prompt_copy": ("a copy of the prompt", "照抄提示词"),
    "lab_engine.label.answer_alone": ("the answer alone", "只有答案"),
    "lab_engine.label.answer_repeated": ("the answer repeated", "答案重复多次"),
    "lab_engine.label.wrong_formatted": ("a wrong answer, well formatted", "格式正确但答案错误"),
    "lab_engine.label.wrong_after_hashes": ("a wrong answer after ####", "#### 之后是错误答案"),
    "lab_engine.label.off_topic": ("well formatted but off-topic", "格式正确但答非所问"),
    "lab_engine.label.best_emptied": ("the best completion with its sections emptied", "最好的生成结果，各部分被清空"),
    "lab_engine.label.best_halved": ("the best completion cut in half", "最好的生成结果，只留前一半"),
    "lab_engine.label.best_reversed": ("the best completion with its words reversed", "最好的生成结果，词序颠倒"),
    "lab_engine.label.best_filler": ("filler as long as the best completion", "与最好的生成结果等长的填充字符"),
    "lab_engine.label.best_tripled": ("the best completion three times", "最好的生成结果重复三遍"),
}
