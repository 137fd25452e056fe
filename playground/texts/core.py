"""The catalogue's machinery: a `Text` is an English sentence that remembers its key and values.

`msg(key, **values)` looks the key up in the engine's tables and returns a `Text`: a `str` whose value is the
English sentence, so that the CLI, the MCP server, logs and every `str()` read English as before, while the page
renders `key` and `values` in the browser's language with `render(lang, message)`. A value may itself be a `Text`
(a phrase such as "file 'x.csv'"); it is rendered in the same language.
"""

from __future__ import annotations

import string
from typing import Any

from playground.texts.details import explained


LANGS = ("en", "zh")
_INDEX = {"en": 0, "zh": 1}
_TABLE: dict[str, tuple[str, str]] = {}


def register(table: dict[str, tuple[str, str]]) -> None:
    """Add one area's `key -> (English, Chinese)` table to the engine's texts; a key may be defined once."""
    for key, pair in table.items():
        if key in _TABLE and _TABLE[key] != pair:
            raise ValueError(f"Text key {key!r} is defined twice")
        if not (isinstance(pair, tuple) and len(pair) == 2):
            raise ValueError(f"Text key {key!r} needs (English, Chinese)")
        _TABLE[key] = pair


def engine_table() -> dict[str, tuple[str, str]]:
    """Every key the engine can raise or report, with its English and Chinese templates."""
    return dict(_TABLE)


def template(key: str, lang: str) -> str:
    pair = _TABLE[key]
    return pair[_INDEX.get(lang, 0)] or pair[0]


def placeholders(template_text: str) -> set[str]:
    """The names a template fills in (`{name}`, `{value!r}`, `{share:.0%}` all count as their name)."""
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(template_text) if name}


def _value(value: Any, lang: str) -> Any:
    if isinstance(value, Text):
        return value.render(lang)
    if isinstance(value, list | tuple) and any(isinstance(v, Text) for v in value):
        return type(value)(_value(v, lang) for v in value)
    return value


class Text(str):
    """An English sentence from the catalogue that keeps its `key` and `values` for other languages.

    It is a `str`, so code that joins, logs or compares messages works unchanged; it pickles and deep-copies as
    itself (a message crosses processes and `dataclasses.asdict`), and becomes plain English in JSON.
    """

    key: str
    values: dict[str, Any]

    def __new__(cls, key: str, values: dict[str, Any] | None = None) -> Text:
        values = dict(values or {})
        self = super().__new__(cls, _fill(key, values, "en"))
        self.key = key
        self.values = values
        return self

    def __reduce__(self):
        return (Text, (self.key, self.values))

    def render(self, lang: str | None) -> str:
        """The sentence in `lang` ('en' or 'zh'; anything else reads English)."""
        return _fill(self.key, self.values, lang or "en")

    def to_json(self) -> dict[str, Any]:
        """The key and values, for a JSON file the page reads back (`Text.from_json`)."""
        return {
            "key": self.key,
            "values": {k: v.to_json() if isinstance(v, Text) else v for k, v in self.values.items()},
        }

    @classmethod
    def from_json(cls, data: Any) -> Any:
        """A `Text` from `to_json`'s dict; anything else (an older file's plain sentence) is returned as it is."""
        if isinstance(data, dict) and set(data) == {"key", "values"} and data["key"] in _TABLE:
            values = {k: cls.from_json(v) for k, v in (data["values"] or {}).items()}
            return cls(data["key"], values)
        return data


def _fill(key: str, values: dict[str, Any], lang: str) -> str:
    filled = {name: (lang == "zh" and explained(name, value)) or _value(value, lang) for name, value in values.items()}
    return template(key, lang).format(**filled)


def originals(message: Any) -> list[str]:
    """The library messages (a parser's, Python's) that `render` explains in Chinese inside `message`, as written:
    the page keeps them in a collapsible detail."""
    if isinstance(message, BaseException):
        message = message.args[0] if len(message.args) == 1 else None
    if not isinstance(message, Text):
        return []
    found = []
    for name, value in message.values.items():
        if isinstance(value, Text):
            found += originals(value)
        elif explained(name, value):
            found.append(value.strip())
    return found


def msg(key: str, /, **values: Any) -> Text:
    """The catalogue's sentence `key` with `values` filled in: English as a `str`, renderable in any language."""
    if key not in _TABLE:
        raise KeyError(f"Unknown text key {key!r}")
    return Text(key, values)


def render(lang: str | None, message: Any) -> str:
    """`message` in `lang`: a `Text` (or an error carrying one) in that language, a plain sentence (from a library)
    as it is, None as ""."""
    if isinstance(message, BaseException):
        message = message.args[0] if len(message.args) == 1 else str(message)
    if isinstance(message, Text):
        return message.render(lang)
    return "" if message is None else str(message)
