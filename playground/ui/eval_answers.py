"""The Train tab's held-out answers: a few completions of each eval point (the run's `eval_samples.jsonl`), so the
eval curve can be read as text: the same prompts and seeds before training, after the warm-up and after GRPO steps."""

from typing import Any

import gradio as gr
import pandas as pd

from playground.training.evaluation import answers_at, read_eval_samples
from playground.ui.common import lang_of, short, shown_completion, styled
from playground.ui.context import AppContext
from playground.ui.i18n import t, tr


PER_POINT = 2  # answers shown per eval point: the first sample of the first prompts
MODELS = {"base": "learn.ref.col.base", "warmup": "learn.ref.col.warmup"}  # "grpo": after its step (`_model`)


def eval_answers_frame(rows: list[dict], lang: str, per_point: int = PER_POINT) -> pd.DataFrame:
    """Step, model, each reward, prompt and completion of `per_point` answers per eval point, newest point first."""
    chosen = answers_at(rows, per_point)
    names = list(dict.fromkeys(name for row in chosen for name in (row.get("rewards") or {})))
    columns = [tr(lang, "table.step"), tr(lang, "train.eval_answers.model"), *names]
    columns += [tr(lang, "table.prompt"), tr(lang, "table.completion")]
    data = [
        [row.get("step"), _model(row, lang)]
        + [(row.get("rewards") or {}).get(name) for name in names]
        + [short(row.get("prompt", ""), 60), shown_completion(row.get("completion", ""))]
        for row in reversed(chosen)
    ]
    frame = pd.DataFrame(data, columns=columns)
    for name in names:
        frame[name] = pd.to_numeric(frame[name], errors="coerce")
    return frame


def shown_answers(rows: list[dict], lang: str) -> Any:
    """The table as the page shows it: scores to 3 decimals ("0.333", "1.000"), as the samples table shows them."""
    return styled(eval_answers_frame(rows, lang), [])


def _model(row: dict, lang: str) -> str:
    """Which model answered: before training, after the warm-up, or after GRPO step N (an eval every few steps is
    taken mid-training as well as at the end)."""
    of = row.get("eval_of")
    if of == "grpo":
        return tr(lang, "train.eval_answers.after_step", step=row.get("step"))
    return tr(lang, MODELS[of]) if of in MODELS else str(of)


def refresh_eval_answers(ctx: AppContext, request: gr.Request, session_id: str | None, seen: str | None):
    """The answers of the run the Train tab shows (this session's, or one going that the viewer may watch); re-sent
    only when a new eval point was written."""
    job = ctx.jobs.current
    owner = job is not None and job.owner is not None and job.owner == ctx.viewer(session_id)
    if job is None or not (job.active or owner) or not ctx.may_watch(job, session_id):
        return gr.skip(), seen
    rows = read_eval_samples(job.run.path)
    key = f"{job.run.id}:{len(rows)}"
    if key == seen:
        return gr.skip(), seen
    return shown_answers(rows, lang_of(request)), key


def create_eval_answers() -> tuple[gr.Dataframe, gr.State]:
    """The table, in a closed accordion, and the key of the answers it shows; the Train tab's live view refreshes
    both (`refresh_eval_answers`)."""
    with gr.Accordion(t("train.eval_answers"), open=False):
        classes = ["pg-eval-answers", "pg-answers"]
        answers = gr.Dataframe(wrap=True, interactive=False, max_height=420, elem_classes=classes)
    return answers, gr.State(None)
