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

from playground.lessons import get_lesson, reference_for, reference_seconds
from playground.lessons.reference import Reference
from playground.texts import Text, render
from playground.training.progress import whole_run
from playground.training.store import ACTIVE, FINAL, Run, run_pieces, run_seconds
from playground.ui.charts import CHARTS, chart_updates, create_charts, step_rows
from playground.ui.common import (
    GOOD_MARK,
    bind,
    bold,
    client_address,
    duration_text,
    empty_frame,
    lang_of,
    pieces_text,
    sentences,
    short,
    shown_completion,
    styled,
    text_widths,
)
from playground.ui.context import AppContext, Session
from playground.ui.custom_code import attach_to_spec
from playground.ui.eval_answers import create_eval_answers, refresh_eval_answers
from playground.ui.eval_charts import EVAL_OUTPUTS, create_eval_charts, eval_chart_updates, eval_key
from playground.ui.i18n import EN, t, tr
from playground.ui.page_load import on_page_load
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


# How often a page watching a live run refreshes it. Each tick repaints some thirty components in every page that
# watches (at one tick a second, a browser without a GPU keeps most of a CPU core busy for it; a third less at one
# every two), and the server answers each watcher's ticks: thirty students watching one run send thirty a tick.
TICK_SECONDS = 2.0
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


_REFERENCE: dict[str, Reference | None] = {}  # run id -> the lesson reference run it compares with


def _reference(job) -> Reference | None:
    if job.run.id not in _REFERENCE:
        _REFERENCE[job.run.id] = reference_for(job.spec)
    return _REFERENCE[job.run.id]


def other_run_label(job, lang: str) -> str:
    """Another session's live run, named with its recipe (its lesson, where it is one, and its rewards), so that its
    charts are not read as the recipe in this visitor's form."""
    rewards = ", ".join(f"`{choice.name}` × {choice.weight:g}" for choice in job.spec.rewards)
    reference = _reference(job)
    lesson = get_lesson(reference.run["lesson"]) if reference is not None and reference.run.get("lesson") else None
    if lesson is None:
        return tr(lang, "train.status.other_recipe", run=job.run.id, rewards=rewards)
    title = lesson.title.get(lang) or lesson.title["en"]
    return tr(lang, "train.status.other_lesson", run=job.run.id, rewards=rewards, lesson=title)


def look_for_run(ctx: AppContext):
    """The slow watcher's tick: wake the live view when a run has started (from this session or another)."""
    return gr.Timer(active=True) if ctx.jobs.active_job() is not None else gr.skip()


def train_status(
    ctx: AppContext, request: gr.Request, session_id: str | None, seen: str | None, answers_seen: str | None = None
):
    """The live view. Charts, samples and alerts are re-sent only when a new step was logged or the status changed;
    the held-out answers (last two outputs) only when an eval point was written. One event, so the tick that sees the
    run end (and turns the timer off) has read every eval point the run wrote."""
    return [*_live_view(ctx, request, session_id, seen), *refresh_eval_answers(ctx, request, session_id, answers_seen)]


def _live_view(ctx: AppContext, request: gr.Request, session_id: str | None, seen: str | None) -> list:
    lang = lang_of(request)
    job = ctx.jobs.current
    owner = job is not None and job.owner is not None and job.owner == ctx.viewer(session_id)
    if job is None or not (job.active or owner):
        # No run, or another session's finished one: that is not this visitor's run (it is on the Runs tab).
        text = tr(lang, "train.status.none") if job is None else tr(lang, "train.status.other_done", run=job.run.id)
        idle = [gr.Timer(active=False), text, ""]
        # Empty charts and samples, with their axis titles and headers in the page's language (the page is built in
        # English): nothing of this visitor's is shown there.
        empty = [*chart_updates([], lang), sample_table(empty_frame(lang, *SAMPLE_HEADERS), lang), ""]
        buttons = [gr.Button(interactive=True), gr.Button(interactive=False)]  # Start, and no run of theirs to stop
        return idle + empty + buttons + [seen] + eval_chart_updates([], None, lang)
    snap = job.snapshot()
    metrics = job.run.metrics()
    stored = job.run.status()
    snap["phase"] = snap.get("phase") or stored.get("phase")  # the accelerate backend's, from rank 0
    snap["reference_s"] = _reference_s(job)
    # the run's wall time, every piece of a continued run included, not the time since this process started it
    snap["elapsed"] = run_seconds(stored) if stored.get("started_at") else snap["elapsed"]
    snap["pieces"] = run_pieces(stored)
    reference = _reference(job)
    drawn = eval_key(metrics, reference, lang)  # the eval charts are re-sent only when their data changed
    key = f"{snap['run_id']}:{len(metrics)}:{snap['status']}:{snap['phase']}|{drawn}"
    active = snap["status"] in ACTIVE
    text = status_text(snap, owner, lang)
    if active and not owner and ctx.may_watch(job, session_id):  # its charts below, beside this visitor's own form
        text += "\n\n" + other_run_label(job, lang)
    head = [gr.Timer(active=active), text, progress_html(snap, lang)]
    if key == seen:
        live, evals = [gr.skip()] * (len(CHARTS) + 2), [gr.skip()] * EVAL_OUTPUTS
    elif not ctx.may_watch(job, session_id):  # public mode: another visitor's run shows its status and step only
        live = [
            *chart_updates([], lang),
            sample_table(empty_frame(lang, "table.prompt", "table.completion"), lang),
            "",
        ]
        evals = eval_chart_updates([], None, lang)
    else:
        alerts = alerts_markdown(snap.get("alert_log") or snap["alerts"], metrics, lang)
        # the charts and samples are re-sent only when a row was logged: a status change alone (the final
        # "finished") redrew every chart with the same data, blank while it redrew
        same_rows = seen is not None and seen.startswith(f"{snap['run_id']}:{len(metrics)}:")
        charts = (
            [gr.skip()] * (len(CHARTS) + 1)
            if same_rows
            else [*chart_updates(metrics, lang), sample_table(samples_frame(job.run, lang), lang)]
        )
        live = [*charts, alerts]
        same = seen is not None and seen.endswith(f"|{drawn}") and seen.startswith(f"{snap['run_id']}:")
        evals = [gr.skip()] * EVAL_OUTPUTS if same else eval_chart_updates(metrics, reference, lang)
    buttons = [
        gr.Button(interactive=not active or (ctx.public and not owner)),  # public mode: others may queue a run
        gr.Button(interactive=active and owner and snap["status"] != "stopping"),
    ]
    return head + live + buttons + [key] + evals


# --- views ---------------------------------------------------------------------------------------------------------


def whole_run_of(snap: dict) -> tuple[float | None, float]:
    """(the whole run's time left, its share done) for the snapshot (`progress.whole_run`): the run's own time left
    once known, before that (loading, the held-out eval before training, the SFT warm-up) a lesson run's reference
    run's time less the time elapsed (`reference_s`, set by `train_status`). None once Stop was pressed or the run
    ended, or while nothing is known."""
    step = int(snap.get("step") or 0)
    warmup_steps = int(snap.get("warmup_steps") or 0)
    # a run past its warm-up (or continued after it) has done all its SFT steps
    warmup_done = warmup_steps if step > 0 or snap.get("phase") == "grpo" else int(snap.get("warmup_step") or 0)
    return whole_run(
        status=snap["status"],
        elapsed=float(snap.get("elapsed") or 0.0),
        eta=snap.get("eta"),
        reference_s=snap.get("reference_s"),
        warmup_step=warmup_done,
        warmup_steps=warmup_steps,
        step=step,
        max_steps=int(snap.get("max_steps") or 1),
    )


def shown_eta(snap: dict) -> float | None:
    """The time left the page shows: the whole run's (`whole_run_of`)."""
    return whole_run_of(snap)[0]


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
        warm = dict(step=snap["warmup_step"], total=snap["warmup_steps"])
        text = tr(lang, "train.status.warmup_run", **values | warm)
    elif snap.get("phase") == "eval" and status in ("loading", "running"):
        text = tr(lang, "train.status.eval", **values)
    else:
        if status in FINAL and len(snap.get("pieces") or []) > 1:  # a continued run: its wall time in its pieces
            values["elapsed"] = pieces_text(snap["pieces"], lang)
        text = tr(lang, f"train.status.{status}", **values)
    phase = phase_label(snap, lang)
    text = f"**{phase}** · {text}" if phase and status in ACTIVE else text
    if snap.get("fast_path_off"):  # parts of the CPU fast path that stepped aside in this install (fastpath/internals)
        text += "\n\n" + tr(lang, "train.fast_path_off", why=html.escape(str(snap["fast_path_off"])))
    return text


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
    """One bar for the whole run (warm-up, evals and GRPO: it does not start again at a new phase) and its label:
    the current phase and its step, and the whole run's time left, as the status line says it; no time left once
    Stop was pressed or the run ended."""
    eta, done = whole_run_of(snap)
    going = snap["status"] in ("loading", "running")
    if warming_up(snap):
        step, total = int(snap.get("warmup_step") or 0), int(snap["warmup_steps"])
        key = "train.progress.warmup_run" if going else "train.progress.warmup_done"
    else:
        step, total = snap["step"], max(int(snap["max_steps"] or 1), 1)
        key = "train.progress" if going else "train.progress.done"
    label = tr(lang, key, step=step, total=total, eta=duration_text(eta, lang))
    if snap["status"] in ACTIVE and (phase := phase_label(snap, lang)):
        label = f"{phase} · {label}"
    percent = 100.0 * done
    return (
        f'<div class="pg-progress" role="progressbar" aria-valuenow="{percent:.0f}" aria-valuemax="100">'
        f'<div class="pg-progress-fill" style="width:{percent:.1f}%"></div></div>'
        f'<div class="pg-progress-label">{html.escape(label)}</div>'
    )


def alerts_markdown(log: list[dict], metrics: list[dict], lang: str) -> str:
    """The run's alert log, as its job kept it (`snapshot()["alert_log"]`, or status.json's `alert_log`; a run
    stored without a log gives its `alerts`): the alerts that hold first, with the steps they were raised at, then
    those that cleared, marked resolved with the step they cleared at (or replaced, where a broader alert took their
    place: `alert_log`'s `superseded_by`)."""
    if not log:
        return f"{GOOD_MARK} {tr(lang, 'train.alerts.none')}" if step_rows(metrics) else ""
    holding = [a for a in log if a.get("resolved_step") is None]
    resolved = [a for a in log if a.get("resolved_step") is not None]
    lines = [f"- ⚠ {sentences(lang, _alert_text(a, lang), f'<small>{_steps(a, lang)}</small>')}" for a in holding]
    if not holding:
        lines.append(f"{GOOD_MARK} {tr(lang, 'train.alerts.none_holding')}")
    for a in resolved:
        kind = "train.alerts.superseded" if a.get("superseded_by") else "train.alerts.resolved"
        mark = tr(lang, kind, step=a["resolved_step"])
        where = f"<small>{_steps(a, lang)}</small>"
        lines.append(f"- {GOOD_MARK} " + sentences(lang, f"<small>{bold(mark)}</small>", _alert_text(a, lang), where))
    return "\n".join(lines)


def _steps(alert: dict, lang: str) -> str:
    """The steps an alert was raised at: "(step 12)", or "(steps 12–20)" for several."""
    first, last = alert.get("first_step", alert["step"]), alert.get("last_step", alert["step"])
    if first == last:
        return tr(lang, "train.alerts.at_step", step=last)
    return tr(lang, "train.alerts.steps", first=first, last=last)


def _alert_text(alert: dict, lang: str) -> str:
    """The engine's sentence, with its reward names and figures, in the page's language; an alert whose sentences
    have no Chinese template gets its code's general Chinese text."""
    texts = alert.get("texts") or {}  # the sentences' keys and values, as the job stored them
    message = render(lang, Text.from_json(texts.get("message", alert["message"])))
    advice = render(lang, Text.from_json(texts.get("advice", alert["advice"])))
    key = f"train.alert.{alert['code']}"
    if lang != "en" and (message == alert["message"] or advice == alert["advice"]) and key in EN:
        return tr(lang, key)
    return sentences(lang, bold(html.escape(message, quote=False)), html.escape(advice, quote=False))


def samples_frame(run: Run, lang: str) -> Any:
    """The latest step's completions, with each reward and the advantage (colour-coded); the prompt and completion
    columns get their widths from `sample_table` (the live view) or `fit_sample_columns` (the Runs tab)."""
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


def _sample_widths(columns, lang: str) -> list[str]:
    """The prompt and completion columns share the width the numbers leave, the completion the most."""
    text = {tr(lang, "table.prompt"): 1, tr(lang, "table.completion"): 2}
    return text_widths([str(c) for c in columns], text)


def sample_table(value: Any, lang: str) -> gr.Dataframe:
    """The live view's samples update: `value` (a frame, or a styled one) with its column widths in the same update,
    so a watching page handles one event a tick, not a second one for the widths after each new step (API clients read
    it as an update, as they read the charts)."""
    return gr.Dataframe(value=value, column_widths=_sample_widths(getattr(value, "data", value).columns, lang))


def fit_sample_columns(request: gr.Request, value: Any) -> gr.Dataframe:
    """Only the samples table's column widths, after the Runs tab showed a run (its value stays as API clients of
    `/show_run` read it)."""
    return gr.Dataframe(column_widths=_sample_widths(getattr(value, "columns", []), lang_of(request)))


# --- layout --------------------------------------------------------------------------------------------------------


def create_run_view(max_height: int, fit_samples: bool = False):
    """A run's alerts, held-out eval charts, charts and latest samples: the Train tab shows the live run (its updates
    carry the samples' column widths), the Runs tab a stored one (`fit_samples`: the widths after each change)."""
    with gr.Accordion(t("train.alerts"), open=True):
        alerts = gr.Markdown()
    evals = create_eval_charts()
    plots = create_charts()
    samples = gr.Dataframe(
        empty_frame("en", *SAMPLE_HEADERS),
        label=t("train.samples"),
        wrap=True,
        interactive=False,
        max_height=max_height,
    )
    if fit_samples:
        samples.change(fit_sample_columns, samples, samples, **HIDDEN)
    return alerts, plots, samples, evals


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
        alerts, plots, samples, evals = create_run_view(max_height=420)
        timer = gr.Timer(TICK_SECONDS, active=False)
        answers, answers_seen = create_eval_answers()  # held-out answers of each eval point
        watcher = gr.Timer(WATCH_SECONDS)  # always on, cheap: a run started elsewhere shows without a tab switch
        seen = gr.State(None)  # inside the tab: a gr.Tabs must hold only tabs, or the frontend mixes up their labels

    names = tuple(form)
    live = [timer, status, progress, *plots, samples, alerts, start, stop, seen, *evals]  # `_live_view`'s outputs
    view = TrainTab(
        tab=tab,
        timer=timer,
        status_inputs=[session.id, seen, answers_seen],
        status_outputs=[*live, answers, answers_seen],
        form=form,
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
    # The click's own text ("Stopping…") may reach the page after the tick that saw the run end and turned the timer
    # off; the repaint after it shows what the run is now (and keeps the timer on while it still stops).
    refresh_after(stop.click(bind(stop_training, ctx), session.id, status, api_name="stop_training"), ctx, view)
    tab.select(bind(watch, ctx), None, timer, **HIDDEN)
    watcher.tick(bind(look_for_run, ctx), None, timer, **HIDDEN, concurrency_limit=None)
    return view


def refresh_after(event, ctx: AppContext, view: TrainTab) -> None:
    """After `event`: paint the live view, held-out answers included (after a reload the timer stays off when the
    run has ended, so no tick would bring them)."""
    event.then(bind(train_status, ctx), view.status_inputs, view.status_outputs, **HIDDEN)


def wire_resume(ctx: AppContext, session: Session, view: TrainTab) -> None:
    """When a page (re)loads: restore the session id from the browser, then show the current run, if any."""
    on_page_load(bind(resume, ctx), [session.browser_id], [session.id, session.browser_id, view.timer])
    on_page_load(bind(train_status, ctx), view.status_inputs, view.status_outputs, after=True)
