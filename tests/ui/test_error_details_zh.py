"""Parser and Python error details on a Chinese page: explained in Chinese inside the sentence, the original English
kept in a collapsible detail; English pages read the original as it is."""

import csv
import io
import json

import pytest

from playground.errors import PlaygroundError
from playground.sandbox import inspect_code
from playground.texts import msg, render
from playground.texts.core import originals
from playground.texts.details import explain
from playground.ui.common import original_details, refusal
from playground.ui.custom_code import check_markdown


def csv_error(text: str) -> str:
    with pytest.raises(csv.Error) as caught:
        list(csv.reader(io.StringIO(text), strict=True))
    return str(caught.value)


def json_error(text: str) -> str:
    with pytest.raises(json.JSONDecodeError) as caught:
        json.loads(text)
    return caught.value.msg


def syntax_error(code: str) -> str:
    with pytest.raises(SyntaxError) as caught:
        compile(code, "reward.py", "exec")
    return caught.value.msg


@pytest.mark.parametrize(
    ("detail", "chinese"),
    [
        (csv_error('a,b\n1,"x"y\n'), "'\"' 之后应是 ','"),
        (csv_error('a,b\n1,"x\n'), "数据意外结束"),
        (json_error('{"a": }'), "这里应是一个值"),
        (json_error("{a: 1}"), "属性名应放在双引号里"),
        (json_error('{"a" 1}'), "缺少分隔符 ':'"),
        (syntax_error("def f()\n    return 1\n"), "这里缺少 ':'"),
        (syntax_error("x = (1,\n"), "'(' 没有闭合"),
        (syntax_error("x = 'abc\n"), "字符串没有结束"),
        (syntax_error("  x = 1\n"), "多余的缩进"),
        (syntax_error("if x:\nx = 1\n"), "第 1 行的 'if' 语句之后应有缩进的代码块"),
        (syntax_error("x = 1)\n"), "多了一个 ')'"),
        (syntax_error("x = 1 +\n"), "语法无效"),
    ],
)
def test_a_parsers_message_is_explained_in_chinese(detail, chinese):
    assert chinese in explain(detail)
    assert explain("some message no table lists") is None  # shown as written (a reward's own exception message)


def test_a_csv_error_reads_chinese_with_the_original_collapsed():
    detail = csv_error('a,b\n1,"x"y\n')
    text = msg("data.csv_invalid", what=msg("data.what.file", name="malformed.csv"), line=2, detail=detail)
    zh = render("zh", text)
    assert "expected" not in zh and "之后应是" in zh
    assert render("en", text).endswith(f"(line 2: {detail}).")  # English as the parser wrote it
    assert originals(text) == [detail] and originals(PlaygroundError(text)) == [detail]
    folded = original_details("zh", PlaygroundError(text))
    assert folded.startswith("<details><summary>原始信息</summary>") and "expected after" in folded
    assert original_details("en", text) == ""
    toast = refusal("zh", PlaygroundError(text))
    assert "之后应是" in toast.message and "<details>" in toast.message and "expected after" in toast.message


def test_a_syntax_error_in_custom_code_reads_chinese_with_the_original_collapsed():
    report = inspect_code("def reward(completions, **kwargs)\n    return [1.0 for c in completions]\n")
    assert report.errors
    zh = check_markdown(report, [], None, "zh")
    shown, _, folded = zh.partition("<details>")
    assert "这里缺少 ':'" in shown and "expected" not in shown
    assert "原始信息" in folded and "expected &#x27;:&#x27;" in folded
    assert "<details>" not in check_markdown(report, [], None, "en")


@pytest.mark.parametrize("detail", ["已经是中文", "my reward's own message", msg("sandbox.setting_timeouts")])
def test_a_detail_in_chinese_unknown_or_from_the_catalogue_is_left_as_it_is(detail):
    text = msg("data.csv_invalid", what="x", line=1, detail=detail)
    assert render("zh", detail) in render("zh", text) and originals(text) == []
