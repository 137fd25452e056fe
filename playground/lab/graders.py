"""OpenAI reinforcement fine-tuning graders <-> playground rewards.

`import_grader` turns an OpenAI grader JSON (string_check, text_similarity, score_model, python, multi) into a
reward selection (`[{"name", "weight", "params"}]`) plus, for python graders, custom code that wraps the grader's
`grade(sample, item)` for the sandbox. Templates map to dataset columns: `{{item.answer}}` reads the `answer`
column (in a score_model's messages the judge fills it per row), `{{sample.output_text}}` is the completion. Each
string_check operation and text_similarity metric computes what OpenAI documents (see `rewards.similarity`); what
cannot run here (label_model, the `cosine` and `meteor` metrics, images, tools) is refused with the reason, and what
runs differently (a local judge instead of an OpenAI model) is said in `messages`. multi formulas take OpenAI's
operators (`^` is power) and functions (min, max, abs, floor, ceil, exp, sqrt, log). `export_grader` goes the other
way where a reward maps.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, field
from typing import Any

from playground.errors import PlaygroundError
from playground.texts import msg
from rewards.judge import ITEM


_ITEM = re.compile(r"^\s*\{\{\s*item\.([A-Za-z_][\w]*)\s*\}\}\s*$")
_SAMPLE = re.compile(r"^\s*\{\{\s*sample\.output_text\s*\}\}\s*$")
_ANY_SAMPLE = re.compile(r"\{\{\s*sample\.output_text\s*\}\}")  # OpenAI writes it with or without spaces
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
# OpenAI text_similarity metrics -> the similarity reward's metrics (the same computation, see rewards.similarity).
SIMILARITY_METRICS = {m: m for m in ("fuzzy_match", "bleu", "gleu", "rouge_l", *(f"rouge_{n}" for n in range(1, 6)))}
# Metrics that cannot run here, and the catalogue key of why: refused, never replaced by another metric.
UNAVAILABLE_METRICS = {"cosine": "lab_engine.why_cosine", "meteor": "lab_engine.why_meteor"}
PYTHON_ERRORS = ("zero", "raise")


@dataclass
class Imported:
    selection: list[dict[str, Any]] = field(default_factory=list)
    code: str = ""  # custom reward code (python graders), for the sandbox
    columns: list[str] = field(default_factory=list)  # dataset columns the rewards read
    messages: list[str] = field(default_factory=list)  # what did not map exactly, in plain words
    # The grader's own name for each selected reward (`signature(item) -> name`), which `export_grader` gives back
    names: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"selection": self.selection, "code": self.code, "columns": self.columns, "messages": self.messages}


def signature(item: dict[str, Any]) -> str:
    """One selected reward's name and resolved parameters as a key: the same after the Rewards tab's cards hold it."""
    from rewards.registry import REGISTRY, resolve_params

    name, params = item["name"], item.get("params") or {}
    try:
        params = resolve_params(name, params) if name in REGISTRY else params
    except Exception:  # a parameter the cards refuse: no name to keep
        pass
    return json.dumps({"name": name, "params": params}, sort_keys=True, default=str)


def import_grader(grader: dict[str, Any] | str, python_errors: str = "zero") -> Imported:
    """
    The rewards that stand for an OpenAI grader (a dict or its JSON text). `python_errors="zero"` scores a sample
    whose python grader raises 0.0, as OpenAI does; `"raise"` stops the call with the error instead.
    """
    if python_errors not in PYTHON_ERRORS:
        raise PlaygroundError("lab_engine.python_errors", valid=list(PYTHON_ERRORS), value=python_errors)
    if isinstance(grader, str):
        try:
            grader = json.loads(grader)
        except json.JSONDecodeError as exc:
            raise PlaygroundError("lab_engine.grader_json", line=exc.lineno, error=exc.msg) from None
    if not isinstance(grader, dict) or "type" not in grader:
        raise PlaygroundError("lab_engine.grader_shape")
    out = Imported()
    if grader["type"] == "multi":
        _multi(grader, out)
        if grader.get("name"):
            out.names[signature(out.selection[-1])] = _name(grader["name"], "multi")
    else:
        name = _name(grader.get("name"), "grader")
        term = _term(grader, name, out, python_errors)
        if "range" in term:
            term = _ranged_judge(term)
        out.selection.append({"name": term["name"], "weight": 1.0, "params": term.get("params", {})})
        if grader.get("name"):
            out.names[signature(out.selection[-1])] = name
    out.columns = sorted(set(out.columns))
    return out


def _name(value: Any, default: str) -> str:
    text = re.sub(r"\W+", "_", str(value or default)).strip("_").lower() or default
    return text if not text[0].isdigit() else f"g_{text}"


def _literal_check(reference: str, operation: str) -> dict[str, Any]:
    """A string_check against a literal reference as the regex reward: the same 1.0/0.0, exact (nothing stripped)."""
    text = re.escape(reference)
    pattern, mode = {
        "eq": (f"(?s){text}", "fullmatch"),
        "ne": (rf"(?s)(?!{text}\Z).*", "fullmatch"),
        "like": (f"(?s){text}", "search"),
        "ilike": (f"(?si){text}", "search"),
    }[operation]
    return {"name": "regex", "params": {"pattern": pattern, "mode": mode}}


_LITERAL_FORMS = {  # (regex prefix, suffix, mode) -> string_check operation: `_literal_check` read back
    ("(?s)", "", "fullmatch"): "eq",
    ("(?s)(?!", r"\Z).*", "fullmatch"): "ne",
    ("(?s)", "", "search"): "like",
    ("(?si)", "", "search"): "ilike",
}


def _literal_of(pattern: str, mode: str) -> tuple[str, str] | None:
    """(reference, operation) of a regex reward that `_literal_check` made, else None."""
    for (prefix, suffix, form_mode), operation in _LITERAL_FORMS.items():
        if mode != form_mode or not pattern.startswith(prefix) or not pattern.endswith(suffix):
            continue
        body = pattern[len(prefix) : len(pattern) - len(suffix)]
        literal = re.sub(r"\\(.)", r"\1", body, flags=re.DOTALL)
        if re.escape(literal) == body and (operation != "eq" or not body.startswith("(?!")):
            return literal, operation
    return None


def _column(template: Any, where: str, out: Imported) -> str:
    match = _ITEM.match(str(template or ""))
    if not match:
        raise PlaygroundError("lab_engine.reference", where=where)
    out.columns.append(match.group(1))
    return match.group(1)


def _check_input(grader: dict[str, Any], where: str) -> None:
    if "input" in grader and not _SAMPLE.match(str(grader["input"])):
        raise PlaygroundError("lab_engine.input", where=where)


def _term(grader: dict[str, Any], name: str, out: Imported, python_errors: str = "zero") -> dict[str, Any]:
    """
    One grader as {"name", "params"} of a library reward; python graders become custom code (returns its name). A
    score_model with a range other than [0, 1] also has "range": [low, high], applied by the caller.
    """
    kind = grader.get("type")
    where = msg("lab_engine.where", name=name, kind=kind)
    if kind == "string_check":
        _check_input(grader, where)
        operation = grader.get("operation", "eq")
        if operation not in ("eq", "ne", "like", "ilike"):
            raise PlaygroundError("lab_engine.operation", where=where, value=operation)
        reference = grader.get("reference")
        if isinstance(reference, str) and "{{" not in reference:  # OpenAI takes a template or a literal string
            return _literal_check(reference, operation)
        column = _column(reference, where, out)
        return {"name": "string_check", "params": {"column": column, "operation": operation}}
    if kind == "text_similarity":
        _check_input(grader, where)
        metric = grader.get("evaluation_metric", "fuzzy_match")
        if metric in UNAVAILABLE_METRICS:
            raise PlaygroundError(
                "lab_engine.metric_unavailable", where=where, value=metric, reason=msg(UNAVAILABLE_METRICS[metric])
            )
        if metric not in SIMILARITY_METRICS:
            raise PlaygroundError("lab_engine.metric", where=where, value=metric)
        metric_name = SIMILARITY_METRICS[metric]
        column = _column(grader.get("reference"), where, out)
        if "pass_threshold" in grader:
            out.messages.append(msg("lab_engine.note_pass_threshold", where=where))
        return {"name": "similarity", "params": {"column": column, "metric": metric_name}}
    if kind == "score_model":
        return _score_model(grader, where, out)
    if kind == "python":
        return _python(grader, name, where, out, python_errors)
    if kind == "label_model":
        raise PlaygroundError("lab_engine.label_model", where=where)
    raise PlaygroundError("lab_engine.grader_type", where=where, kind=kind)


def _score_model(grader: dict[str, Any], where: str, out: Imported) -> dict[str, Any]:
    messages = grader.get("input")
    if not isinstance(messages, list) or not messages:
        raise PlaygroundError("lab_engine.rubric_messages", where=where)
    parts = []
    for m in messages:
        content = m.get("content") if isinstance(m, dict) else None
        if not isinstance(content, str):
            raise PlaygroundError("lab_engine.text_only", where=where)
        out.columns += ITEM.findall(content)
        parts.append(content)
    # The judge fills {{item.<column>}} with each row's value of that column; the completion follows the rubric.
    rubric = _ANY_SAMPLE.sub("(the answer below)", "\n".join(parts))
    model = grader.get("model")
    if model:
        out.messages.append(msg("lab_engine.note_judge", where=where, model=model))
    else:
        out.messages.append(msg("lab_engine.note_judge_openai", where=where))
    if grader.get("sampling_params"):
        out.messages.append(msg("lab_engine.note_sampling", where=where))
    low, high = (grader.get("range") or [0, 1])[:2]
    term: dict[str, Any] = {"name": "judge", "params": {"rubric": rubric}}
    if (low, high) != (0, 1):
        if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in (low, high)):
            raise PlaygroundError("lab_engine.range", where=where, value=grader.get("range"))
        out.messages.append(msg("lab_engine.note_range", where=where, low=low, high=high))
        term["range"] = [low, high]
    return term


def _scaled(low: float, high: float, inner: str) -> str:
    return f"({low:g} + ({high:g} - {low:g}) * {inner})"


def _ranged_judge(term: dict[str, Any]) -> dict[str, Any]:
    """A judge with a range as a formula of one term: low + (high - low) * P(yes)."""
    low, high = term["range"]
    terms = {"j": {"name": term["name"], "params": term["params"]}}
    return {"name": "formula", "params": {"expression": _scaled(low, high, "j")[1:-1], "terms": json.dumps(terms)}}


def _python(grader: dict[str, Any], name: str, where: str, out: Imported, python_errors: str) -> dict[str, Any]:
    source = grader.get("source")
    if not isinstance(source, str) or "def grade" not in source:
        raise PlaygroundError("lab_engine.source", where=where)
    for key in _SAMPLE_KEYS_UNSET:
        if re.search(rf"""["']{key}["']""", source):
            note = "lab_engine.note_output_json" if key == "output_json" else "lab_engine.note_sample_key"
            out.messages.append(msg(note, where=where, key=key))
    if python_errors == "zero":
        out.messages.append(msg("lab_engine.note_raises", where=where))
    if grader.get("image_tag"):
        out.messages.append(msg("lab_engine.note_image_tag", where=where))
    from rewards.registry import REGISTRY

    func = _name(name, "python_grader")
    func = f"my_{func}" if func in REGISTRY else func
    # Each grader's `grade` gets its own private name, so that several python graders can share one file.
    renamed = re.sub(r"^def grade\(", f"def _grade_{func}(", source.strip(), flags=re.MULTILINE)
    adapter = _ADAPTER_ZERO if python_errors == "zero" else _ADAPTER
    out.code += adapter.format(source=renamed, func=func, grade=f"_grade_{func}")
    return {"name": func, "params": {}}


_SAMPLE_KEYS_UNSET = ("output_json", "output_tools", "choices")
_ADAPTER = '''
# --- OpenAI python grader "{func}", wrapped as a TRL reward ---
{source}


def _sample_{func}(text):
    """OpenAI's sample namespace for a text completion: output_json is the text parsed as JSON where it parses."""
    import json

    try:
        output_json = json.loads(text)
    except ValueError:
        output_json = None
    return {{"output_text": text, "output_json": output_json, "output_tools": None, "choices": None}}


def _score_{func}(value):
    """As OpenAI: a grade that is not a finite number (NaN, inf, a string such as '0.7', None) scores 0."""
    import math

    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        print(f"{func}: grade() returned {{value!r}}, not a finite number; the sample scores 0.0")
        return 0.0
    return float(value)


def {func}(completions, **kwargs):
    """OpenAI `grade(sample, item)` for each completion; item holds this row's dataset columns."""
    n = len(completions)
    out = []
    for i, completion in enumerate(completions):
        text = completion if isinstance(completion, str) else completion[-1]["content"]
        item = {{k: v[i] for k, v in kwargs.items() if isinstance(v, list) and len(v) == n and k != "completion_ids"}}
        out.append(_score_{func}({grade}(_sample_{func}(text), item)))
    return out
'''
# OpenAI scores a sample whose grader raises (or returns no number) 0.0 and goes on.
_ADAPTER_ZERO = _ADAPTER.replace(
    "        out.append(_score_{func}({grade}(_sample_{func}(text), item)))",
    "        try:\n"
    "            out.append(_score_{func}({grade}(_sample_{func}(text), item)))\n"
    "        except Exception as exc:  # as OpenAI: an error scores the sample 0\n"
    '            print(f"{func}: grade() raised {{type(exc).__name__}}: {{exc}}; the sample scores 0.0")\n'
    "            out.append(0.0)",
)


def _multi(grader: dict[str, Any], out: Imported) -> None:
    graders = grader.get("graders")
    expression = grader.get("calculate_output")
    if not isinstance(graders, dict) or not graders or not isinstance(expression, str):
        raise PlaygroundError("lab_engine.multi")
    terms = {}
    for key, sub in graders.items():
        if not _IDENTIFIER.fullmatch(key):
            raise PlaygroundError("lab_engine.multi_name", key=key)
        if not isinstance(sub, dict):
            raise PlaygroundError("lab_engine.multi_object", key=key)
        if sub.get("type") == "python":
            raise PlaygroundError("lab_engine.multi_python", key=key)
        terms[key] = _term(sub, key, out)
    from rewards.formula import parse

    tree = parse(expression, set(terms))  # refuses anything but arithmetic over the sub-graders
    ranges = {key: term.pop("range") for key, term in terms.items() if "range" in term}
    if ranges:  # a score_model's range scales its term inside the one formula (formulas do not nest)
        expression = ast.unparse(_Rescale(ranges).visit(tree))
    params = {"expression": expression, "terms": json.dumps(terms)}
    out.selection.append({"name": "formula", "weight": 1.0, "params": params})


class _Rescale(ast.NodeTransformer):
    """Replaces each ranged score_model's name by `low + (high - low) * name`."""

    def __init__(self, ranges: dict[str, list[float]]):
        self.ranges = ranges

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id not in self.ranges:
            return node
        low, high = self.ranges[node.id]
        return ast.parse(_scaled(low, high, node.id), mode="eval").body


# --- export ----------------------------------------------------------------------------------------------------------


def export_grader(
    selection: list[dict[str, Any]], names: dict[str, str] | None = None
) -> tuple[dict[str, Any] | None, list[str]]:
    """An OpenAI grader for the selected rewards (a multi grader with their weights when there are several), and
    the rewards that have no grader equivalent. `names` (`Imported.names`) gives an imported grader its own name
    back."""
    graders, weights, messages = {}, {}, []
    for item in selection:
        grader = _to_grader(item["name"], item.get("params") or {})
        if grader is None:
            messages.append(msg("lab_engine.no_equivalent", name=item["name"]))
            continue
        key = (names or {}).get(signature(item)) or _name(item["name"], "r")
        while key in graders:
            key += "_"
        grader["name"] = key
        graders[key] = grader
        weights[key] = float(item.get("weight", 1.0))
    if not graders:
        return None, messages
    if len(graders) == 1 and next(iter(weights.values())) == 1.0:
        return next(iter(graders.values())), messages
    expression = " + ".join(f"{w:g} * {k}" for k, w in weights.items())
    return {"type": "multi", "name": "playground", "graders": graders, "calculate_output": expression}, messages


_METRIC_BACK = {v: k for k, v in SIMILARITY_METRICS.items()}  # chrf and fuzzy (plain Levenshtein) have none


def _to_grader(name: str, params: dict[str, Any]) -> dict[str, Any] | None:
    from rewards.registry import REGISTRY, resolve_params

    if name not in REGISTRY:
        return None
    p = resolve_params(name, params)
    sample = "{{sample.output_text}}"
    if name == "string_check":
        ref = f"{{{{item.{p['column']}}}}}"
        return {"type": "string_check", "input": sample, "reference": ref, "operation": p["operation"]}
    if name == "regex" and (literal := _literal_of(p["pattern"], p["mode"])):
        return {"type": "string_check", "input": sample, "reference": literal[0], "operation": literal[1]}
    if name == "similarity" and _METRIC_BACK.get(p["metric"]):
        ref = f"{{{{item.{p['column']}}}}}"
        return {
            "type": "text_similarity",
            "input": sample,
            "reference": ref,
            "evaluation_metric": _METRIC_BACK[p["metric"]],
        }
    if name == "judge":
        content = f"{p['rubric']}\n\nAnswer: {sample}\n\nScore 1 if the answer meets the criteria, else 0."
        return {
            "type": "score_model",
            "input": [{"role": "user", "content": content}],
            "model": "gpt-4o-mini",
            "range": [0, 1],
        }
    if name == "formula" and p["terms"]:
        inner = {}
        for key, term in json.loads(p["terms"]).items():
            sub = _to_grader(term["name"], term.get("params") or {})
            if sub is None:
                return None
            inner[key] = {**sub, "name": key}
        return {"type": "multi", "graders": inner, "calculate_output": p["expression"]}
    return None
