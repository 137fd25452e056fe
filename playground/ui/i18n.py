"""The page's access to the text catalogue (`playground.texts`), keyed by tab (`train.start`, `preview.generate`, ...).

Static texts (labels, headings) go through `t(key)`: Gradio's `gr.I18n` translates them in the browser, following its
locale. Texts made by handlers (status lines, table headers, messages) go through `tr(lang, key, **values)`, with
`lang` taken from the request's Accept-Language, because `gr.I18n` only translates what the page was built with.
Field names of the run spec and metric names stay TRL's, untranslated, so that users can look them up in TRL's docs.
"""

import gradio as gr

from playground.data.sources import BUILTIN_SETS
from playground.spec import DATA_FLAGS, flat_fields
from playground.texts import catalogue
from playground.texts.help import FIELDS, PARAMS, REWARDS, SETS, info_text, markdown_text
from playground.texts.page import GRADIO_MISSING
from rewards.registry import list_specs


def field_help() -> dict[str, str]:
    """English help of every Train field (flat run spec fields and prompt-source flags), as their metadata holds it."""
    return {name: FIELDS[name][0] for name in [*(f.name for _, f in flat_fields()), *DATA_FLAGS]}


def card_head(spec, description: str, texts: dict[str, str]) -> str:
    """A reward card's head, one Markdown text (the browser translates whole keys only, and each block costs the page
    work on every event): the reward's name, what it rewards, and the data set columns it needs."""
    head = f"#### `{spec.name}`\n\n{description}"
    if spec.columns:
        needs = texts["rewards.needs_columns"]
        gap = "" if needs.endswith("：") else " "  # no space after a full-width colon
        head += f"\n\n{needs}{gap}" + ", ".join(f"`{c}`" for c in spec.columns)
    return head


def generated_keys() -> tuple[dict[str, str], dict[str, str]]:
    """(EN, ZH) keys: `rewards.desc.<reward>` (a card's head: `card_head`), `rewards.param.<reward>.<param>`,
    `train.help.<field>`, `preview.set.<name>`."""
    en: dict[str, str] = {}
    zh: dict[str, str] = {}

    def add(key: str, english: str, chinese: str | None) -> None:
        en[key] = english
        if chinese:
            zh[key] = chinese

    texts = catalogue()
    for spec in list_specs():
        desc = REWARDS.get(spec.name)
        english = card_head(spec, markdown_text(spec.description), texts["en"])
        add(f"rewards.desc.{spec.name}", english, desc and card_head(spec, markdown_text(desc), texts["zh"]))
        for p in spec.params:
            zh_help = PARAMS.get(f"{spec.name}.{p.name}")
            add(f"rewards.param.{spec.name}.{p.name}", info_text(p.help), zh_help and info_text(zh_help))
    for name, text in field_help().items():
        add(f"train.help.{name}", info_text(text), name in FIELDS and info_text(FIELDS[name][1]))
    for name, text in BUILTIN_SETS.items():
        add(f"preview.set.{name}", f"{name} — {text}", f"{name} — {SETS[name]}" if name in SETS else None)
    return en, zh


_HELP_EN, _HELP_ZH = generated_keys()
EN: dict[str, str] = catalogue()["en"] | _HELP_EN
ZH: dict[str, str] = catalogue()["zh"] | _HELP_ZH
TRANSLATIONS = {"en": EN, "zh": ZH}

# Labels Gradio draws in English whatever the page's language (not through its i18n, so not translatable here): the
# table's "Copy table data" button, the "Fullscreen" button of tables and images, and the queue's progress text.
GRADIO_ENGLISH_ONLY = ("Copy table data", "Fullscreen", "queue: 1/1 | 0.6/0.5s")

# Browsers report Chinese as zh-CN, zh-TW, ...; the frontend falls back from those to "zh".
I18N = gr.I18n(
    en=EN | {key: pair[0] for key, pair in GRADIO_MISSING.items()},
    zh=ZH | {key: pair[1] for key, pair in GRADIO_MISSING.items()},
)


def t(key: str) -> gr.i18n.I18nData:
    """A static text, translated in the browser."""
    if key not in EN:
        raise KeyError(f"Unknown UI text key {key!r}")
    return I18N(key)


def tr(lang: str | None, key: str, **values) -> str:
    """A text made at run time, in `lang` ('en' or 'zh'), with `values` filled in.

    `lang=None` is for text built into the page when the app is built: the key is left for the browser to translate
    (only one key per string, and without values).
    """
    if lang is None:
        if values:
            raise ValueError(f"{key!r}: texts with values cannot be left for the browser to translate")
        return str(t(key))
    text = TRANSLATIONS.get(lang, EN).get(key) or EN[key]
    return text.format(**values) if values else text
