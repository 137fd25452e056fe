"""A whole first visit in a real headless Chromium, in English and in Chinese: pick a reward (Try on text
re-scores by itself), preview a group (a G of 17 is refused and the group stays), open and close "Generation", train 3
steps, compare, then Runs (pick a run, one-click download, Delete asks first). No error toast; on the Chinese page no
English beyond TRL's metric and field names, reward and set names, and what the model or the user wrote. A watcher
sees a run started in another session without switching tabs; at phone width labels wrap.
"""

import re
import time

import pytest

from playground.data import BUILTIN_SETS
from playground.spec import flat_fields
from playground.ui.help_texts import field_help
from playground.ui.i18n import EN, ZH
from rewards.registry import list_specs
from tests.ui.live_app import running_app
from tests.ui.test_browser import CHROMIUM, assert_no_error_toast, shoot, wait_for


sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not __import__("pathlib").Path(CHROMIUM).exists(), reason=f"no Chromium at {CHROMIUM}")

TEXT = {"en": EN, "zh": ZH}
LOCALE = {"en": "en-US", "zh": "zh-CN"}
VIEWPORT = {"width": 1400, "height": 900}
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
}


@pytest.fixture(scope="module")
def app(tiny_model_dir, tmp_path_factory):
    with running_app(str(tiny_model_dir), str(tmp_path_factory.mktemp("runs"))) as live:
        yield live


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
    words = re.findall(r"[A-Za-z][A-Za-z0-9_]*", text)
    return sorted({w for w in words if w not in ALLOWED and len(w) > 1})


def no_english(page, lang: str, where: str) -> None:
    if lang == "zh":
        assert english_words(page) == [], (where, english_words(page))


def open_tab(page, lang: str, key: str) -> None:
    page.get_by_role("tab", name=TEXT[lang][key], exact=True).click()


def click(page, lang: str, key: str) -> None:
    page.get_by_role("button", name=TEXT[lang][key], exact=True).click()


def fill(page, label: str, value: str) -> None:
    box = page.get_by_label(label, exact=True)
    box.fill(value)
    box.press("Tab")


def dismiss_toasts(page) -> None:
    for close in page.locator(".toast-close").all():
        close.click()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_first_visit(app, browser, lang):
    T = TEXT[lang]
    context = browser.new_context(locale=LOCALE[lang], viewport=VIEWPORT, accept_downloads=True)
    page = context.new_page()
    page.goto(app.url)
    page.get_by_text(T["rewards.try.title"], exact=True).wait_for(timeout=60_000)
    page.get_by_text(T["score.no_flags"]).first.wait_for(timeout=30_000)  # Try on text, scored in the page's language
    no_english(page, lang, "Rewards tab")

    # Rewards: tick `format`; Try on text re-scores by itself (no press on Score).
    page.get_by_label(T["rewards.use"]).first.check()
    page.get_by_role("columnheader", name="format").first.wait_for(timeout=30_000)
    assert_no_error_toast(page)
    shoot(page, "rewards" if lang == "en" else "rewards-zh")

    # Preview: a group of 8; then G = 17 is refused with a message, and the group stays on the page.
    open_tab(page, lang, "preview.tab")
    click(page, lang, "preview.generate")
    grid = page.get_by_role("grid").last
    wait_for(lambda: grid.get_by_role("row").count() == 1 + 8, 180, "the group of 8")
    assert_no_error_toast(page)
    no_english(page, lang, "Preview tab")
    shoot(page, "preview" if lang == "en" else "preview-zh")
    g = page.get_by_label(T["preview.g"], exact=True)
    g.fill("17")
    g.press("Tab")
    click(page, lang, "preview.generate")
    refusal = T["preview.g.range"].format(low=2, high=16, g=17)
    page.locator(".toast-body.error", has_text=refusal).wait_for(timeout=30_000)
    assert grid.get_by_role("row").count() == 1 + 8 and grid.is_visible()
    dismiss_toasts(page)
    g.fill("8")
    g.press("Tab")

    # Train: open the Generation group (its empty steps_per_generation must not break Start), set it for 3 short
    # steps, close it again (its values stay).
    open_tab(page, lang, "train.tab")
    page.get_by_text(T["train.group.generation"], exact=True).click()
    page.get_by_label("steps_per_generation", exact=True).wait_for(timeout=10_000)
    for label, value in (("max_steps", "3"), ("num_generations", "4"), ("max_completion_length", "8")):
        fill(page, label, value)
    page.get_by_text(T["train.group.generation"], exact=True).click()
    click(page, lang, "train.start")
    status = page.locator(".prose.pg-status")
    wait_for(lambda: T["train.state.finished"] in status.inner_text(), 300, "the run to finish")
    assert_no_error_toast(page)
    no_english(page, lang, "Train tab")
    shoot(page, "train" if lang == "en" else "train-zh")

    # Compare: the run just trained is picked.
    open_tab(page, lang, "compare.tab")
    block = page.locator(".block", has=page.get_by_text(T["compare.samples"], exact=True))
    samples = block.locator("input[type=number]")
    samples.fill("2")
    samples.press("Tab")
    click(page, lang, "compare.run_button")
    page.get_by_text(T["compare.summary"].split("{delta}")[0].strip("*")).first.wait_for(timeout=240_000)
    time.sleep(1.0)
    assert_no_error_toast(page)
    no_english(page, lang, "Compare tab")
    shoot(page, "compare" if lang == "en" else "compare-zh")

    # Runs: pick the run (its charts show), download in one click, Delete asks first (and is cancelled).
    open_tab(page, lang, "runs.tab")
    run_id = app.ctx.jobs.current.run.id
    page.get_by_role("gridcell", name=run_id).first.wait_for(timeout=30_000)
    picker = page.get_by_label(T["runs.run"], exact=True).last  # the Compare tab has a run picker too
    picker.click()
    page.get_by_role("option", name=run_id).click()
    with page.expect_download(timeout=60_000) as download:
        click(page, lang, "runs.download")
    assert download.value.suggested_filename == f"{run_id}-adapter.zip"
    click(page, lang, "runs.delete")
    question = T["runs.delete.confirm"].format(run=run_id).replace("`", "")
    page.get_by_text(question).wait_for(timeout=20_000)
    click(page, lang, "runs.delete.no")
    wait_for(lambda: not page.get_by_text(question).is_visible(), 10, "the question to close")
    assert run_id in [info.id for info in app.ctx.store.list()]
    assert_no_error_toast(page)
    no_english(page, lang, "Runs tab")
    shoot(page, "runs" if lang == "en" else "runs-zh")

    # At phone width the Train form's labels wrap instead of being cut.
    open_tab(page, lang, "train.tab")
    page.set_viewport_size({"width": 390, "height": 844})
    label = page.locator("span[data-testid='block-info']", has_text="model_name_or_path").first
    assert label.evaluate("n => n.scrollWidth <= n.clientWidth + 1"), "model_name_or_path is cut at 390 px"
    context.close()


def test_a_watcher_sees_a_run_started_elsewhere(app, browser):
    """A page left on the Train tab picks up a run another session starts, without switching tabs."""
    context = browser.new_context(locale="en-US", viewport=VIEWPORT)
    page = context.new_page()
    page.goto(app.url)
    page.get_by_role("tab", name="Train", exact=True).click()
    status = page.locator(".prose.pg-status")
    from gradio_client import Client

    from tests.ui.test_client import LENGTH_5, TINY_RUN, form_kwargs

    starter = Client(app.url, verbose=False, download_files=False)
    starter.predict(LENGTH_5, api_name="/set_rewards")
    starter.predict(**form_kwargs(starter, **{**TINY_RUN, "max_steps": 2}), api_name="/start_training")
    wait_for(lambda: "another session" in status.inner_text(), 30, "the watcher to see the run")
    app.ctx.jobs.current.join(180)
    context.close()


def refusal_words(page, expected: str) -> list[str]:
    """Wait for an error toast holding `expected`; the Latin words of the error toasts' messages that are not names
    (a toast's title and close button are Gradio's own)."""
    page.locator(".toast-body.error", has_text=expected).first.wait_for(timeout=30_000)
    text = page.evaluate(
        """() => [...document.querySelectorAll('.toast-body.error')].map(body => {
            const copy = body.cloneNode(true);
            copy.querySelectorAll('.toast-title, .toast-title-row, .toast-header, .toast-close, .toast-icon')
                .forEach(n => n.remove());
            return copy.textContent;
        }).join(' ')"""
    )
    assert expected in text, text
    return sorted({w for w in re.findall(r"[A-Za-z][A-Za-z0-9_]*", text) if w not in ALLOWED and len(w) > 1})


def test_refusals_read_chinese_on_the_chinese_page(app, browser):
    """The engine's refusals on the zh page, each raised with a catalogue key: a number box left empty, a spec
    validation refusal, a preview setting, a public-style cap of the form and custom code that does not parse. Each
    reads in Chinese with only names in Latin letters, and no run is left behind."""
    from playground.texts import msg

    T = TEXT["zh"]
    context = browser.new_context(locale=LOCALE["zh"], viewport=VIEWPORT)
    page = context.new_page()
    page.goto(app.url)
    page.get_by_text(T["rewards.try.title"], exact=True).wait_for(timeout=60_000)
    runs = len(app.ctx.store.list())

    # Custom code that does not parse: the check says where, in Chinese.
    open_tab(page, "zh", "rewards.family.custom")
    page.locator(".cm-content").first.click()
    page.keyboard.press("Control+A")
    page.keyboard.insert_text("def f(:\n    pass\n")
    click(page, "zh", "rewards.custom.check")
    syntax = msg("sandbox.syntax_column", line=1, column=7, detail="x").render("zh").split("x")[0]
    report = page.locator(".prose", has_text=syntax).first
    report.wait_for(timeout=30_000)
    assert "Syntax error" not in report.inner_text()
    open_tab(page, "zh", "rewards.family.format")
    page.get_by_label(T["rewards.use"]).first.check()

    # The Train form: an empty number box, then a max_steps the spec refuses, then one no run could finish.
    open_tab(page, "zh", "train.tab")
    cases = [
        ("learning_rate", "", msg("spec.needs_number", name="learning_rate")),
        ("max_steps", "0", msg("spec.max_steps", value=0)),
        ("max_steps", "1000000000", msg("spec.max_steps_days", value=10**9, days="11,574", cap=100_000)),
    ]
    for label, value, refusal in cases:
        fill(page, label, value)
        click(page, "zh", "train.start")
        assert refusal_words(page, refusal.render("zh")) == [], (
            label,
            page.locator(".toast-body.error").all_inner_texts(),
        )
        dismiss_toasts(page)
        fill(page, label, {"learning_rate": "0.00005", "max_steps": "3"}[label])
    shoot(page, "refusals-zh")

    # The preview refuses a group size outside its range, in Chinese.
    open_tab(page, "zh", "preview.tab")
    g = page.get_by_label(T["preview.g"], exact=True)
    g.fill("1")
    g.press("Tab")
    click(page, "zh", "preview.generate")
    assert refusal_words(page, T["preview.g.range"].format(low=2, high=16, g=1)) == []
    assert len(app.ctx.store.list()) == runs
    context.close()
