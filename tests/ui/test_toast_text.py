"""Toasts are plain text: a catalogue message's code spans show as quoted names, not with backticks."""

from playground.texts import engine_table, msg, placeholders
from playground.ui.common import refusal, toast_text


WITH_CODE = sorted(key for key, pair in engine_table().items() if "`" in pair[1] and not placeholders(pair[0]))


def test_a_code_span_becomes_a_quoted_name():
    assert toast_text("提示词集没有 `answer` 列。") == "提示词集没有 'answer' 列。"
    assert toast_text("no code here") == "no code here"


def test_no_error_toast_shows_backticks():
    shown = [(key, lang) for key in WITH_CODE for lang in ("en", "zh") if "`" in refusal(lang, msg(key)).message]
    assert shown == []


def test_some_messages_have_code_spans():
    assert len(WITH_CODE) > 3  # guards the check above against finding nothing
