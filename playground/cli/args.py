"""TRL's argument parser over the run spec's dataclasses: `--<field>` flags with TRL's names and `--config file.yaml`.

`TrlParser` (an `HfArgumentParser`) turns each dataclass field into a flag, its metadata's help into `--help`, and
reads a YAML file given with `--config` as the flags' defaults (flags override it), as `trl grpo` does. The parser
works on copies of the spec's dataclasses, because `HfArgumentParser` rewrites the `type` of the fields it is given.
"""

from __future__ import annotations

import argparse
import typing
from dataclasses import MISSING, asdict, field, fields, make_dataclass
from typing import Any

from trl import TrlParser

from playground.data.sources import PromptSource, guess_kind, parse_column_map
from playground.errors import PlaygroundError
from playground.spec import DATA_FLAGS, GRPOArgs, LoraArgs, ModelArgs, RunSpec, reporters


SECTIONS = {"model": ModelArgs, "grpo": GRPOArgs, "lora": LoraArgs}


class Parser(TrlParser):
    """`TrlParser` whose errors are one line and exit code 2 (argparse prints the usage too by default)."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message}\n")


def parser_copy(cls: type, name: str | None = None, types: dict[str, Any] | None = None) -> type:
    """A new dataclass with `cls`'s fields (resolved types, defaults, help), for the parser to rewrite."""
    hints = typing.get_type_hints(cls)
    specs = []
    for f in fields(cls):
        default = {"default": f.default} if f.default is not MISSING else {"default_factory": f.default_factory}
        specs.append((f.name, (types or {}).get(f.name, hints[f.name]), field(metadata=dict(f.metadata), **default)))
    return make_dataclass(name or cls.__name__, specs)


def data_args() -> type:
    """The prompt source as flags (`DATA_FLAGS`: `dataset_name`, `dataset_config`, …), help from `PromptSource`."""
    source = {f.name: f for f in fields(PromptSource)}
    hints = typing.get_type_hints(PromptSource)
    specs = []
    for flag, key in DATA_FLAGS.items():
        f = source[key]
        kind = str | None if key == "column_map" else hints[key]  # typed as text: question=prompt,solution=answer
        default = None if key == "column_map" else f.default
        specs.append((flag, kind, field(default=default, metadata=dict(f.metadata))))
    return make_dataclass("DataArgs", specs)


def spec_defaults(spec: RunSpec) -> dict[str, Any]:
    """{flag: value} of a spec, to become the parser's defaults."""
    out = {f.name: getattr(getattr(spec, section), f.name) for section, cls in SECTIONS.items() for f in fields(cls)}
    data = spec.data.to_dict()
    out |= {flag: data[key] for flag, key in DATA_FLAGS.items()}
    return out


def build_spec(base: RunSpec, parsed: dict[str, Any]) -> RunSpec:
    """`base` with the parsed sections (`{"model": ModelArgs copy, ..., "data": DataArgs}`) in place."""
    spec = RunSpec.from_dict(base.to_dict())
    for section, cls in SECTIONS.items():
        values = asdict(parsed[section])
        for name, value in values.items():
            if isinstance(value, list):
                values[name] = [item.strip() for v in value for item in str(v).split(",") if item.strip()]
        setattr(spec, section, cls(**values))
    spec.grpo.report_to = reporters(spec.grpo.report_to)
    data = asdict(parsed["data"])
    source = {key: data[flag] for flag, key in DATA_FLAGS.items()}
    if isinstance(source["column_map"], str):
        source["column_map"] = parse_column_map(source["column_map"])
    elif source["column_map"] is None:
        source["column_map"] = dict(base.data.column_map)
    if source["kind"] == base.data.kind and source["name"] != base.data.name:
        source["kind"] = guess_kind(source["name"]) or source["kind"]  # a name is read as what it looks like
    spec.data = PromptSource.from_dict(source)
    return spec


def column_values(items: list[str]) -> dict[str, str]:
    """`--column NAME=VALUE` flags as {name: value}; a malformed one raises a one-line error."""
    columns = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise PlaygroundError("cli.column_malformed", item=item)
        columns[key] = value
    return columns


def one_line(parser: argparse.ArgumentParser, exc: BaseException) -> typing.NoReturn:
    """Report a config-file problem (unreadable, not YAML, not a mapping) as a parser error."""
    text = getattr(exc, "strerror", None) and f"{exc.strerror}: {getattr(exc, 'filename', '')}"
    parser.error(str(text or exc).splitlines()[0])
