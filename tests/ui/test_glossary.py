"""Every Chinese text of the page and the engine: the glossary's term for each English term, one Chinese for one
English string, and Chinese punctuation inside Chinese sentences."""

import ast
import re
from collections import defaultdict
from pathlib import Path

import pytest

import playground
from playground.lessons.catalog import LESSONS
from playground.texts.glossary import GLOSSARY
from playground.ui.i18n import EN, ZH
from playground.ui.rewards_tab import score_text
from playground.ui.train_tab import alerts_markdown
from tests.ui.test_alerts_zh import alerts_of_every_kind


CJK = r"[\u4e00-\u9fff]"


@pytest.mark.parametrize("term", GLOSSARY)
def test_every_zh_text_uses_the_glossary_term(term):
    entry = GLOSSARY[term]
    missing = {key: ZH[key] for key in EN if entry.matches(EN[key]) and not any(c in ZH[key] for c in entry.chinese)}
    assert not missing, f"'{term}' is {entry.chinese[0]}: {missing}"
    avoided = {key: text for key, text in ZH.items() if any(word in text for word in entry.avoid)}
    assert not avoided, f"'{term}' is {entry.chinese[0]}, not {entry.avoid}: {avoided}"


def test_one_english_string_has_one_chinese():
    by_english = defaultdict(set)
    for key, text in EN.items():
        by_english[text].add(ZH[key])
    assert {text: zh for text, zh in by_english.items() if len(zh) > 1} == {}


def chinese_punctuation_problems(text: str) -> list[str]:
    problems = []
    if re.search(CJK + r"\**\s*:(\s|$)", text):
        problems.append("ASCII colon after Chinese")
    if re.search(r"\([^()`]*" + CJK + r"[^()`]*\)", text):
        problems.append("ASCII parentheses around Chinese")
    if re.search(r"[。！？；]\**[ \t]", text):
        problems.append("space after a Chinese full stop")
    return problems


def test_zh_texts_use_chinese_punctuation():
    bad = {key: (problems, text) for key, text in ZH.items() if (problems := chinese_punctuation_problems(text))}
    assert bad == {}


@pytest.mark.parametrize(
    ("text", "problems"),
    [
        ("某个奖励占主导: 它", ["ASCII colon after Chinese"]),
        ("**某个奖励占主导**: 它", ["ASCII colon after Chinese"]),
        ("提醒 (步 3)", ["ASCII parentheses around Chinese"]),
        ("已完成。 下一步", ["space after a Chinese full stop"]),
        ("**已完成。** 下一步", ["space after a Chinese full stop"]),
        ("某个奖励占主导：f(x) 与 `a: b`。", []),
    ],
)
def test_the_punctuation_check_finds_what_it_should(text, problems):
    assert chinese_punctuation_problems(text) == problems


def zh_wording_problems(english: str, chinese: str) -> list[str]:
    """The zh wording rules a catalogue entry breaks (code in backticks aside): a completion is 生成结果, never
    回答; a text about prompts says 提示词, not 提示 alone; no space after a full-width colon; × and →, not ASCII x
    and ->."""
    prose = re.sub(r"`[^`]*`", "", chinese)
    problems = []
    if "回答" in prose:
        problems.append("回答 for a completion (生成结果)")
    if GLOSSARY["prompt"].matches(english) and re.search(r"提示(?!词)", prose):
        problems.append("提示 alone for a prompt (提示词)")
    if re.search(r"：[ \t]", chinese):
        problems.append("a space after a full-width colon")
    if re.search(r"(^|\s)x(\s|$)|\d\s*x\s*\d", prose):
        problems.append("ASCII x (×)")
    if "->" in prose or "=>" in prose:
        problems.append("ASCII -> (→)")
    return problems


def test_every_zh_text_follows_the_wording_rules():
    """Every Chinese text of the page and the engine (the generated help included), each failing key reported."""
    bad = {key: (problems, ZH[key]) for key in sorted(ZH) if (problems := zh_wording_problems(EN[key], ZH[key]))}
    assert bad == {}
    assert len(ZH) > 1000  # the page, the engine and the generated help


@pytest.mark.parametrize(
    ("english", "chinese", "problems"),
    [
        ("Held-out answers", "留出提示词上的回答", ["回答 for a completion (生成结果)"]),
        ("the same prompts and seeds", "同样的提示和随机种子", ["提示 alone for a prompt (提示词)"]),
        ("Note", "提示", []),  # a note, not a prompt
        ("Rewards: format", "奖励： format", ["a space after a full-width colon"]),
        ("8 prompts x 4 samples", "8 个提示词 x 每个 4 个样本", ["ASCII x (×)"]),
        ("0 -> 1", "训练前 0 -> 1", ["ASCII -> (→)"]),
        ("8 prompts x 4", "8 个提示词 × 4；`a -> b`、`x = 1`：0 → 1", []),
    ],
)
def test_the_wording_check_finds_each_rule(english, chinese, problems):
    assert zh_wording_problems(english, chinese) == problems


def test_composed_zh_texts_use_chinese_punctuation():
    """Texts the page puts together from parts: alerts with their step, a group's flags with their titles."""
    alerts = [{**alert.__dict__, "step": 3} for alert in alerts_of_every_kind()]
    shown = alerts_markdown(alerts, [{"step": 3}], "zh")
    assert "（第 3 步）" in shown
    _, flags = score_text("zh", "same\n---\nsame", "", "", [{"name": "length", "weight": 1.0, "params": {}}], {})
    assert "没有学习信号" in flags
    for text in (*shown.splitlines(), *flags.splitlines()):
        assert chinese_punctuation_problems(text) == [], text


def chinese_outside_the_catalogue(root) -> dict[str, list[str]]:
    """Chinese string literals (not docstrings or comments) in `root`'s Python files outside playground/texts/."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        if "texts" in path.relative_to(root).parts[:1]:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }
        literals = [
            node.value
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
            and re.search(CJK, node.value)
        ]
        if literals:
            found[str(path.relative_to(root))] = literals
    return found


def test_every_chinese_text_is_in_the_catalogue():
    """The page, the lessons and the engine take their Chinese from playground/texts/ only, where the tests above
    check it: no Chinese sentence lives next to the code that shows it."""
    assert chinese_outside_the_catalogue(Path(playground.__file__).parent) == {}


def test_the_catalogue_check_finds_a_chinese_literal(tmp_path):
    (tmp_path / "texts").mkdir()
    (tmp_path / "texts" / "a.py").write_text('A = "完成"\n', encoding="utf-8")
    (tmp_path / "b.py").write_text('"""说明。"""\n\n\ndef f():\n    """说明。"""\n    return "完成"  # 注释\n')
    assert chinese_outside_the_catalogue(tmp_path) == {"b.py": ["完成"]}


def test_the_lessons_texts_are_catalogue_texts():
    """A lesson's title, text and expected figure are catalogue keys, so the glossary and the one-Chinese checks
    above cover them."""
    for lesson in LESSONS:
        for part in ("title", "text", "expected"):
            key = f"learn.lesson.{lesson.id}.{part}"
            assert getattr(lesson, part) == {"en": EN[key], "zh": ZH[key]}
            assert re.search(CJK, ZH[key]) and not re.search(CJK, EN[key])


def test_the_page_names_itself_in_chinese_on_a_chinese_page():
    """'playground' is 实验场 in a Chinese sentence of the page; the Python package keeps its name in the export's
    messages, which are about code."""
    bare = re.compile(r"(?<![\w/`'.-])playground(?![\w/`'.-])")
    found = {key: text for key, text in ZH.items() if bare.search(text) and not key.startswith("export.")}
    assert found == {}


def literal_emphasis(text: str) -> bool:
    """Whether Markdown (CommonMark's flanking rules, as the browser's renderer applies them) leaves a `**` of
    `text` as it is: a closing `**` after "。" and before a Chinese character does not close."""
    from markdown_it import MarkdownIt

    html = re.sub(r"<code>.*?</code>", "", MarkdownIt("commonmark").render(text), flags=re.DOTALL)
    return "**" in html


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_bold_text_renders_bold_in_both_languages(lang):
    table = EN if lang == "en" else ZH
    assert {key: text for key, text in table.items() if literal_emphasis(text)} == {}


def test_the_emphasis_check_finds_a_closing_mark_that_does_not_close():
    assert literal_emphasis("**第一次来？从一课开始。**格式这一课")
    assert not literal_emphasis("**第一次来？从一课开始**。格式这一课")
    assert not literal_emphasis("也学不到。**GRPO 只能放大信号。**\n\n下一段")
