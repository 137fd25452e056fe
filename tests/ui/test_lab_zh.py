"""The reward lab's generated text (dry-run verdict, probe "why") comes from the catalogue: English for the CLI and the
JSON API, and Chinese on the zh page with only names left in Latin letters."""

import re

import pytest

from playground.lab import probe as probe_module
from playground.lab import stats
from playground.lab.probe import probe
from playground.scoring import LOCAL, RewardChoice, build_rewards
from playground.texts import engine_table, render


# Three or more Latin words in a row, once names are taken out: an English sentence (or part of one) left untranslated.
ENGLISH_RUN = re.compile(r"[A-Za-z]{2,}(?:[ ,;:]+[A-Za-z]{2,}){2,}")


def english_left(text: str, names: tuple[str, ...] = ()) -> list[str]:
    """English runs in `text` outside `code`, 'quoted names' and the given names (prompts, completions, ...)."""
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    text = re.sub(r"`[^`]*`|'[^']*'", " ", text)
    return ENGLISH_RUN.findall(text)


def test_every_probe_label_and_family_has_its_text():
    table = engine_table()
    assert {f"lab_engine.label.{key}" for key in probe_module.LABELS} <= set(table)
    assert {f"lab_engine.gamed.{family}" for family in (*probe_module.FAMILIES, "generic")} <= set(table)
    items = probe_module.battery_items("Say hi.", "4", "<intro>a</intro><body>b</body><conclusion>c</conclusion>")
    assert {key for key, _ in items} == set(probe_module.LABELS)  # every kind of text the battery makes is named


# Four prompts of two completions; column 1 is constant in prompts 3 and 4, column 0 is 100 times larger.
TABLE = [[1.0, 0.0], [0.0, 1.0], [2.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.0, 1.0], [3.0, 0.0], [1.0, 0.0]]


@pytest.mark.parametrize(
    "weights,enabled,kind,dominated",
    [
        ([1.0, 1.0], [True, False], "good", False),
        ([100.0, 1.0], None, "good", True),
        ([1.0, 1.0], [False, True], "usable", False),
        ([0.0, 1.0], None, "usable", True),  # f0 weighs nothing: f1 makes up all the spread
    ],
)
def test_every_verdict_reads_as_chinese(weights, enabled, kind, dominated):
    summary = stats.summarize(TABLE, ["f0", "f1"], weights, 2, enabled=enabled)
    got, values = stats.verdict_kind(summary)
    assert got == kind and (values["dominated"] is not None) == dominated
    zh = render("zh", summary.verdict)
    assert zh.startswith({"good": "信号良好", "usable": "信号可用"}[kind]) and not english_left(zh)
    assert ("占了总分波动的" in zh) == dominated
    assert render("en", summary.verdict) == str(summary.verdict) == summary.to_json()["verdict"]  # English


def test_no_signal_and_weak_verdicts_read_as_chinese():
    flat = stats.summarize([[1.0]] * 4, ["f"], [1.0], 2)
    assert render("zh", flat.verdict).startswith("没有学习信号：全部 2 个提示词")
    weak = stats.summarize([[1.0], [1.0], [1.0], [1.0], [1.0], [1.0], [0.0], [1.0]], ["f"], [1.0], 2)
    assert stats.verdict_kind(weak)[0] == "weak"
    assert render("zh", weak.verdict).startswith("信号很弱：4 个提示词中只有 1 个有学习信号")


def test_probe_findings_explain_themselves_in_chinese():
    choices = [RewardChoice("format", 1.0, {"allow_empty": True}), RewardChoice("length")]
    funcs, _ = build_rewards(choices, executor=LOCAL)
    report = probe(choices, funcs)
    assert {f.label for f in report.findings} >= {"empty_sections"}
    for finding in report.findings:
        assert render("en", finding.why) == finding.to_json()["why"]  # the engine's English, unchanged
        zh = render("zh", finding.why)
        assert re.search(r"[\u4e00-\u9fff]", zh) and not english_left(zh), zh
    empty = next(f for f in report.findings if f.label == "empty_sections")
    assert len(empty.labels) == 3  # the ties of one reward are one finding: empty sections, off-topic, emptied best
    assert render("zh", empty.why) == (
        "3 种退化文本（标签齐全但各部分为空、格式正确但答非所问、最好的生成结果，各部分被清空）"
        "最高得分 1，等于最好的真实生成结果（1）："
        "格式奖励只检查标签，不检查各部分有没有内容。"
    )
