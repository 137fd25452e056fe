"""Every UI text exists in English and Chinese, and every key the UI modules use is defined."""

import ast
import re
import string
from pathlib import Path

import pytest

from playground.training.store import STATUSES
from playground.ui.i18n import EN, I18N, ZH, t, tr
from playground.ui.rewards_tab import FAMILIES


UI = Path(__file__).resolve().parents[2] / "playground" / "ui"
NAMESPACES = ("app", "table", "score", "flag", "rewards", "preview", "train", "compare", "runs", "learn")
KEY = re.compile(rf"^({'|'.join(NAMESPACES)})\.[a-z0-9_]+(\.[a-z0-9_]+)*$")
# Keys built at run time from a value: f"rewards.family.{family}", f"flag.{code}", f"train.status.{status}".
FLAG_CODES = ("non_finite", "none", "unscorable", "zero_std", "dominates")


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
    )


def test_both_languages_have_the_same_keys():
    assert sorted(set(EN) - set(ZH)) == [] and sorted(set(ZH) - set(EN)) == []
    assert I18N.translations_dict == {"en": EN, "zh": ZH}


def test_every_key_is_namespaced_by_tab():
    assert [k for k in EN if not KEY.match(k)] == []


@pytest.mark.parametrize("key", sorted(literal_keys() | dynamic_keys()))
def test_every_key_used_in_the_ui_exists(key):
    assert key in EN and key in ZH


def test_the_ui_uses_keys_at_all():
    assert len(literal_keys()) > 50  # guards the scan above against silently finding nothing


@pytest.mark.parametrize("key", sorted(EN))
def test_placeholders_match_between_languages(key):
    def fields(text):
        return sorted({name for _, name, _, _ in string.Formatter().parse(text) if name})

    assert fields(EN[key]) == fields(ZH[key])
    assert ZH[key].strip() and ZH[key] != EN[key] or key in {"train.lora"}


def test_runtime_texts_follow_the_language():
    assert tr("zh", "train.progress", step=2, total=5, eta="3s") == "第 2 / 5 步 · 预计剩余 3s"
    assert tr("fr", "train.start") == EN["train.start"]  # unknown languages fall back to English
    with pytest.raises(KeyError):
        t("train.no_such_key")
