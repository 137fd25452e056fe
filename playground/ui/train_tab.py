"""Train tab: the recipe form, Start / Stop, and the live view of the run (charts, progress, samples, alerts).

One run at a time per process (`JobManager`). Every session can watch it; only the session that started it can stop
it, and that session keeps control after a page reload because its token, which the server issued and signed, lives
in the browser (`gr.BrowserState`); a token the server did not issue is replaced by a new one.
The `gr.Timer` that refreshes the view is active only while a run is going.
"""

import html
from dataclasses import dataclass
from typing import Any

import gradio as gr
import pandas as pd

from playground.lessons import reference_seconds
from playground.texts import Text, render
from playground.training.store import ACTIVE, Run, run_seconds
from playground.ui.charts import CHARTS, chart_updates, create_charts, step_rows
from playground.ui.common import (
    GOOD_MARK,
    bind,
    client_address,
    duration_text,
    empty_frame,
    lang_of,
    sentences,
    short,
    shown_completion,
    styled,
    text_widths,
)
from playground.ui.context import AppContext, Session
from playground.ui.custom_code import attach_to_spec
from playground.ui.eval_answers import create_eval_answers, refresh_eval_answers
from playground.ui.i18n import EN, t, tr
from playground.ui.rewards_tab import RewardsTab, selection_summary, selection_summary_for
from playground.ui.train_form import (
    check_data_file,
    check_sources,
    create_form,
    drop_uploaded_file,
    recheck_uploaded_file,
    spec_from_form,
    take_dataset_name,
    take_uploaded_file,
    use_uploaded_file,
)


TICK_SECONDS = 1.0
WATCH_SECONDS = 5.0  # how often an idle page looks for a run started in another session
HIDDEN = dict(api_visibility="private", show_progress="hidden")  # UI glue: no API endpoint, no spinner
SAMPLE_HEADERS = ("table.advantage", "table.prompt", "table.completion")  # an empty samples table


@dataclass
class TrainTab:
    tab: gr.Tab
    timer: gr.Timer
    status_inputs: list[gr.Component]
    status_outputs: list[gr.Component]
    form: dict[str, gr.Component]  # flat run spec field name -> its input (train_form.Form)
    answers_inputs: list[gr.Component]  # the held-out answers' refresh (eval_answers)
    answers_outputs: list[gr.Component]


# --- handlers ------------------------------------------------------------------------------------------------------


def start_training(
    ctx: AppContext, names: tuple[str, ...], request: gr.Request, session_id: str | None, selection, code, *values
):
    """Start a run owned by this session (its token is issued, and stored in the browser, on first use).

    A run that uses custom rewards carries the session's code in its spec; the job compiles it in its own sandbox.
    In public mode every path in the spec must be a file this session uploaded.
    """
    session_id = ctx.tokens.keep_or_issue(session_id)
    spec = spec_from_form(names, values, selection)
    ctx.check_spec(spec, session_id)
    check_data_file(spec)
    attach_to_spec(spec, code)
    check_sources(spec)  # a bad model or dataset is refused here, before a run folder exists
    ctx.jobs.start(spec, owner=ctx.viewer(session_id), address=client_address(request))
    return session_id, session_id, gr.Timer(active=True)


def stop_training(ctx: AppContext, request: gr.Request, session_id: str | None) -> str:
    """Ask the run to stop after the current step (the engine refuses unless this session started it)."""
    job = ctx.jobs.stop(owner=ctx.viewer(session_id))
    return tr(lang_of(request), "train.status.stopping_by_you", run=job.run.id)


def resume(ctx: AppContext, browser_id: str | None):
    """On page load: keep the browser's token if this server issued it (else issue a new one), and watch the run if
    one is going."""
    session_id = ctx.tokens.keep_or_issue(browser_id)
    return session_id, session_id, gr.Timer(active=ctx.jobs.active_job() is not None)


def watch(ctx: AppContext):
    return gr.Timer(active=ctx.jobs.active_job() is not None)


_REFERENCE_S: dict[str, float | None] = {}  # run id -> its lesson reference run's wall time (`reference_seconds`)


def _reference_s(job) -> float | None:
    if job.run.id not in _REFERENCE_S:
        _REFERENCE_S[job.run.id] = reference_seconds(job.spec)
    return _REFERENCE_S[job.run.id]


def look_for_run(ctx: AppContext):
    """The slow watcher's tick: wake the live view when a run has started (from this session or another)."""
    return gr.Timer(active=True) if ctx.jobs.active_job() is not None else gr.skip()


def train_status(ctx: AppContext, request: gr.Request, session_id: str | None, seen: str | None):
    """The live view. Charts, samples and alerts are re-sent only when a new step was logged or the status changed."""
    lang = lang_of(request)
    job = ctx.jobs.current
    owner = job is not None and job.owner is not None and job.owner == ctx.viewer(session_id)
    if job is None or not (job.active or owner):
        # No run, or another session's finished one: that is not this visitor's run (it is on the Runs tab).
        text = tr(lang, "train.status.none") if job is None else tr(lang, "train.status.other_done", run=job.run.id)
        idle = [gr.Timer(active=False), text, ""]
        # Empty charts and samples, with their axis titles and headers in the page's language (the page is built in
        # English): nothing of this visitor's is shown there.
        empty = [*chart_updates([], lang), empty_frame(lang, *SAMPLE_HEADERS), ""]
        return idle + empty + [gr.Button(interactive=True)] * 2 + [seen]
    snap = job.snapshot()
    metrics = job.run.metrics()
    stored = job.run.status()
    snap["phase"] = snap.get("phase") or stored.get("phase")  # the accelerate backend's, from rank 0
    snap["reference_s"] = _reference_s(job)
    if snap["status"] not in ACTIVE:  # the run's own duration, not the time since it started
        snap["elapsed"] = run_seconds(stored)
    key = f"{snap['run_id']}:{len(metrics)}:{snap['status']}:{snap['phase']}"
    active = snap["status"] in ACTIVE
    head = [gr.Timer(active=active), status_text(snap, owner, lang), progress_html(snap, lang)]
    if key == seen:
        live = [gr.skip()] * (len(CHARTS) + 2)
    elif not ctx.may_watch(job, session_id):  # public mode: another visitor's run shows its status and step only
        live = [*chart_updates([], lang), empty_frame(lang, "table.prompt", "table.completion"), ""]
    else:
        alerts = alerts_markdown(snap["alerts"], metrics, lang)
        live = [*chart_updates(metrics, lang), samples_frame(job.run, lang), alerts]
    buttons = [
        gr.Button(interactive=not active or (ctx.public and not owner)),  # public mode: others may queue a run
        gr.Button(interactive=active and owner and snap["status"] != "stopping"),
    ]
    return head + live + buttons + [key]


# --- views ---------------------------------------------------------------------------------------------------------


def run_eta(snap: dict) -> tuple[float | None, bool]:
    """(the time left the page shows, whether it is the whole run's). The run's own (GRPO steps and evals left, each
    from its own step times) once known. Before that (loading, the held-out eval before training, the SFT warm-up), a
    lesson run's is its reference run's time less the time elapsed (`reference_s`, set by `train_status`); another
    run's is the warm-up's own while it runs. None once Stop was pressed or the run ended, or while nothing is
    known."""
    if snap["status"] not in ("loading", "running"):
        return None, True
    if snap.get("eta") is not None:
        return snap["eta"], True
    phase = snap.get("phase_eta") if warming_up(snap) else None
    reference = snap.get("reference_s")
    if reference and reference - snap["elapsed"] > 0:
        return max(reference - snap["elapsed"], phase or 0.0), True
    return phase, phase is None


def shown_eta(snap: dict) -> float | None:
    """The time left the page shows (`run_eta`)."""
    return run_eta(snap)[0]


def status_text(snap: dict, owner: bool, lang: str) -> str:
    values = dict(
        run=snap["run_id"],
        step=snap["step"],
        total=snap["max_steps"],
        elapsed=duration_text(snap["elapsed"], lang),
        eta=duration_text(shown_eta(snap), lang),
        error=html.escape(render(lang, snap["error"] or "")),
    )
    status = snap["status"]
    if status in ACTIVE and not owner:
        text = tr(lang, "train.status.other_session", **values)
    elif warming_up(snap) and status != "stopping":
        key = "train.status.warmup_run" if run_eta(snap)[1] else "train.status.warmup"
        text = tr(lang, key, **values | dict(step=snap["warmup_step"], total=snap["warmup_steps"]))
    elif snap.get("phase") == "eval" and status in ("loading", "running"):
        text = tr(lang, "train.status.eval", **values)
    else:
        text = tr(lang, f"train.status.{status}", **values)
    phase = phase_label(snap, lang)
    return f"**{phase}** · {text}" if phase and status in ACTIVE else text


def phase_label(snap: dict, lang: str) -> str:
    """The run's phase ("Phase: warm-up (SFT)", "Phase: GRPO") when the engine reports one, else ""."""
    phase = snap.get("phase")
    if not phase:
        return ""
    key = f"train.phase.{phase}"
    return tr(lang, "train.phase.label", phase=tr(lang, key) if key in EN else str(phase))


def warming_up(snap: dict) -> bool:
    """The run is in its SFT warm-up (the thread job reports its steps; other backends show the GRPO steps)."""
    return snap["status"] in ACTIVE and snap.get("phase") == "warmup" and bool(snap.get("warmup_steps"))


def progress_html(snap: dict, lang: str) -> str:
    """The bar and its label: the warm-up's SFT steps while it runs, then the GRPO steps; the same time left as the
    status line, and none once Stop was pressed or the run ended."""
    eta = shown_eta(snap)
    going = snap["status"] in ("loading", "running")
    if warming_up(snap):
        step, total = int(snap.get("warmup_step") or 0), int(snap["warmup_steps"])
        key = (
            ("train.progress.warmup_run" if run_eta(snap)[1] else "train.progress.warmup")
            if going
            else ("train.progress.warmup_done")
        )
    else:
        step, total = snap["step"], max(int(snap["max_steps"] or 1), 1)
        key = "train.progress" if going else "train.progress.done"
    label = tr(lang, key, step=step, total=total, eta=duration_text(eta, lang))
    percent = min(100.0, 100.0 * step / total)
    if snap["status"] in ACTIVE and (phase := phase_label(snap, lang)):
        label = f"{phase} · {label}"
    return (
        f'<div class="pg-progress" role="progressbar" aria-valuenow="{step}" aria-valuemax="{total}">'
        f'<div class="pg-progress-fill" style="width:{percent:.1f}%"></div></div>'
        f'<div class="pg-progress-label">{html.escape(label)}</div>'
    )


def alerts_markdown(alerts: list[dict], metrics: list[dict], lang: str) -> str:
    """The run's health alerts, as its job computed them (`snapshot()["alerts"]`, or status.json's `alerts`)."""
    if not alerts:
        return f"{GOOD_MARK} {tr(lang, 'train.alerts.none')}" if step_rows(metrics) else ""
    at = [tr(lang, "train.alerts.at_step", step=a["step"]) for a in alerts]
    lines = [
        f"- ⚠ {sentences(lang, _alert_text(a, lang), f'<small>{where}</small>')}"
        for a, where in zip(alerts, at, strict=True)
    ]
    return "\n".join(lines)


def _alert_text(alert: dict, lang: str) -> str:
    """The engine's sentence, with its reward names and figures, in the page's language; an alert whose sentences
    have no Chinese template gets its code's general Chinese text."""
    texts = alert.get("texts") or {}  # the sentences' keys and values, as the job stored them
    message = render(lang, Text.from_json(texts.get("message", alert["message"])))
    advice = render(lang, Text.from_json(texts.get("advice", alert["advice"])))
    key = f"train.alert.{alert['code']}"
    if lang != "en" and (message == alert["message"] or advice == alert["advice"]) and key in EN:
        return tr(lang, key)
    return sentences(lang, f"**{html.escape(message, quote=False)}**", html.escape(advice, quote=False))


def samples_frame(run: Run, lang: str) -> gr.Dataframe:
    """The latest step's completions, with each reward and the advantage (colour-coded); the prompt and completion
    columns get their widths in `fit_sample_columns`."""
    rows = run.samples(last_step_only=True)
    names = list(rows[0]["rewards"]) if rows else []
    advantage = tr(lang, "table.advantage")
    columns = [tr(lang, "table.step"), *names, advantage, tr(lang, "table.prompt"), tr(lang, "table.completion")]
    data = [
        [r.get("step"), *(r.get("rewards", {}).get(n) for n in names), r.get("advantage")]
        + [short(r.get("prompt", ""), 60), shown_completion(r.get("completion", ""))]
        for r in rows
    ]
    frame = pd.DataFrame(data, columns=columns)
    for column in [*names, advantage]:
        frame[column] = pd.to_numeric(frame[column], errors="coerce")
    return styled(frame, [advantage])


def fit_sample_columns(request: gr.Request, value: Any) -> gr.Dataframe:
    """Only the samples table's column widths (its value stays as API clients read it): the prompt and completion
    columns share the width the numbers leave, the completion the most."""
    lang = lang_of(request)
    text = {tr(lang, "table.prompt"): 1, tr(lang, "table.completion"): 2}
    return gr.Dataframe(column_widths=text_widths([str(c) for c in getattr(value, "columns", [])], text))


# --- layout --------------------------------------------------------------------------------------------------------


def create_run_view(max_height: int):
    """A run's alerts, charts and latest samples: the Train tab shows the live run, the Runs tab a stored one."""
    with gr.Accordion(t("train.alerts"), open=True):
        alerts = gr.Markdown()
    plots = create_charts()
    samples = gr.Dataframe(
        empty_frame("en", *SAMPLE_HEADERS),
        label=t("train.samples"),
        wrap=True,
        interactive=False,
        max_height=max_height,
    )
    samples.change(fit_sample_columns, samples, samples, **HIDDEN)
    return alerts, plots, samples


def create_train_tab(ctx: AppContext, session: Session, rewards: RewardsTab) -> TrainTab:
    with gr.Tab(t("train.tab"), id="train") as tab:
        gr.Markdown(t("train.intro"))
        buttons: list[gr.Button] = []

        def actions() -> None:  # right after the essentials, before the collapsed groups
            with gr.Row():
                buttons.append(gr.Button(t("train.start"), variant="primary", elem_id="train-start"))
                buttons.append(gr.Button(t("train.stop"), variant="stop", interactive=False, elem_id="train-stop"))

        summary = selection_summary(session.selection.value, None)
        form, upload, rewards_md = create_form(ctx.settings.model, summary, actions)
        start, stop = buttons
        status = gr.Markdown(elem_classes="pg-status")
        progress = gr.HTML()
        alerts, plots, samples = create_run_view(max_height=420)
        timer = gr.Timer(TICK_SECONDS, active=False)
        answers_io = create_eval_answers(timer, ctx, session.id)  # held-out answers of each eval point, same ticks
        watcher = gr.Timer(WATCH_SECONDS)  # always on, cheap: a run started elsewhere shows without a tab switch
        seen = gr.State(None)  # inside the tab: a gr.Tabs must hold only tabs, or the frontend mixes up their labels

    names = tuple(form)
    view = TrainTab(
        tab=tab,
        timer=timer,
        status_inputs=[session.id, seen],
        status_outputs=[timer, status, progress, *plots, samples, alerts, start, stop, seen],
        form=form,
        answers_inputs=answers_io[0],
        answers_outputs=answers_io[1],
    )
    timer.tick(
        bind(train_status, ctx),
        view.status_inputs,
        view.status_outputs,
        api_name="train_status",
        show_progress="hidden",
        concurrency_limit=None,
    )
    data_source = [form["dataset_kind"], form["dataset_name"]]
    uploaded = [session.id, *data_source]  # an upload belongs to the browser's token, issued here if it has none
    upload_inputs = [session.id, upload, form["prompt_column"], form["column_map"]]
    upload.upload(bind(take_uploaded_file, ctx), [session.id, upload], uploaded, **HIDDEN).then(
        bind(use_uploaded_file, ctx), upload_inputs, uploaded, api_name="upload_prompts", show_progress="hidden"
    )
    default_set = form["dataset_name"].value
    upload.clear(bind(drop_uploaded_file, default_set), data_source, data_source, **HIDDEN)
    mapping = [form["prompt_column"], form["column_map"]]
    gr.on(
        [e for box in mapping for e in (box.blur, box.submit)],
        bind(recheck_uploaded_file, ctx),
        [*upload_inputs, form["dataset_name"]],
        uploaded,
        **HIDDEN,
    )
    form["dataset_name"].input(bind(take_dataset_name), data_source[::-1], form["dataset_kind"], **HIDDEN)
    session.selection.change(bind(selection_summary_for), session.selection, rewards_md, **HIDDEN)
    start_inputs = [session.id, session.selection, rewards.editor, *form.values()]
    started = [session.id, session.browser_id, timer]
    started_run = start.click(bind(start_training, ctx, names), start_inputs, started, api_name="start_training")
    refresh_after(started_run, ctx, view)
    stop.click(bind(stop_training, ctx), session.id, status, api_name="stop_training")
    tab.select(bind(watch, ctx), None, timer, **HIDDEN)
    watcher.tick(bind(look_for_run, ctx), None, timer, **HIDDEN, concurrency_limit=None)
    return view


def refresh_after(event, ctx: AppContext, view: TrainTab) -> None:
    """After `event`: paint the live view, held-out answers included (after a reload the timer stays off when the
    run has ended, so no tick would bring them)."""
    event.then(bind(train_status, ctx), view.status_inputs, view.status_outputs, **HIDDEN)
    event.then(bind(refresh_eval_answers, ctx), view.answers_inputs, view.answers_outputs, **HIDDEN)


def wire_page_load(demo: gr.Blocks, ctx: AppContext, session: Session, view: TrainTab) -> None:
    """After a page (re)load: restore the session id from the browser, then show the current run, if any."""
    outputs = [session.id, session.browser_id, view.timer]
    refresh_after(demo.load(bind(resume, ctx), session.browser_id, outputs, api_visibility="private"), ctx, view)
