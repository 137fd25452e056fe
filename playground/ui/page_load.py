"""What a page does when it (re)loads, as two events: while the page is built, each tab registers its part (a handler,
its inputs, its outputs) with `on_page_load`, and the composition root wires them with `wire_page_load`.

A browser makes one call when the page loads and one after it (the parts that read what the first call wrote, such as
the session token), not one per part: for every event the page redraws the loading state of each of its components,
and ten load events cost a visitor's browser about a second of CPU on each load. Each part's failure stays its own:
its outputs keep what the page was built with, a warning toast says why, and the other parts still apply.
"""

import functools
import inspect
import logging
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import anyio
import gradio as gr
import pandas as pd

from playground.ui.common import admit, bind, empty_frame, first_line, lang_of, notify


logger = logging.getLogger(__name__)


@dataclass
class Part:
    fn: Callable
    inputs: list[gr.components.Component]
    outputs: list[gr.components.Component]


@dataclass
class PageLoad:
    """The parts of one page: `now` run when it loads, `after` once those have written their outputs."""

    now: list[Part] = field(default_factory=list)
    after: list[Part] = field(default_factory=list)
    browser: list[tuple[str, list, list]] = field(default_factory=list)  # (a JavaScript function, inputs, outputs)


_PAGES: weakref.WeakKeyDictionary[gr.Blocks, PageLoad] = weakref.WeakKeyDictionary()


def on_page_load(fn: Callable, inputs: Sequence, outputs: Sequence, after: bool = False) -> None:
    """Run `fn(inputs) -> outputs` when the page being built loads, as Gradio's `load` would; `after`: once the
    parts without it have written their outputs (a part that reads the session token `resume` restores)."""
    page = _PAGES.setdefault(gr.context.Context.root_block, PageLoad())
    (page.after if after else page.now).append(Part(fn, list(inputs), list(outputs)))


def in_browser_after_load(js: str, inputs: Sequence, outputs: Sequence = ()) -> None:
    """Run `js`, a JavaScript function of `inputs`' values that returns `outputs`' (if any), in the page being built
    once its load event has written its outputs: for what only the browser does, such as opening a tab. No event goes
    to the server."""
    page = _PAGES.setdefault(gr.context.Context.root_block, PageLoad())
    page.browser.append((js, list(inputs), list(outputs)))


def wire_page_load(demo: gr.Blocks) -> None:
    """The page's registered parts as one `load` event, then one event for the `after` parts (and the browser's own
    steps, `in_browser_after_load`)."""
    page = _PAGES.pop(demo, PageLoad())
    hidden = dict(api_visibility="private", show_progress="hidden", concurrency_limit=None)
    event = demo.load(_merged(page.now), *_components(page.now), **hidden)
    for js, inputs, outputs in page.browser:
        event.then(None, inputs, outputs or None, js=js, api_visibility="private", show_progress="hidden")
    if page.after:
        event.then(_merged(page.after), *_components(page.after), **hidden)


def _unique(components: list) -> list:
    return list({id(c): c for c in components}.values())


def _components(parts: list[Part]) -> tuple[list, list]:
    return _unique([c for p in parts for c in p.inputs]), _unique([c for p in parts for c in p.outputs])


def _merged(parts: list[Part]) -> Callable:
    """One handler for `parts`: it takes the union of their inputs (and the request) and returns the union of their
    outputs, each part's in its place; a part's skipped or failed output keeps the page's value."""
    inputs, outputs = _components(parts)
    where = {id(c): i for i, c in enumerate(outputs)}

    async def page_load(request: gr.Request, *values):
        lang = lang_of(request)
        admit(lang, list(values))
        value_of = {id(c): v for c, v in zip(inputs, values, strict=True)}
        results: list[Any] = [gr.skip()] * len(outputs)
        for part in parts:
            returned = await _call(part, request, [value_of[id(c)] for c in part.inputs], lang)
            for component, value in zip(part.outputs, returned, strict=True):
                if not isinstance(value, dict) or value.get("__type__") != "update" or len(value) > 1:
                    results[where[id(component)]] = value  # a skip (an empty update) leaves another part's value
        return results[0] if len(results) == 1 else results

    params = [inspect.Parameter("request", inspect.Parameter.POSITIONAL_ONLY, annotation=gr.Request)]
    params += [inspect.Parameter(f"input_{i}", inspect.Parameter.POSITIONAL_ONLY) for i in range(len(inputs))]
    page_load.__signature__ = inspect.Signature(params)
    page_load.__annotations__ = {"request": gr.Request}
    page_load.__admitted__ = True  # the admission gate prices the inputs above, before any part runs
    return page_load


async def _call(part: Part, request: gr.Request, values: list, lang: str) -> list:
    """`part.fn` on its inputs, the request given where it asks for one; its outputs as a list (skips on a
    failure, which a warning toast names)."""
    args, kwargs, given, gap = [], {}, list(values), False
    for param in inspect.signature(part.fn).parameters.values():
        if param.annotation in (gr.Request, gr.Request | None) or "Request" in str(param.annotation):
            if gap:  # after parameters left to their defaults
                kwargs[param.name] = request
            else:
                args.append(request)
        elif given:
            args.append(given.pop(0))
        else:
            gap = True
    skipped = [gr.skip()] * len(part.outputs)
    try:
        if inspect.iscoroutinefunction(part.fn):
            returned = await part.fn(*args, **kwargs)
        else:
            returned = await anyio.to_thread.run_sync(functools.partial(part.fn, *args, **kwargs))
    except gr.Error as exc:
        gr.Warning(exc.message, title=exc.title)
        return skipped
    except Exception as exc:
        logger.exception("Page load part %s failed", getattr(part.fn, "__name__", part.fn))
        notify(lang, "warning", f"{type(exc).__name__}: {first_line(exc)}")
        return skipped
    if len(part.outputs) == 1:
        return [returned]
    return list(returned)


def empty_headers(keys: tuple[str, ...], request: gr.Request) -> pd.DataFrame:
    return empty_frame(lang_of(request), *keys)


def headers_on_load(table: gr.Dataframe, *keys: str) -> None:
    """Give a table that starts empty its headers in the page's language when the page loads: the page is built
    once, in English, and the browser translates labels and texts but not a table's headers."""
    on_page_load(bind(empty_headers, keys), [], [table])
