"""Chinese for the text the reward lab's engine writes: the dry run's verdict and the probe's "why".

The English sentences live next to the code that picks them (`playground.lab.stats.VERDICTS`, and `TEXTS`, `GAMED`,
`LABELS` in `playground.lab.probe`); these dicts have the same keys and placeholders (tests/ui/test_lab_zh.py checks),
and `verdict_text` / `why_text` fill them in for the page's language.
"""

from playground.lab import probe, stats


VERDICTS = {
    "none": "没有学习信号：全部 {n} 个提示词里，每组生成结果的得分都一样，所以所有优势都是 0，训练不会有任何变化；"
    "请先修改奖励（或数据），再花费算力。",
    "good": "信号良好：全部 {n} 个提示词都有学习信号{dominated}。",
    "weak": "信号很弱：{n} 个提示词中只有 {k} 个有学习信号，其余都是白费的训练步{dominated}；"
    "可以考虑更宽松的（部分得分的）奖励，或筛选数据。",
    "usable": "信号可用：{n} 个提示词中有 {k} 个有学习信号{dominated}。",
    "dominated": "；{name} 占了总分波动的 {share}，其他奖励几乎不起作用",
}

TEXTS = {
    "degenerate": "一个退化文本（{label}）得分 {score}，{relation}最好的真实生成结果（{best}）：{gamed}。",
    "degenerate_many": "{count} 种退化文本（{label}）最高得分 {score}，{relation}最好的真实生成结果（{best}）："
    "{gamed}。",
    "constant": "对所有试过的文本（无论真实的还是退化的）都给 {best} 分：它分不出好坏，所以没有学习信号。",
    "more": "高于",
    "same": "等于",
}

GAMED = {
    "format": "格式奖励只检查标签，不检查各部分有没有内容",
    "length": "长度奖励只数字符，长度合适的填充文字和真正的内容得分一样",
    "accuracy": "准确性奖励只检查最终答案，没有推理过程的文本也能拿满分",
    "content": "内容奖励只匹配词语或模式，不管它们用得是否合理",
    "similarity": "相似度奖励衡量与参考答案的重合程度，照抄或堆砌词语就能抬高分数",
    "model": "奖励模型偏爱这个退化文本；这是一个可被利用的盲点",
    "judge": "评判模型给这个退化文本同样高的分；小的评判模型很容易被骗",
    "formula": "公式的各个组成部分放过了这个退化文本",
    "generic": "这个奖励分不出这个退化文本和真实回答",
}

LABELS = {
    "empty": "空文本",
    "whitespace": "只有空白字符",
    "empty_sections": "标签齐全但各部分为空",
    "empty_think_answer": "think/answer 标签里什么都没有",
    "tag_stuffing": "堆砌标签",
    "repeated_word": "同一个词反复出现",
    "overlong": "超长的填充文字",
    "prompt_copy": "照抄提示词",
    "answer_alone": "只有答案",
    "answer_repeated": "答案重复多次",
    "wrong_formatted": "格式正确但答案错误",
    "wrong_after_hashes": "#### 之后是错误答案",
    "off_topic": "格式正确但答非所问",
    "best_emptied": "最好的生成结果，各部分被清空",
    "best_halved": "最好的生成结果，只留前一半",
    "best_reversed": "最好的生成结果，词序颠倒",
    "best_filler": "与最好的生成结果等长的填充字符",
    "best_tripled": "最好的生成结果重复三遍",
}


def verdict_text(summary: stats.Summary, lang: str) -> str:
    """The dry run's verdict in the page's language."""
    return stats.verdict(summary, VERDICTS) if lang == "zh" else stats.verdict(summary)


def why_text(finding: probe.Finding, lang: str) -> str:
    """A probe finding's "why" in the page's language."""
    return probe.explain(finding, TEXTS, GAMED, LABELS, sep="、") if lang == "zh" else probe.explain(finding)
