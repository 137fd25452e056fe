"""OpenAI grader import/export, with grader JSON written after the examples of OpenAI's graders guide."""

import json

import pytest

from playground.errors import PlaygroundError
from playground.lab.graders import export_grader, import_grader
from playground.scoring import RewardChoice, build_rewards
from rewards.similarity import similarity


STRING_CHECK = {
    "type": "string_check",
    "name": "Example string check grader",
    "input": "{{sample.output_text}}",
    "reference": "{{item.reference_answer}}",
    "operation": "eq",
}
TEXT_SIMILARITY = {
    "type": "text_similarity",
    "name": "Example text similarity grader",
    "input": "{{sample.output_text}}",
    "reference": "{{item.reference_answer}}",
    "evaluation_metric": "fuzzy_match",
}
SCORE_MODEL = {
    "type": "score_model",
    "name": "Example score model grader",
    "input": [
        {
            "role": "user",
            "content": "Score how close the reference answer is to the model answer. Score 1.0 if they are the same "
            "and 0.0 if they are different. Return just a floating point score\n\nReference answer: "
            "{{item.reference_answer}}\n\nModel answer: {{sample.output_text}}",
        }
    ],
    "model": "o4-mini-2025-04-16",
    "sampling_params": {"temperature": 1, "top_p": 1, "seed": 42, "max_completions_tokens": 32768},
}
PYTHON = {
    "type": "python",
    "name": "Example python grader",
    "image_tag": "2025-05-08",
    "source": "def grade(sample, item) -> float:\n"
    "    output_text = sample['output_text']\n"
    "    reference_answer = item['reference_answer']\n"
    "    return 1.0 if output_text.strip().lower() == reference_answer.lower() else 0.0\n",
}
MULTI_DOCS = {  # the guide's multi example grades structured output (sample.output_json), which is not supported
    "type": "multi",
    "graders": {
        "name": {
            "name": "name_grader",
            "type": "text_similarity",
            "input": "{{sample.output_json.name}}",
            "reference": "{{item.name}}",
            "evaluation_metric": "fuzzy_match",
        },
        "email": {
            "name": "email_grader",
            "type": "string_check",
            "input": "{{sample.output_json.email}}",
            "reference": "{{item.email}}",
            "operation": "eq",
        },
    },
    "calculate_output": "(name + email) / 2",
}


def _score(selection, completions, **columns):
    funcs, _ = build_rewards([RewardChoice.from_dict(c) for c in selection])
    n = len(completions)
    return [f(completions, **{k: [v] * n for k, v in columns.items()}) for f in funcs]


def test_string_check_and_text_similarity():
    got = import_grader(json.dumps(STRING_CHECK))
    assert got.selection == [
        {"name": "string_check", "weight": 1.0, "params": {"column": "reference_answer", "operation": "eq"}}
    ]
    assert got.columns == ["reference_answer"] and got.messages == []
    assert _score(got.selection, ["Paris", "Lyon"], reference_answer="Paris") == [[1.0, 0.0]]
    sim = import_grader(TEXT_SIMILARITY)
    assert sim.selection[0]["params"] == {"column": "reference_answer", "metric": "fuzzy"}
    assert _score(sim.selection, ["Paris", "Lyon"], reference_answer="Paris")[0][0] == 1.0


def test_score_model_becomes_a_local_judge_with_plain_messages():
    got = import_grader(SCORE_MODEL)
    (choice,) = got.selection
    assert choice["name"] == "judge" and "Score how close" in choice["params"]["rubric"]
    assert got.columns == ["reference_answer"]
    assert any("o4-mini" in m and "weak" in m for m in got.messages)
    assert any("sampling_params" in m for m in got.messages)
    ranged = import_grader({**SCORE_MODEL, "range": [0, 10]})
    assert (
        ranged.selection[0]["name"] == "formula" and ranged.selection[0]["params"]["expression"] == "0 + (10 - 0) * j"
    )


def test_python_grader_runs_in_the_sandbox_through_the_adapter():
    from playground.sandbox.client import close_rewards
    from playground.sandbox.custom import compile_rewards

    got = import_grader(PYTHON)
    assert got.selection == [{"name": "example_python_grader", "weight": 1.0, "params": {}}]
    rewards = compile_rewards(got.code)
    try:
        reward = rewards["example_python_grader"]
        values = reward(["paris ", "Lyon"], reference_answer=["Paris", "Paris"], prompts=["Q", "Q"])
    finally:
        close_rewards(rewards)
    assert values == [1.0, 0.0]


def test_multi_becomes_a_formula_over_its_graders():
    with pytest.raises(PlaygroundError, match="only \\{\\{sample.output_text\\}\\}"):
        import_grader(MULTI_DOCS)
    multi = json.loads(json.dumps(MULTI_DOCS).replace("sample.output_json.name", "sample.output_text"))
    multi = json.loads(json.dumps(multi).replace("sample.output_json.email", "sample.output_text"))
    got = import_grader(multi)
    (choice,) = got.selection
    assert choice["name"] == "formula" and choice["params"]["expression"] == "(name + email) / 2"
    assert got.columns == ["email", "name"]
    (values,) = _score(got.selection, ["ada@x.org", "bob"], name="ada@x.org", email="ada@x.org")
    assert values == [1.0, pytest.approx(similarity("bob", "ada@x.org", "fuzzy") / 2, abs=1e-6)]  # (name + email) / 2


@pytest.mark.parametrize(
    "grader,message",
    [
        ({"type": "label_model", "name": "l"}, "label_model graders are not supported"),
        ({**TEXT_SIMILARITY, "evaluation_metric": "cosine_plus"}, "not supported"),
        ({**STRING_CHECK, "reference": "literal"}, "one dataset column"),
        ({"type": "multi", "graders": {"a": STRING_CHECK}, "calculate_output": "__import__('os')"}, "may only call"),
        ({"type": "multi", "graders": {"a": PYTHON}, "calculate_output": "a"}, "import it on its own"),
        ("{not json", "not valid JSON"),
    ],
)
def test_unsupported_fields_get_a_clear_message(grader, message):
    with pytest.raises(PlaygroundError, match=message):
        import_grader(grader)


def test_closest_metric_is_said():
    got = import_grader({**TEXT_SIMILARITY, "evaluation_metric": "meteor"})
    assert got.selection[0]["params"]["metric"] == "rouge_l" and "meteor is not available" in got.messages[0]


def test_export_round_trips_and_names_what_does_not_map():
    selection = [
        {"name": "similarity", "weight": 0.9, "params": {"column": "answer", "metric": "bleu"}},
        {"name": "string_check", "weight": 0.1, "params": {"column": "answer"}},
        {"name": "length", "weight": 1.0, "params": {}},
    ]
    grader, messages = export_grader(selection)
    assert grader["type"] == "multi" and grader["calculate_output"] == "0.9 * similarity + 0.1 * string_check"
    assert grader["graders"]["similarity"]["evaluation_metric"] == "bleu"
    assert grader["graders"]["similarity"]["reference"] == "{{item.answer}}"
    assert messages == ["Reward 'length' has no OpenAI grader equivalent; it is left out."]
    back = import_grader(grader)
    (formula,) = back.selection
    (values,) = _score(back.selection, ["the cat", "dog"], answer="the cat")
    assert values[0] == pytest.approx(1.0) and values[1] < 0.1
    single, _ = export_grader([{"name": "string_check", "weight": 1.0, "params": {}}])
    assert import_grader(single).selection[0]["params"] == {"column": "reference", "operation": "eq"}
