"""Custom reward code on the Rewards tab: the editor, "Check" (static checks, then a trial run in the sandbox), the
custom functions' use and weight next to the library's, and reward unit tests.

User code never runs in the app's process. Each session compiles its source into a sandbox worker of its own
(`AppContext.code`), and only when the selection, or a test, names a custom function. Training puts the source into
the run spec (`attach_to_spec`); the job compiles it in its own worker, so the run carries its code.
"""

import html
import json
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import gradio as gr
import pandas as pd

from playground import admission
from playground.errors import PlaygroundError, RewardError
from playground.isolation.visitor import reward_executor
from playground.reward_tests import RewardCase, check_case, parse_case, run_cases
from playground.sandbox import (
    CodeIssue,
    CodeReport,
    CodeSession,
    TrialResult,
    code_policy,
    inspect_code,
    require_custom_code,
    trial_run,
)
from playground.sandbox.checks import issue_message
from playground.scoring import RewardChoice, build_rewards
from playground.spec import RunSpec
from playground.texts import msg, render
from playground.texts.tab_rewards import STARTER_EN, STARTER_ZH
from playground.ui.common import BAD_MARK, GOOD_MARK, bind, labelled, lang_of, original_details, short
from playground.ui.context import AppContext, Session
from playground.ui.i18n import t, tr
from playground.ui.page_load import on_page_load
from rewards.registry import list_specs


# The starter code, its docstring in the page's language (`localize` swaps it while the editor holds the other one).
TEMPLATE = STARTER_EN
TEMPLATE_ZH = STARTER_ZH
TEST_CASES = [
    ["ends_with_period", "The sky is blue.", "", "", "1", "", ""],
    ["ends_with_period", "The sky is blue", "", "", "0", "", ""],
]
CHOICE_HEADERS = ("rewards.custom.use", "rewards.custom.function", "rewards.custom.weight")
CASE_HEADERS = (
    "rewards.custom.function",
    "table.completion",
    "table.prompt",
    "rewards.tests.columns",
    "rewards.tests.expected",
    "rewards.tests.min",
    "rewards.tests.max",
)
RESULT_HEADERS = (
    "rewards.tests.case",
    "rewards.custom.function",
    "rewards.tests.result",
    "rewards.tests.got",
    "rewards.tests.detail",
)
OUTPUT_SHOWN = 2000  # printed characters shown per function; the sandbox keeps up to 64 KB


@dataclass
class CustomCode:
    editor: gr.Code
    choices: gr.Dataframe  # use, function, weight: one row per function the code defines
    checked: gr.events.Dependency  # Check's answer is in the table (the Rewards tab re-reads its selection after it)


# --- engine glue ---------------------------------------------------------------------------------------------------


def library_names() -> set[str]:
    return {spec.name for spec in list_specs()}


def custom_names(names: Iterable[str]) -> list[str]:
    """The names that are not library rewards: custom functions (or typos, which the caller reports)."""
    library = library_names()
    return [name for name in names if name not in library]


def code_session(ctx: AppContext, request: gr.Request) -> CodeSession:
    """This request's session's custom code: no handler can reach another session's."""
    return ctx.code.get(request.session_hash if request is not None else None)


def session_rewards(ctx: AppContext, request: gr.Request, code: str | None, names: Iterable[str]) -> dict:
    """The session's sandboxed custom rewards when `names` include a custom one, else {} (the code is not compiled)."""
    if not custom_names(names):
        return {}
    return code_session(ctx, request).rewards(code)


def custom_rewards(ctx: AppContext, request: gr.Request, code: str | None, selection: list[dict]) -> dict:
    """The custom rewards `selection` uses, compiled in the session's sandbox; a name the code lacks raises."""
    names = [item["name"] for item in selection or []]
    rewards = session_rewards(ctx, request, code, names)
    missing = [name for name in custom_names(names) if name not in rewards]
    if missing:
        raise PlaygroundError(tr(lang_of(request), "rewards.custom.missing", name=missing[0]))
    return rewards


def attach_to_spec(spec: RunSpec, code: str | None) -> None:
    """Put the session's code into a run spec that uses a custom reward; the training job compiles it itself."""
    if custom_names(choice.name for choice in spec.rewards):
        spec.custom_code = code or None


def close_code_session(ctx: AppContext, request: gr.Request) -> None:
    """When a page unloads: stop its session's sandbox worker."""
    ctx.code.close(request.session_hash if request is not None else None)


# --- tables --------------------------------------------------------------------------------------------------------


def table_rows(value) -> list[list]:
    """The rows of a Dataframe value: a pandas frame (what Gradio passes), a {"headers", "data"} dict, or rows."""
    if value is None:
        return []
    if isinstance(value, pd.DataFrame):
        return value.astype(object).where(value.notna(), None).values.tolist()
    if isinstance(value, dict):
        return [list(row) for row in value.get("data") or []]
    return [list(row) for row in value]


def _cell(value) -> str:
    return "" if value is None or (isinstance(value, float) and math.isnan(value)) else str(value).strip()


def _checked(value) -> bool:
    return value is True or _cell(value).lower() in ("true", "1", "yes")


def _weight(value) -> float | str:
    """A weight cell as a number; what is not a finite number stays as it was typed ("" when empty), so that the
    selection refuses it by name (`weight_problem`) instead of counting it as 1."""
    try:
        weight = float(value)
    except (TypeError, ValueError):
        return "" if value is None else str(value).strip()
    return weight if math.isfinite(weight) else str(value)


def choice_rows(value) -> list[tuple[bool, str, float]]:
    """(use, function, weight) of each named row of the custom-rewards table."""
    rows = [(row + [None] * 3)[:3] for row in table_rows(value)]
    return [(_checked(use), _cell(name), _weight(weight)) for use, name, weight in rows if _cell(name)]


def custom_selection(value) -> list[dict]:
    """The ticked custom rewards, as selection items."""
    return [{"name": name, "weight": weight, "params": {}} for use, name, weight in choice_rows(value) if use]


def choices_frame(rows: list[tuple[bool, str, float]], lang: str) -> pd.DataFrame:
    return pd.DataFrame([list(row) for row in rows], columns=[tr(lang, key) for key in CHOICE_HEADERS])


def merge_choices(previous, names: list[str], ticked: set[str]) -> list[tuple[bool, str, float]]:
    """One row per function in `names`, keeping the use and weight already set; a new function is ticked if in
    `ticked`."""
    known = {name: (use, weight) for use, name, weight in choice_rows(previous)}
    rows = []
    for name in names:
        use, weight = known.get(name, (name in ticked, 1.0))
        rows.append((use, name, weight))
    return rows


def selected_choices(previous, names: list[str], chosen: dict[str, float]) -> list[tuple[bool, str, float]]:
    """One row per function in `names`: ticked with its weight when in `chosen`, else unticked at its old weight."""
    known = {name: weight for _, name, weight in choice_rows(previous)}
    return [(name in chosen, name, chosen.get(name, known.get(name, 1.0))) for name in names]


# --- check ---------------------------------------------------------------------------------------------------------


def check_code(ctx: AppContext, request: gr.Request, code: str, choices):
    """Check the code without running it, then try each function on the trial completions in the session's sandbox."""
    lang = lang_of(request)
    require_custom_code()
    report = inspect_code(code or "")
    trials, problem = [], None
    if report.ok:
        try:
            trials = trial_run(code_session(ctx, request).rewards(code))
        except RewardError as exc:  # the code failed to load: an exception, sys.exit, a timeout at module level
            problem = exc.message
    usable = report.functions if report.ok and problem is None else []
    rows = merge_choices(choices, usable, {result.function for result in trials if graded(result)})
    return check_markdown(report, trials, problem, lang), choices_frame(rows, lang)


def editable_when_filled(choices) -> gr.Dataframe:
    """An empty editable table offers itself as a drop zone for CSV files: the choices are editable only with
    functions in them."""
    return gr.Dataframe(interactive=bool(choice_rows(choices)))


def graded(result: TrialResult) -> bool:
    """Passed the trial and told the trial completions apart: a reward that gives them all one score (always 0, say)
    gives GRPO no signal, so Check leaves it unticked."""
    values = {v for v in result.values or [] if v is not None and math.isfinite(v)}
    return result.ok and len(values) > 1


def _escape(text: str) -> str:
    return html.escape(text, quote=False)  # the engine's messages quote names: 'reward', not &#x27;reward&#x27;


def issue_text(issue: CodeIssue) -> str:
    return issue_message(issue)


def check_markdown(report: CodeReport, trials: list[TrialResult], problem: str | None, lang: str) -> str:
    lines = []
    if report.functions:
        lines.append(tr(lang, "rewards.custom.found", names=", ".join(f"`{name}`" for name in report.functions)))
    for issue in report.errors:  # a syntax error's own English message collapsed under its Chinese
        text = issue_text(issue)
        lines.append(f"- {BAD_MARK} {_escape(render(lang, text))}{original_details(lang, text)}")
    if problem:
        lines.append(f"- {BAD_MARK} {_escape(short(render(lang, problem), 500))}{original_details(lang, problem)}")
    if trials:
        lines += ["", f"**{tr(lang, 'rewards.custom.trial')}**", "", trial_table(trials, lang), ""]
        for result in trials:
            lines += trial_lines(result, lang)
    return "\n".join(lines)


def _value(value: float | None) -> str:
    if value is None:
        return "None"
    return f"{value:.3f}" if math.isfinite(value) else f"{value} ⚠"


def trial_table(trials: list[TrialResult], lang: str) -> str:
    """The trial completions as rows, one column per function."""
    from playground.sandbox import TRIAL_COMPLETIONS

    header = ["#", tr(lang, "table.completion"), *(f"`{r.function}`" for r in trials)]
    rows = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for i, completion in enumerate(TRIAL_COMPLETIONS):
        text = _escape(short(completion, 60)).replace("|", "&#124;") or tr(lang, "rewards.custom.empty")
        cells = [_value(r.values[i]) if r.values is not None else "—" for r in trials]
        rows.append(f"| {i + 1} | <code>{text}</code> | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def trial_lines(result: TrialResult, lang: str) -> list[str]:
    name = f"`{result.function}`"
    if result.ok:
        ms = f"{result.seconds * 1000:.0f}"
        lines = [f"- {GOOD_MARK} {labelled(lang, name, tr(lang, 'rewards.custom.trial_ok', ms=ms))}"]
    else:
        error = _escape(short(render(lang, result.error or ""), 500))
        lines = [f"- {BAD_MARK} {labelled(lang, name, error)}"]
    unticked = result.ok and not graded(result)  # one warning says it all: the same score, so left unticked
    flags = [f for f in result.flags if not (unticked and getattr(f, "key", None) == "sandbox.trial_constant")]
    lines += [f"  - ⚠ {_escape(render(lang, flag))}" for flag in flags]
    if unticked:
        lines.append(f"  - ⚠ {tr(lang, 'rewards.custom.constant')}")
    output = result.output.strip("\n")
    if output:
        shown = output[:OUTPUT_SHOWN] + ("…" if len(output) > OUTPUT_SHOWN else "")
        lines += ["", tr(lang, "rewards.custom.output", name=result.function), f"<pre>{_escape(shown)}</pre>", ""]
    return lines


# --- reward unit tests ---------------------------------------------------------------------------------------------


def _number(text: str, case: int, column: str, lang: str) -> float | None:
    if column == "expected" and text.lower() in ("none", "null"):
        return None
    try:
        return float(text)
    except ValueError:
        header = tr(lang, f"rewards.tests.{column}")
        raise PlaygroundError(tr(lang, "rewards.tests.bad_number", case=case, column=header, value=text)) from None


def _columns(text: str, case: int, lang: str) -> dict:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PlaygroundError(tr(lang, "rewards.tests.bad_columns", case=case, error=exc.msg)) from None
    if not isinstance(value, dict):
        raise PlaygroundError(
            tr(lang, "rewards.tests.bad_columns", case=case, error=tr(lang, "rewards.json_not_object"))
        )
    return value


def parse_cases(value, lang: str) -> list[tuple[int, RewardCase]]:
    """(row number, case) for each filled row of the cases table; blank rows are skipped."""
    cases = []
    for number, row in enumerate(table_rows(value), 1):
        function, completion, prompt, columns, *bounds = (_cell(v) for v in (row + [None] * 7)[:7])
        if not function and not completion:
            continue
        data: dict = {"function": function, "completion": completion, "prompt": prompt}
        if columns:
            data["columns"] = _columns(columns, number, lang)
        for key, text in zip(("expected", "min", "max"), bounds, strict=True):
            if text:
                data[key] = _number(text, number, key, lang)
        cases.append((number, parse_case(data, msg("rewards.tests.where", case=number))))
    return cases


def library_rewards(names: Iterable[str], selection: list[dict], owner: str | None = None) -> dict[str, Callable]:
    """Library rewards by name, with the parameters they have in the selection (else their defaults); in public mode
    they score in the worker of `owner` (a browser token's owner key)."""
    params = {item["name"]: item.get("params") or {} for item in selection or []}
    wanted = sorted(set(names) & library_names())
    if not wanted:
        return {}
    funcs, _ = build_rewards(
        [RewardChoice(name, 1.0, params.get(name, {})) for name in wanted], executor=reward_executor(owner)
    )
    return dict(zip(wanted, funcs, strict=True))


def price_cases(ctx: AppContext, cases: list[RewardCase], selection: list[dict]) -> None:
    """Public mode: the gate prices the tests before any reward is built: how many cases, each case's completion,
    prompt and columns, and the selection whose parameters the library rewards take."""
    if ctx.public:
        admission.check_count("max_cases", len(cases))
        columns: dict[str, list] = {}
        for case in cases:
            ctx.check_group([case.completion], {k: [v] for k, v in (case.columns or {}).items()}, [case.prompt or ""])
            for name, value in (case.columns or {}).items():
                columns.setdefault(name, []).append(value)
        ctx.check_selection(selection)
        # what a judge or reward model reads: each case's completion, with the longest prompt and quoted column
        ctx.check_judges(
            [case.completion for case in cases], selection, [case.prompt or "" for case in cases], columns
        )


def run_reward_tests(ctx: AppContext, request: gr.Request, token: str | None, code: str, selection: list[dict], cases):
    """Run each case against its function (custom ones in the session's sandbox); pass or fail, with the value got."""
    lang = lang_of(request)
    numbered = parse_cases(cases, lang)
    if not numbered:
        raise PlaygroundError(tr(lang, "rewards.tests.none"))
    price_cases(ctx, [case for _, case in numbered], selection)
    names = {case.function for _, case in numbered}
    rewards = {**library_rewards(names, selection, ctx.viewer(token)), **session_rewards(ctx, request, code, names)}
    results = run_cases(rewards, [case for _, case in numbered])
    stale, defined = stale_functions(code, names)
    rows = []
    for (number, _), result in zip(numbered, results, strict=True):
        status = f"✓ {tr(lang, 'rewards.tests.pass')}" if result.passed else f"✗ {tr(lang, 'rewards.tests.fail')}"
        detail = result.error or check_case(result.case, result.got) or ""
        if result.function in stale:
            defined_text = ", ".join(defined) or tr(lang, "rewards.tests.no_functions")
            detail = tr(lang, "rewards.tests.not_in_code", function=result.function, defined=defined_text)
        got = None if result.got is None or not math.isfinite(result.got) else result.got
        rows.append([number, result.function, status, got if result.error is None else None, detail])
    frame = pd.DataFrame(rows, columns=[tr(lang, key) for key in RESULT_HEADERS])
    passed = sum(result.passed for result in results)
    mark = GOOD_MARK if passed == len(results) else BAD_MARK
    summary = f"{mark} {tr(lang, 'rewards.tests.summary', passed=passed, total=len(results))}"
    if stale:
        summary += " " + tr(lang, "rewards.tests.stale", names=", ".join(f"`{name}`" for name in sorted(stale)))
    return frame, summary


def stale_functions(code: str | None, names: Iterable[str]) -> tuple[set[str], list[str]]:
    """The cases' function names that the code in the editor does not define and the library lacks (cases left from
    earlier code, the starter's `ends_with_period` say), and the functions the code defines. Nothing is stale while
    the code does not parse: its own error says more."""
    report = inspect_code(code or "")
    if not report.ok:
        return set(), []
    return set(names) - set(report.functions) - library_names(), list(report.functions)


# --- layout --------------------------------------------------------------------------------------------------------


def initial_choices() -> list[tuple[bool, str, float]]:
    """The template's functions, found by parsing (nothing runs while the page is built)."""
    return [(False, name, 1.0) for name in inspect_code(TEMPLATE).functions]


def localize(request: gr.Request, code: str, choices, cases):
    """On page load: the editor's starter with its docstring, and the tables' headers, in the page's language (the
    page is built in English; a table's headers and a code box are not translated by the browser). What the visitor
    typed is kept."""
    lang = lang_of(request)
    if lang == "en":  # built in English: nothing to change, and nothing to race with what is typed meanwhile
        return gr.skip(), gr.skip(), gr.skip(), gr.skip()
    code = TEMPLATE_ZH if code == TEMPLATE else gr.skip()
    rows = [list(row) for row in table_rows(cases)]
    cases = pd.DataFrame(rows, columns=[tr(lang, key) for key in CASE_HEADERS]) if rows else gr.skip()
    results = pd.DataFrame(columns=[tr(lang, key) for key in RESULT_HEADERS])
    return code, choices_frame(choice_rows(choices), lang), cases, results


def create_custom_code(ctx: AppContext, session: Session) -> CustomCode:
    """The editor, Check, the custom rewards to use, and the unit tests; inside the Rewards tab's "Custom" tab."""
    enabled = code_policy().enabled
    gr.Markdown(t("rewards.custom.intro" if enabled else "rewards.custom.off"))
    editor = gr.Code(TEMPLATE, language="python", interactive=enabled, label=t("rewards.custom.label"))
    check = gr.Button(t("rewards.custom.check"), variant="primary", interactive=enabled)
    report = gr.Markdown()
    choices = gr.Dataframe(
        choices_frame(initial_choices() if enabled else [], "en"),
        datatype=["bool", "str", "number"],
        static_columns=[1],
        interactive=enabled,
        label=t("rewards.custom.choices"),
    )
    with gr.Accordion(t("rewards.tests.title"), open=False):
        gr.Markdown(t("rewards.tests.info"))
        cases = gr.Dataframe(
            pd.DataFrame(TEST_CASES, columns=[tr("en", key) for key in CASE_HEADERS]),
            datatype="str",
            interactive=enabled,
            label=t("rewards.tests.cases"),
        )
        run = gr.Button(t("rewards.tests.run"), interactive=enabled)
        results = gr.Dataframe(
            pd.DataFrame(columns=[tr("en", key) for key in RESULT_HEADERS]),
            label=t("rewards.tests.results"),
            interactive=False,
            wrap=True,
        )
        summary = gr.Markdown()

    # The sandbox does the work in another process, so several sessions may wait on theirs at once.
    waits = dict(concurrency_limit=8)
    checked = check.click(bind(check_code, ctx), [editor, choices], [report, choices], api_name="check_code", **waits)
    checked = checked.then(editable_when_filled, choices, choices, api_visibility="private", show_progress="hidden")
    on_page_load(bind(localize), [editor, choices, cases], [editor, choices, cases, results])
    tests = [session.id, editor, session.selection, cases]
    run.click(bind(run_reward_tests, ctx), tests, [results, summary], api_name="run_reward_tests", **waits)
    return CustomCode(editor=editor, choices=choices, checked=checked)


def wire_unload(demo: gr.Blocks, ctx: AppContext) -> None:
    """When a page unloads (a tab closed or reloaded, an API client closed), its sandbox worker stops."""
    demo.unload(bind(close_code_session, ctx))
