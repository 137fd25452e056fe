"""Rewards tab: the library as cards (parameters as inputs, live example scores), custom reward code (see
`custom_code`), the selection with weights, and "Try on text" (score pasted completions as a GRPO group, no model).
"""

import html
import json
import re
from dataclasses import dataclass

import gradio as gr
import pandas as pd

from playground import admission
from playground.errors import PlaygroundError
from playground.isolation.visitor import reward_executor
from playground.sandbox import code_policy, inspect_code
from playground.scoring import RewardChoice, build_rewards, call_reward, score_group
from playground.settings import current as current_settings
from playground.settings import is_public
from playground.texts import Text, render
from playground.ui.common import (
    BAD_MARK,
    GOOD_MARK,
    bind,
    lang_of,
    reward_labels,
    score_frame,
    score_summary,
    sentences,
    short,
    shown,
    text_widths,
)
from playground.ui.context import AppContext, Session, parse_selection, weight_problem, weight_warning
from playground.ui.custom_code import (
    CustomCode,
    choices_frame,
    create_custom_code,
    custom_rewards,
    custom_selection,
    selected_choices,
)
from playground.ui.fair import TRY_SLOTS, fair
from playground.ui.i18n import t, tr
from playground.ui.packed import Packed
from playground.ui.page_load import on_page_load
from rewards.registry import Param, RewardSpec, build_reward, get_spec, list_specs, resolve_params


FAMILIES = ("format", "length", "accuracy", "content", "other")
SEPARATOR = re.compile(r"^\s*---\s*$", re.MULTILINE)
TRY_TEXT = """<think>Two plus two is four.</think>
<answer>4</answer>
---
The answer is 4.
---
I am not sure, maybe 5? I am not sure, maybe 5? I am not sure, maybe 5?"""

Layout = tuple[tuple[str, tuple[str, ...]], ...]  # (reward name, its parameter names) per card, in card order


@dataclass
class RewardCard:
    spec: RewardSpec
    use: gr.Checkbox
    weight: gr.Number
    params: list[gr.Component]
    examples: gr.Markdown

    @property
    def inputs(self) -> list[gr.Component]:
        return [self.use, self.weight, *self.params]


@dataclass
class RewardsTab:
    cards: list[RewardCard]
    custom: CustomCode
    summary: gr.Markdown
    selection_json: gr.Code

    @property
    def editor(self) -> gr.Code:
        return self.custom.editor

    @property
    def layout(self) -> Layout:
        return tuple((c.spec.name, tuple(p.name for p in c.spec.params)) for c in self.cards)

    @property
    def apply_outputs(self) -> list[gr.Component]:
        """What `apply_selection` fills, after the session's selection: summary, JSON, custom choices, every card."""
        return [
            self.summary,
            self.selection_json,
            self.custom.choices,
            *(c for card in self.cards for c in card.inputs),
        ]


# --- handlers ------------------------------------------------------------------------------------------------------


# The scores a page is built with, by reward, parameters and settings: the same for every page this process builds
# (a judge or reward model scores its two examples in seconds on a CPU; the tests build many pages).
_BUILT_SCORES: dict[tuple[str, str, str], str] = {}


def example_scores(name: str, *values, lang: str | None = None, owner: str | None = None) -> str:
    """The reward's score on its good and bad example completions, with the parameters as set on the card.

    `lang=None` when the page is built: a reward its default parameters cannot build (reward_model without a model)
    then shows a text the browser translates, instead of the engine's English sentence; what a page is built with is
    computed once per process for the same reward, parameters and settings. `owner`: the visitor's owner key, whose
    worker scores in public mode.
    """
    if lang is None:
        key = (name, repr(values), repr(current_settings()))
        if key not in _BUILT_SCORES:
            _BUILT_SCORES[key] = _example_scores(name, values, None, None)
        return _BUILT_SCORES[key]
    return _example_scores(name, values, lang, owner)


def _example_scores(name: str, values: tuple, lang: str | None, owner: str | None) -> str:
    spec = get_spec(name)
    try:
        params = dict(zip((p.name for p in spec.params), values, strict=True))
        # The page's own defaults build here; a visitor's parameters go where scoring runs (public: a worker).
        if lang is None:
            func = build_reward(name, params)
        else:
            func = build_rewards([RewardChoice(name, 1.0, params)], executor=reward_executor(owner))[0][0]
    except PlaygroundError as exc:
        if lang is None:
            return tr(None, "rewards.examples.needs_params")
        return f"⚠ {html.escape(render(lang, exc))}"
    lines = []
    for mark, example in ((GOOD_MARK, spec.good), (BAD_MARK, spec.bad)):
        if example is None:
            continue
        try:
            value = call_reward(func, [example.completion], prompts=[""], **example.batch_kwargs())[0]
            shown = "None" if value is None else f"{value:.3f}"
        except PlaygroundError as exc:
            if lang is None:
                return tr(None, "rewards.examples.needs_params")
            shown = f"⚠ {html.escape(render(lang, exc))}"
        extra = ", ".join(f"{k}={v!r}" for k, v in example.kwargs.items())
        lines.append(
            f"{mark} <code>{html.escape(short(example.completion, 90))}</code>"
            + (f" <small>({html.escape(extra)})</small>" if extra else "")
            + f" → **{shown}**"
        )
    return "<br>".join(lines)


def example_scores_for(ctx: AppContext, name: str, request: gr.Request, token: str | None, *values) -> str:
    """`example_scores` after a parameter changed, in the page's language. In public mode the gate prices the card's
    parameters first: a model folder, or a pattern over its cap, is refused before the reward is built."""
    if is_public():
        admission.check_reward_params(name, dict(zip((p.name for p in get_spec(name).params), values, strict=False)))
    return example_scores(name, *values, lang=lang_of(request), owner=ctx.viewer(token))


def collect_selection(layout: Layout, request: gr.Request, custom, *values) -> tuple[list[dict], str, str]:
    """Read every card (use, weight, parameters) and the ticked custom rewards into the session's selection; returns
    it, a summary and its JSON."""
    selection, errors, i = [], [], 0
    for name, param_names in layout:
        use, weight, params = values[i], values[i + 1], dict(zip(param_names, values[i + 2 :], strict=False))
        i += 2 + len(param_names)
        if not use:
            continue
        try:
            params = _non_default(name, params)
        except PlaygroundError as exc:
            errors.append(exc.message)
        selection.append({"name": name, "weight": "" if weight is None else weight, "params": params})
    selection += custom_selection(custom)
    errors += [problem for item in selection if (problem := weight_problem(item) or weight_warning(item))]
    return selection, selection_summary(selection, lang_of(request), errors), json.dumps(selection, indent=1)


def refresh_selection(layout: Layout, request: gr.Request, current, custom, *values):
    """`collect_selection` for the page's cards: a selection equal to the session's (`current`) leaves the session and
    the JSON box as they are. A visitor may already be typing in the JSON box: rewriting it with the same selection
    (a Check that finds the same functions, a weight typed back) would wipe their text."""
    selection, summary, text = collect_selection(layout, request, custom, *values)
    if selection == current:
        return gr.skip(), summary, gr.skip()
    return selection, summary, text


def refresh_packed(layout: Layout, cards: Packed, request: gr.Request, current, custom, values):
    """`refresh_selection` with the cards' values as the page sends them, in one list (`Packed`)."""
    return refresh_selection(layout, request, current, custom, *cards.unpack(values, lang_of(request)))


def _non_default(name: str, params: dict) -> dict:
    """The parameters that differ from the defaults, typed (raises RewardError on a bad value)."""
    defaults = get_spec(name).defaults()
    return {k: v for k, v in resolve_params(name, params).items() if v != defaults[k]}


def selection_summary(selection: list[dict], lang: str | None, errors: list[str] | None = None) -> str:
    """The selected rewards in one line; `lang=None` when it is built into the page (the browser translates it)."""
    if not selection:
        return f"⚠ {tr(lang, 'rewards.none_selected')}"
    items = []
    for item in selection:
        params = ", ".join(_param_text(k, v) for k, v in item["params"].items())
        weight = item["weight"]
        if isinstance(weight, int | float) and not isinstance(weight, bool):
            shown = f"{weight:g}"
        elif weight is None or str(weight).strip() == "":  # said in the line below: the weight is empty
            shown = f"⚠ {tr(lang, 'rewards.weight.empty')}"
        else:
            shown = f"⚠ {html.escape(repr(weight))}"
        items.append(f"`{item['name']}`" + (f" ({html.escape(params)})" if params else "") + f" × {shown}")
    lines = [sentences(lang, f"**{tr(lang, 'rewards.selected')}**", ", ".join(items))]
    lines += [f"- ⚠ {html.escape(render(lang, e))}" for e in errors or []]
    return "\n".join(lines)


def _param_text(key: str, value) -> str:
    """One parameter as the summary shows it; a formula's `terms` (JSON text) as `a = reward(params)` terms."""
    if key == "terms" and isinstance(value, str):
        try:
            terms = json.loads(value)
        except json.JSONDecodeError:
            terms = None
        if isinstance(terms, dict) and all(isinstance(t, dict) and "name" in t for t in terms.values()):
            shown = []
            for alias, term in terms.items():
                inner = ", ".join(f"{k}={v!r}" for k, v in (term.get("params") or {}).items())
                shown.append(f"{alias} = {term['name']}({inner})")
            return "; ".join(shown)
    return f"{key}={value!r}"


def selection_summary_for(request: gr.Request, selection: list[dict]) -> str:
    return selection_summary(selection, lang_of(request))


def apply_selection(layout: Layout, request: gr.Request, text: str, code: str, custom) -> list:
    """Set the selection from JSON (`[{"name", "weight", "params"}]`) and move every card to match it.

    Custom functions are known by parsing the code (nothing runs); they take no parameters.
    """
    lang = lang_of(request)
    defined = inspect_code(code).functions if (code or "").strip() and code_policy().enabled else []
    try:
        data = json.loads(text or "[]")
    except json.JSONDecodeError as exc:
        raise PlaygroundError(
            tr(lang, "rewards.bad_json", error=tr(lang, "rewards.json_line", line=exc.lineno, error=exc.msg))
        ) from None
    if not isinstance(data, list) or not all(isinstance(item, dict) and "name" in item for item in data):
        raise PlaygroundError(tr(lang, "rewards.bad_json", error=tr(lang, "rewards.json_expected")))
    chosen = {}
    for choice in parse_selection(data):
        if choice.name not in defined or choice.params:
            choice.params = _non_default(choice.name, choice.params)  # unknown names and bad values raise here
        chosen[choice.name] = choice
    selection = [c.to_dict() for c in chosen.values()]
    custom_rows = selected_choices(custom, defined, {n: c.weight for n, c in chosen.items() if n in defined})
    cards = []
    for name, _ in layout:
        spec, choice = get_spec(name), chosen.get(name)
        params = {**spec.defaults(), **(choice.params if choice else {})}
        cards += [choice is not None, choice.weight if choice else 1.0]
        cards += [_display(p, params[p.name]) for p in spec.params]
    summary = selection_summary(selection, lang)
    return [selection, summary, json.dumps(selection, indent=1), choices_frame(custom_rows, lang), *cards]


def _display(param: Param, value):
    return ", ".join(value) if param.type is list else value


def try_on_text(
    ctx: AppContext,
    request: gr.Request,
    token: str | None,
    text: str,
    prompt: str,
    columns: str,
    selection: list[dict],
    code: str,
):
    """Score completions pasted one per block (blocks separated by a `---` line) as one GRPO group; custom rewards
    run in the session's sandbox, library ones (public mode) in the worker of the browser's token. The gate prices
    the completions, the prompt and every column value first."""
    completions = [block.strip() for block in SEPARATOR.split(text or "") if block.strip()]  # as `score_text` reads
    extra = _columns(lang_of(request), columns)
    ctx.check_group(completions, extra, [prompt or ""])
    ctx.check_selection(selection)
    ctx.check_judges(completions, selection, [prompt or ""], extra)
    custom = custom_rewards(ctx, request, code, selection)
    return score_text(lang_of(request), text, prompt, columns, selection, custom, owner=ctx.viewer(token))


def rescore(
    ctx: AppContext, request: gr.Request, token: str | None, text: str, prompt: str, columns: str, selection, code: str
):
    """Try on text again after the selection (or a parameter) changed, and on page load (in the page's language).
    Quiet: a problem is shown under the table, not as a toast, since the visitor did not press Score."""
    lang = lang_of(request)
    try:
        return try_on_text(ctx, request, token, text, prompt, columns, selection, code)
    except PlaygroundError as exc:
        # The table follows the selection (its columns, no scores): last selection's scores would read as this one's.
        return empty_score_frame(selection, lang), f"⚠ {html.escape(shown(lang, exc))}"


TRY_TABLE_PX = 480  # the Try on text table's width: the side column, 2 of the tab's 5 parts


def fit_try_columns(request: gr.Request, value) -> gr.Dataframe:
    """Only the Try on text table's column widths: the completion shares what the number columns leave, so the
    advantage and the completion are in view without a horizontal scroll (value untouched)."""
    return gr.Dataframe(column_widths=try_widths(value, lang_of(request)))


def try_widths(value, lang: str) -> list[str]:
    columns = [str(c) for c in getattr(value, "columns", [])]
    return text_widths(columns, {tr(lang, "table.completion"): 1}, table_px=TRY_TABLE_PX)


def try_cards(value, lang: str) -> str:
    """The Try on text table as a phone shows it: one card a completion, its scores on a line and its text below at
    the screen's width (in a 390-px table the completion column was 65 px wide, and row 3 sat in an inner scroll)."""
    frame = getattr(value, "data", value)  # a Styler's frame, or the frame itself
    columns = [str(c) for c in getattr(frame, "columns", [])]
    if not columns or len(frame) == 0:
        return ""
    completion = tr(lang, "table.completion")
    cards = []
    for row in frame.itertuples(index=False):
        cells = dict(zip(columns, row, strict=True))
        scores = " · ".join(
            f"{html.escape(name)} <b>{_number(cells[name])}</b>" for name in columns if name not in ("#", completion)
        )
        text = html.escape(str(cells.get(completion, "")))
        cards.append(
            f'<div class="pg-try-card"><div class="pg-try-scores">#{cells.get("#", "")} · {scores}</div>'
            f'<div class="pg-try-text">{text}</div></div>'
        )
    return "".join(cards)


def _number(value) -> str:
    try:
        return f"{float(value):.3f}"
    except (TypeError, ValueError):
        return html.escape(str(value))


def fit_try_view(request: gr.Request, value) -> tuple[gr.Dataframe, str]:
    """The table's column widths (`fit_try_columns`) and the phone's cards (`try_cards`) of the scores shown."""
    return fit_try_columns(request, value), try_cards(value, lang_of(request))


def first_scores(
    ctx: AppContext, request: gr.Request, token: str | None, text: str, prompt: str, columns: str, selection, code: str
):
    """The page load's Try on text, in one answer: the table with its column widths, the details under it and the
    phone's cards (not an event after the load, which would wait behind every other load part on a busy server)."""
    lang = lang_of(request)
    value, details = rescore(ctx, request, token, text, prompt, columns, selection, code)
    widths = try_widths(getattr(value, "data", value), lang)
    return gr.Dataframe(value=value, column_widths=widths), details, try_cards(value, lang)


def empty_score_frame(selection: list[dict] | None, lang: str):
    """The Try on text table with the selection's columns (their names) and no rows."""
    total, advantage, completion = (tr(lang, k) for k in ("table.total", "table.advantage", "table.completion"))
    columns = ["#", total, advantage, *reward_labels(selection), completion]
    return pd.DataFrame([], columns=columns)


def _columns(lang: str, columns: str) -> dict:
    """The Try on text columns box: a JSON object of column values (one per group), or a refusal."""
    try:
        extra = json.loads(columns) if (columns or "").strip() else {}
    except json.JSONDecodeError as exc:
        raise PlaygroundError(tr(lang, "rewards.try.bad_columns", error=exc.msg)) from None
    if not isinstance(extra, dict):
        raise PlaygroundError(tr(lang, "rewards.try.bad_columns", error=tr(lang, "rewards.json_not_object")))
    return extra


def score_text(
    lang: str, text: str, prompt: str, columns: str, selection: list[dict], custom: dict, owner: str | None = None
):
    completions = [block.strip() for block in SEPARATOR.split(text or "") if block.strip()]
    if len(completions) < 2:
        raise PlaygroundError(tr(lang, "rewards.try.too_few"))
    extra = _columns(lang, columns)
    funcs, weights = build_rewards(parse_selection(selection), custom, executor=reward_executor(owner))
    n = len(completions)
    try:
        score = score_group(
            completions, funcs, weights, prompts=[prompt or ""] * n, columns={k: [v] * n for k, v in extra.items()}
        )
    except PlaygroundError as exc:
        text = getattr(exc, "message", None)
        if isinstance(text, Text) and text.key in ("reward.column_missing", "reward.column_missing_none"):
            # A term inside a formula (an imported grader's) is no name the visitor chose: say what to type instead.
            column = text.values["column"]
            example = json.dumps({**extra, column: "…"}, ensure_ascii=False)
            raise PlaygroundError(
                tr(lang, "rewards.try.needs_column", column=f"'{column}'", example=example)
            ) from None
        raise
    # the total and the advantage first: on a phone they are in view, the rewards and the text after a scroll
    return score_frame(score, lang, reward_labels(selection), key_first=True), score_summary(score, lang)


# --- layout --------------------------------------------------------------------------------------------------------


def _param_input(reward: str, p: Param, value) -> gr.Component:
    label, info = p.name, t(f"rewards.param.{reward}.{p.name}")
    if p.type is bool:
        return gr.Checkbox(value=value, label=label, info=info)
    if p.choices is not None:
        return gr.Dropdown(choices=list(p.choices), value=value, label=label, info=info)
    if p.type in (int, float):
        limits = dict(minimum=p.minimum, maximum=p.maximum)
        return gr.Number(value=value, label=label, info=info, precision=0 if p.type is int else None, **limits)
    return gr.Textbox(value=_display(p, value), label=label, info=info, max_lines=1)


def _card(spec: RewardSpec, choice: dict | None) -> RewardCard:
    params = {**spec.defaults(), **(choice or {}).get("params", {})}
    with gr.Group(elem_classes="pg-card"):
        gr.Markdown(t(f"rewards.desc.{spec.name}"), padding=True)  # name, description, columns (`i18n.card_head`)
        with gr.Row():
            use = gr.Checkbox(value=choice is not None, label=t("rewards.use"), min_width=100)
            weight = gr.Number(value=(choice or {}).get("weight", 1.0), label=t("rewards.weight"), min_width=100)
        inputs = []
        if spec.params:
            with gr.Row():
                inputs = [_param_input(spec.name, p, params[p.name]) for p in spec.params]
        examples = gr.Markdown(example_scores(spec.name, *(params[p.name] for p in spec.params)), padding=True)
    return RewardCard(spec, use, weight, inputs, examples)


def create_rewards_tab(ctx: AppContext, session: Session) -> RewardsTab:
    initial = {item["name"]: item for item in session.selection.value}
    specs = list_specs()
    cards: list[RewardCard] = []
    with gr.Tab(t("rewards.tab"), id="rewards"):
        gr.Markdown(t("rewards.intro"))
        with gr.Row(equal_height=False):
            with gr.Column(scale=3):
                with gr.Tabs(overflow_behavior="wrap"):
                    for family in FAMILIES:
                        with gr.Tab(t(f"rewards.family.{family}")):
                            cards += [_card(s, initial.get(s.name)) for s in specs if s.family == family]
                    with gr.Tab(t("rewards.family.custom"), id="custom"):
                        custom = create_custom_code(ctx, session)
            with gr.Column(scale=2, elem_classes="pg-side"):
                summary = gr.Markdown(selection_summary(session.selection.value, None), elem_id="pg-selection-summary")
                with gr.Accordion(t("rewards.json"), open=False):
                    selection_json = gr.Code(json.dumps(session.selection.value, indent=1), language="json")
                    apply = gr.Button(t("rewards.apply_json"), size="sm")
                gr.Markdown("### " + t("rewards.try.title"))
                text = gr.Textbox(TRY_TEXT, lines=8, label=t("rewards.try.completions"), info=t("rewards.try.info"))
                with gr.Accordion(t("rewards.try.context"), open=False):
                    prompt = gr.Textbox("", label=t("rewards.try.prompt"), lines=2)
                    columns = gr.Textbox("", label=t("rewards.try.columns"), placeholder='{"answer": "4"}')
                score = gr.Button(t("rewards.try.run"), variant="primary")
                # The scores come with the page's load, in the page's language: the table's headers and the
                # sentences under it are words ("total", "completion"), and the browser cannot translate a table.
                table = gr.Dataframe(
                    pd.DataFrame(columns=["#"]),
                    label=t("rewards.try.table"),
                    wrap=True,
                    interactive=False,
                    elem_classes="pg-wide-only",
                    elem_id="pg-try-table",
                )
                try_card_view = gr.HTML(elem_classes=["pg-phone-only", "pg-try-cards"])
                details = gr.Markdown()
        cards_read = Packed([component for card in cards for component in card.inputs])  # hidden: see below

    tab = RewardsTab(cards=cards, custom=custom, summary=summary, selection_json=selection_json)
    layout = tab.layout
    card_inputs = cards_read.components  # every card's parameters, in the cards' order
    selection_outputs = [session.selection, summary, selection_json]
    # A visitor's edits only (.input): Load, Apply JSON and the grader import set the selection, the summary and every
    # card in one answer, which nothing re-reads (a reading between two of its cards' changes could win the race).
    # The cards are read in the browser into one input (`Packed`): a backend event that reads them all would leave
    # its hundred inputs in the front end's table of loading states for every later event of the page.
    refresh = dict(
        fn=bind(refresh_packed, layout, cards_read),
        inputs=[session.selection, custom.choices, cards_read.box],
        outputs=selection_outputs,
        api_visibility="private",
        show_progress="hidden",
        trigger_mode="always_last",
    )
    cards_read.gather([c.input for c in [custom.choices, *card_inputs]]).then(**refresh)
    # Check fills the custom table with the functions the code defines
    cards_read.gather(after=custom.checked).then(**refresh)
    for card in cards:
        if card.params:
            gr.on(
                [p.change for p in card.params],
                bind(example_scores_for, ctx, card.spec.name),
                [session.id, *card.params],
                card.examples,
                api_visibility="private",
                trigger_mode="always_last",
                show_progress="hidden",
            )
    apply_inputs = [selection_json, custom.editor, custom.choices]
    apply_outputs = [*selection_outputs, custom.choices, *card_inputs]
    # No spinner, and so no "Error" badge, over the outputs: a refused selection would mark every card's inputs with
    # one (Gradio marks an event's progress targets on failure); the toast says what is wrong. An empty list, not
    # None, which means every output.
    apply.click(
        bind(apply_selection, layout), apply_inputs, apply_outputs, api_name="set_rewards", show_progress_on=[]
    )
    try_inputs = [session.id, text, prompt, columns, session.selection, custom.editor]  # the token picks the worker
    # The spinner, and a failure's badge, show by the details, never over the table: an error keeps the last scores.
    shown = [table, try_card_view]
    fit = dict(fn=fit_try_view, inputs=table, outputs=shown, api_visibility="private", show_progress="hidden")
    score.click(
        fair(bind(try_on_text, ctx), TRY_SLOTS),  # a visitor's queued calls wait behind their own, not others'
        try_inputs,
        [table, details],
        api_name="try_on_text",
        concurrency_limit=None,
        show_progress_on=[details],
    ).success(**fit)
    # The first scores in the page's language when the page loads, then again on each selection change.
    on_page_load(fair(bind(first_scores, ctx), TRY_SLOTS), try_inputs, [table, details, try_card_view])
    session.selection.change(
        fair(bind(rescore, ctx), TRY_SLOTS),
        try_inputs,
        [table, details],
        api_visibility="private",
        trigger_mode="always_last",
        show_progress="hidden",
        concurrency_limit=None,
    ).success(**fit)
    return tab
