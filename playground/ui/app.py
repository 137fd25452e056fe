"""The composition root: one `AppContext`, one per-session `Session`, one module per tab."""

import gc
import importlib.util
import inspect
import logging
import os
from typing import Any

import gradio as gr
from starlette.middleware import Middleware

from playground import admission
from playground.data.parsers import max_file_bytes
from playground.settings import current
from playground.texts import msg
from playground.ui.common import bind, gate_every_event, toast_title_css
from playground.ui.compare_tab import create_compare_tab
from playground.ui.context import AppContext, create_session
from playground.ui.custom_code import wire_unload
from playground.ui.i18n import I18N, ZH, t
from playground.ui.lab_tab import create_lab_tab, wire_lab_tab
from playground.ui.learn_tab import create_learn_tab, show_lesson, wire_learn_tab
from playground.ui.mcp_server import add_mcp_tools
from playground.ui.page_load import wire_page_load
from playground.ui.preview_tab import create_preview_tab, wire_preview_tab
from playground.ui.queue_view import create_queue_view
from playground.ui.rewards_tab import create_rewards_tab
from playground.ui.runs_tab import create_runs_tab
from playground.ui.settings import UISettings
from playground.ui.start_here import create_start_here, wire_start_here
from playground.ui.train_tab import create_train_tab, wire_resume
from playground.ui.upload_route import UploadRoute


logger = logging.getLogger(__name__)

CSS = """
.pg-card { margin-bottom: 10px; }
.pg-progress { height: 12px; border-radius: 6px; background: var(--neutral-200); overflow: hidden; }
.pg-progress-fill { height: 100%; background: var(--color-accent); transition: width 0.4s; }
.pg-progress-label { margin-top: 4px; font-size: var(--text-sm); color: var(--body-text-color-subdued); }
.pg-status { min-height: 1.5em; }
.pg-good { color: #16a34a; font-weight: bold; }
.pg-bad { color: #dc2626; font-weight: bold; }
/* chart captions, the preview's progress area, labels that wrap (a phone is 390 px wide) */
.pg-chart-caption { font-size: var(--text-sm); color: var(--body-text-color-subdued); padding: 0 4px; }
.pg-preview-summary { min-height: 3em; }
/* Labels wrap between words; a word breaks only where it cannot fit on a line of its own ("anywhere" let a label
   shrink until it broke mid-word: "num_generation s"). */
span[data-testid="block-info"], label > span { white-space: normal !important; overflow-wrap: break-word; }
/* Table headers break between words only ("advantage", not "advanta ge"): the column grows to fit its header. */
th, th * { word-break: normal !important; overflow-wrap: normal !important; }
/* A chart shown only with data (the bf16 rollout's) takes no room, caption included, while its plot is hidden. */
.pg-optional-chart:not(:has(.vega-embed)) { display: none !important; }
/* On a phone the selection and "Try on text" come before the reward cards (which are thousands of pixels long), and
   each field of the Train tab's groups takes a line of its own: beside a checkbox a field was squeezed until its label
   ("reward_error_policy") was cut and its help stood one word a line. */
.pg-phone-only { display: none !important; }
@media (max-width: 640px) {
  .pg-phone-only { display: block !important; }
  .pg-wide-only { display: none !important; }
  .pg-side { order: -1; }
  .pg-form .block { min-width: 100% !important; }
  /* "start here" is its headline and its buttons: the explanation took half the first screen */
  .pg-start-here-detail { display: none !important; }
}
/* Held-out answers (Learn's reference, the Train tab's eval) break between words; only a token longer than its column
   breaks inside. On a phone each column keeps 150 px and the table scrolls sideways: at a quarter of 390 px a column
   held 9 letters, and "increasingly" read "increasi ngly". */
.pg-answers .body-cell span, .pg-answers td span {
  word-break: normal !important; overflow-wrap: break-word !important;
}
@media (max-width: 640px) {
  .pg-answers .body-cell, .pg-answers th, .pg-answers td {
    width: 150px !important; min-width: 150px !important; max-width: 150px !important; flex: 0 0 150px !important;
  }
  .pg-answers .virtual-body, .pg-answers .virtual-row, .pg-answers table { width: max-content !important; }
}
/* Try on text on a phone: a card a completion, its scores on a line and its text at the screen's width. */
.pg-try-card { border: 1px solid var(--border-color-primary); border-radius: 6px; padding: 6px 8px; margin: 6px 0; }
.pg-try-scores { font-size: var(--text-sm); color: var(--body-text-color-subdued); }
.pg-try-text { white-space: pre-wrap; overflow-wrap: break-word; margin-top: 4px; }
/* A dropdown's text stops before its arrow (the arrow sits over the input's right end; a long value ran under it). */
.wrap-inner input[role=combobox] { padding-right: calc(var(--size-5) * 2); text-overflow: ellipsis; }
/* Charts carry no export menu (their spec's embed options also say so). */
.pg-chart .vega-actions, .pg-chart details { display: none !important; }
"""
CSS += toast_title_css(ZH)  # Gradio titles a toast by its type ("Error", "Info"): on a Chinese page, in Chinese
# The page's language on <html lang> (Gradio always writes "en"), for the CSS above; the same test as `lang_of`.
HEAD = """<script>
document.documentElement.lang = (navigator.language || "en").toLowerCase().startsWith("zh") ? "zh" : "en";
</script>"""


def build_app(settings: UISettings | None = None, *, ctx: AppContext | None = None) -> gr.Blocks:
    """The whole app; launch it with `demo.launch(**launch_kwargs(settings))` so that languages and styles apply.

    `ctx` lets a caller (a test, or a host app) share its own run store and job manager with the UI.
    """
    ctx = ctx or AppContext.create(settings or UISettings())
    with gr.Blocks(title="GRPO Reward Playground", delete_cache=(3600, 24 * 3600)) as demo:
        session = create_session()
        title = gr.Markdown("# " + t("app.title"))  # one key per string: the browser translates only the first
        gr.Markdown(t("app.subtitle"))
        if current().space_id:  # on a Hugging Face Space, shared by every visitor: offer a copy of one's own
            with gr.Row(equal_height=True):
                gr.Markdown(t("app.duplicate"))
                gr.DuplicateButton(t("app.duplicate_button"), size="sm", scale=0, min_width=160)
        start_here = create_start_here()
        last_lesson = gr.BrowserState(None, storage_key="grpo-playground-lesson")
        with gr.Tabs(overflow_behavior="wrap", elem_id="pg-tabs") as tabs:  # every tab in view on a phone, no "•••"
            rewards = create_rewards_tab(ctx, session)
            learn = create_learn_tab(last_lesson)
            preview = create_preview_tab(ctx, session, rewards)
            lab = create_lab_tab(ctx, session, rewards)
            train = create_train_tab(ctx, session, rewards)
            if ctx.public:  # only public mode queues runs; elsewhere a start while a run goes is refused
                with train.tab:
                    create_queue_view(ctx, session, train.timer)
            create_compare_tab(ctx, session)
            create_runs_tab(ctx, session)
        wire_preview_tab(ctx, session, rewards, preview, train.form)  # scored with the Train tab's recipe
        wire_lab_tab(ctx, lab, train.form)
        wire_resume(ctx, session, train)
        wire_learn_tab(demo, ctx, session, learn, rewards, preview, train)
        lesson = (bind(show_lesson, ctx), [learn.picker, session.id], learn.views)
        wire_start_here(demo, start_here, tabs, learn.picker, lesson, [learn.load, learn.load_trap])
        wire_unload(demo, ctx)
        wire_page_load(demo)  # every tab's part of the page load, as one event
        add_mcp_tools(ctx)
        track_hidden_progress_on(demo, title)
    gate_every_event(demo)  # public mode's admission gate prices every event's inputs, named or not
    skip_event_analytics()
    demo.queue(default_concurrency_limit=1)
    poll_queue_less(demo)
    # The app's own objects (torch, the model, the page: most of a million) are built: later full collections skip
    # them. Without this a full collection walks them all, about a second of the interpreter lock on a loaded machine,
    # and every visitor's request waits for it.
    gc.collect()
    gc.freeze()
    return demo


def track_hidden_progress_on(demo: gr.Blocks, anchor: gr.components.Component) -> None:
    """Events whose progress the page does not show (`show_progress="hidden"`: timer ticks, the page load, most
    events) keep their loading state on `anchor`, the page's title (after the session's states, the first component
    of the page's tree), instead of on each of their outputs.

    For every status message of every event (sent, queued, started, done), Gradio's front end rewrites the loading
    state of every component that any event so far has had as an output: it finds each in the page's tree of about
    seven hundred components and copies its value. Each output of a hidden event joined that list for good (a Train
    tab tick alone has twenty). With the anchor near the top of the tree, a hidden event adds one entry, found at
    once."""
    for fn in demo.fns.values():
        if fn.show_progress == "hidden" and fn.show_progress_on is None:
            fn.show_progress_on = [anchor]


def skip_event_analytics() -> None:
    """After every event, Gradio's queue recomputes a pandas summary of the last 10,000 events, function by function,
    for its monitoring dashboard, which this app does not enable: with the page's hundred-odd events, tens of
    milliseconds of the interpreter lock per event, which every other visitor's request waits for. The summary is
    recomputed once per `GRADIO_ANALYTICS_CACHE_FREQUENCY` events, read when the queue is built: a billion here, unless
    the operator set it."""
    os.environ.setdefault("GRADIO_ANALYTICS_CACHE_FREQUENCY", str(10**9))


# How often Gradio's queue looks for a new event while it has none, and for progress to send (Gradio: every 1 ms and
# every 10 ms). An event waits at most this long before it starts; an idle app no longer keeps a core busy polling.
QUEUE_POLL = {"sleep_when_free": 0.01, "progress_update_sleep_when_free": 0.1}


def poll_queue_less(demo: gr.Blocks) -> None:
    """Gradio's queue polls in its event loop: while no event waits, it wakes every millisecond to look for one, and
    every 10 ms to look for progress to send, whether or not a page is open: an app nobody uses keeps a steady share of
    a core busy, and each wake holds the interpreter lock the app's handlers wait for. It wakes every 10 ms instead,
    and every 100 ms for progress (`QUEUE_POLL`; `bench/idle_app.py` measures both ways). The two are attributes of
    Gradio's queue, not options: where a Gradio version lacks them, the app keeps Gradio's polling and says so in its
    log."""
    queue = getattr(demo, "_queue", None)
    missing = [name for name in QUEUE_POLL if not isinstance(getattr(queue, name, None), (int, float))]
    if missing:
        logger.warning("Gradio's queue has no %s: it keeps polling at its own rate", ", ".join(missing))
        return
    for name, seconds in QUEUE_POLL.items():
        setattr(queue, name, seconds)


def trust_proxies() -> None:
    """uvicorn's trusted-proxy list (`FORWARDED_ALLOW_IPS`) from `PLAYGROUND_PROXY_HOPS`, whatever the variable held:
    with 0 hops no address, loopback included, may rewrite the client's address (`admission.trusted_proxies`)."""
    hops = admission.proxy_hops()
    allowed = admission.trusted_proxies(hops)
    if os.environ.get("FORWARDED_ALLOW_IPS", allowed) != allowed:
        logger.warning("FORWARDED_ALLOW_IPS is set from PLAYGROUND_PROXY_HOPS=%d: %r", hops, allowed)
    os.environ["FORWARDED_ALLOW_IPS"] = allowed


def mcp_available() -> bool:
    return importlib.util.find_spec("mcp") is not None


def launch_kwargs(settings: UISettings) -> dict[str, Any]:
    """Keyword arguments for `demo.launch`. Raises SystemExit with a clear message when --mcp cannot be honoured.

    Sets the web server's trusted proxies from `PLAYGROUND_PROXY_HOPS` (`trust_proxies`): Gradio builds uvicorn's
    config at launch, and uvicorn reads the list only from its variable."""
    trust_proxies()
    kwargs: dict[str, Any] = dict(
        server_name=settings.host,
        server_port=settings.port,
        share=settings.share,
        auth=settings.auth,
        max_file_size=max_file_bytes(),
        i18n=I18N,
        css=CSS,
        head=HEAD,
        theme=gr.themes.Soft(),
        footer_links=["api", "gradio"],
        app_kwargs={"middleware": [Middleware(UploadRoute)]},  # notes who stored each upload (public mode's rule)
    )
    if current().public:
        # Gradio keeps a copy of every component's config for each session hash (about 1.4 MB of this page), 10,000
        # sessions by default: any client makes up hashes, so unbounded that is 14 GB from cheap calls.
        kwargs["state_session_capacity"] = current().caps.max_sessions
    if settings.mcp:
        if not mcp_available():
            raise SystemExit(msg("cli.mcp_extra", gradio="6.31.0"))  # the pinned version
        kwargs["mcp_server"] = True
    return kwargs | patient_start()


def patient_start() -> dict[str, Any]:
    """Launch arguments that let the app start on a busy machine. Gradio, once its server answers a first request
    (with no time limit: localhost is reachable), asks for the whole page within 3 s and refuses to start when that
    fails ("localhost is not accessible ... set share=True"); on a loaded 2-vCPU Space this page takes longer, and the
    app stopped for no fault of its own. That second check is skipped where this Gradio has its switch (`_frontend`,
    a private argument); without it, Gradio's check stays."""
    return {"_frontend": False} if "_frontend" in inspect.signature(gr.Blocks.launch).parameters else {}
