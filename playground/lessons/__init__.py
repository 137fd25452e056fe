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


# The fields that set a run's time: a run with a lesson's values for all of them takes about its reference run's time.
TIMING_FIELDS = (
    "max_steps",
    "sft_warmup_steps",
    "sft_num_examples",
    "eval_every",
    "eval_prompts",
    "eval_num_generations",
    "eval_max_completion_length",
    "num_generations",
    "per_device_train_batch_size",
    "max_completion_length",
    "dataset_name",
)


def _flat(spec, name: str):
    from playground.spec import DATA_FLAGS, flat_fields

    if name in DATA_FLAGS:
        return getattr(spec.data, DATA_FLAGS[name])
    section = next(s for s, f in flat_fields() if f.name == name)
    return getattr(getattr(spec, section), name)


def _recipe(spec) -> list[tuple[str, float]] | None:
    """The spec's rewards as (metric name, weight); None for a custom reward (no lesson's recipe)."""
    from rewards.registry import metric_name

    try:
        return [(metric_name(c.name, c.params), float(c.weight)) for c in spec.rewards]
    except (PlaygroundError, ValueError, TypeError):
        return None


def _repeated(spec, fields: tuple[str, ...]):
    """The (lesson, trap) whose run `spec` repeats: the same rewards and weights and the same `fields`; else None."""
    mine = _recipe(spec)
    if mine is None:
        return None
    for lesson, trap in [(lesson, trap) for lesson in LESSONS for trap in (False, True)]:
        if trap and lesson.trap is None:
            continue
        theirs = lesson.run_spec(trap=trap)
        if mine == _recipe(theirs) and all(_flat(spec, f) == _flat(theirs, f) for f in fields):
            return lesson, trap
    return None


def reference_seconds(spec) -> float | None:
    """The wall time of the lesson reference run that `spec` repeats (the same rewards and timing fields, on the
    embedded model, one process; a lesson's trap counts with its own reference run), or None: a lesson run's time left
    before its own step times are known (the held-out eval before training and the SFT warm-up come first). A
    reference run measured on a shared machine or on fewer threads than cores (`Reference.quiet_time`) gives none: its
    time is not a quiet machine's."""
    from playground.models import EMBEDDED

    if _flat(spec, "model_name_or_path") not in ("embedded", EMBEDDED) or _flat(spec, "num_processes") != 1:
        return None
    found = _repeated(spec, TIMING_FIELDS)
    reference = found[0].reference(trap=found[1]) if found else None
    wall = reference.run.get("wall_s") if reference and reference.quiet_time else None
    return float(wall) if isinstance(wall, int | float) and wall > 0 else None


def reference_for(spec):
    """The lesson reference run (`Reference`) whose eval curve a run of `spec` compares with: the lesson (or its trap)
    with the same rewards, weights and prompt set, whatever the model or the number of steps; else None."""
    found = _repeated(spec, ("dataset_name",))
    return found[0].reference(trap=found[1]) if found else None


__all__ = ["LESSONS", "Lesson", "get_lesson", "reference_for", "reference_seconds"]
