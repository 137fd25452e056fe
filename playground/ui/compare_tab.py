"""Compare tab: the base model and base + a run's adapter, side by side on the same prompts and seeds."""

import gradio as gr
import pandas as pd

from playground import admission
from playground.errors import PlaygroundError
from playground.isolation.visitor import acting_for
from playground.runtime.zerogpu import gpu_handler
from playground.spec import RunSpec
from playground.training.compare import compare_run
from playground.training.compare import prompt_rows as compare_prompts
from playground.ui.common import (
    advantage_style,
    bind,
    empty_frame,
    lang_of,
    progress_callback,
    run_label,
    short,
    shown_completion,
)
from playground.ui.context import AppContext, Session
from playground.ui.i18n import t, tr
from playground.ui.page_load import headers_on_load


COLUMNS = (
    "table.prompt",
    "compare.before_reward",
    "compare.after_reward",
    "compare.delta",
    "compare.before",
    "compare.after",
)


def comparable_runs(
    ctx: AppContext, viewer: str | None = None, lang: str = "en"
) -> tuple[list[tuple[str, str]], str | None]:
    """(label, run id) of the runs with a saved adapter, newest first, and the default: the latest finished one.

    In public mode only the viewer's own runs and published ones (`AppContext.runs_for`)."""
    runs = [info for info, readable in ctx.runs_for(viewer) if readable and ctx.store.get(info.id).has_adapter]
    choices = [(run_label(info, lang), info.id) for info in runs]
    finished = [info.id for info in runs if info.status == "finished"]
    return choices, (finished or [c for _, c in choices] or [None])[0]


def refresh_runs(ctx: AppContext, request: gr.Request, session_id: str | None = None):
    choices, default = comparable_runs(ctx, session_id, lang_of(request))
    return gr.Dropdown(choices=choices, value=default)


def price_comparison(ctx: AppContext, run, prompts: list[str], num_samples: int) -> None:
    """Public mode: the gate prices a comparison before a model loads: the run's model (the app's or a Hub id), the
    prompts (typed, else the first of the run's set), and both models sampling `num_samples` of the run's length."""
    if not ctx.public:
        return
    spec = RunSpec.from_dict(run.spec())
    admission.check_model(spec.model.model_name_or_path, (ctx.settings.model,))
    admission.check_count("max_compare_prompts", len(prompts))
    chosen = prompts or [prompt for prompt, _ in compare_prompts(spec, None)]
    ctx.check_sampling(chosen * 2, num_samples, spec.grpo.max_completion_length)  # the base model and the trained


def compare(
    ctx: AppContext,
    request: gr.Request,
    session_id: str | None,
    run_id: str | None,
    prompts: str,
    num_samples: int,
    seed: int,
    progress=gr.Progress(),
):
    """Sample both models on each prompt (same seed for both) and score them with the run's rewards."""
    lang = lang_of(request)
    if not run_id:
        raise PlaygroundError(tr(lang, "compare.no_run"))
    chosen = [line.strip() for line in (prompts or "").splitlines() if line.strip()]
    run = ctx.open_run(run_id, session_id)  # public mode: the visitor's own or a published run
    price_comparison(ctx, run, chosen, int(num_samples))
    with acting_for(ctx.viewer(session_id)):  # public mode: the run's library rewards score in this visitor's worker
        result = compare_run(
            run,
            chosen or None,
            num_samples=int(num_samples),
            seed=int(seed or 0),
            progress=progress_callback(progress, lang),
        )
    headers = [tr(lang, k) for k in COLUMNS]
    rows = [
        [short(i.prompt, 120), i.base.mean, i.trained.mean, i.delta]
        # The first sample of each, same seed.
        + [shown_completion(i.base.completions[0].text), shown_completion(i.trained.completions[0].text)]
        for i in result.items
    ]
    frame = pd.DataFrame(rows, columns=headers)
    table = frame.style.format(precision=3, subset=headers[1:4]).map(advantage_style, subset=[headers[3]])
    summary = tr(
        lang,
        "compare.summary",
        delta=f"{result.mean_delta:+.3f}",
        n=len(result.items),
        k=int(num_samples),
        run=result.run_id,
    )
    return summary, table


def create_compare_tab(ctx: AppContext, session: Session) -> None:
    choices, default = comparable_runs(ctx)
    with gr.Tab(t("compare.tab"), id="compare") as tab:
        gr.Markdown(t("compare.intro"))
        with gr.Row(equal_height=False):
            with gr.Column(scale=3):
                with gr.Row():
                    run = gr.Dropdown(choices, value=default, allow_custom_value=True, label=t("compare.run"), scale=4)
                    refresh = gr.Button("↻", size="sm", scale=0, min_width=48)
                prompts = gr.Textbox(
                    lines=3,
                    label=t("compare.prompts"),
                    info=t("compare.prompts.info"),
                    placeholder=t("compare.prompts.placeholder"),
                )
            with gr.Column(scale=2):
                num_samples = gr.Slider(2, 8, value=4, step=1, label=t("compare.samples"))
                seed = gr.Number(0, precision=0, label="seed")
                go = gr.Button(t("compare.run_button"), variant="primary")
        summary = gr.Markdown()
        table = gr.Dataframe(
            empty_frame("en", *COLUMNS),
            label=t("compare.table"),
            wrap=True,
            interactive=False,
            column_widths=["18%", "9%", "9%", "8%", "28%", "28%"],  # the two completions side by side, in view
        )
        headers_on_load(table, *COLUMNS)

    gr.on([tab.select, refresh.click], bind(refresh_runs, ctx), session.id, run, api_visibility="private")
    go.click(
        gpu_handler(bind(compare, ctx)),
        [session.id, run, prompts, num_samples, seed],
        [summary, table],
        api_name="compare",
    )
