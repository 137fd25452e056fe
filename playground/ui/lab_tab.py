"""Reward lab tab: dry run over a prompt set, instant re-scoring, the reward-hacking probe, OpenAI grader import.

Handlers are short adapters over `playground.lab`; the dry run's reward table is kept in a `gr.State`, so the
re-score controls recompute totals and advantages without generating again.
"""

import json
from dataclasses import dataclass

import gradio as gr
import pandas as pd

from playground.advantages import AdvantageSettings
from playground.data.sources import BUILTIN_SETS, PromptSource
from playground.errors import PlaygroundError
from playground.isolation.visitor import reward_executor
from playground.lab.dryrun import DryRun
from playground.lab.dryrun import run_dry_run as run_dry_run_of
from playground.lab.graders import export_grader, import_grader
from playground.lab.probe import probe
from playground.runtime.zerogpu import gpu_handler
from playground.scoring import build_rewards
from playground.spec import spec_with
from playground.texts import msg, render
from playground.ui.common import (
    bind,
    labelled,
    lang_of,
    progress_callback,
    sentences,
    short,
    styled,
)
from playground.ui.context import AppContext, Session, parse_selection
from playground.ui.custom_code import custom_rewards, table_rows
from playground.ui.i18n import t, tr
from playground.ui.page_load import headers_on_load
from playground.ui.rewards_tab import Layout, RewardsTab, apply_selection


WEIGHT_HEADERS = ("lab.col.reward", "rewards.weight", "rewards.use")  # read by position, shown in the page's language
PROMPT_HEADERS = ("table.prompt", "lab.col.mean", "lab.col.std", "lab.col.zero_std")
PROMPT_WIDTHS = ["52%", "14%", "14%", "20%"]
FINDING_HEADERS = ("lab.col.reward", "lab.col.score", "lab.col.text", "lab.col.why")
FINDING_WIDTHS = ["16%", "10%", "34%", "40%"]  # the why, a sentence, wraps in its share instead of being cut


def _prompt_frame(summary, lang: str) -> pd.DataFrame:
    rows = [
        [
            short(render(lang, p["prompt"]), 90),
            p["mean"],
            p["std"],
            tr(lang, "lab.no_signal") if p["zero_std"] else "",
        ]
        for p in summary.prompts
    ]
    return styled(pd.DataFrame(rows, columns=[tr(lang, key) for key in PROMPT_HEADERS]), [])  # 3 decimals


def _metrics(summary, lang: str, seconds: float | None = None) -> str:
    lines = [f"**{render(lang, summary.verdict)}**", ""]
    lines.append(
        f"`reward` {summary.reward:.4f} · `reward_std` {summary.reward_std:.4f} · "
        f"`frac_reward_zero_std` {summary.frac_reward_zero_std:.3f}"
    )
    for name, stats in summary.rewards.items():
        lines.append(f"- `rewards/{name}/mean` {stats['mean']:.4f} · `rewards/{name}/std` {stats['std']:.4f}")
    lines.append("")  # a paragraph of its own, not a continuation of the last bullet
    if summary.correlations:
        pairs = ", ".join(
            f"{pair}: {'—' if rho is None else f'{rho:+.2f}'}" for pair, rho in summary.correlations.items()
        )
        lines += [tr(lang, "lab.correlation", pairs=pairs), ""]
    if summary.shares:
        lines.append(tr(lang, "lab.shares", shares=", ".join(f"{k} {v:.0%}" for k, v in summary.shares.items())))
    lines += diagnostic_lines(summary, lang)
    timing = tr(lang, "lab.rescored", ms=f"{summary.milliseconds:.1f}")
    if seconds is not None:
        timing = sentences(lang, tr(lang, "lab.timing", seconds=f"{seconds:.1f}"), timing)
    lines += ["", timing]
    return "\n".join(lines)


def diagnostic_lines(summary, lang: str) -> list[str]:
    """The dry run's flat rewards and cut-off completions, titled as the Preview and the Rewards tab title them."""
    found = summary.diagnostics
    if found is None:
        return []
    shown = []
    if found.flat and found.signal:
        names = ", ".join(repr(n) if v is None else f"{n!r} ({v:g})" for n, v in found.flat.items())
        shown.append(("flat", tr(lang, "lab.flat", names=names)))
    if found.mostly_clipped:
        limit = summary.settings.get("max_completion_length")
        shown.append(
            ("clipped", render(lang, msg("scoring.clipped", count=found.clipped, n=found.completions, limit=limit)))
        )
    lines = [f"- ⚠ {labelled(lang, '**' + tr(lang, 'flag.' + code) + '**', text)}" for code, text in shown]
    return ["", *lines] if lines else []


def _summary_json(summary, lang: str) -> dict:
    """The dry run's JSON (`Summary.to_json`) with its verdict and prompt labels in the page's language."""
    data = summary.to_json()
    data["verdict"] = render(lang, summary.verdict)
    data["prompts"] = [{**p, "prompt": render(lang, p["prompt"])} for p in data["prompts"]]
    return data


def _report_json(report, lang: str) -> dict:
    """The probe's JSON (`ProbeReport.to_json`) with each finding's "why" in the page's language."""
    data = report.to_json()
    for finding, shown in zip(report.findings, data["findings"], strict=True):
        shown["why"] = render(lang, finding.why)
    return data


def _signal_file(ctx: AppContext, run: DryRun, summary) -> str | None:
    """The prompts that give a signal, as a JSONL dataset to download: in a download folder of the app's (removed
    `DOWNLOAD_SECONDS` after it was made, and with the app's temporary folders once the app is gone), so that
    re-scoring again and again leaves nothing behind."""
    text = run.signal_jsonl(summary)
    if not text:
        return None
    path = ctx.download_folder() / "signal_prompts.jsonl"
    path.write_text(text, encoding="utf-8")
    return str(path)


def _weights_frame(run: DryRun, lang: str) -> pd.DataFrame:
    rows = [[n, w, True] for n, w in zip(run.names, run.weights, strict=True)]
    return pd.DataFrame(rows, columns=[tr(lang, key) for key in WEIGHT_HEADERS])


# The Train form's fields a dry run reads besides the Lab's own: sampling as in training, and the batch that batch
# scaling and normalize_then_sum take (`playground.advantages.AdvantageSettings`).
RECIPE_FIELDS = ("temperature", "top_p", "completion_prefix", "per_device_train_batch_size", "steps_per_generation")
RECIPE_FIELDS += ("gradient_accumulation_steps",)


def run_dry_run(
    ctx: AppContext,
    request: gr.Request,
    token: str | None,
    model: str,
    prompt_set: str,
    selection: list[dict],
    code: str,
    num_prompts: int,
    num_generations: int,
    max_new_tokens: int,
    seed: int,
    scale_rewards: str,
    aggregation: str,
    temperature: float = 1.0,
    top_p: float = 1.0,
    completion_prefix: str = "",
    per_device_train_batch_size: int | None = None,
    steps_per_generation: int | None = None,
    gradient_accumulation_steps: int | None = None,
    progress=gr.Progress(),
):
    """Sample G completions for each of the first N prompts of a set in batches, score them as GRPO's first step:
    the engine's `run_dry_run`, with the Lab's fields and the Train form's (`RECIPE_FIELDS`)."""
    lang = lang_of(request)
    ctx.check_sampling(int(num_prompts), int(num_generations), int(max_new_tokens))  # the shape, then the rows
    values = {"num_generations": int(num_generations), "max_completion_length": int(max_new_tokens)}
    values |= {"seed": int(seed or 0), "scale_rewards": scale_rewards, "multi_objective_aggregation": aggregation}
    values |= {"temperature": temperature, "top_p": top_p, "completion_prefix": completion_prefix or ""}
    values |= {"per_device_train_batch_size": per_device_train_batch_size or None}  # an empty box: the recipe's
    values |= {"steps_per_generation": steps_per_generation or None}
    values |= {"gradient_accumulation_steps": gradient_accumulation_steps or None}
    spec = spec_with(values, parse_selection(selection))
    spec.data = PromptSource(kind="builtin", name=prompt_set)
    custom = custom_rewards(ctx, request, code, selection)
    funcs, weights = build_rewards(spec.rewards, custom, executor=reward_executor(ctx.viewer(token)))
    sampling = tr(lang, "lab.sampling", n=int(num_prompts), g=int(num_generations))

    def load():
        loaded = ctx.models.get(model or ctx.settings.model, progress=progress_callback(progress, lang))
        progress(0.0, desc=sampling)
        return loaded

    run, summary = run_dry_run_of(
        spec,
        funcs,
        weights,
        load,
        num_prompts=int(num_prompts),
        check_prompts=lambda prompts: ctx.check_sampling(prompts, int(num_generations), int(max_new_tokens)),
        progress=lambda f: progress(f, desc=sampling),
    )
    return (
        _metrics(summary, lang, run.seconds),
        _prompt_frame(summary, lang),
        _weights_frame(run, lang),
        _signal_file(ctx, run, summary),
        run.to_state(),
        _summary_json(summary, lang),
    )


def rescore(
    ctx: AppContext, request: gr.Request, state: dict, weights: pd.DataFrame, scale_rewards: str, aggregation: str
):
    """Totals and advantages again with these weights / switches / settings, from the cached table (no generation)."""
    lang = lang_of(request)
    if not state:
        return gr.skip(), gr.skip(), gr.skip(), gr.skip()
    run = DryRun.from_state(state)
    by_name = {str(row[0]): row for row in table_rows(weights) if row}  # reward, weight, on (headers translated)
    w = [float(_cell(by_name, n, 1, 1.0) or 0.0) for n in run.names]
    on = [bool(_cell(by_name, n, 2, True)) for n in run.names]
    batch = run.settings.get("generation_batch_size")  # the recipe's, as the dry run read it
    advantage = AdvantageSettings(scale_rewards, aggregation).batched(batch, run.num_generations)
    summary = run.summarize(weights=w, enabled=on, advantage=advantage)
    return (
        _metrics(summary, lang),
        _prompt_frame(summary, lang),
        _signal_file(ctx, run, summary),
        _summary_json(summary, lang),
    )


def _cell(rows: dict, name: str, index: int, default):
    row = rows.get(name)
    return row[index] if row is not None and len(row) > index and row[index] is not None else default


def run_probe(
    ctx: AppContext,
    request: gr.Request,
    token: str | None,
    selection: list[dict],
    code: str,
    state: dict,
    scale_rewards: str = "group",
    aggregation: str = "sum_then_normalize",
):
    """Score degenerate texts with the selected rewards; real completions come from the last dry run if any, and
    with them the rewards are probed together too, with these weights and settings (the recipe's, as the Lab's)."""
    lang = lang_of(request)
    choices = parse_selection(selection)
    advantage = AdvantageSettings(scale_rewards, aggregation)
    funcs, weights = build_rewards(
        choices, custom_rewards(ctx, request, code, selection), executor=reward_executor(ctx.viewer(token))
    )
    completions, columns, prompt = None, None, ""
    if state:
        run = DryRun.from_state(state)
        completions = run.completions[0]
        columns = {k: v for k, v in run.rows[0].items() if k != "prompt"}
        prompt = run.prompt_texts[0]
    report = probe(
        choices,
        funcs,
        prompt=prompt,
        columns=columns,
        completions=completions,
        weights=weights,
        advantage=advantage,
    )
    rows = [[f.reward, f.score, short(f.text, 120) or "∅", render(lang, f.why)] for f in report.findings]
    headers = [tr(lang, key) for key in FINDING_HEADERS]
    frame = styled(pd.DataFrame(rows, columns=headers), [])  # scores to 3 decimals, not float32 noise
    note = tr(lang, "lab.probe.none", n=report.tried) if not rows else tr(lang, "lab.probe.found", n=len(rows))
    return frame, note, _report_json(report, lang)


def selection_names(selection: list[dict]) -> str:
    """A selection in a line: `format` × 1, `length` × 0.5."""
    return ", ".join(f"`{item['name']}` × {item.get('weight', 1.0):g}" for item in selection)


def import_openai_grader(layout: Layout, request: gr.Request, text: str, code: str, custom, selection: list[dict]):
    """Turn an OpenAI grader JSON into the reward selection (and custom code for python graders).

    The selection goes through the Rewards tab's `apply_selection`, as Learn's Load and "Apply JSON" do: the cards
    move to match it, so the next edit there starts from the imported selection instead of bringing back the old one.
    The note names the selection it replaced, kept (with the code) for "Undo import".
    """
    lang = lang_of(request)
    if not (text or "").strip():
        raise PlaygroundError(tr(lang, "lab.grader.empty"))
    got = import_grader(text)
    new_code = (
        (code or "").rstrip() + ("\n\n" if (code or "").strip() else "") + got.code.lstrip() if got.code else code
    )
    notes = [tr(lang, "lab.grader.imported", n=len(got.selection))]
    if got.columns:
        notes.append(tr(lang, "lab.grader.columns", columns=", ".join(f"`{c}`" for c in got.columns)))
    notes += [f"- {render(lang, m)}" for m in got.messages]
    shown = apply_selection(layout, request, json.dumps(got.selection), new_code, custom)
    before = {"selection": selection or [], "code": code} if selection else None
    if before:
        notes.append(tr(lang, "lab.grader.replaced", old=selection_names(selection)))
    return [new_code, "\n".join(notes), *shown, got.names, before, gr.Button(visible=before is not None)]


def undo_grader_import(layout: Layout, request: gr.Request, before: dict | None, custom):
    """The selection and custom code as they were before the last import."""
    if not before:  # the button shows only after an import replaced a selection; an API call may come any time
        raise PlaygroundError(tr(lang_of(request), "lab.grader.nothing_to_undo"))
    shown = apply_selection(layout, request, json.dumps(before["selection"]), before["code"], custom)
    note = tr(lang_of(request), "lab.grader.undone", old=selection_names(before["selection"]))
    return [before["code"], note, *shown, None, gr.Button(visible=False)]


def clear_note() -> str:
    """A new import's note replaces the last one's at once: a refused grader leaves no old "Imported" beside it."""
    return ""


def export_openai_grader(request: gr.Request, selection: list[dict], names: dict | None = None):
    """The selection as an OpenAI grader JSON, where the rewards map; an imported grader keeps its name (`names`)."""
    lang = lang_of(request)
    grader, messages = export_grader(selection or [], names or {})
    text = json.dumps(grader, indent=2, ensure_ascii=False) if grader else ""
    return text, "\n".join(f"- {render(lang, m)}" for m in messages)


@dataclass
class LabTab:
    """What `wire_lab_tab` connects to the Train form once it exists."""

    run: gr.Button
    inputs: list  # the Lab's own inputs of a dry run, in `run_dry_run`'s order
    outputs: list
    scale_rewards: gr.Radio
    aggregation: gr.Radio


def create_lab_tab(ctx: AppContext, session: Session, rewards: RewardsTab) -> LabTab:
    with gr.Tab(t("lab.tab"), id="lab"):
        gr.Markdown(t("lab.intro"))
        with gr.Row(equal_height=False):
            with gr.Column(scale=2):
                model = gr.Textbox(ctx.settings.model or "embedded", label=t("lab.model"), max_lines=1)
                prompt_set = gr.Dropdown(
                    [(f"{n} — {d}", n) for n, d in BUILTIN_SETS.items()], value="writing", label=t("lab.set")
                )
                with gr.Row():
                    num_prompts = gr.Slider(2, 64, value=16, step=1, label=t("lab.num_prompts"))
                    num_generations = gr.Slider(2, 16, value=8, step=1, label="num_generations")
                with gr.Row():
                    max_new_tokens = gr.Slider(8, 256, value=64, step=8, label="max_new_tokens")
                    seed = gr.Number(0, precision=0, label="seed")
                run = gr.Button(t("lab.run"), variant="primary")
            with gr.Column(scale=3):
                metrics = gr.Markdown()
                # Widths in shares of the box: sized to its content, the prompt column took the whole box and pushed
                # mean, std and "no spread" out of view.
                prompts = gr.Dataframe(
                    label=t("lab.prompts"), wrap=True, interactive=False, column_widths=PROMPT_WIDTHS
                )
                signal = gr.File(label=t("lab.signal_file"), interactive=False)
        gr.Markdown("### " + t("lab.rescore.title"))
        with gr.Row():
            weights = gr.Dataframe(
                headers=[tr("en", key) for key in WEIGHT_HEADERS],
                datatype=["str", "number", "bool"],
                label=t("lab.weights"),
                interactive=True,
                scale=2,
            )
            with gr.Column(scale=1):
                scale_rewards = gr.Radio(["group", "batch", "none"], value="group", label="scale_rewards")
                aggregation = gr.Radio(
                    ["sum_then_normalize", "normalize_then_sum"],
                    value="sum_then_normalize",
                    label="multi_objective_aggregation",
                )
        gr.Markdown("### " + t("lab.probe.title"))
        probe_button = gr.Button(t("lab.probe.run"))
        probe_note = gr.Markdown()
        findings = gr.Dataframe(
            label=t("lab.probe.findings"), wrap=True, interactive=False, column_widths=FINDING_WIDTHS
        )
        gr.Markdown("### " + t("lab.grader.title"))
        with gr.Row():
            grader_in = gr.Code("", language="json", label=t("lab.grader.paste"))
            grader_out = gr.Code("", language="json", label=t("lab.grader.export"), interactive=False)
        with gr.Row():
            import_button = gr.Button(t("lab.grader.import"))
            export_button = gr.Button(t("lab.grader.export_run"))
        undo_button = gr.Button(t("lab.grader.undo"), visible=False, size="sm")
        grader_note = gr.Markdown()
        before_import = gr.State(None)  # the selection and code an import replaced, for "Undo import"
        state = gr.State({})
        grader_names = gr.State({})  # an imported grader's own names, for the export
        result = gr.JSON(visible=False)
    headers_on_load(weights, *WEIGHT_HEADERS)
    headers_on_load(prompts, *PROMPT_HEADERS)

    settings = [scale_rewards, aggregation]
    inputs = [session.id, model, prompt_set, session.selection, rewards.editor, num_prompts, num_generations]
    inputs += [max_new_tokens, seed]
    outputs = [metrics, prompts, weights, signal, state, result]
    for control in (weights, scale_rewards, aggregation):
        control.input(
            bind(rescore, ctx),
            [state, weights, *settings],
            [metrics, prompts, signal, result],
            show_progress="hidden",
            **({"api_name": "lab_rescore"} if control is weights else {"api_visibility": "private"}),
        )
    probe_button.click(
        bind(run_probe, ctx),
        [session.id, session.selection, rewards.editor, state, scale_rewards, aggregation],
        [findings, probe_note, result],
        api_name="probe_rewards",
    )
    imported = [rewards.editor, grader_note, session.selection, *rewards.apply_outputs]
    imported += [grader_names, before_import, undo_button]
    import_button.click(clear_note, None, grader_note, api_visibility="private", show_progress="hidden").then(
        bind(import_openai_grader, rewards.layout),
        [grader_in, rewards.editor, rewards.custom.choices, session.selection],
        imported,
        api_name="import_grader",
        show_progress_on=[grader_note],  # a refused grader marks the note, not every card of the Rewards tab
    )
    undo_button.click(
        bind(undo_grader_import, rewards.layout),
        [before_import, rewards.custom.choices],
        [o for o in imported if o is not grader_names],
        api_name="undo_grader_import",
        show_progress_on=[grader_note],
    )
    export_button.click(
        bind(export_openai_grader),
        [session.selection, grader_names],
        [grader_out, grader_note],
        api_name="export_grader",
    )
    return LabTab(run, [*inputs, *settings], outputs, scale_rewards, aggregation)


def wire_lab_tab(ctx: AppContext, lab: LabTab, recipe) -> None:
    """The dry run reads the Train form's sampling and batch fields (`RECIPE_FIELDS`; `recipe` is the form, flat
    field name -> component), and the Lab's scale_rewards and multi_objective_aggregation follow the form's."""
    inputs = [*lab.inputs, *(recipe[name] for name in RECIPE_FIELDS)]
    lab.run.click(gpu_handler(bind(run_dry_run, ctx)), inputs, lab.outputs, api_name="dry_run")
    for name, radio in (("scale_rewards", lab.scale_rewards), ("multi_objective_aggregation", lab.aggregation)):
        recipe[name].change(bind(_same), recipe[name], radio, show_progress="hidden", api_visibility="private")


def _same(value):
    return value
