"""OpenAI grader import: a string_check against a literal string, an imported grader's name kept in the export, and
a formula's terms in "Selected rewards" as terms, not escaped JSON."""

import html
import json

import pytest

from playground.lab.graders import export_grader, import_grader, signature
from playground.ui.rewards_tab import selection_summary
from rewards.registry import resolve_params
from tests.lab.test_graders import STRING_CHECK, _score


@pytest.mark.parametrize(
    "operation, output, reference, expected",
    [
        ("eq", "Paris", "Paris", 1.0),
        ("eq", "Paris ", "Paris", 0.0),  # exact: nothing is stripped
        ("eq", "paris", "Paris", 0.0),
        ("eq", "a.b", "a.b", 1.0),
        ("eq", "axb", "a.b", 0.0),  # the literal's '.' is a dot, not any character
        ("ne", "Paris ", "Paris", 1.0),
        ("ne", "Paris", "Paris", 0.0),
        ("ne", "Paris\nParis", "Paris", 1.0),
        ("like", "The capital is Paris.", "Paris", 1.0),
        ("like", "The capital is paris.", "Paris", 0.0),
        ("ilike", "The capital is PARIS.", "paris", 1.0),
        ("ilike", "Lyon", "paris", 0.0),
        ("like", "costs $5 (about)", "$5 (", 1.0),
    ],
)
def test_a_literal_reference_scores_as_openai_string_check(operation, output, reference, expected):
    got = import_grader({**STRING_CHECK, "reference": reference, "operation": operation})
    assert got.columns == []  # no dataset column needed
    assert _score(got.selection, [output]) == [[expected]]
    # exported back as the literal check it was
    assert export_grader(got.selection)[0] == {
        "type": "string_check",
        "name": "regex",
        "input": "{{sample.output_text}}",
        "reference": reference,
        "operation": operation,
    }
    # the same verdicts as the column form
    by_column = import_grader({**STRING_CHECK, "operation": operation})
    assert _score(by_column.selection, [output], reference_answer=reference) == [[expected]]


MULTI = {
    "type": "multi",
    "name": "format_and_answer",
    "graders": {
        "a": {**STRING_CHECK, "name": "a"},
        "b": {**STRING_CHECK, "name": "b", "reference": "Paris", "operation": "like"},
    },
    "calculate_output": "0.5 * a + 0.5 * b",
}


def test_an_imported_multi_grader_keeps_its_name_in_the_export():
    got = import_grader(MULTI)
    (item,) = got.selection
    # the Rewards tab's cards hand the parameters back resolved, with the formula's defaults filled in
    from_cards = {**item, "params": resolve_params(item["name"], item["params"])}
    assert signature(from_cards) == signature(item)
    exported, notes = export_grader([from_cards], got.names)
    assert notes == []
    assert exported["type"] == "multi" and exported["name"] == "format_and_answer"
    assert exported["calculate_output"] == "0.5 * a + 0.5 * b"
    assert exported["graders"]["b"] == {**MULTI["graders"]["b"], "name": "b"}  # the literal check, read back
    assert exported["graders"]["a"] == {**MULTI["graders"]["a"], "name": "a"}
    # without the import's names, the reward's own name
    assert export_grader([item])[0]["name"] == "formula"
    single = import_grader({**STRING_CHECK, "name": "exact_answer"})
    assert export_grader(single.selection, single.names)[0]["name"] == "exact_answer"


def test_selected_rewards_shows_a_formulas_terms_not_escaped_json():
    (item,) = import_grader(MULTI).selection
    raw = selection_summary([item], "en")
    assert "&quot;" not in raw  # what escaped JSON showed
    shown = html.unescape(raw)  # as the browser reads the Markdown
    assert "a = string_check(column='reference_answer', operation='eq')" in shown
    assert "b = regex(pattern='(?s)Paris', mode='search')" in shown
    assert "expression='0.5 * a + 0.5 * b'" in shown
    assert '"' not in shown and json.dumps(item["params"]["terms"]) not in shown
