"""Runs tab: past runs with their status; a run's charts, samples and alerts; reward curves of several runs on one
chart; the adapter as a zip; deleting a run (the engine refuses while it is active)."""

import os
import shutil
import tempfile
import uuid
from pathlib import Path

import gradio as gr
import pandas as pd

from playground.errors import PlaygroundError
from playground.export import export_adapter_zip, export_recipe, export_script, zip_folder
from playground.export.recipe import recipe_blocker
from playground.lessons import reference_for
from playground.spec import RunSpec
from playground.texts import render
from playground.training import retention
from playground.training.store import RunInfo
from playground.ui.charts import chart_updates, create_overlay, overlay_update
from playground.ui.common import (
    bind,
    client_address,
    empty_frame,
    lang_of,
    notify,
    pieces_text,
    reward_text,
    run_label,
)
from playground.ui.context import AppContext, Session
from playground.ui.eval_charts import eval_chart_updates
from playground.ui.i18n import t, tr
from playground.ui.page_load import on_page_load
from playground.ui.train_tab import HIDDEN, SAMPLE_HEADERS, alerts_markdown, create_run_view, samples_frame


# keys: runs.col.<name>
TICK_SECONDS = 3.0  # how often the Runs tab looks whether the live run's status or step changed
COLUMNS = ("run", "status", "step", "duration", "created", "model", "rewards", "final_reward", "error")
# One click downloads: once the zip is made, the browser saves it (the file box stays, for a second copy).
SAVE_FILE = """(file) => {
    if (file && file.url) {
        const link = document.createElement("a");
        link.href = file.url;
        link.download = file.orig_name || "";
        document.body.appendChild(link);
        link.click();
        link.remove();
    }
}"""


def runs_frame(ctx: AppContext, viewer: str | None = None, lang: str = "en") -> pd.DataFrame:
    """The runs this viewer may list (all, outside public mode). Another visitor's private run shows only its id,
    status, step and times (in public mode it is listed while it is queued or going). Headers, statuses and errors in
    `lang`; the wall time with its pieces (first run and each continue); the rewards with their parameters and
    weights; the final reward to 3 decimals. The error column only while a listed run has an error: nine columns
    did not fit a 1400-px page, and the empty last one was cut at its edge."""
    rows = [
        [
            info.id,
            tr(lang, f"train.state.{info.status}")
            + (f" · {tr(lang, 'runs.published_mark')}" if info.published else ""),
            f"{info.step}/{info.max_steps or '?'}",
            pieces_text(info.pieces, lang),
            info.created_at[:19].replace("T", " "),
            info.model if readable else "",
            _rewards_text(ctx, info.id, info.rewards) if readable else "",
            round(info.final_reward, 3) if readable and info.final_reward is not None else None,
            render(lang, info.error or "") if readable else "",
        ]
        for info, readable in ctx.runs_for(viewer)
    ]
    columns = COLUMNS if any(row[-1] for row in rows) else COLUMNS[:-1]
    return pd.DataFrame([row[: len(columns)] for row in rows], columns=[tr(lang, f"runs.col.{c}") for c in columns])


def _rewards_text(ctx: AppContext, run_id: str, names: list[str]) -> str:
    """`length(ideal_length=50) × 1, format × 0.5`: the run's rewards as chosen, parameters and weights included."""
    try:
        choices = RunSpec.from_dict(ctx.store.get(run_id).spec()).rewards
    except PlaygroundError:  # an old or broken spec: the names are all there is
        return ", ".join(names)
    items = []
    for choice in choices:
        params = ", ".join(f"{k}={v!r}" for k, v in choice.params.items())
        items.append(choice.name + (f"({params})" if params else "") + f" × {choice.weight:g}")
    return ", ".join(items)


def refresh(
    ctx: AppContext,
    request: gr.Request,
    session_id: str | None = None,
    current: str | None = None,
    leave_pick: bool = False,
):
    """The run list, and the run pickers: the current pick kept when it still exists, else the newest run. With
    `leave_pick` (the timer's tick) the picker's value is not sent, and only a pick that is gone is cleared: the tick
    read `current` when it began, and the tab's opening or the visitor may have set the picker since; sending that
    older value emptied the picker under a Show click."""
    lang = lang_of(request)
    frame = runs_frame(ctx, session_id, lang)
    choices = [(run_label(info, lang, readable), info.id) for info, readable in ctx.runs_for(session_id)]
    ids = [run_id for _, run_id in choices]
    if leave_pick and (current is None or current in ids):
        picker = gr.Dropdown(choices=choices)
    elif leave_pick:
        picker = gr.Dropdown(choices=choices, value=None)
    else:
        picker = gr.Dropdown(choices=choices, value=current if current in ids else (ids[0] if ids else None))
    return frame, picker, gr.Dropdown(choices=choices)


def refresh_on_change(
    ctx: AppContext, request: gr.Request, session_id: str | None, current: str | None, seen: str | None
):
    """The Runs tab's timer tick: the run list again when the live run's status or step changed since the last tick
    (a run that reached "finished" after its final save shows it without a Refresh), else nothing is sent. The timer
    goes off once no run is going (the tab's opening and Continue turn it on)."""
    job = ctx.jobs.current
    key = f"{job.run.id}:{job.status}:{job.step}" if job is not None else None
    timer = gr.Timer(active=job is not None and job.active)
    if key == seen:
        return gr.skip(), gr.skip(), gr.skip(), gr.skip(), seen, timer
    lists = refresh(ctx, request, session_id, current, leave_pick=True)
    # the picked run's line follows too: after Continue it said "finished · 4/4" beside a list saying "running 5/6"
    summary = gr.skip()
    if current and current in {info.id for info, _ in ctx.runs_for(session_id)}:
        try:
            run = ctx.open_run(current, session_id)
            summary = shown_summary(ctx, run, _spec(run), lang_of(request))
        except PlaygroundError:
            pass
    return (*lists, summary, key, timer)


def wake() -> gr.Timer:
    return gr.Timer(active=True)


def show_run(ctx: AppContext, request: gr.Request, session_id: str | None, run_id: str | None):
    """A past (or live) run's charts, latest samples and alerts (public mode: the viewer's or a published run)."""
    lang = lang_of(request)
    if not run_id:
        raise PlaygroundError(tr(lang, "runs.none_selected"))
    run = ctx.open_run(run_id, session_id)
    metrics = run.metrics()
    status = run.status()
    alerts = status.get("alert_log") or status.get("alerts") or []  # kept by the run's job as it logged
    view = [*chart_updates(metrics, lang), samples_frame(run, lang), alerts_markdown(alerts, metrics, lang)]
    spec = _spec(run)
    evals = eval_chart_updates(metrics, reference_for(spec) if spec else None, lang)
    blocker = recipe_blocker(spec) if spec else None
    summary = shown_summary(ctx, run, spec, lang)
    return [*view, summary, *evals, gr.Button(interactive=blocker is None)]


DOWNLOADS = ("adapter", "recipe", "script")  # the file boxes' kinds, in their order: `{run}-{kind}.zip`


def keep_downloads_of(run_id: str | None, adapter: str | None, recipe: str | None, script: str | None) -> list:
    """After a run is shown: each file box keeps a download of that run (or its emptiness) and hides one of another.
    Run after the run's view is drawn, not with it, and it leaves an empty box alone: a download clicked while a slow
    view was being drawn (a loaded machine) is the picked run's, and must stay in its box."""
    own = {f"{run_id}-{kind}.zip" for kind in DOWNLOADS}
    files = (adapter, recipe, script)
    return [gr.skip() if not file or Path(file).name in own else gr.File(value=None, visible=False) for file in files]


def shown_summary(ctx: AppContext, run, spec: RunSpec | None, lang: str) -> str:
    """The line beside the picked run: its summary, why it has no trl recipe (if so) and, in public mode, when it
    expires."""
    summary = run_summary(run.info(), lang)
    if blocker := recipe_blocker(spec) if spec else None:
        # said beside the run, and the recipe button off: a toast alone made the button look dead
        summary += "\n\n" + tr(lang, "runs.recipe_blocked", name=blocker)
    if ctx.public:  # runs expire (playground/training/retention.py): say when this one goes
        when = retention.expires_at(run.status(), ctx.jobs.caps.run_retention_hours)
        if when is not None:
            hours = f"{ctx.jobs.caps.run_retention_hours:g}"
            summary += "\n\n" + tr(lang, "retention.expires", time=when.strftime("%Y-%m-%d %H:%M"), hours=hours)
    return summary


def _spec(run) -> RunSpec | None:
    """A stored run's spec, None when it cannot be read (an old or broken spec.json)."""
    try:
        return RunSpec.from_dict(run.spec())
    except (PlaygroundError, ValueError, TypeError, KeyError):
        return None


def run_summary(info: RunInfo, lang: str) -> str:
    """The run shown: its status, steps, wall time (with its pieces when it was continued) and final reward."""
    text = tr(
        lang,
        "runs.summary",
        run=info.id,
        status=tr(lang, f"train.state.{info.status}"),
        step=info.step,
        total=info.max_steps or "?",
        wall=pieces_text(info.pieces, lang),
    )
    if info.final_reward is not None:
        text += " · " + tr(lang, "runs.label.reward", reward=reward_text(info.final_reward))
    return text


def empty_run_view(request: gr.Request) -> list:
    """On page load: the empty charts and samples with their titles and headers in the page's language."""
    lang = lang_of(request)
    return [*chart_updates([], lang), empty_frame(lang, *SAMPLE_HEADERS), overlay_update([], lang)]


def overlay(ctx: AppContext, request: gr.Request, session_id: str | None, run_ids: list[str] | None):
    """The reward curves of the chosen runs on one chart, and a warning when their rewards differ."""
    runs = [(run_id, ctx.open_run(run_id, session_id).metrics()) for run_id in run_ids or []]
    return overlay_update(runs, lang_of(request)), mixed_rewards_note(ctx, [r for r, _ in runs], lang_of(request))


def mixed_rewards_note(ctx: AppContext, run_ids: list[str], lang: str) -> str:
    """Runs whose rewards (names, parameters, weights) differ have totals on different scales: each run's rewards,
    named, under the chart that puts them on one axis; "" when they agree."""
    rewards = {run_id: _rewards_text(ctx, run_id, []) for run_id in run_ids}
    if len(set(rewards.values())) < 2:
        return ""
    lines = [f"- `{run_id}`: {text or '∅'}" for run_id, text in rewards.items()]
    return "\n".join([f"⚠ {tr(lang, 'runs.overlay.mixed')}", *lines])


def download_adapter(ctx: AppContext, request: gr.Request, session_id: str | None, run_id: str | None) -> str:
    """Zip the run's adapter folder (into the app's download folder) and return the zip."""
    lang = lang_of(request)
    if not run_id:
        raise PlaygroundError(tr(lang, "runs.none_selected"))
    run = ctx.open_run(run_id, session_id)
    if not run.has_adapter:
        raise PlaygroundError(tr(lang, "runs.no_adapter", run=run_id))
    folder = ctx.download_folder()  # this request's own, unguessable, removed after a while
    target = folder / f"{run_id}-adapter.zip"
    # The portable zip (Hub id of the base model, model card); atomic, so a reader never sees a half-written one.
    partial = export_adapter_zip(run, folder / f".{uuid.uuid4().hex}.zip")
    os.replace(partial, target)
    return str(target)


def download_recipe(ctx: AppContext, request: gr.Request, session_id: str | None, run_id: str | None) -> str:
    """The run as a `trl grpo` recipe folder (its custom reward code included), zipped."""
    return _export_zip(ctx, request, session_id, run_id, export_recipe, "recipe")


def download_script(ctx: AppContext, request: gr.Request, session_id: str | None, run_id: str | None) -> str:
    """The run as a standalone `train_grpo.py` (with its data, warm-up examples and accelerate configs), zipped: it
    also runs what a `trl grpo` recipe cannot (the warm-up, a completion prefix)."""
    return _export_zip(ctx, request, session_id, run_id, export_script, "script")


def _export_zip(ctx: AppContext, request: gr.Request, session_id: str | None, run_id: str | None, export, kind: str):
    if not run_id:
        raise PlaygroundError(tr(lang_of(request), "runs.none_selected"))
    run = ctx.open_run(run_id, session_id)
    target = ctx.download_folder()  # this request's own, unguessable, removed after a while
    scratch = Path(tempfile.mkdtemp(dir=target))
    try:
        folder = export(run, scratch / f"{run_id}-{kind}")
        return str(zip_folder(folder, target / f"{run_id}-{kind}.zip"))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def shown_file(file: str | None) -> gr.File:
    """The download in its file box, which stays hidden until there is a file in it (empty, it is a large upload
    area)."""
    return gr.File(value=file, visible=True)


def ask_delete(request: gr.Request, run_id: str | None):
    """The first click on Delete: ask, naming the run (nothing is deleted yet)."""
    lang = lang_of(request)
    if not run_id:
        raise PlaygroundError(tr(lang, "runs.none_selected"))
    return gr.Row(visible=True), tr(lang, "runs.delete.confirm", run=run_id)


def cancel_delete():
    return gr.Row(visible=False)


def delete_run(ctx: AppContext, request: gr.Request, session_id: str | None, run_id: str | None):
    """Delete the run; the picker is emptied and the run's charts, samples, alerts and downloads cleared with it."""
    lang = lang_of(request)
    if not run_id:
        raise PlaygroundError(tr(lang, "runs.none_selected"))
    ctx.open_run(run_id, session_id, change=True)
    ctx.store.delete(run_id)
    notify(lang, "info", tr(lang, "runs.deleted", run=run_id))
    frame, _, chosen = refresh(ctx, request, session_id)
    hide = gr.File(value=None, visible=False)
    empty = [*chart_updates([], lang), empty_frame(lang, *SAMPLE_HEADERS), ""]
    picker = gr.Dropdown(choices=chosen.choices, value=None)
    return [
        frame,
        picker,
        chosen,
        *empty,
        hide,
        hide,
        hide,
        gr.Row(visible=False),
        "",
        *eval_chart_updates([], None, lang),
    ]


def publish_run(ctx: AppContext, request: gr.Request, session_id: str | None, run_id: str | None):
    """Public mode: the owner makes the run readable by every visitor (read-only: only the owner may delete it)."""
    lang = lang_of(request)
    if not run_id:
        raise PlaygroundError(tr(lang, "runs.none_selected"))
    ctx.open_run(run_id, session_id, change=True).publish()
    notify(lang, "info", tr(lang, "runs.published", run=run_id))
    return refresh(ctx, request, session_id, run_id)


def continue_run(
    ctx: AppContext, request: gr.Request, session_id: str | None, run_id: str | None, max_steps: float | None
):
    """Continue the run from its last checkpoint, in its own folder (public mode: the owner's run only, queued and
    capped like a new run); a larger `max_steps` trains a finished run further."""
    lang = lang_of(request)
    if not run_id:
        raise PlaygroundError(tr(lang, "runs.none_selected"))
    ctx.open_run(run_id, session_id, change=True)
    steps = int(max_steps) if max_steps else None
    job = ctx.jobs.resume(run_id, owner=ctx.viewer(session_id), max_steps=steps, address=client_address(request))
    if job is None:
        notify(lang, "info", tr(lang, "runs.continue_queued", run=run_id))
    else:
        notify(lang, "info", tr(lang, "runs.continued", run=run_id, step=job.start_step))
    return refresh(ctx, request, session_id, run_id)


def create_runs_tab(ctx: AppContext, session: Session) -> None:
    frame = runs_frame(ctx, None)
    ids = frame.iloc[:, 0].tolist()
    with gr.Tab(t("runs.tab"), id="runs") as tab:
        gr.Markdown(t("runs.intro"))
        with gr.Row():
            reload = gr.Button(t("runs.refresh"), size="sm", scale=0, min_width=120)
        table = gr.Dataframe(frame, label=t("runs.table"), interactive=False, wrap=True, max_height=300)
        gr.Markdown(t("app.scroll_hint"), elem_classes="pg-phone-only")
        with gr.Row(equal_height=False):
            first = ids[0] if ids else None
            run = gr.Dropdown(ids, value=first, allow_custom_value=True, label=t("runs.run"), scale=3)
            show = gr.Button(t("runs.show"), variant="primary", scale=1)
            download = gr.Button(t("runs.download"), scale=1)
            recipe = gr.Button(t("runs.export"), scale=1)
            script = gr.Button(t("runs.export_script"), scale=1)
            delete = gr.Button(t("runs.delete"), variant="stop", scale=1)
            publish = gr.Button(t("runs.publish"), scale=1, visible=ctx.public)
        with gr.Row(equal_height=True):
            more = gr.Number(None, label=t("runs.continue.steps"), info=t("runs.continue.steps_info"), precision=0)
            resume = gr.Button(t("runs.continue"), scale=0, min_width=160, elem_id="runs-continue")
        with gr.Row(visible=False, equal_height=True) as confirm_row:  # Delete asks first
            question = gr.Markdown()
            confirm = gr.Button(t("runs.delete.yes"), variant="stop", scale=0, min_width=160)
            cancel = gr.Button(t("runs.delete.no"), scale=0, min_width=120)
        zipped = gr.File(label=t("runs.zip"), interactive=False, visible=False)
        recipe_zip = gr.File(label=t("runs.recipe"), interactive=False, visible=False)
        script_zip = gr.File(label=t("runs.script"), interactive=False, visible=False)
        # What each download hands the browser to save: a hidden box of its own that no other event writes (the view
        # of a run picked meanwhile hides the visible boxes of another run); the visible box shows a copy.
        saving = [gr.File(visible=False) for _ in range(3)]
        summary = gr.Markdown()
        alerts, plots, samples, evals = create_run_view(max_height=360, fit_samples=True)
        gr.Markdown("### " + t("runs.overlay"))
        chosen = gr.Dropdown(ids, multiselect=True, allow_custom_value=True, label=t("runs.overlay.pick"))
        curves = create_overlay()
        mixed = gr.Markdown(elem_id="pg-overlay-mixed")
        ticker = gr.Timer(TICK_SECONDS)  # the list follows the live run's status (`refresh_on_change`)

    lists = [table, run, chosen]
    me = session.id  # the visitor's browser token: what public mode's ownership checks (training/access.py)
    gr.on(
        [tab.select, reload.click], bind(refresh, ctx), [me, run], lists, api_name="list_runs", show_progress="hidden"
    )
    seen = gr.State(None)
    ticker.tick(
        bind(refresh_on_change, ctx),
        [me, run, seen],
        [*lists, summary, seen, ticker],
        **HIDDEN,
        concurrency_limit=None,
    )
    gr.on([tab.select, resume.click], bind(wake), None, ticker, **HIDDEN)
    on_page_load(bind(empty_run_view), [], [*plots, samples, curves])
    shown = [*plots, samples, alerts, summary, *evals, recipe]
    files = [zipped, recipe_zip, script_zip]
    # Picking a run shows it: the charts and the downloads always belong to the run in the picker.
    for event in (
        show.click(bind(show_run, ctx), [me, run], shown, api_name="show_run"),
        run.input(bind(show_run, ctx), [me, run], shown, **HIDDEN),
    ):
        event.then(bind(keep_downloads_of), [run, *files], files, **HIDDEN)
    chosen.change(bind(overlay, ctx), [me, chosen], [curves, mixed], api_name="overlay_runs")
    exports = (download_adapter, download_recipe, download_script)
    for button, export, box, saved in zip((download, recipe, script), exports, files, saving, strict=True):
        made = button.click(bind(export, ctx), [me, run], saved, api_name=export.__name__)
        made.success(None, saved, None, js=SAVE_FILE).success(bind(shown_file), saved, box, **HIDDEN)
    delete.click(bind(ask_delete), run, [confirm_row, question], **HIDDEN)
    cancel.click(cancel_delete, None, confirm_row, **HIDDEN)
    cleared = [*lists, *plots, samples, alerts, zipped, recipe_zip, script_zip, confirm_row, summary, *evals]
    confirm.click(bind(delete_run, ctx), [me, run], cleared, api_name="delete_run")
    publish.click(bind(publish_run, ctx), [me, run], lists, api_name="publish_run")
    # the ticker again once the continued run exists: a tick between the click and the job's start saw the old run
    # unchanged and finished, and turned the ticker off, so the list stayed at the old step
    resume.click(bind(continue_run, ctx), [me, run, more], lists, api_name="continue_run").then(
        bind(wake), None, ticker, **HIDDEN
    )
