"""One catalogue of the playground's texts, each key with its English and its Chinese side by side.

The engine raises and reports keys: `msg(key, **values)` is a `Text`, a `str` that reads English (the CLI, the MCP
server and logs use it as it is) and that the page renders in the browser's language (`render(lang, message)`).
The page's own labels and help live here too, by tab. Names stay as they are in both languages: run spec fields,
reward and prompt set names, TRL's metric keys.

Each area is one small module with a `TEXTS` table of `key -> (English, Chinese)`; the keys of a module share its
namespace. A run field's help, English and Chinese, is `playground.texts.help.FIELDS` (the run spec's metadata reads
its English from there); a reward's help takes its English from the reward registry (the factory's docstring) and its
Chinese from `playground.texts.help`, which the page adds to these keys (help needs the run spec and the registry,
which themselves raise keys from here).
"""

from functools import lru_cache

from playground.texts import (
    admission,
    alerts,
    charts,
    cli,
    data,
    lab,
    lab_errors,
    lessons,
    page,
    rewards,
    runs,
    sandbox,
    settings,
    spec,
    tab_compare,
    tab_lab,
    tab_learn,
    tab_preview,
    tab_rewards,
    tab_runs,
    tab_train,
)
from playground.texts.core import LANGS, Text, engine_table, msg, placeholders, register, render, template


# what the engine raises and reports
AREAS = (admission, spec, data, rewards, sandbox, runs, alerts, lab_errors, lab, cli, settings)
PAGE = (page, lessons, tab_rewards, tab_preview, tab_train, tab_compare, tab_runs, tab_learn, tab_lab, charts)
for _area in (*AREAS, *PAGE):
    register(_area.TEXTS)


@lru_cache(maxsize=1)
def catalogue() -> dict[str, dict[str, str]]:
    """Every text by language: `{"en": {key: text}, "zh": {key: text}}` (the generated help keys are the page's)."""
    table = engine_table()
    return {lang: {key: pair[i] for key, pair in table.items()} for i, lang in enumerate(LANGS)}


__all__ = ["LANGS", "Text", "catalogue", "engine_table", "placeholders", "msg", "render", "template"]
