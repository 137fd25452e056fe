"""Public mode's admission gate: one table of caps, and the price of a request computed from all its inputs before any
work starts.

Every handler of the public app reaches it: `playground.ui.common.bind` prices the raw inputs of every event (named
or not, so an event called by its `fn_index` is priced too), and the handlers that sample, score or load a model ask
for the price of what they are about to do (`check_sampling`, `check_group`, `check_selection`, `check_model`).
Each refusal is a `PlaygroundError` whose message names the cap and its environment variable.

The caps live in `Caps`, one dataclass of the settings (`playground.settings`): each field's metadata holds its
variable and its help, and docs/security.md shows the table that `caps_table()` writes (a test keeps the two equal).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import fields
from typing import Any

from playground.errors import PlaygroundError
from playground.settings import PROXY_HEADERS, Caps, current
from rewards.judge import ITEM


def _env(name: str) -> str:
    return next(f.metadata["env"] for f in fields(Caps) if f.name == name)


def refuse(name: str, value: Any, caps: Caps) -> PlaygroundError:
    """The refusal for cap `name` (a field of `Caps`): it names the cap, its variable, the limit and the value."""
    cap = getattr(caps, name)
    return PlaygroundError("admission.over", what=_what(name), cap=f"{cap:,}", env=_env(name), value=f"{value:,}")


def _what(name: str):
    from playground.texts import msg

    return msg(f"admission.what.{name}")


def _over(name: str, value: float, caps: Caps) -> None:
    if value > getattr(caps, name):
        raise refuse(name, value, caps)


def check_count(name: str, value: float, caps: Caps | None = None) -> None:
    """Refuse `value` over cap `name` (a field of `Caps`), as every check of the gate does."""
    _over(name, value, caps or Caps.from_env())


# --- sampling --------------------------------------------------------------------------------------------------------


def prompt_tokens(prompt: Any) -> int:
    """An estimate of a prompt's tokens made without a tokenizer: its UTF-8 bytes / 2, rounded up. SmolLM2's
    byte-level tokenizer averages over 3 bytes a token on English and about 2 on Chinese; no text takes more than one
    token a byte, which `max_prompt_tokens` × 2 bytes bounds in any case."""
    text = prompt if isinstance(prompt, str) else json.dumps(prompt, ensure_ascii=False)
    return math.ceil(len(text.encode("utf-8", "surrogatepass")) / 2)


def check_sampling(
    prompts: Iterable[Any] | int, num_generations: int, max_new_tokens: int, caps: Caps | None = None
) -> int:
    """Price one request that samples the app's model: G, new tokens, each prompt's tokens and the total
    prompts × G × (prompt tokens + new tokens). Returns the total. `prompts` may be a count, priced (as empty
    prompts) before the prompts are read."""
    caps = caps or Caps.from_env()
    g, new = int(num_generations), int(max_new_tokens)
    if not caps.min_generations <= g <= caps.max_generations:
        raise PlaygroundError("public.generations", low=caps.min_generations, high=caps.max_generations, value=g)
    if not 1 <= new <= caps.max_new_tokens:
        raise PlaygroundError("public.max_new_tokens", max=caps.max_new_tokens, value=new)
    if isinstance(prompts, int):
        total = max(prompts, 0) * g * new
        _over("max_sampled_tokens", total, caps)
        return total
    total = 0
    for prompt in prompts:
        tokens = prompt_tokens(prompt)
        _over("max_prompt_tokens", tokens, caps)
        total += g * (tokens + new)
    _over("max_sampled_tokens", total, caps)
    return total


# --- scoring ---------------------------------------------------------------------------------------------------------


def check_group(
    completions: Collection[Any],
    columns: Mapping[str, Any] | None = None,
    prompts: Iterable[Any] = (),
    caps: Caps | None = None,
) -> None:
    """Price a group to score: completions (count, each, together), every column value and prompt by size, and the
    completion × column characters that pairwise rewards (similarity) compare."""
    caps = caps or Caps.from_env()
    _over("max_completions", len(completions), caps)
    sizes = [len(c) if isinstance(c, str) else len(json.dumps(c, ensure_ascii=False)) for c in completions]
    _over("max_completion_chars", max(sizes, default=0), caps)
    _over("max_group_chars", sum(sizes), caps)
    column_chars = 0
    for value in [*_column_values(columns or {}), *prompts]:
        size = len(value) if isinstance(value, str) else len(json.dumps(value, ensure_ascii=False, default=str))
        _over("max_column_chars", size, caps)
        column_chars = max(column_chars, size)
    _over("max_pair_chars", sum(sizes) * column_chars, caps)


def check_judges(
    completions: Collection[Any],
    selection: Iterable[Any],
    caps: Caps | None = None,
    *,
    prompts: Iterable[Any] = (),
    columns: Mapping[str, Any] | None = None,
) -> None:
    """Price what each reward of `selection` that runs a model on the group reads (a formula's terms included): every
    completion with its prompt (the longest of `prompts`), and for a `judge` its rubric as filled for the row (each
    `{{item.<column>}}` counted at the longest value of that column in `columns`)."""
    caps = caps or Caps.from_env()
    prompt = max((prompt_tokens(p) for p in prompts), default=0)
    longest = {
        name: max((prompt_tokens(str(v)) for v in _column_values({name: value})), default=0)
        for name, value in (columns or {}).items()
    }
    for item in selection or []:
        for name, params in _model_readers(*_name_params(item)):
            rubric = str(params.get("rubric") or "") if name == "judge" else ""
            filled = prompt_tokens(rubric) + sum(longest.get(column, 0) for column in ITEM.findall(rubric))
            _over("max_judge_tokens", sum(prompt_tokens(c) + prompt + filled for c in completions), caps)


def _model_readers(name: str, params: Mapping[str, Any], depth: int = 0) -> list[tuple[str, Mapping[str, Any]]]:
    """(name, params) of each reward that runs a model over the group: `name` itself, or a term of a formula."""
    if name in MODEL_READERS:
        return [(name, params)]
    terms = params.get("terms")
    found: list[tuple[str, Mapping[str, Any]]] = []
    if isinstance(terms, str) and terms.strip() and depth < 4:
        try:
            bound = json.loads(terms)
        except ValueError:
            return []
        for term in bound.values() if isinstance(bound, dict) else ():
            if isinstance(term, dict):
                inner = term.get("params") if isinstance(term.get("params"), dict) else {}
                found += _model_readers(str(term.get("name")), inner, depth + 1)
    return found


MODEL_READERS = ("judge", "reward_model")  # rewards that run a model over each completion


def _column_values(columns: Mapping[str, Any]) -> list[Any]:
    values = []
    for value in columns.values():
        values += list(value) if isinstance(value, list | tuple) else [value]
    return values


# --- rewards and models ----------------------------------------------------------------------------------------------

PATTERN_PARAMS = {"regex": ("pattern",)}  # parameters compiled as regular expressions


def check_selection(selection: Iterable[Any], allowed_models: Collection[str] = (), caps: Caps | None = None) -> None:
    """Price a reward selection (dicts or `RewardChoice`s): how many rewards, each parameter's size (patterns have
    their own cap), and each model a reward loads (`check_model`), formula terms included."""
    caps = caps or Caps.from_env()
    items = list(selection or [])
    _over("max_rewards", len(items), caps)
    for item in items:
        name, params = _name_params(item)
        check_reward_params(name, params, allowed_models, caps)


def _name_params(item: Any) -> tuple[str, dict]:
    if isinstance(item, Mapping):
        params = item.get("params")
        return str(item.get("name", "")), params if isinstance(params, Mapping) else {}
    return str(getattr(item, "name", "")), dict(getattr(item, "params", None) or {})


def check_reward_params(
    name: str,
    params: Mapping[str, Any],
    allowed_models: Collection[str] = (),
    caps: Caps | None = None,
    depth: int = 0,
) -> None:
    """Price one reward's parameters, as a card, a selection or a formula term gives them. The parameters through
    which a reward loads a model are its spec's `loads_model` ones (an unknown reward's "model" too); a composite
    reward's terms are priced the same way."""
    from rewards.registry import REGISTRY

    caps = caps or Caps.from_env()
    spec = REGISTRY.get(name)
    models = {p.name for p in spec.params if p.loads_model} if spec is not None else {"model"}
    for key, value in params.items():
        text = value if isinstance(value, str) else ", ".join(map(str, value)) if isinstance(value, list) else ""
        if key in PATTERN_PARAMS.get(name, ()):
            _over("max_pattern_chars", len(text), caps)
        _over("max_param_chars", len(text), caps)
        if key in models and isinstance(value, str) and value.strip():
            check_model(value, allowed_models, caps)
    terms = params.get("terms") if spec is not None and spec.composite else None
    if isinstance(terms, str) and terms.strip() and depth < 4:
        try:
            bound = json.loads(terms)
        except ValueError:
            return  # the formula reward refuses it when it is built
        for term in bound.values() if isinstance(bound, dict) else ():
            if isinstance(term, dict) and isinstance(term.get("params"), dict):
                check_reward_params(str(term.get("name")), term["params"], allowed_models, caps, depth + 1)


def check_model(name: str | None, allowed: Collection[str] = (), caps: Caps | None = None) -> None:
    """A model in public mode: the embedded one, the app's own (`allowed`), or a Hub id (`org/name`) whose
    config.json, read before anything loads, gives at most `max_model_params` parameters. Never a folder of the
    server: it could hold another visitor's files, or a config made to fill the app's memory."""
    from playground.models import EMBEDDED, EMBEDDED_HUB_ID, is_hub_id

    name = (name or "").strip()
    if name in ("", EMBEDDED, EMBEDDED_HUB_ID) or name in allowed:  # the Hub id resolves to the embedded wheel
        return
    if not is_hub_id(name):
        raise PlaygroundError("public.model", name=name)
    caps = caps or Caps.from_env()
    config = _hub_config(name)
    if config is None:
        raise PlaygroundError("admission.no_config", name=name)
    _over("max_model_params", parameter_count(config), caps)


def _hub_config(repo: str) -> dict | None:
    """The Hub model's config.json, from the Hub cache or the Hub (offline: the cache only); None without one."""
    try:
        from huggingface_hub import hf_hub_download

        path = hf_hub_download(repo, "config.json")
    except Exception:  # offline, missing, gated, a bad id: no config, so the model is refused
        return None
    try:
        with open(path, "rb") as handle:
            data = json.loads(handle.read(1_000_000))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def parameter_count(config: Mapping[str, Any]) -> int:
    """A transformer's parameters from its config alone (no weights, no code): embeddings plus, per layer,
    attention (4 h²) and the MLP (3 h × intermediate for gated MLPs). Nested `text_config`s are read too."""
    text = config.get("text_config")
    if isinstance(text, Mapping):
        return parameter_count(text)

    def number(*keys: str, default: float = 0) -> float:
        for key in keys:
            value = config.get(key)
            if isinstance(value, int | float) and not isinstance(value, bool):
                return float(value)
        return default

    hidden = number("hidden_size", "n_embd", "d_model", "dim")
    layers = number("num_hidden_layers", "n_layer", "num_layers", "n_layers")
    inner = number("intermediate_size", "n_inner", "ffn_dim", "hidden_dim", default=4 * hidden)
    vocab = number("vocab_size")
    tied = config.get("tie_word_embeddings", True) is not False
    total = vocab * hidden * (1 if tied else 2) + layers * (4 * hidden * hidden + 3 * hidden * inner)
    return int(min(total, 2**62))


# --- uploaded files (priced in the upload worker, `playground.data.upload_worker`) ----------------------------------


def check_upload_lines(text: str, caps: Caps) -> None:
    """Price the lines of a CSV or JSONL file before any is parsed: each at most `max_upload_row_chars`. A line of a
    hundred thousand keys is refused here, not materialized."""
    newline = "\n" if "\n" in text else "\r"
    start = 0
    while True:
        end = text.find(newline, start)
        stop = len(text) if end < 0 else end
        _over("max_upload_row_chars", stop - start, caps)
        if end < 0:
            return
        start = end + 1


def check_upload_row(row: Mapping[str, Any], caps: Caps) -> None:
    """Price one parsed row of an uploaded file: its columns, its keys (nested ones included), the nesting of its
    values and each value's characters."""
    _over("max_upload_columns", len(row), caps)
    keys = [0]

    def walk(value: Any, depth: int) -> None:
        _over("max_upload_depth", depth, caps)
        if isinstance(value, str):
            _over("max_upload_cell_chars", len(value), caps)
        elif isinstance(value, Mapping):
            keys[0] += len(value)
            _over("max_upload_keys", keys[0], caps)
            for key, item in value.items():
                walk(key, depth)
                walk(item, depth + 1)
        elif isinstance(value, list | tuple):
            _over("max_upload_cell_chars", len(value), caps)
            for item in value:
                walk(item, depth + 1)

    walk(row, 0)


def check_upload_columns(rows: Iterable[Mapping[str, Any]], caps: Caps) -> None:
    """Price the columns of a file's rows together (each row may bring keys of its own)."""
    columns: set[str] = set()
    for row in rows:
        columns.update(row)
        _over("max_upload_columns", len(columns), caps)


# --- any event's raw inputs ------------------------------------------------------------------------------------------


def check_inputs(values: Iterable[Any], caps: Caps | None = None) -> None:
    """Price an event's raw inputs, whatever the event: each text at most `max_field_chars`, all together at most
    `max_request_chars` (tables and lists counted cell by cell), and any reward selection among them."""
    caps = caps or Caps.from_env()
    total = 0
    for value in values:
        total += _chars(value, caps, 0)
        _over("max_request_chars", total, caps)
        if _is_selection(value):
            check_selection(value, caps=caps)


def _chars(value: Any, caps: Caps, depth: int) -> int:
    if hasattr(value, "columns") and hasattr(value, "to_dict"):  # a table (a pandas DataFrame), cell by cell
        value = value.to_dict("split")
    if isinstance(value, str):
        _over("max_field_chars", len(value), caps)
        return len(value)
    if depth > 8:
        return 0
    if isinstance(value, Mapping):
        return sum(_chars(k, caps, depth + 1) + _chars(v, caps, depth + 1) for k, v in value.items())
    if isinstance(value, list | tuple):
        return sum(_chars(v, caps, depth + 1) for v in value)
    return 0


def _is_selection(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, Mapping) and "name" in v for v in value)


# --- the client's address --------------------------------------------------------------------------------------------

_FORWARDED_FOR = re.compile(r'(?:^|;)\s*for\s*=\s*("[^"]*"|[^;,\s]*)', re.IGNORECASE)


def proxy_hops() -> int:
    """How many proxies in front of the app add an entry to the forwarding header (`PLAYGROUND_PROXY_HOPS`): 0
    (the default) trusts no header, 1 is a Space (its proxy appends the visitor's address)."""
    return current().proxy_hops


def trusted_proxies(hops: int) -> str:
    """uvicorn's trusted-proxy list (its `FORWARDED_ALLOW_IPS`) for `hops` trusted proxies. With none, no address
    (loopback included) may rewrite the connection's address or scheme: uvicorn otherwise trusts 127.0.0.1, so a
    same-host tunnel (`--share`) or a proxy that does not append would let a visitor's `X-Forwarded-For` choose its
    own address. With proxies, every connection comes through them: uvicorn may take their scheme (`https`), and the
    app still reads the address itself (`client_address`), never uvicorn's choice of entry."""
    return "*" if hops > 0 else ""


def proxy_header() -> str:
    """The header the trusted proxy appends to (`PLAYGROUND_PROXY_HEADER`): `x-forwarded-for` (the default, a
    Space's) or `forwarded` (RFC 7239). The other one is never read: a visitor can write either."""
    return current().proxy_header


def forwarded_entries(headers: Mapping[str, str] | Iterable[tuple[str, str]], header: str = PROXY_HEADERS[0]) -> list:
    """The addresses in `header` (`X-Forwarded-For`, or `Forwarded`'s `for=`), in order, every header line joined."""
    items = headers.items() if isinstance(headers, Mapping) else headers
    entries: list[str] = []
    for key, value in items:
        if key.lower() != header:
            continue
        if header == "forwarded":
            for element in value.split(","):
                found = _FORWARDED_FOR.search(element)
                entries.append(_bare_address(found.group(1)) if found else "")
        else:
            entries += [part.strip() for part in value.split(",")]
    return entries


def _bare_address(value: str) -> str:
    value = value.strip().strip('"')
    if value.startswith("["):  # "[2001:db8::1]:4711"
        return value[1 : value.find("]")] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


def client_address(
    peer: str | None, headers: Mapping[str, str] | Iterable[tuple[str, str]], hops: int, header: str = PROXY_HEADERS[0]
) -> str | None:
    """The visitor's address: with `hops` trusted proxies, the `hops`-th entry from the right of the forwarding
    header (the one the outermost trusted proxy wrote; what the visitor wrote lies to its left); without trusted
    proxies, or with fewer entries than hops, the address of the connection itself."""
    if hops > 0:
        entries = forwarded_entries(headers, header)
        if len(entries) >= hops and entries[-hops]:
            return entries[-hops]
    return peer
