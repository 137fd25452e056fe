"""Every UI text exists in English and Chinese, and every key the UI modules use is defined."""

import ast
import re
import string
from pathlib import Path

import pytest

from playground.data.sources import BUILTIN_SETS
from playground.texts import render
from playground.training.store import STATUSES
from playground.ui.charts import SLUGS
from playground.ui.i18n import EN, GRADIO_MISSING, I18N, ZH, field_help, t, tr
from playground.ui.rewards_tab import FAMILIES
from playground.ui.runs_tab import COLUMNS as RUNS_COLUMNS
from rewards.registry import list_specs


UI = Path(__file__).resolve().parents[2] / "playground" / "ui"
NAMESPACES = (
    "app",
    "table",
    "score",
    "flag",
    "rewards",
    "preview",
    "train",
    "compare",
    "runs",
    "learn",
    "chart",
    "lab",
    # what the engine raises and reports (playground/texts/: admission, spec, data, rewards, sandbox, runs, alerts,
    # lab_errors, lab, cli, settings)
    "admission",
    "settings",
    "retention",  # how long runs are kept (playground/texts/admission.py)
    *"spec public data model reward scoring sandbox job access export alert lab_engine warmup cli mcp".split(),
)
KEY = re.compile(rf"^({'|'.join(NAMESPACES)})\.[a-z0-9_]+(\.[a-z0-9_]+)*$")
# Keys built at run time from a value: f"rewards.family.{family}", f"flag.{code}", f"train.status.{status}".
FLAG_CODES = ("non_finite", "none", "unscorable", "zero_std", "clipped", "flat", "dominates")


def literal_keys() -> set[str]:
    keys = set()
    for path in UI.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and KEY.match(node.value):
                if not node.value.endswith(".py"):  # "app.py" in a message is a file name, not a key
                    keys.add(node.value)
    return keys


def dynamic_keys() -> set[str]:
    return (
        {f"rewards.family.{f}" for f in FAMILIES}
        | {f"flag.{code}" for code in FLAG_CODES}
        | {f"train.status.{status}" for status in STATUSES}
        | {f"train.state.{status}" for status in STATUSES}
        | {f"runs.col.{column}" for column in RUNS_COLUMNS}
        | {f"chart.{slug}.{part}" for slug in [*SLUGS.values(), "overlay"] for part in ("title", "y", "caption")}
        | {f"chart.series.{series}" for series in ("series", "function", "metric", "run")}
        | {f"train.alert.{code}" for code in ALERT_CODES}
        | generated_text_keys()
    )


# Codes of the alerts playground/training/health.py raises (each has a translated text).
ALERT_CODES = ("no_signal", "constant_reward", "clipped", "collapse", "kl_spike", "dominant_reward", "flat_reward")
ALERT_CODES += ("length_hacking", "nothing_to_weigh")


def generated_text_keys() -> set[str]:
    """Every reward description and parameter help, Train field help and built-in prompt set."""
    keys = {f"rewards.desc.{s.name}" for s in list_specs()}
    keys |= {f"rewards.param.{s.name}.{p.name}" for s in list_specs() for p in s.params}
    keys |= {f"train.help.{name}" for name in field_help()}
    return keys | {f"preview.set.{name}" for name in BUILTIN_SETS}


def test_every_reward_field_and_prompt_set_text_has_chinese():
    keys = sorted(generated_text_keys())
    assert len(keys) > 100  # every reward, parameter, Train field and built-in set
    no_english = [key for key in keys if not EN.get(key, "").strip()]
    no_chinese = [key for key in keys if not ZH.get(key, "").strip() or ZH[key] == EN.get(key)]
    assert (no_english, no_chinese) == ([], []), "no text, or no Chinese in playground/texts/help.py"


def test_every_alert_code_in_the_engine_has_a_text():
    source = (Path(__file__).resolve().parents[2] / "playground" / "training" / "health.py").read_text()
    codes = set(re.findall(r'Alert\(\s*"([a-z_]+)"', source))
    assert codes and codes <= set(ALERT_CODES), sorted(codes - set(ALERT_CODES))


ENGINE_MESSAGES = [  # what a first session meets, raised by the engine; each must read as Chinese on the zh page
    ("num_generations", 1),
    ("max_steps", 0),
    ("learning_rate", 1.0),
    ("beta", -1.0),
    ("temperature", 0.0),
    ("top_p", 2.0),
    ("lora_r", 0),
    ("steps_per_generation", -1),
    ("per_device_train_batch_size", 3),
]


@pytest.mark.parametrize(("field", "value"), ENGINE_MESSAGES)
def test_validation_messages_are_translated(field, value):
    from playground.errors import SpecError
    from playground.spec import demo_spec
    from playground.validation import validate_spec

    spec = demo_spec()
    spec.set(field, value)
    with pytest.raises(SpecError) as caught:
        validate_spec(spec)
    english = str(caught.value)
    chinese = render("zh", caught.value)
    assert caught.value.key.startswith("spec.")  # raised with its catalogue key
    assert chinese != english and re.search(r"[\u4e00-\u9fff]", chinese), english
    assert render("en", caught.value) == english


@pytest.mark.parametrize(
    "source",
    [
        {"kind": "builtin", "name": "no such set"},
        {"kind": "file", "name": "/no/such/file.csv"},
        {"kind": "hub", "name": "someuser/no-such-dataset"},
    ],
)
def test_data_messages_are_translated(source, monkeypatch):
    from playground.data.sources import PromptSource, load_prompts
    from playground.errors import DataError

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(DataError) as caught:
        load_prompts(PromptSource(**source))
    assert re.search(r"[\u4e00-\u9fff]", render("zh", caught.value)), str(caught.value)


def test_both_languages_have_the_same_keys():
    assert sorted(set(EN) - set(ZH)) == [] and sorted(set(ZH) - set(EN)) == []
    gradio_en = {key: pair[0] for key, pair in GRADIO_MISSING.items()}  # keys Gradio's frontend asks for
    gradio_zh = {key: pair[1] for key, pair in GRADIO_MISSING.items()}
    assert I18N.translations_dict == {"en": EN | gradio_en, "zh": ZH | gradio_zh}


def test_every_key_is_namespaced_by_tab():
    assert [k for k in EN if not KEY.match(k)] == []


def test_every_key_used_in_the_ui_exists():
    assert sorted(key for key in literal_keys() | dynamic_keys() if key not in EN or key not in ZH) == []


def test_the_ui_uses_keys_at_all():
    assert len(literal_keys()) > 50  # guards the scan above against silently finding nothing


def test_placeholders_match_between_languages():
    def fields(text):
        return sorted({name for _, name, _, _ in string.Formatter().parse(text) if name})

    assert len(EN) > 1000
    mismatched = {key: (fields(EN[key]), fields(ZH[key])) for key in EN if fields(EN[key]) != fields(ZH[key])}
    untranslated = [key for key in EN if not ZH[key].strip() or ZH[key] == EN[key] and key not in {"train.lora"}]
    assert (mismatched, untranslated) == ({}, [])


def test_runtime_texts_follow_the_language():
    assert tr("zh", "train.progress", step=2, total=5, eta="3s") == "第 2 / 5 步 · 整个训练预计剩余 3s"
    assert tr("fr", "train.start") == EN["train.start"]  # unknown languages fall back to English
    with pytest.raises(KeyError):
        t("train.no_such_key")


@pytest.mark.parametrize("code", ["", "x = 1\n", "def f(:\n    pass\n", "def f(x):\n    return [1.0]\n"])
def test_custom_code_check_messages_are_translated(code):
    from playground.sandbox import inspect_code
    from playground.ui.custom_code import issue_text

    (issue, *_) = inspect_code(code).errors
    english = issue_text(issue)
    assert re.search(r"[\u4e00-\u9fff]", render("zh", english)), english
