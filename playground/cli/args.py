"""TRL's argument parser over the run spec: `--<field>` flags with TRL's names and `--config file.yaml`.

`TrlParser` (an `HfArgumentParser`) turns each surfaced field of TRL's classes (`playground.spec.section_class`) into
a flag, its help into `--help`, and reads a YAML file given with `--config` as the flags' defaults (flags override
it), as `trl grpo` does. Every flag of every command takes both spellings, `--max_steps` and `--max-steps`.

The run spec (TRL's `GRPOConfig`, and with it transformers and torch) and the prompt source (`datasets`) are imported
by the functions that read them: a command without run fields (`rewards`, `--help`) starts without them.
"""

from __future__ import annotations

import argparse
import typing
from dataclasses import asdict, field, fields, make_dataclass
from typing import TYPE_CHECKING, Any

from trl import TrlParser

from playground.errors import PlaygroundError


if TYPE_CHECKING:
    from playground.spec import RunSpec


def underscored(parser: argparse.ArgumentParser, args: typing.Sequence[str] | None) -> list[str] | None:
    """`args` with `--a-b[=v]` spelled `--a_b[=v]` wherever the parser knows `--a_b`."""
    if args is None:
        return None
    out = []
    for arg in args:
        flag, sep, value = arg.partition("=")
        name = "--" + flag[2:].replace("-", "_")
        out.append(name + sep + value if flag.startswith("--") and name in parser._option_string_actions else arg)
    return out


class OneLine(argparse.ArgumentParser):
    """A parser whose errors are one line and exit code 2 (argparse prints the usage too by default), and whose
    flags take both spellings, `--num_prompts` and `--num-prompts`."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message}\n")

    def parse_known_args(self, args=None, namespace=None):
        return super().parse_known_args(underscored(self, args), namespace)


class Parser(OneLine, TrlParser):
    """`TrlParser` with `OneLine`'s errors and spellings."""


def data_args() -> type:
    """The prompt source as flags (`DATA_FLAGS`: `dataset_name`, `dataset_config`, …), help from `PromptSource`."""
    from playground.data.sources import PromptSource
    from playground.spec import DATA_FLAGS

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
    from playground.spec import DATA_FLAGS, SECTIONS

    out = {f.name: getattr(getattr(spec, section), f.name) for section, cls in SECTIONS.items() for f in fields(cls)}
    data = spec.data.to_dict()
    return out | {flag: data[key] for flag, key in DATA_FLAGS.items()}


def section_types() -> list[type]:
    """The spec's sections as the parser's dataclasses (help and choices in their metadata), then the prompt source."""
    from playground.spec import SECTIONS, section_class

    return [*(section_class(name, cls.__name__, parser=True) for name, cls in SECTIONS.items()), data_args()]


def add_run_fields(parser: argparse.ArgumentParser, *names: str, **defaults: Any) -> None:
    """Flags for these run fields on a command of its own (preview, dryrun, score), made by TRL's parser from the
    spec's sections as `train` makes them (TRL's names, types, help and choices), with `defaults` where the command's
    differ from the recipe's. `--model` and `--max_new_tokens` still name the model and the completion length."""
    older = {"model_name_or_path": "--model", "max_completion_length": "--max_new_tokens"}
    for f in (f for cls in section_types() for f in fields(cls) if f.name in names):
        f.default = defaults.get(f.name, f.default)
        TrlParser._parse_dataclass_field(parser, f)
        if f.name in older:
            kind = parser._option_string_actions[f"--{f.name}"].type
            parser.add_argument(
                older[f.name], dest=f.name, type=kind, default=argparse.SUPPRESS, help=argparse.SUPPRESS
            )


def build_spec(base: RunSpec, parsed: dict[str, Any]) -> RunSpec:
    """`base` with the parsed sections (`{"model": ModelArgs copy, ..., "data": DataArgs}`) in place."""
    from playground.data.sources import PromptSource, guess_kind, parse_column_map
    from playground.spec import DATA_FLAGS, SECTIONS, RunSpec, reporters

    spec = RunSpec.from_dict(base.to_dict())
    for section in SECTIONS:
        for name, value in asdict(parsed[section]).items():
            spec.set(name, value)
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
