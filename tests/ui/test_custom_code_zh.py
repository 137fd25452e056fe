"""The custom-reward starter and tables on a Chinese page: its docstring and the tables' headers in Chinese, the
function the same, and what the visitor typed kept."""

import ast

import gradio as gr
import pandas as pd

from playground.ui.custom_code import CASE_HEADERS, TEMPLATE, TEMPLATE_ZH, TEST_CASES, choices_frame, localize
from playground.ui.i18n import EN


ZH = gr.Request(headers={"accept-language": "zh-CN,zh;q=0.9"})
EN_REQUEST = gr.Request(headers={"accept-language": "en-US"})


def body(code: str) -> str:
    tree = ast.parse(code)
    tree.body[0].body = tree.body[0].body[1:]  # without the docstring
    return ast.unparse(tree)


def test_the_chinese_starter_is_the_same_function():
    assert body(TEMPLATE_ZH) == body(TEMPLATE)
    assert "生成结果" in ast.get_docstring(ast.parse(TEMPLATE_ZH).body[0])


def test_a_chinese_page_gets_the_starter_and_headers_in_chinese():
    cases = pd.DataFrame(TEST_CASES, columns=[EN[key] for key in CASE_HEADERS])
    code, choices, cases_zh, results = localize(
        ZH, TEMPLATE, choices_frame([(False, "ends_with_period", 1.0)], "en"), cases
    )
    assert code == TEMPLATE_ZH
    assert list(choices.columns) == ["使用", "函数", "权重"] and choices.values.tolist() == [
        [False, "ends_with_period", 1.0]
    ]
    assert cases_zh.values.tolist() == TEST_CASES and not any(h.isascii() for h in cases_zh.columns)
    assert not any(h.isascii() for h in results.columns)


def test_typed_code_is_kept_and_an_english_page_is_left_as_built():
    typed = "def mine(completions, **kwargs):\n    return [0.0] * len(completions)\n"
    code, *_ = localize(ZH, typed, None, None)
    assert isinstance(code, type(gr.skip()))
    assert all(isinstance(out, type(gr.skip())) for out in localize(EN_REQUEST, TEMPLATE, None, None))
