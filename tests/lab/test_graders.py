"""OpenAI grader import/export, with grader JSON written after the examples of OpenAI's graders guide."""

import json

import pytest

from playground.errors import PlaygroundError
from playground.lab.graders import export_grader, import_grader
from playground.scoring import LOCAL, RewardChoice, build_rewards
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
    funcs, _ = build_rewards([RewardChoice.from_dict(c) for c in selection], executor=LOCAL)
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
    assert sim.selection[0]["params"] == {"column": "reference_answer", "metric": "fuzzy_match"}
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


def test_score_model_judge_sees_the_item_columns(tiny_full_vocab_dir):
    """OpenAI's run-grader example (identical sample and reference, documented reward 1.0): the judge's prompt holds
    the row's reference answer, not the `{{item.reference_answer}}` template. The value itself is the local judge's."""
    from rewards.judge import get_judge_reward, item_rubrics, load_judge

    (choice,) = import_grader(SCORE_MODEL).selection
    rubric = choice["params"]["rubric"]
    (filled,) = item_rubrics(rubric, {"reference_answer": ["fuzzy wuzzy was a bear"]}, 1)
    assert "Reference answer: fuzzy wuzzy was a bear\n\nModel answer: (the answer below)" in filled
    assert "{{" not in filled
    judge = get_judge_reward(rubric, model=str(tiny_full_vocab_dir))
    tokenizer = load_judge(str(tiny_full_vocab_dir))[1]
    assert "fuzzy wuzzy was a bear" in judge._render(tokenizer, filled, "", "fuzzy wuzzy was a bear")
    value = judge(["fuzzy wuzzy was a bear"], reference_answer=["fuzzy wuzzy was a bear"])
    assert value == get_judge_reward(filled, model=str(tiny_full_vocab_dir))(["fuzzy wuzzy was a bear"])
    with pytest.raises(Exception, match="reference_answer"):
        judge(["fuzzy wuzzy was a bear"])


@pytest.mark.integration  # the sandbox's worker process
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
    expected = similarity("bob", "ada@x.org", "fuzzy_match") / 2  # (name + email) / 2
    assert values == [1.0, pytest.approx(expected, abs=1e-6)]


@pytest.mark.parametrize(
    "grader,message",
    [
        ({"type": "label_model", "name": "l"}, "label_model graders are not supported"),
        ({**TEXT_SIMILARITY, "evaluation_metric": "cosine_plus"}, "not supported"),
        ({"type": "multi", "graders": {"a": STRING_CHECK}, "calculate_output": "__import__('os')"}, "may only call"),
        ({"type": "multi", "graders": {"a": PYTHON}, "calculate_output": "a"}, "import it on its own"),
        ("{not json", "not valid JSON"),
    ],
)
def test_unsupported_fields_get_a_clear_message(grader, message):
    with pytest.raises(PlaygroundError, match=message):
        import_grader(grader)


@pytest.mark.parametrize(
    "metric, reason", [("meteor", "WordNet data"), ("cosine", "text-embedding-3-large, a remote model")]
)
def test_metrics_that_cannot_run_here_are_refused_with_the_reason(metric, reason):
    with pytest.raises(PlaygroundError, match=reason):
        import_grader({**TEXT_SIMILARITY, "evaluation_metric": metric})


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


# --- each documented operation, metric and formula function computes what OpenAI documents -------------------------


@pytest.mark.parametrize(
    "operation, output, reference, expected",
    [
        ("eq", "Paris", "Paris", 1.0),
        ("eq", "Paris ", "Paris", 0.0),  # exact: nothing is stripped
        ("eq", "paris", "Paris", 0.0),  # case-sensitive
        ("ne", "Paris ", "Paris", 1.0),
        ("ne", "Paris", "Paris", 0.0),
        ("like", "The capital is Paris.", "Paris", 1.0),  # contains, case-sensitive
        ("like", "The capital is paris.", "Paris", 0.0),
        ("ilike", "The capital is PARIS.", "paris", 1.0),  # contains, case-insensitive
        ("ilike", "Lyon", "paris", 0.0),
    ],
)
def test_string_check_operations_are_exact(operation, output, reference, expected):
    got = import_grader({**STRING_CHECK, "operation": operation})
    assert _score(got.selection, [output], reference_answer=reference) == [[expected]]


def _reference_value(metric, output, reference):
    """What the metric's own package computes (rouge-score, sacrebleu, nltk, rapidfuzz), outside the playground."""
    if metric.startswith("rouge"):
        from rouge_score.rouge_scorer import RougeScorer

        key = "rougeL" if metric == "rouge_l" else metric.replace("_", "")
        return RougeScorer([key]).score(reference, output)[key].fmeasure
    if metric == "bleu":
        from sacrebleu.metrics import BLEU

        return BLEU(effective_order=True).sentence_score(output, [reference]).score / 100
    if metric == "gleu":
        from nltk.translate.gleu_score import sentence_gleu

        return sentence_gleu([reference.lower().split()], output.lower().split())
    from rapidfuzz import fuzz, utils  # OpenAI's own python-grader example of fuzzy matching

    return fuzz.WRatio(output, reference, processor=utils.default_process) / 100.0


@pytest.mark.parametrize(
    "metric", ["fuzzy_match", "bleu", "gleu", "rouge_1", "rouge_2", "rouge_3", "rouge_4", "rouge_5", "rouge_l"]
)
def test_text_similarity_metrics_are_the_real_implementations(metric):
    output, reference = "the quick brown fox jumps over the dog", "The quick brown fox jumps over the lazy dog"
    got = import_grader({**TEXT_SIMILARITY, "evaluation_metric": metric})
    assert got.selection[0]["params"]["metric"] == metric and got.messages == []
    ((value,),) = _score(got.selection, [output], reference_answer=reference)
    expected = _reference_value(metric, output, reference)
    assert value == pytest.approx(expected, abs=1e-6) and 0.0 < value < 1.0


def test_fuzzy_match_is_openai_wratio_example():
    """OpenAI's python grader example computes fuzzy matching as rapidfuzz WRatio with default_process."""
    got = import_grader(TEXT_SIMILARITY)
    ((case, reorder),) = _score(got.selection, ["PARIS!", "bear was a fuzzy wuzzy"], reference_answer="paris")
    assert case == 1.0  # lower-cased, punctuation removed
    ((reorder,),) = _score(got.selection, ["bear was a fuzzy wuzzy"], reference_answer="fuzzy wuzzy was a bear")
    assert reorder == pytest.approx(0.95)  # WRatio's token-sort ratio (100), scaled by 0.95


def _multi(expression, **graders):
    return {"type": "multi", "graders": graders, "calculate_output": expression}


_EQ = {**STRING_CHECK, "operation": "eq"}  # 1.0 for "Paris", 0.0 for "Lyon"
_NE = {**STRING_CHECK, "operation": "ne"}  # the opposite


@pytest.mark.parametrize(
    "expression, expected",
    [
        ("(a + b) / 2", [0.5, 0.5]),
        ("(a + 1) ^ 2", [4.0, 1.0]),  # ^ is power, as OpenAI documents
        ("2 ^ 3 * a", [8.0, 0.0]),
        ("a + b ^ 2", [1.0, 1.0]),  # power binds tighter than +
        ("-(a + 1) ^ 2", [-4.0, -1.0]),
        ("floor(a + 0.5) + ceil(b + 0.5)", [2.0, 2.0]),  # 1 + 1 and 0 + 2
        ("exp(a)", [pytest.approx(2.718281828), 1.0]),
        ("sqrt(a + 3)", [2.0, pytest.approx(1.7320508)]),
        ("log(a + 1)", [pytest.approx(0.6931472), 0.0]),
        ("min(a, b) + max(a, b)", [1.0, 1.0]),
        ("abs(a - b)", [1.0, 1.0]),
        ("log(a)", [0.0, None]),  # log(0) is undefined: the sample reads None (TRL skips it)
        ("(a - 1) ^ 0.5 + 1", [1.0, None]),  # (-1) ^ 0.5 is not real: that sample reads None, the call goes on
        ("(a - 1) ^ 2", [0.0, 1.0]),  # a negative base with a whole exponent is real
        ("a ^ -1", [1.0, 0.0]),  # 0 ^ -1 is 1 / 0, which reads 0
    ],
)
def test_multi_operators_and_functions(expression, expected):
    got = import_grader(_multi(expression, a=_EQ, b=_NE))
    (values,) = _score(got.selection, ["Paris", "Lyon"], reference_answer="Paris")
    assert values == expected


def test_multi_with_a_ranged_score_model_is_one_formula(tiny_full_vocab_dir):
    from rewards.judge import get_judge_reward

    grader = _multi("(check + judge) / 11", check=_EQ, judge={**SCORE_MODEL, "range": [0, 10]})
    got = import_grader(grader)
    (choice,) = got.selection
    assert choice["params"]["expression"] == "(check + (0 + (10 - 0) * judge)) / 11"
    terms = json.loads(choice["params"]["terms"])
    terms["judge"]["params"]["model"] = str(tiny_full_vocab_dir)
    choice["params"]["terms"] = json.dumps(terms)
    (values,) = _score(got.selection, ["Paris", "Lyon"], reference_answer="Paris")
    judged = get_judge_reward(terms["judge"]["params"]["rubric"], model=str(tiny_full_vocab_dir))(
        ["Paris", "Lyon"], reference_answer=["Paris", "Paris"]
    )
    assert values == [pytest.approx((1 + 10 * judged[0]) / 11), pytest.approx(10 * judged[1] / 11)]


_RAISES = {
    "type": "python",
    "name": "strict",
    "source": "def grade(sample, item) -> float:\n    return float(sample['output_text'])\n",
}


@pytest.mark.integration  # the sandbox's worker process
@pytest.mark.parametrize("python_errors, expected", [("zero", [0.5, 0.0]), ("raise", None)])
def test_python_grader_errors_score_zero_as_openai(python_errors, expected):
    from playground.sandbox.client import close_rewards
    from playground.sandbox.custom import compile_rewards

    got = import_grader(_RAISES, python_errors=python_errors)
    assert any("scores 0.0" in m for m in got.messages) == (python_errors == "zero")
    rewards = compile_rewards(got.code)
    try:
        if expected is None:
            with pytest.raises(Exception, match="could not convert"):
                rewards["strict"](["0.5", "not a number"])
        else:
            assert rewards["strict"](["0.5", "not a number"]) == expected
    finally:
        close_rewards(rewards)


@pytest.mark.integration  # the sandbox's worker process
def test_python_grader_reading_output_json_is_warned_about_at_import():
    from playground.sandbox.client import close_rewards
    from playground.sandbox.custom import compile_rewards

    source = "def grade(sample, item) -> float:\n    return 1.0 if sample['output_json']['ok'] else 0.0\n"
    got = import_grader({"type": "python", "name": "json", "source": source})
    assert any("output_json" in m and "parsed as JSON" in m for m in got.messages)
    rewards = compile_rewards(got.code)
    try:
        assert rewards["json"](['{"ok": true}', '{"ok": false}', "not json"]) == [1.0, 0.0, 0.0]
    finally:
        close_rewards(rewards)


def test_unknown_python_errors_option():
    with pytest.raises(PlaygroundError, match="python_errors"):
        import_grader(PYTHON, python_errors="ignore")


def test_score_model_template_with_spaces_is_replaced_as_without():
    """OpenAI's own examples write `{{ sample.output_text }}`; it is the completion, not literal text for the judge."""
    spaced = json.loads(json.dumps(SCORE_MODEL).replace("{{sample.output_text}}", "{{ sample.output_text }}"))
    assert "{{ sample.output_text }}" in json.dumps(spaced)
    rubric = import_grader(spaced).selection[0]["params"]["rubric"]
    assert "sample.output_text" not in rubric and "(the answer below)" in rubric
    assert rubric == import_grader(SCORE_MODEL).selection[0]["params"]["rubric"]


@pytest.mark.parametrize("python_errors", ["zero", "raise"])
def test_python_grader_returning_no_finite_number_scores_zero_as_openai(python_errors):
    """OpenAI scores a python grader's invalid value 0: NaN, inf, a string (even '0.7') or None; numbers pass."""
    grader = {
        "type": "python",
        "name": "odd",
        "source": (
            "def grade(sample, item):\n"
            "    return {'nan': float('nan'), 'inf': float('inf'), 'str': '0.7', 'none': None, 'int': 1,\n"
            "            'float': 0.7}[sample['output_text']]\n"
        ),
    }
    namespace: dict = {}
    exec(import_grader(grader, python_errors=python_errors).code, namespace)  # the adapter, as the sandbox runs it
    values = namespace["odd"](["nan", "inf", "str", "none", "int", "float"])
    assert values == [0.0, 0.0, 0.0, 0.0, 1.0, 0.7]
