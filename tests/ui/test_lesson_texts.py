"""The lessons as a Space visitor reads them: no repository file named, the glossary's terms and Chinese punctuation
in Chinese, and a reference run described as the shipped one was measured."""

import re

import pytest

from playground.lessons import LESSONS, get_lesson
from playground.texts.glossary import GLOSSARY
from playground.ui.i18n import EN, ZH
from playground.ui.learn_tab import reference_markdown
from tests.ui.test_glossary import chinese_punctuation_problems


REPO_FILE = re.compile(r"\b(?:bench|docs|tests|scripts)/|\b[\w/]+\.(?:py|md)\b")


def lesson_texts(lang: str) -> list[str]:
    return [part[lang] for lesson in LESSONS for part in (lesson.title, lesson.text, lesson.expected) if part]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_lesson_names_a_file_a_visitor_cannot_open(lang):
    table = {"en": EN, "zh": ZH}[lang]
    texts = lesson_texts(lang) + [text for key, text in table.items() if key.startswith("learn.")]
    texts += [reference_markdown(lesson, lang) for lesson in LESSONS]
    assert [text for text in texts if REPO_FILE.search(text)] == []


def test_lessons_in_chinese_use_the_glossary_and_chinese_punctuation():
    for text in lesson_texts("zh"):
        for term in GLOSSARY.values():
            assert not any(word in text for word in term.avoid), (term.avoid, text)
        assert chinese_punctuation_problems(text) == [], text


def test_the_format_lessons_reference_run_is_the_run_its_text_describes():
    lesson = get_lesson("format")
    wall = lesson.reference().run["wall_s"]
    assert f"quiet machine, both cores: {wall / 60:.1f} min" in lesson.expected["en"]
    assert f"用两个核：{wall / 60:.1f} 分钟" in lesson.expected["zh"]
    summary = reference_markdown(lesson, "en")
    assert "shared" not in summary and f"{int(wall // 60)}m {round(wall % 60):02d}s in all" in summary
    # the load average as the run started (the previous run's tail) read as a busy machine next to "quiet machine"
    assert "load" not in summary and "负载" not in reference_markdown(lesson, "zh")
