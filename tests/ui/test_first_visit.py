"""A whole first visit in a real headless Chromium, on the Chinese page: pick a reward (Try on text
re-scores by itself), preview a group (a G of 17 is refused and the group stays), open and close "Generation", train 3
steps, compare, then Runs (pick a run, one-click download, Delete asks first); after a reload the Train tab gives the
finished run's own duration, not the time since it started. No error toast; on the Chinese page no
English beyond TRL's metric and field names, reward and set names, and what the model or the user wrote. A watcher
sees a run started in another session without switching tabs; at phone width labels wrap. Every error path of every
tab, on the Chinese page, reads Chinese but for names.
"""

import json
import re
import time
from datetime import datetime

import pytest

from playground.data.sources import BUILTIN_SETS
from playground.spec import flat_fields
from playground.texts import msg
from playground.training.store import run_seconds
from playground.ui.common import duration_text
from playground.ui.i18n import EN, ZH, field_help
from rewards.registry import list_specs
from tests.support.queue_client import app_client
from tests.ui.test_browser import assert_no_error_toast, wait_for


TEXT = {"en": EN, "zh": ZH}
LOCALE = {"en": "en-US", "zh": "zh-CN"}
VIEWPORT = {"width": 1400, "height": 900}
# A finished run's duration in the Train tab's status line (train.status.finished).
DURATION = {"en": r" steps in ([^.]+)\. ", "zh": r"用时 ([^。]+)。"}
# Latin words allowed on the Chinese page: names kept in English by design (TRL metrics and fields, rewards, prompt
# sets, tags), product and format names, and Gradio's own footer.
ALLOWED = {
    *(f.name for _, f in flat_fields()),
    *field_help(),
    *(s.name for s in list_specs()),
    *(p.name for s in list_specs() for p in s.params),
    *BUILTIN_SETS,
    "think_format_reward",
    "G",  # the group size, as in GRPO papers
    "advantage",  # 优势（advantage）: the term is given in English once, as TRL names it
    *"reward reward_std frac_reward_zero_std kl loss".split(),
    *"completions mean_length clipped_ratio rewards mean eval_reward".split(),
    *"fn step GRPO GRPOTrainer TRL LoRA QLoRA SmolLM2 Instruct Hugging Face Hub JSON CSV JSONL Parquet Python".split(),
    *"embedded api gradio Gradio API def completions kwargs None trl zip intro body conclusion think answer".split(),
    *"temperature top_p max_new_tokens seed token tokens AdamW PPO SFT".split(),  # SFT: TRL's SFTTrainer, the warm-up
    *"KL CUDA CPU nf4 fp4 auto cpu cuda bitsandbytes".split(),
    *"vLLM vllm pip install accelerate launch gloo".split(),
    *"num_processes SFTTrainer jsonl ROUGE BLEU chrF LaTeX math_verify".split(),
    *"rouge_l bleu chrf fuzzy numeric fullmatch search DAPO logits solution question prompt org name".split(),
    *"builtin file hub fail none group batch dapo grpo dr_grpo bnpo cispo sapo luspo vespo all linear q_proj".split(),
    *"v_proj float32 bfloat16 off sft_tags eval NaN GPU ids id MCP".split(),
    *"sampling importance_sampling_ratio bf16".split(),  # TRL's metric for the bf16 rollout's correction, the dtype
    *"sum_then_normalize normalize_then_sum GDPO".split(),  # TRL's multi_objective_aggregation values, its paper
    *"TSV OpenAI".split(),  # a file format (Gradio's own drop zone names it), the grader format's maker
    *"sentence_rate warmup".split(),  # metric names as metrics.jsonl stores them (sentence_rate, warmup/loss)
}
# A file path ("/tmp/runs/", "docs/performance.md") is a name, in any language.
PATH = re.compile(r"/(?:[\w.-]+/?)+|(?:[\w.-]+/)+[\w-]+\.[a-z]{1,5}\b")


def english_words(page) -> list[str]:
    """Latin words in the visible page that are not allowed names: the text of the page without tables of data,
    code, inputs, charts' data and the footer."""
    text = page.evaluate(
        """() => {
        const root = document.querySelector('.gradio-container').cloneNode(true);
        root.querySelectorAll('td, [role=gridcell], code, pre, textarea, input, .cm-editor, svg, footer, '
            + '.toast-wrap, [role=listbox], .pg-progress-label, .progress-text, .meta-text, .meta-text-center, '
            + '.eta-bar, .progress-level, .sr-only').forEach(n => n.remove());  // Gradio's own queue and timer lines
        document.body.appendChild(root);
        const visible = root.innerText;
        root.remove();
        return visible;
    }"""
    )
    words = re.findall(r"[A-Za-z][A-Za-z0-9_]*", PATH.sub(" ", text))
    return sorted({w for w in words if w not in ALLOWED and len(w) > 1})


def no_english(page, lang: str, where: str) -> None:
    if lang == "zh":
        assert english_words(page) == [], (where, english_words(page))


def open_tab(page, lang: str, key: str) -> None:
    page.get_by_role("tab", name=TEXT[lang][key], exact=True).click()


def click(page, lang: str, key: str) -> None:
    page.get_by_role("button", name=TEXT[lang][key], exact=True).click()


def fill(page, label: str, value: str) -> None:
    box = page.get_by_label(label, exact=True).filter(visible=True)
    box.fill(value)
    box.press("Tab")


# On the Chinese page only: every step behaves the same in English (test_browser.py walks the English page through
# every tab), and the Chinese page also has its words checked at each step.
@pytest.mark.parametrize("lang", ["zh"])
def test_a_first_visit(app, browser, lang):
    T = TEXT[lang]
    context = browser.new_context(locale=LOCALE[lang], viewport=VIEWPORT, accept_downloads=True)
    page = context.new_page()
    page.goto(app.url)
    page.get_by_text(T["rewards.try.title"], exact=True).wait_for()
    page.get_by_text(T["score.no_flags"]).first.wait_for()  # Try on text, scored in the page's language
    no_english(page, lang, "Rewards tab")

    # Rewards: tick `format`; Try on text re-scores by itself (no press on Score).
    page.get_by_label(T["rewards.use"]).first.check()
    page.get_by_role("columnheader", name="format").first.wait_for()
    assert_no_error_toast(page)

    # Preview: a group of 8; then G = 17 is refused with a message, and the group stays on the page.
    open_tab(page, lang, "preview.tab")
    click(page, lang, "preview.generate")
    grid = page.get_by_role("grid").last
    wait_for(lambda: grid.get_by_role("row").count() == 1 + 8, 180, "the group of 8")
    assert_no_error_toast(page)
    no_english(page, lang, "Preview tab")
    g = page.get_by_label(T["preview.g"], exact=True)
    g.fill("17")
    g.press("Tab")
    click(page, lang, "preview.generate")
    refusal = T["preview.g.range"].format(low=2, high=16, g=17)
    page.locator(".toast-body.error", has_text=refusal).wait_for()
    assert grid.get_by_role("row").count() == 1 + 8 and grid.is_visible()
    page.evaluate(DISMISS)
    g.fill("8")
    g.press("Tab")

    # Train: open the Generation group (its empty steps_per_generation must not break Start), set it for 3 short
    # steps, close it again (its values stay).
    open_tab(page, lang, "train.tab")
    page.get_by_text(T["train.group.generation"], exact=True).click()
    page.get_by_label("steps_per_generation", exact=True).wait_for()
    for label, value in (("max_steps", "3"), ("num_generations", "4"), ("max_completion_length", "8")):
        fill(page, label, value)
    page.get_by_text(T["train.group.generation"], exact=True).click()
    click(page, lang, "train.start")
    status = page.locator(".prose.pg-status")
    wait_for(lambda: T["train.state.finished"] in status.inner_text(), 300, "the run to finish")
    assert_no_error_toast(page)
    no_english(page, lang, "Train tab")

    # Compare: the run just trained is picked.
    open_tab(page, lang, "compare.tab")
    block = page.locator(".block", has=page.get_by_text(T["compare.samples"], exact=True))
    samples = block.locator("input[type=number]")
    samples.fill("2")
    samples.press("Tab")
    click(page, lang, "compare.run_button")
    # The result's Markdown: the comparison's one answer (the progress bars show the same words while it ends).
    page.locator(".prose", has_text=T["compare.summary"].split("{delta}")[0].strip("*")).first.wait_for()
    assert_no_error_toast(page)
    no_english(page, lang, "Compare tab")

    # Runs: pick the run (its charts show), download in one click, Delete asks first (and is cancelled).
    open_tab(page, lang, "runs.tab")
    run_id = app.ctx.jobs.current.run.id
    page.get_by_role("gridcell", name=run_id).first.wait_for()
    picker = page.get_by_label(T["runs.run"], exact=True).last  # the Compare tab has a run picker too
    picker.click()
    page.get_by_role("option", name=run_id).click()
    with page.expect_download() as download:
        click(page, lang, "runs.download")
    assert download.value.suggested_filename == f"{run_id}-adapter.zip"
    click(page, lang, "runs.delete")
    question = T["runs.delete.confirm"].format(run=run_id).replace("`", "")
    page.get_by_text(question).wait_for()
    click(page, lang, "runs.delete.no")
    wait_for(lambda: not page.get_by_text(question).is_visible(), 10, "the question to close")
    assert run_id in [info.id for info in app.ctx.store.list()]
    assert_no_error_toast(page)
    no_english(page, lang, "Runs tab")

    # A reload after the run's end: the starter's Train tab shows the run's own duration in the page's language, not
    # the time since it started (2 s after its end at least, when that reads at least 2 whole seconds more).
    stored = app.ctx.jobs.current.run.status()
    seconds = run_seconds(stored)
    assert seconds is not None and stored["status"] == "finished"
    time.sleep(max(0.0, 2 - (time.time() - datetime.fromisoformat(stored["finished_at"]).timestamp())))
    page.reload()
    # The page comes back on the tab last opened (Runs); a click on Train before that would be switched back.
    runs_tab = page.get_by_role("tab", name=T["runs.tab"], exact=True)
    wait_for(lambda: runs_tab.get_attribute("aria-selected") == "true", 60, "the reloaded page back on Runs")
    open_tab(page, lang, "train.tab")
    wait_for(lambda: T["train.state.finished"] in status.inner_text(), 30, "the finished run after the reload")
    shown = re.search(DURATION[lang], status.inner_text())
    assert shown is not None, status.inner_text()
    assert shown.group(1) == duration_text(seconds, lang), status.inner_text()
    assert run_seconds(app.ctx.jobs.current.run.status()) == seconds  # read again, later: the same

    # At phone width the Train form's labels wrap instead of being cut.
    page.set_viewport_size({"width": 390, "height": 844})
    label = page.locator("span[data-testid='block-info']", has_text="model_name_or_path").first
    assert label.evaluate("n => n.scrollWidth <= n.clientWidth + 1"), "model_name_or_path is cut at 390 px"
    context.close()


def test_the_chinese_page_reads_chinese_before_its_load_event_answers(app, browser):
    """The page as it is built, before any event answers (a busy server answers the page's load event seconds later):
    on the Chinese page, the first tab shows Chinese but for names. Nothing built in English may wait there for the
    load event to put it in the page's language."""
    context = browser.new_context(locale=LOCALE["zh"], viewport=VIEWPORT)
    page = context.new_page()
    event = re.compile(r"/queue/join\b")
    page.route(event, lambda route: None)  # every event the page sends is held, never answered
    with page.expect_request(event):  # the page's load event, sent and held
        page.goto(app.url)
    page.get_by_text(ZH["rewards.try.title"], exact=True).wait_for()
    assert english_words(page) == []
    context.close()


def test_a_watcher_sees_a_run_started_elsewhere(app, browser):
    """A page left on the Train tab picks up a run another session starts, without switching tabs."""
    context = browser.new_context(locale="en-US", viewport=VIEWPORT)
    page = context.new_page()
    page.goto(app.url)
    page.get_by_role("tab", name="Train", exact=True).click()
    status = page.locator(".prose.pg-status")
    from tests.ui.test_client import LENGTH_5, TINY_RUN, form_kwargs

    starter = app_client(app.url)
    starter.predict(LENGTH_5, api_name="/set_rewards")
    starter.predict(**form_kwargs(starter, **{**TINY_RUN, "max_steps": 2}), api_name="/start_training")
    wait_for(lambda: "another session" in status.inner_text(), 30, "the watcher to see the run")
    app.ctx.jobs.current.join(180)
    context.close()


# --- every error path of every tab, on the Chinese page ---------------------------------------------------------

WRONG_TYPE = 'def wrong_type(completions, **kwargs):\n    return "x"\n'
SLOW = "def slow(completions, **kwargs):\n    while True:\n        pass\n"
BROKEN = "def f(:\n    pass\n"
NOT_JSON = "[{"
# What the visitor wrote that a refusal quotes: the functions of the custom code below, the Python type the broken one
# returns, a weight typed as text.
VISITOR = {"wrong_type", "slow", "str", "abc"}
# The OpenAI grader format's own names: its grader types, keys, a python grader's arguments, string_check operations.
GRADER_NAMES = {"type", "string_check", "text_similarity", "score_model", "python", "multi", "label_model", "grade"}
GRADER_NAMES |= {"source", "sample", "item", "eq", "ne", "like", "ilike"}
# What the toasts not yet dismissed say, without their titles (the page's CSS titles them in the page's language:
# test_toast_titles_browser). Gradio groups the toasts of one type in one box, a message item each.
FRESH = ".toast-message-item:not([data-pg-dismissed])"
TOASTS = f"""() => [...document.querySelectorAll('{FRESH}')].map(item => item.textContent).join(' ')"""
# Dismiss every toast: its messages are marked (a check reads only unmarked ones) and each box's close button is
# pressed. The box fades out for 0.3 s after; no check waits for that (the fade is Gradio's, not the page's).
DISMISS = f"""() => {{
    document.querySelectorAll('{FRESH}').forEach(item => item.dataset.pgDismissed = '1');
    document.querySelectorAll('.toast-close').forEach(button => button.click());
}}"""


def parser_words(error: Exception) -> set[str]:
    """The words of a parser's own message (Python's, the JSON decoder's), which the refusal quotes as it is."""
    text = getattr(error, "msg", str(error))
    return set(re.findall(r"[A-Za-z][A-Za-z0-9_]*", text))


def syntax_error(code: str) -> SyntaxError:
    try:
        compile(code, "<custom>", "exec")
    except SyntaxError as exc:
        return exc
    raise AssertionError(f"{code!r} parses")


def json_error(text: str) -> Exception:
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        return exc
    raise AssertionError(f"{text!r} is JSON")


class ErrorPaths:
    """Runs each error path on a zh page and keeps, per path, the Latin words it shows besides names: in the toasts'
    messages and in the visible page (status boxes, reports, table headers)."""

    def __init__(self, page):
        self.page, self.found, self.paths = page, {}, []

    def check(self, where: str, answered, names: set[str] = frozenset()) -> None:
        """Wait until `answered()` holds, then read the toasts and the visible page; `names` are words this path may
        show as they are (what the visitor typed, what a parser said of it)."""
        self.paths.append(where)
        try:
            wait_for(answered, 60, where)
        except AssertionError:
            self.found[where] = ["(no answer)", self.page.evaluate(TOASTS)]
            return
        toasts = re.findall(r"[A-Za-z][A-Za-z0-9_]*", PATH.sub(" ", self.page.evaluate(TOASTS)))
        words = sorted({w for w in [*toasts, *english_words(self.page)] if w not in ALLOWED | names and len(w) > 1})
        if words:
            self.found[where] = words
        self.page.evaluate(DISMISS)

    def toast(self, where: str, text: str = "", names: set[str] = frozenset()) -> None:
        """The answer is an error toast not yet dismissed (holding `text`, if given)."""
        fresh = self.page.locator(f"{FRESH}.error", has_text=text)
        self.check(where, lambda: fresh.count() > 0, names)

    def report(self, where: str, text: str, names: set[str] = frozenset()) -> None:
        """The answer is `text` in the page."""
        self.check(where, lambda: self.page.get_by_text(text).count() > 0, names)


def set_code(page, index: int, code: str) -> None:
    """Replace the text of the `index`-th visible code editor."""
    editor = page.locator(".cm-content").filter(visible=True).nth(index)
    editor.focus()  # not a click: after an error, the editor may lie under the failed event's status overlay
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(code)


def text_box(page, label: str):
    """The visible text box labelled `label` (a label with help text names its box by both, so no exact name)."""
    title = page.locator("[data-testid=block-info]", has_text=re.compile(rf"^\s*{re.escape(label)}\s*$"))
    return page.locator(".block", has=title).filter(visible=True).locator("textarea, input").first


def type_into(page, label: str, text: str) -> None:
    """Type into a box as a visitor does: a number box takes no letters, so "abc" leaves it empty."""
    page.get_by_label(label, exact=True).filter(visible=True).click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    page.keyboard.type(text)
    page.keyboard.press("Tab")


def test_every_error_path_reads_chinese(app, browser, monkeypatch):
    """Every error path of every tab a visitor can reach, on the zh page (the paths are listed in `paths.paths`):
    broken custom reward code (a syntax error, a time-out, a wrong return type) and a bad weight or selection; Try on
    text with a broken reward or one completion; a bad Preview group size and an empty prompt; Train's refused numbers
    (and Stop, not offered with nothing running); Compare with no run or an unknown one; each Runs button with no run
    picked; bad graders in the Reward lab; Learn's Load. After each, the toasts' messages and the visible page show no
    Latin words but names, metric keys and what the visitor typed; no run is left behind."""
    T = TEXT["zh"]
    context = browser.new_context(locale=LOCALE["zh"], viewport=VIEWPORT)
    page = context.new_page()
    page.goto(app.url)
    page.get_by_text(T["rewards.try.title"], exact=True).wait_for()
    runs = len(app.ctx.store.list())
    paths = ErrorPaths(page)
    failed = lambda name: lambda: page.locator("li", has_text="✗").filter(has_text=name).count() > 0  # noqa: E731

    # Rewards: custom code that does not parse, never returns, returns a string.
    open_tab(page, "zh", "rewards.family.custom")
    set_code(page, 0, BROKEN)
    click(page, "zh", "rewards.custom.check")
    where = msg("sandbox.syntax_column", line=1, column=7, detail="x").render("zh").split("x")[0]
    paths.report("Rewards: Check of custom code with a syntax error", where, parser_words(syntax_error(BROKEN)))
    # The time-out's message, not its length, is checked: the code that never returns gets 1 s, not the default 5
    # (the limit is read as its sandbox starts; the next code's sandbox has the default again).
    with monkeypatch.context() as patch:
        patch.setenv("PLAYGROUND_SANDBOX_TIMEOUT", "1")
        set_code(page, 0, SLOW)
        click(page, "zh", "rewards.custom.check")
        paths.check("Rewards: Check of custom code that times out", failed("slow"), VISITOR)
    set_code(page, 0, WRONG_TYPE)
    click(page, "zh", "rewards.custom.check")
    paths.check("Rewards: Check of custom code that returns a string", failed("wrong_type"), VISITOR)
    # The selection as JSON: a weight that is no number, no JSON, then the broken function selected and tried.
    page.get_by_text(T["rewards.json"], exact=True).click()
    set_code(page, 1, '[{"name": "format", "weight": "abc"}]')
    click(page, "zh", "rewards.apply_json")
    paths.toast("Rewards: a weight that is no number", names=VISITOR)
    set_code(page, 1, NOT_JSON)
    click(page, "zh", "rewards.apply_json")
    paths.toast("Rewards: a selection that is no JSON", names=VISITOR | parser_words(json_error(NOT_JSON)))
    set_code(page, 1, '[{"name": "wrong_type", "weight": 1.0}]')
    click(page, "zh", "rewards.apply_json")
    click(page, "zh", "rewards.try.run")
    paths.toast("Rewards: Try on text with a reward that returns a string", names=VISITOR)
    text_box(page, T["rewards.try.completions"]).fill("one")
    click(page, "zh", "rewards.try.run")
    paths.toast("Rewards: Try on text with one completion", T["rewards.try.too_few"], VISITOR)
    set_code(page, 1, '[{"name": "format", "weight": 1.0}]')
    click(page, "zh", "rewards.apply_json")

    # Preview: a group size out of range, an empty prompt.
    open_tab(page, "zh", "preview.tab")
    fill(page, T["preview.g"], "1")
    click(page, "zh", "preview.generate")
    paths.toast("Preview: G = 1", T["preview.g.range"].format(low=2, high=16, g=1))
    fill(page, T["preview.g"], "8")
    text_box(page, T["preview.prompt"]).fill("")
    click(page, "zh", "preview.generate")
    paths.toast("Preview: an empty prompt", T["preview.empty_prompt"])

    # Train: numbers the form or the spec refuses, and Stop, disabled with nothing running.
    open_tab(page, "zh", "train.tab")
    for key in ("train.group.generation", "train.group.optimisation"):
        page.get_by_text(T[key], exact=True).click()
    days = "11,574"  # 10**9 steps at a second each
    for label, value, good, refusal in [
        ("learning_rate", "abc", "0.00005", msg("spec.needs_number", name="learning_rate")),
        ("max_steps", "0", "3", msg("spec.bound.min", name="max_steps", min=1, value=0)),
        ("max_steps", "1000000000", "3", msg("spec.max_steps_days", value=10**9, days=days, cap=100_000)),
        ("num_generations", "1", "4", ""),
        ("max_completion_length", "0", "8", ""),
        ("temperature", "-1", "1", ""),
        ("per_device_train_batch_size", "3", "4", ""),
    ]:
        type_into(page, label, value)
        click(page, "zh", "train.start")
        paths.toast(f"Train: {label} = {value}", refusal and refusal.render("zh"))
        fill(page, label, good)
    # Stop with nothing of this visitor's running is not offered (the server refuses it too: `job.none_running`).
    assert page.get_by_role("button", name=T["train.stop"], exact=True).is_disabled()

    # Compare: no run picked, a run that does not exist.
    open_tab(page, "zh", "compare.tab")
    type_into(page, T["compare.run"], "")
    click(page, "zh", "compare.run_button")
    paths.toast("Compare: no run picked", T["compare.no_run"])
    type_into(page, T["compare.run"], "nope")
    click(page, "zh", "compare.run_button")
    paths.toast("Compare: a run that does not exist", names={"nope"})

    # Runs: every button with no run picked. Opening the tab lists the runs and picks the newest (this module's
    # first visit trained one): the picker is cleared once that list is in, else the list could pick a run again
    # after the clearing and the buttons would act on it.
    open_tab(page, "zh", "runs.tab")
    for info in app.ctx.store.list():
        page.get_by_role("gridcell", name=info.id).first.wait_for()
    type_into(page, T["runs.run"], "")
    for key in ("runs.show", "runs.download", "runs.export", "runs.export_script", "runs.delete"):
        click(page, "zh", key)
        paths.toast(f"Runs: {EN[key]} with no run picked", T["runs.none_selected"])

    # Reward lab: graders that cannot be imported.
    open_tab(page, "zh", "lab.tab")
    for where, grader in [
        ("no grader", ""),
        ("a grader that is no JSON", "{"),
        ("a grader of an unknown type", '{"type": "nope", "name": "g"}'),
        ("a label_model grader", '{"type": "label_model", "name": "g"}'),
        ("a python grader without grade", '{"type": "python", "name": "g", "source": "x = 1"}'),
        ("a string_check grader with a bad operation", '{"type": "string_check", "name": "g", "operation": "nope"}'),
    ]:
        set_code(page, 0, grader)
        click(page, "zh", "lab.grader.import")
        paths.toast(f"Reward lab: {where}", names=GRADER_NAMES | {"nope", "g"})

    # Learn: the first lesson loaded.
    open_tab(page, "zh", "learn.tab")
    click(page, "zh", "learn.load")
    paths.report("Learn: Load", T["learn.loaded"].split("“")[0])

    assert len(app.ctx.store.list()) == runs
    context.close()
    assert paths.found == {}, "\n".join(f"{where}: {words}" for where, words in paths.found.items())
