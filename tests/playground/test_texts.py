"""The one text catalogue (playground/texts/): every key in English and Chinese with the same placeholders, every
engine text renders in both languages and reads as Chinese but for names, and the keys the code raises exist."""

import ast
import copy
import json
import pickle
import re
from pathlib import Path

import pytest

from playground.errors import PlaygroundError, SpecError
from playground.spec import flat_fields
from playground.texts import AREAS, PAGE, Text, catalogue, engine_table, msg, placeholders
from playground.ui.i18n import generated_keys
from rewards.registry import list_specs


ROOT = Path(__file__).resolve().parents[2]
CJK = re.compile(r"[\u4e00-\u9fff]")
# Keys whose Chinese holds only names and punctuation around its values (a prefix, an article, a figure).
NO_CJK = {"spec.field_prefix", "data.article.a", "data.article.an", "sandbox.problem", "alert.no_signal.score"}
NO_CJK |= {"train.lora"}  # LoRA, a name in both languages
NO_CJK |= {"lab_engine.label.join"}  # two names of kinds of text, listed
ENGINE = {key for area in AREAS for key in area.TEXTS}


def sample_values(template: str) -> dict:
    """A value for each placeholder that every format spec in the catalogue accepts (`:g`, `:,`, `:.0%`, `!r`)."""
    return {name: 3 for name in placeholders(template)}


def catalogue_problems(key: str, english: str, chinese: str) -> list[str]:
    """What is wrong with one catalogue entry: a missing language, placeholders that differ, Chinese without Chinese
    characters, or a text that does not render as its template in each language."""
    if not english.strip() or not chinese.strip():
        return ["a language is empty"]
    if placeholders(english) != placeholders(chinese):
        return [f"placeholders differ: {sorted(placeholders(english))} / {sorted(placeholders(chinese))}"]
    problems = [] if CJK.search(chinese) or key in NO_CJK else [f"the Chinese has no Chinese characters: {chinese!r}"]
    values = sample_values(english)
    text = msg(key, **values)
    if str(text) != english.format(**values) or text.render("zh") != chinese.format(**values):
        problems.append("renders other than its template")
    if text.render("en") != str(text) or text.render("fr") != str(text):  # other languages read English
        problems.append("another language does not read English")
    return problems


def test_every_key_has_both_languages_with_the_same_placeholders():
    table = engine_table()
    assert len(table) > 500
    problems = {key: found for key, (en, zh) in sorted(table.items()) if (found := catalogue_problems(key, en, zh))}
    assert problems == {}


def test_the_catalogue_check_finds_each_kind_of_problem():
    assert catalogue_problems("spec.bound.min", "{name} at least {min}", "") == ["a language is empty"]
    assert catalogue_problems("spec.bound.min", "{name} at least {min}", "{name} 至少") == [
        "placeholders differ: ['min', 'name'] / ['name']"
    ]
    english, _ = engine_table()["spec.bound.min"]
    assert catalogue_problems("spec.bound.min", english, english)[0].startswith("the Chinese has no Chinese")


def test_the_catalogue_covers_the_page_and_the_generated_help():
    texts = catalogue()
    assert set(texts["en"]) == set(texts["zh"])
    page = {key for area in PAGE for key in area.TEXTS}
    assert page <= set(texts["en"]) and ENGINE <= set(texts["en"])
    help_en, help_zh = generated_keys()  # the page's help, generated from the registry and the run spec
    assert set(help_en) == set(help_zh) and {f"rewards.desc.{s.name}" for s in list_specs()} <= set(help_zh)
    assert len(ENGINE) > 300 and len(page) > 300  # guards the walk above against finding nothing


# --- the engine's texts read as Chinese but for names ----------------------------------------------------------------

# Words a Chinese text keeps: the run spec's fields, rewards and their parameters, TRL's metrics, environment
# variables, and the names of products, formats and Python that users type or look up as they are.
NAMES = {
    *(f.name for _, f in flat_fields()),
    *(s.name for s in list_specs()),
    *(p.name for s in list_specs() for p in s.params),
    *"reward reward_std frac_reward_zero_std kl loss eval_reward clipped_ratio mean_length".split(),
    *"GRPO TRL SFT KL LoRA Hugging Face Hub HF_TOKEN HF_HUB_OFFLINE OpenAI Python JSON JSONL CSV Parquet UTF".split(),
    *"CPU GPU CUDA AVX512 BF16 AMX bf16 bfloat16 float32 fp32 int8 LLM nf4 fp4 NaN None null MB token".split(),
    *"pip install trackio vllm bitsandbytes transformers SIGKILL org name id auto cpu cuda fail none off".split(),
    *"prompt completion completions prompts solution question answer intro body conclusion think input output".split(),
    *"trainer_state completion_ids completions_as_text custom_code config data params terms tests".split(),
    *"role content spec max_new_tokens python embedded".split(),
    *"YAML SmolLM2 E2B Morph Gradio MCP".split(),  # a format, a model, two code sandboxes, a library, a protocol
    # an OpenAI grader's fields, as its JSON spells them
    *"type input reference operation evaluation_metric label_model score_model range source grade sample item".split(),
    *"multi graders calculate_output python_errors sampling_params image_tag pass_threshold logits P".split(),
    *"eq ne like ilike string_check text_similarity output_text".split(),
    "M",  # a model size: 135M
    "a",  # a JSON key and a regex in examples: {"a": ...}, (a+)+
    "x",  # a byte in hex: 0x{byte}
    *"dataset_name dataset_kind column_map prompt_column max_rows max_completion_len soft_punish_cache".split(),
    *"token_truncate token_mask vespo NAME WEIGHT true false yes no json jsonl".split(),
    # code a message shows to copy: c if isinstance(c, str) else c[-1]["content"], sys.exit, os._exit, bootstrap()
    *"c if isinstance str else len list sys exit os import playground bootstrap".split(),
}


def latin_words(template: str) -> set[str]:
    """Latin words of a template outside its placeholders and `code`."""
    text = re.sub(r"\{[^{}]*\}", " ", template.replace("{{", "").replace("}}", ""))
    text = re.sub(r"`[^`]*`|'[^'\n]*'", " ", text)  # code, and 'quoted' names
    return {w for w in re.findall(r"[A-Za-z][A-Za-z0-9_]*", text) if not w.startswith(("PLAYGROUND_", "HF_"))}


def test_every_engine_text_reads_as_chinese_but_for_names():
    table = engine_table()
    english_left = {key: sorted(latin_words(table[key][1]) - NAMES) for key in sorted(ENGINE)}
    assert {key: words for key, words in english_left.items() if words} == {}


def test_the_name_check_finds_english():
    assert latin_words("max_steps must be at least 1") == {"max_steps", "must", "be", "at", "least"}
    assert not {"must", "at", "least"} <= NAMES


# --- errors carry their key ------------------------------------------------------------------------------------------


def test_an_error_raised_with_a_key_reads_english_and_renders_chinese():
    error = SpecError("max_steps", "spec.bound.min", name="max_steps", min=1, value=0)
    assert str(error) == "max_steps must be at least 1, got 0."  # the CLI and MCP read English as before
    values = {"name": "max_steps", "min": 1, "value": 0}
    assert (error.key, error.values, error.field) == ("spec.bound.min", values, "max_steps")
    assert error.render("zh") == "max_steps 至少为 1，实际为 0。"
    plain = PlaygroundError("A sentence from elsewhere.")
    assert (plain.key, plain.render("zh")) == (None, "A sentence from elsewhere.")
    with pytest.raises(KeyError):
        PlaygroundError("spec.no_such_key", value=1)


def test_a_text_keeps_its_key_through_pickle_copies_and_json():
    what = msg("data.what.file", name="q.csv")
    text = msg("data.no_rows", what=what)
    assert str(text) == "The file 'q.csv' has no rows."
    assert text.render("zh") == "文件 'q.csv' 中没有数据行。"  # a phrase value is rendered in the same language
    for copied in (pickle.loads(pickle.dumps(text)), copy.deepcopy(text)):
        assert isinstance(copied, Text) and copied.render("zh") == text.render("zh")
    stored = json.loads(json.dumps(text.to_json()))
    assert Text.from_json(stored).render("zh") == text.render("zh")
    assert json.dumps(text) == json.dumps(str(text))  # plain English wherever JSON takes it as a string
    assert Text.from_json("an older file's sentence") == "an older file's sentence"


def test_a_run_status_keeps_its_alerts_keys_for_the_page():
    from playground.training.health import alert_record, health_alerts
    from playground.ui.train_tab import _alert_text
    from tests.playground.training.test_health import CASES, WEIGHTS

    records = [alert_record(a) for metrics, _ in CASES.values() for a in health_alerts(metrics, weights=WEIGHTS)]
    assert len({r["code"] for r in records}) >= 8
    for record in records:
        stored = json.loads(json.dumps(record))  # as status.json holds it
        assert stored["message"] == record["message"]  # English for the CLI and older readers
        chinese = _alert_text(stored, "zh")
        assert CJK.search(chinese) and not latin_words(re.sub(r"</?strong>", "", chinese)) - NAMES - {"x"}, chinese


# --- the keys the code raises exist ---------------------------------------------------------------------------------

KEY = re.compile(r"^[a-z_]+(\.[a-z0-9_]+)+$")
ERRORS = {"PlaygroundError", "SpecError", "DataError", "RewardError", "ModelLoadError", "SandboxError"}
ERRORS |= {"ProtocolError"}  # the sandbox wire's reasons, filled in by the client


def raised_keys() -> list[tuple[str, str]]:
    """(file, key) for each literal key given to `msg(...)` or to an error: `DataError("data.no_rows", ...)`,
    `SpecError(field, "spec.bound.min", ...)`, and `_check(ok, field, "spec.x", ...)` in validation.py."""
    out = []
    for path in [*(ROOT / "playground").rglob("*.py"), *(ROOT / "rewards").rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            position = {"msg": 0, "_check": 2, "SpecError": 1}.get(name, 0 if name in ERRORS else None)
            if position is None or len(node.args) <= position:
                continue
            arg = node.args[position]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and KEY.match(arg.value):
                out.append((str(path.relative_to(ROOT)), arg.value))
    return out


def test_every_key_the_code_raises_is_in_the_catalogue():
    keys = raised_keys()
    assert len(keys) > 250  # the engine raises keys, not sentences
    assert [(f, k) for f, k in keys if k not in engine_table()] == []


def test_keys_kept_in_tables_are_in_the_catalogue():
    from playground.lab.graders import UNAVAILABLE_METRICS
    from playground.lab.probe import FAMILIES, LABELS
    from rewards.registry import list_specs

    kept = {s.export_refusal for s in list_specs() if s.export_refusal} | {*UNAVAILABLE_METRICS.values()}
    kept |= {f"lab_engine.verdict.{kind}" for kind in ("none", "good", "weak", "usable", "dominated")}
    kept |= {f"lab_engine.gamed.{family}" for family in (*FAMILIES, "generic")}
    kept |= {f"lab_engine.label.{label}" for label in LABELS}
    assert len(kept) > 30 and kept - set(engine_table()) == set()
