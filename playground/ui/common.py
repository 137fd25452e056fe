"""Small helpers shared by the tabs: binding handlers to the context, user-facing errors, progress, score tables."""

import functools
import html
import inspect
import logging
import math
import re
import unicodedata
from collections.abc import Callable
from typing import Any

import gradio as gr
import pandas as pd

from playground import admission
from playground.errors import PlaygroundError
from playground.isolation.visitor import calling_from
from playground.redact import scrub_paths
from playground.scoring import GroupScore
from playground.settings import is_public
from playground.texts import render
from playground.texts.core import originals
from playground.training.store import RunInfo
from playground.ui.i18n import tr


logger = logging.getLogger(__name__)

REQUEST = "pg_request"  # the request parameter `bind` adds to a handler that has none

# Marks drawn from plain fonts (a bare Linux box has no emoji font); coloured by the app's CSS.
GOOD_MARK = '<span class="pg-good">✓</span>'
BAD_MARK = '<span class="pg-bad">✗</span>'


def bind(fn: Callable, *bound: Any) -> Callable:
    """`fn` with its first arguments bound (usually the `AppContext`), for use as an event handler.

    Unlike `functools.partial`, the result keeps `fn`'s annotations and defaults, so that Gradio still injects
    `gr.Request` and `gr.Progress`. A `PlaygroundError` becomes a `gr.Error` with its one-sentence message, in the
    browser's language and under a translated title; anything else is logged with its traceback and shown as one
    line, never as a traceback in the page. The wrapper always takes the request (for the language), whether `fn`
    does or not. In public mode the admission gate prices the event's inputs before `fn` runs
    (`admission.check_inputs`): every event of the app is bound, named or not (`ungated` lists any that is not).
    """
    signature = inspect.signature(fn)
    params = list(signature.parameters.values())[len(bound) :]
    hints = inspect.get_annotations(fn)
    own = next((i for i, p in enumerate(params) if hints.get(p.name) in (gr.Request, gr.Request | None)), None)
    if own is None:
        params = [inspect.Parameter(REQUEST, inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=gr.Request), *params]

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if own is None:
            request, args = args[0], args[1:]
        else:
            request = args[own] if len(args) > own else kwargs.get(params[own].name)
        lang = lang_of(request)
        try:
            admit(lang, [*args, *kwargs.values()])
            if not is_public():
                return fn(*bound, *args, **kwargs)
            with calling_from(client_address(request)):  # work without a token: the shared pool, charged here
                return fn(*bound, *args, **kwargs)
        except gr.Error:
            raise
        except PlaygroundError as exc:
            raise refusal(lang, exc) from None
        except Exception as exc:
            logger.exception("Handler %s failed", fn.__name__)
            raise refusal(lang, f"{type(exc).__name__}: {first_line(exc)}") from None

    wrapper.__signature__ = signature.replace(parameters=params)
    wrapper.__admitted__ = True
    if own is None:
        wrapper.__annotations__ = {**hints, REQUEST: gr.Request}
    return wrapper


def admit(lang: str | None, values: list) -> None:
    """Public mode's admission gate on an event's inputs, before its handler runs: a refusal is raised as the page's
    error toast."""
    if is_public():
        try:
            admission.check_inputs(values)
        except PlaygroundError as exc:
            raise refusal(lang, exc) from None


def client_address(request: gr.Request | None) -> str | None:
    """The client's address, in one place: behind `PLAYGROUND_PROXY_HOPS` trusted proxies, the entry the outermost
    one added to its header (the rightmost of `X-Forwarded-For`, or of `Forwarded` with
    `PLAYGROUND_PROXY_HEADER=forwarded`), never one the visitor wrote; else the connection's own address."""
    client = getattr(request, "client", None)
    headers = getattr(request, "headers", None)
    items = headers.items() if headers is not None else []
    return admission.client_address(
        getattr(client, "host", None), items, admission.proxy_hops(), admission.proxy_header()
    )


# --- toasts ----------------------------------------------------------------------------------------------------------

# A toast's title by its type. Gradio 6 titles a toast with its type ("Error", "Info") whatever `title` it is given,
# so the page's CSS (`toast_title_css`) shows these on a Chinese page; `title` still carries them for API clients.
TOAST_TITLES = {"error": "app.error_title", "warning": "app.warning_title", "info": "app.info_title"}
TOAST_TYPES = {**TOAST_TITLES, "success": "app.info_title"}  # the toast types Gradio draws, by their CSS class


def toast_title(lang: str | None, kind: str) -> str:
    """The title of a toast of `kind` ("error", "warning", "info") in `lang`."""
    return tr(lang or "en", TOAST_TITLES[kind])


def gate_every_event(demo: gr.Blocks) -> None:
    """Bind each handler of `demo` that is not bound yet, so that the admission gate prices every event's inputs,
    including an unnamed one called by its `fn_index` and one added later without `bind`."""
    for block_fn in demo.fns.values():
        if block_fn.fn is not None and not getattr(block_fn.fn, "__admitted__", False):
            block_fn.fn = bind(block_fn.fn)


def ungated(demo: gr.Blocks) -> list[str]:
    """The events of `demo` whose handler is not `bind`'s, so not priced by the admission gate (empty when all are)."""
    return [f"{i}:{f.name}" for i, f in demo.fns.items() if f.fn is not None and not getattr(f.fn, "__admitted__", 0)]


def shown(lang: str | None, message: Any) -> str:
    """`message` as a visitor reads it: in the page's language, with no path of the server."""
    return scrub_paths(render(lang, message))


def refusal(lang: str | None, message: Any) -> gr.Error:
    """The error toast for `message` (a catalogue text, an error or a sentence), in the page's language, to raise;
    on a Chinese page a parser's English detail follows, collapsed (`original_details`)."""
    text = toast_text(shown(lang, message)) + original_details(lang, message)
    return gr.Error(text, title=toast_title(lang, "error"), print_exception=False)


def original_details(lang: str | None, message: Any) -> str:
    """On a Chinese page, the parser's or Python's own English messages that `render` explained in Chinese, in a
    collapsible "原始信息" (HTML, for a toast or a Markdown block); "" elsewhere or when there are none."""
    if lang != "zh" or not (found := originals(message)):
        return ""
    body = "<br>".join(html.escape(scrub_paths(text)) for text in found)
    return f"<details><summary>{tr(lang, 'app.original_detail')}</summary><code>{body}</code></details>"


def notify(lang: str | None, kind: str, message: Any) -> None:
    """Show a "warning" or "info" toast of `message` in the page's language."""
    toast = {"warning": gr.Warning, "info": gr.Info}[kind]
    toast(toast_text(shown(lang, message)), title=toast_title(lang, kind))


def toast_text(text: str) -> str:
    """A message as a toast shows it: a toast is plain text, so a Markdown code span (`answer`) becomes a quoted
    name ('answer') instead of showing its backticks."""
    return re.sub(r"`([^`\n]+)`", r"'\1'", text)


def toast_title_css(titles: dict[str, str]) -> str:
    """CSS that titles each type of toast with `titles[key]` on a Chinese page (`<html lang="zh">`): Gradio's own
    English title is hidden and the Chinese one drawn in its place."""
    css = "html:lang(zh) .toast-title { font-size: 0; }\n"
    css += "html:lang(zh) .toast-title::before { font-size: var(--text-md); }\n"
    for kind, key in TOAST_TYPES.items():
        css += f'html:lang(zh) .toast-title.{kind}::before {{ content: "{titles[key]}"; }}\n'
    return css


def first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0][:300] if text else "no details"


def progress_callback(progress: gr.Progress, lang: str | None = None) -> Callable[[float, str], None]:
    """Adapts the engine's `progress(fraction, message)` callbacks to a `gr.Progress` bar, in the page's language."""
    return lambda fraction, message: progress(fraction, desc=render(lang, message))


def lang_of(request: gr.Request | None) -> str:
    """'zh' when the browser prefers Chinese (Accept-Language), else 'en'. API clients get English."""
    header = request.headers.get("accept-language", "") if request is not None else ""
    first = header.split(",")[0].strip().lower()
    return "zh" if first.startswith("zh") else "en"


# --- score tables ----------------------------------------------------------------------------------------------------


def advantage_style(value: Any) -> str:
    """Green for a positive advantage, red for a negative one, stronger the further from 0. A value shown as 0.000
    (float noise where every completion scored the same) gets no colour."""
    if not isinstance(value, int | float) or not math.isfinite(value) or round(value, 3) == 0:
        return ""
    alpha = 0.12 + 0.5 * min(abs(value) / 2, 1.0)
    rgb = "34, 197, 94" if value > 0 else "239, 68, 68"
    return f"background-color: rgba({rgb}, {alpha:.2f}); color: #111;"


def styled(frame: pd.DataFrame, colour_columns: list[str]) -> Any:
    """A pandas Styler that Gradio renders: numbers shown with 3 decimals, the given columns colour-coded."""
    numeric = [c for c in frame.columns if pd.api.types.is_numeric_dtype(frame[c]) and c != "#"]
    style = frame.style.format(precision=3, subset=numeric, na_rep="—")
    if colour_columns:
        style = style.map(advantage_style, subset=colour_columns)
    return style


# To share a table's width out in percentages: its width on a laptop screen, and a number column's width from its
# header (the widest cell of a column of 3-decimal numbers), in px of the table's monospace header font.
TABLE_PX, CHAR_PX, CELL_PAD_PX, NUMBER_PX = 1200, 8, 28, 64


def text_widths(columns: list[str], text: dict[str, int], table_px: int = TABLE_PX) -> list[str]:
    """The `column_widths` of a table whose text columns (`text`: name -> weight) share what the number columns
    leave of its width, "auto" for the number columns.

    Gradio sizes a column to its content, up to the whole table's width: one long completion made its column as wide
    as the table, so its end was out of view past the numbers. The number columns keep their own ("auto") width,
    estimated here from their headers to know what they leave. Sent as a props-only update after the value, so
    API clients read the table's value as it is. `table_px`: the table's width on a laptop screen (a side column's
    table is narrower).
    """
    numbers = sum(max(NUMBER_PX, CHAR_PX * _text_width(str(c)) + CELL_PAD_PX) for c in columns if c not in text)
    room = max(100 - math.ceil(100 * numbers / table_px) - 2, 20 * len(text))
    weights = sum(text.values()) or 1
    return [f"{room * text[c] // weights}%" if c in text else "auto" for c in columns]


def _text_width(text: str) -> int:
    """Width of `text` in monospace cells: a Chinese character takes two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def empty_frame(lang: str, *keys: str) -> pd.DataFrame:
    """A table with headers only (the translated `keys`), so that an empty table does not show "1 2 3"."""
    return pd.DataFrame(columns=[tr(lang, key) for key in keys])


def reward_labels(selection: list[dict] | None) -> list[str]:
    """Column labels for the selected rewards, in order: each reward's name, with its parameters where two share a
    name."""
    items = [item for item in selection or [] if isinstance(item, dict)]
    names = [str(item.get("name", "")) for item in items]
    labels = []
    for name, item in zip(names, items, strict=True):
        params = item.get("params") or {}
        if names.count(name) > 1 and params:
            shown = ", ".join(f"{k}={v}" for k, v in params.items())
            name = f"{name}({short(shown, 40)})"
        labels.append(name)
    return labels


def score_frame(score: GroupScore, lang: str, labels: list[str] | None = None, key_first: bool = False) -> Any:
    """One row per completion: each reward function's score, the weighted total, the advantage and the text.
    A metric name that abbreviates long parameters ('formula(expression=0.5___a~16d6ae,...)', with a hash after '~')
    is headed by its label (`reward_labels`) instead; the others keep the metric name the charts use. `key_first`:
    the total and the advantage right after "#" (what a phone shows without scrolling), then each reward."""
    names = list(score.completions[0].rewards) if score.completions else []
    completion, total, advantage = (tr(lang, k) for k in ("table.completion", "table.total", "table.advantage"))
    # The numbers first: a long completion would push them out of view.
    rows = [
        [i + 1, *(c.rewards[n] for n in names), c.total, c.advantage, shown_completion(c.text)]
        for i, c in enumerate(score.completions)
    ]
    if labels and len(labels) == len(names):
        relabelled = [label if "~" in name else name for name, label in zip(names, labels, strict=True)]
        names = relabelled if len(set(relabelled)) == len(relabelled) else names
    frame = pd.DataFrame(rows, columns=["#", *names, total, advantage, completion])
    if key_first:
        frame = frame[["#", total, advantage, *names, completion]]
    for column in [*names, total, advantage]:
        frame[column] = pd.to_numeric(frame[column], errors="coerce")
    return styled(frame, [advantage])


def shown_completion(text: str) -> str:
    """A completion as the page shows it: one cut by the token limit inside a character (a Chinese character is
    several tokens' bytes) ends in "…", not in the decoder's "\ufffd". The rewards scored the text as decoded, as TRL
    does."""
    stripped = text.rstrip("\ufffd")
    return stripped + "…" if len(stripped) < len(text) else text


def score_summary(score: GroupScore, lang: str) -> str:
    """Group mean and std, then each flag with a plain-words title and the engine's explanation."""
    lines = [tr(lang, "score.group", mean=f"{score.mean:.3f}", std=f"{score.std:.3f}", n=len(score.completions))]
    for code, message in zip(score.flag_codes, score.flags, strict=True):
        flag = labelled(lang, f"**{tr(lang, f'flag.{code}')}**", html.escape(render(lang, message)))
        lines.append(f"- ⚠ {flag}")
    if not score.flags:
        lines.append(f"- {GOOD_MARK} {tr(lang, 'score.no_flags')}")
    return "\n".join(lines)


def duration_text(seconds: float | None, lang: str) -> str:
    """A duration in the page's language: "45s", "1m 03s", "2h 05m"; zh "45 秒", "1 分 03 秒", "2 小时 05 分"."""
    if seconds is None or not math.isfinite(seconds):
        return "—"
    total = max(0, int(round(seconds)))
    if total < 60:
        return tr(lang, "app.duration.seconds", s=total)
    if total < 3600:
        return tr(lang, "app.duration.minutes", m=total // 60, s=total % 60)
    return tr(lang, "app.duration.hours", h=total // 3600, m=total % 3600 // 60)


def pieces_text(pieces: list[float], lang: str) -> str:
    """A run's wall time: "5m 53s", or with the pieces it trained in (first run, each continue) "25m 30s (22m 05s +
    3m 25s)"; "—" before it started."""
    if not pieces:
        return "—"
    total = duration_text(sum(pieces), lang)
    if len(pieces) == 1:
        return total
    return tr(lang, "app.duration.pieces", total=total, pieces=" + ".join(duration_text(p, lang) for p in pieces))


def labelled(lang: str | None, label: str, text: str) -> str:
    """`label: text` with the page language's colon (a full-width one after Chinese)."""
    return f"{label}{'：' if lang == 'zh' else ': '}{text}"


def bold(text: str) -> str:
    """`text` in bold, as HTML, for a bold part followed by more text: Markdown's `**` does not close after Chinese
    punctuation followed by a character ("…贡献。**权重…", "**预期结果：**在…" stay as typed, asterisks and all)."""
    return f"<strong>{text}</strong>"


def sentences(lang: str | None, *parts: str) -> str:
    """Sentences one after another: a space between English ones, none after a Chinese full stop."""
    return ("" if lang == "zh" else " ").join(part for part in parts if part)


def run_label(info: RunInfo, lang: str, readable: bool = True) -> str:
    """A run as a picker lists it: its id, when it was made, its status and steps, and (when the viewer may read
    it) its rewards and final reward."""
    label = tr(
        lang,
        "runs.label",
        run=info.id,
        created=info.created_at[:16].replace("T", " "),
        status=tr(lang, f"train.state.{info.status}"),
        step=info.step,
        total=info.max_steps or "?",
    )
    if readable and info.rewards:
        label += " · " + ", ".join(info.rewards)
    if readable and info.final_reward is not None:
        label += " · " + tr(lang, "runs.label.reward", reward=reward_text(info.final_reward))
    return label


def reward_text(value: float) -> str:
    """A run's final reward as the Runs table shows it: rounded to 3 decimals, trailing zeros dropped (-88.75, 0.72),
    so the picker, the run's line and the table read the same number."""
    return f"{round(value, 3) + 0.0:.3f}".rstrip("0").rstrip(".")  # + 0.0: no "-0" for a reward that rounds to 0


def short(text: str, limit: int = 80) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
