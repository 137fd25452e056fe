"""The training queue on the Train tab (public mode): this visitor's place in the queue, its ETA, and Cancel.

A start while another visitor's run goes joins the queue (`JobManager`); the box below the live view says where the
visitor's run stands, updated with the live view's timer, and lets them cancel it before it starts.
"""

import gradio as gr

from playground.ui.common import bind, lang_of
from playground.ui.context import AppContext, Session
from playground.ui.i18n import t, tr


def _minutes(seconds: float) -> str:
    return f"{max(1, round(seconds / 60))} min"


def queue_status(ctx: AppContext, request: gr.Request, session_id: str | None):
    """(text, Cancel button) for this visitor's queued run; empty and hidden when none is queued."""
    place = ctx.jobs.position(ctx.viewer(session_id))
    if place is None:
        return "", gr.Button(visible=False)
    lang = lang_of(request)
    values = dict(position=place["position"], waiting=place["waiting"])
    if place["eta"] is None:
        text = tr(lang, "train.queue.position_no_eta", **values)
    else:
        text = tr(lang, "train.queue.position", eta=_minutes(place["eta"]), **values)
    return text, gr.Button(visible=True)


def cancel_queued(ctx: AppContext, request: gr.Request, session_id: str | None):
    ctx.jobs.cancel(ctx.viewer(session_id))
    return tr(lang_of(request), "train.queue.cancelled"), gr.Button(visible=False)


def create_queue_view(ctx: AppContext, session: Session, timer: gr.Timer) -> None:
    """Inside the Train tab of a public app: the queue box, refreshed on each tick of the live view's timer (on while
    a run goes)."""
    with gr.Row():
        place = gr.Markdown(elem_classes="pg-status")
        cancel = gr.Button(t("train.queue.cancel"), variant="stop", size="sm", visible=False, scale=0, min_width=200)
    outputs = [place, cancel]
    timer.tick(bind(queue_status, ctx), session.id, outputs, api_name="queue_status", show_progress="hidden")
    cancel.click(bind(cancel_queued, ctx), session.id, outputs, api_name="cancel_queued")
