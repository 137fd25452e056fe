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


_ITEM = re.compile(r"^\s*\{\{\s*item\.([A-Za-z_][\w]*)\s*\}\}\s*$")
_ANY_ITEM = re.compile(r"\{\{\s*item\.([A-Za-z_][\w]*)\s*\}\}")
_SAMPLE = re.compile(r"^\s*\{\{\s*sample\.output_text\s*\}\}\s*$")
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
# OpenAI text_similarity metrics -> the similarity reward's metrics (the same computation, see rewards.similarity).
SIMILARITY_METRICS = {m: m for m in ("fuzzy_match", "bleu", "gleu", "rouge_l", *(f"rouge_{n}" for n in range(1, 6)))}
# Metrics that cannot run here, and why: refused, never replaced by another metric.
UNAVAILABLE_METRICS = {
    "cosine": "cosine compares embeddings from OpenAI's text-embedding-3-large, a remote model",
    "meteor": "meteor needs the WordNet data, which nltk downloads from the internet at first use and no PyPI package "
    "ships, so it cannot run offline",
}
PYTHON_ERRORS = ("zero", "raise")


@dataclass
class Imported:
    selection: list[dict[str, Any]] = field(default_factory=list)
    code: str = ""  # custom reward code (python graders), for the sandbox
    columns: list[str] = field(default_factory=list)  # dataset columns the rewards read
    messages: list[str] = field(default_factory=list)  # what did not map exactly, in plain words

    def to_json(self) -> dict[str, Any]:
        return {"selection": self.selection, "code": self.code, "columns": self.columns, "messages": self.messages}


def import_grader(grader: dict[str, Any] | str, python_errors: str = "zero") -> Imported:
    """
    The rewards that stand for an OpenAI grader (a dict or its JSON text). `python_errors="zero"` scores a sample
    whose python grader raises 0.0, as OpenAI does; `"raise"` stops the call with the error instead.
    """
    if python_errors not in PYTHON_ERRORS:
        raise PlaygroundError(f"python_errors must be one of {list(PYTHON_ERRORS)}, got {python_errors!r}.")
    if isinstance(grader, str):
        try:
            grader = json.loads(grader)
        except json.JSONDecodeError as exc:
            raise PlaygroundError(f"The grader is not valid JSON: line {exc.lineno}: {exc.msg}.") from None
    if not isinstance(grader, dict) or "type" not in grader:
        raise PlaygroundError('A grader is a JSON object with a "type" (string_check, text_similarity, ...).')
    out = Imported()
    if grader["type"] == "multi":
        _multi(grader, out)
    else:
        name = _name(grader.get("name"), "grader")
        term = _term(grader, name, out, python_errors)
        if "range" in term:
            term = _ranged_judge(term)
        out.selection.append({"name": term["name"], "weight": 1.0, "params": term.get("params", {})})
    out.columns = sorted(set(out.columns))
    return out


def _name(value: Any, default: str) -> str:
    text = re.sub(r"\W+", "_", str(value or default)).strip("_").lower() or default
    return text if not text[0].isdigit() else f"g_{text}"


def _column(template: Any, where: str, out: Imported) -> str:
    match = _ITEM.match(str(template or ""))
    if not match:
        raise PlaygroundError(f"{where}: the reference must be one dataset column such as {{{{item.answer}}}}.")
    out.columns.append(match.group(1))
    return match.group(1)


def _check_input(grader: dict[str, Any], where: str) -> None:
    if "input" in grader and not _SAMPLE.match(str(grader["input"])):
        raise PlaygroundError(f"{where}: only {{{{sample.output_text}}}} (the completion) is supported as the input.")


def _term(grader: dict[str, Any], name: str, out: Imported, python_errors: str = "zero") -> dict[str, Any]:
    """
    One grader as {"name", "params"} of a library reward; python graders become custom code (returns its name). A
    score_model with a range other than [0, 1] also has "range": [low, high], applied by the caller.
    """
    kind = grader.get("type")
    where = f"Grader {name!r} ({kind})"
    if kind == "string_check":
        _check_input(grader, where)
        operation = grader.get("operation", "eq")
        if operation not in ("eq", "ne", "like", "ilike"):
            raise PlaygroundError(f"{where}: operation {operation!r} is not one of eq, ne, like, ilike.")
        column = _column(grader.get("reference"), where, out)
        return {"name": "string_check", "params": {"column": column, "operation": operation}}
    if kind == "text_similarity":
        _check_input(grader, where)
        metric = grader.get("evaluation_metric", "fuzzy_match")
        if metric in UNAVAILABLE_METRICS:
            raise PlaygroundError(
                f"{where}: evaluation_metric {metric!r} is not available: {UNAVAILABLE_METRICS[metric]}."
            )
        if metric not in SIMILARITY_METRICS:
            raise PlaygroundError(f"{where}: evaluation_metric {metric!r} is not supported.")
        metric_name = SIMILARITY_METRICS[metric]
        column = _column(grader.get("reference"), where, out)
        if "pass_threshold" in grader:
            out.messages.append(f"{where}: pass_threshold is a pass/fail cut for evals; the reward is the raw score.")
        return {"name": "similarity", "params": {"column": column, "metric": metric_name}}
    if kind == "score_model":
        return _score_model(grader, where, out)
    if kind == "python":
        return _python(grader, name, where, out, python_errors)
    if kind == "label_model":
        raise PlaygroundError(f"{where}: label_model graders are not supported; use a score_model with a rubric.")
    raise PlaygroundError(f"{where}: unknown grader type {kind!r}.")


def _score_model(grader: dict[str, Any], where: str, out: Imported) -> dict[str, Any]:
    messages = grader.get("input")
    if not isinstance(messages, list) or not messages:
        raise PlaygroundError(f"{where}: input must be a list of messages with the rubric.")
    parts = []
    for m in messages:
        content = m.get("content") if isinstance(m, dict) else None
        if not isinstance(content, str):
            raise PlaygroundError(f"{where}: only text message contents are supported (no images or parts).")
        out.columns += _ANY_ITEM.findall(content)
        parts.append(content)
    # The judge fills {{item.<column>}} with each row's value of that column; the completion follows the rubric.
    rubric = "\n".join(parts).replace("{{sample.output_text}}", "(the answer below)")
    model = grader.get("model")
    out.messages.append(
        f"{where}: the judge runs locally on the embedded model, not {model or 'an OpenAI model'}; a 135M judge is "
        "weak, pick a larger local model in its 'model' parameter for real work."
    )
    if grader.get("sampling_params"):
        out.messages.append(f"{where}: sampling_params are ignored; the local judge reads its logits once.")
    low, high = (grader.get("range") or [0, 1])[:2]
    term: dict[str, Any] = {"name": "judge", "params": {"rubric": rubric}}
    if (low, high) != (0, 1):
        if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in (low, high)):
            raise PlaygroundError(f"{where}: range must be two numbers, got {grader.get('range')!r}.")
        out.messages.append(f"{where}: range [{low}, {high}] is applied as {low} + ({high} - {low}) * P(yes).")
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
        raise PlaygroundError(f"{where}: source must define grade(sample, item).")
    for key in _SAMPLE_KEYS_UNSET:
        if re.search(rf"""["']{key}["']""", source):
            out.messages.append(
                f"{where}: the code reads sample[{key!r}]; completions are text, so it is the completion parsed as "
                "JSON where it parses and None otherwise."
                if key == "output_json"
                else f"{where}: the code reads sample[{key!r}], which the playground does not give (it is None)."
            )
    if python_errors == "zero":
        out.messages.append(f"{where}: a sample whose grade() raises scores 0.0, as OpenAI scores it.")
    if grader.get("image_tag"):
        out.messages.append(f"{where}: image_tag is ignored; the code runs in the playground's sandbox.")
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


def {func}(completions, **kwargs):
    """OpenAI `grade(sample, item)` for each completion; item holds this row's dataset columns."""
    n = len(completions)
    out = []
    for i, completion in enumerate(completions):
        text = completion if isinstance(completion, str) else completion[-1]["content"]
        item = {{k: v[i] for k, v in kwargs.items() if isinstance(v, list) and len(v) == n and k != "completion_ids"}}
        out.append(float({grade}(_sample_{func}(text), item)))
    return out
'''
# OpenAI scores a sample whose grader raises (or returns no number) 0.0 and goes on.
_ADAPTER_ZERO = _ADAPTER.replace(
    "        out.append(float({grade}(_sample_{func}(text), item)))",
    "        try:\n"
    "            out.append(float({grade}(_sample_{func}(text), item)))\n"
    "        except Exception as exc:  # as OpenAI: an error scores the sample 0\n"
    '            print(f"{func}: grade() raised {{type(exc).__name__}}: {{exc}}; the sample scores 0.0")\n'
    "            out.append(0.0)",
)


def _multi(grader: dict[str, Any], out: Imported) -> None:
    graders = grader.get("graders")
    expression = grader.get("calculate_output")
    if not isinstance(graders, dict) or not graders or not isinstance(expression, str):
        raise PlaygroundError('A multi grader needs "graders" (an object of named graders) and "calculate_output".')
    terms = {}
    for key, sub in graders.items():
        if not _IDENTIFIER.fullmatch(key):
            raise PlaygroundError(f"Multi grader: {key!r} is not a name a formula can use.")
        if not isinstance(sub, dict):
            raise PlaygroundError(f"Multi grader: {key!r} is not a grader object.")
        if sub.get("type") == "python":
            raise PlaygroundError(f"Multi grader: {key!r} is a python grader; import it on its own (custom code).")
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


def export_grader(selection: list[dict[str, Any]]) -> tuple[dict[str, Any] | None, list[str]]:
    """An OpenAI grader for the selected rewards (a multi grader with their weights when there are several), and
    the rewards that have no grader equivalent."""
    graders, weights, messages = {}, {}, []
    for item in selection:
        grader = _to_grader(item["name"], item.get("params") or {})
        if grader is None:
            messages.append(f"Reward {item['name']!r} has no OpenAI grader equivalent; it is left out.")
            continue
        key = _name(item["name"], "r")
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
