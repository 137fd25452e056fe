"""Guided lessons that follow the seed article: each one is a recipe (run spec overrides and rewards), short text in
English and Chinese, a prompt for the Preview tab, and the figure a student should expect on 2 CPU cores (measured).

The engine side only: the Learn tab and `python -m playground lessons` / `train --lesson` read these objects.
"""

from __future__ import annotations

from playground.errors import PlaygroundError
from playground.lessons.catalog import LESSONS
from playground.lessons.lesson import Lesson


def get_lesson(lesson_id: str) -> Lesson:
    """The lesson with this id, or a PlaygroundError that lists the valid ids."""
    for lesson in LESSONS:
        if lesson.id == lesson_id:
            return lesson
    raise PlaygroundError("cli.unknown_lesson", name=lesson_id, valid=", ".join(lesson.id for lesson in LESSONS))


__all__ = ["LESSONS", "Lesson", "get_lesson"]
