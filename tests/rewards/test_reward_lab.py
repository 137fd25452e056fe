"""The reward lab's reward kinds: reference similarity, formula, reward model (as TRL runs it) and LLM judge."""

import pickle

import pytest

from playground.errors import RewardError
from rewards.formula import get_formula_reward
from rewards.judge import get_judge_reward
from rewards.model import get_reward_model_reward
from rewards.registry import build_reward
from rewards.similarity import get_similarity_reward, similarity
from tests.support.tiny_models import save_tiny_model


class TestSimilarity:
    @pytest.mark.parametrize("metric", ["rouge_l", "bleu", "chrf", "fuzzy"])
    def test_identical_partial_unrelated(self, metric):
        ref = "the cat sat on the mat"
        same, partial, other = (similarity(t, ref, metric) for t in (ref, "the cat sat on a mat", "zzz qqq"))
        assert same == pytest.approx(1.0)
        assert 0.2 < partial < 1.0
        assert other < 0.1

    def test_chinese_is_compared_by_character(self):
        ref = "光合作用将光能转变为化学能"
        assert similarity("光合作用把光能转化为化学能", ref, "rouge_l") == pytest.approx(11 / 13, abs=1e-6)
        assert similarity("光合作用把光能转化为化学能", ref, "bleu") > 0.3
        assert similarity("今天天气很好", ref, "rouge_l") == 0.0

    def test_reads_the_column_and_skips_missing_references(self):
        reward = get_similarity_reward(column="gold", metric="fuzzy")
        assert reward(["abc", "abc"], gold=["abc", None]) == [1.0, None]
        with pytest.raises(RewardError, match="needs the dataset column 'gold'"):
            reward(["abc"], reference=["abc"])
        with pytest.raises(RewardError, match="metric"):
            get_similarity_reward(metric="meteor")

    def test_gleu_reads_the_words_rouge_reads_where_nltk_reads_the_tokens_given(self):
        """docs/rewards.md: nltk's sentence_gleu on the lower-cased words without punctuation; on `str.split()`
        tokens (case and punctuation kept) nltk gives another value, on the same words the same."""
        from nltk.translate.gleu_score import sentence_gleu

        prediction, reference = "Paris, the capital.", "paris the capital"
        assert similarity(prediction, reference, "gleu") == 1.0
        assert sentence_gleu([reference.split()], prediction.split()) == pytest.approx(1 / 6)
        words = "the quick brown fox jumps over the dog"
        expected = sentence_gleu([words.split()], "the quick fox jumps over the lazy dog".split())
        assert similarity("The quick fox jumps over the lazy dog!", words, "gleu") == pytest.approx(expected)


SECTIONS = "<intro>a</intro><body>b</body><conclusion>c</conclusion>"


class TestFormula:
    @pytest.mark.parametrize(
        "expression,expected",
        [
            ("min(format, 0.5)", [0.5, 0.0]),
            ("max(format, 0.25) * 2", [2.0, 0.5]),
            ("length if format == 1 else -100", [-44.0, -100.0]),
            ("gate(format == 1, 10)", [10.0, 0.0]),
            ("clip(length / 10, -1, 0) + (1 if format and length > -50 else 0)", [0.0, -1.0]),
            ("-format ** 2 + abs(-3)", [2.0, 3.0]),
            ("format / 0", [0.0, 0.0]),
        ],
    )
    def test_expressions(self, expression, expected):
        assert get_formula_reward(expression)([SECTIONS, "x"]) == expected

    @pytest.mark.parametrize(
        "expression,message",
        [
            ("__import__('os').system('echo hi')", "may only call"),
            ("format.__class__", "Attribute"),
            ("[format][0]", "Subscript"),
            ("'a' * format", "only contain numbers"),
            ("(lambda: 1)()", "may only call"),
            ("x if (y := 1) else 0", "NamedExpr"),
            ("format +", "not a valid expression"),
            ("nope + 1", "Unknown reward 'nope'"),
            ("1 + 2", "reads no reward"),
            ("formula + 1", "cannot contain another formula"),
        ],
    )
    def test_refused(self, expression, message):
        with pytest.raises(RewardError, match=message):
            get_formula_reward(expression)

    def test_terms_bind_variables_to_rewards_with_params(self):
        terms = '{"sim": {"name": "similarity", "params": {"metric": "fuzzy"}}, "fmt": {"name": "format"}}'
        reward = build_reward("formula", {"expression": "0.9 * sim + 0.1 * fmt", "terms": terms})
        assert reward([SECTIONS, "abc"], reference=["abc", "abc"]) == pytest.approx(
            [0.9 * similarity(SECTIONS, "abc", "fuzzy") + 0.1, 0.9]
        )
        assert reward([SECTIONS], reference=[None]) == [None]  # a None term makes the formula None
        assert pickle.loads(pickle.dumps(reward))(["abc"], reference=["abc"]) == [0.9]
        with pytest.raises(RewardError, match="uses 'other'"):
            get_formula_reward("sim + other", terms)


def test_reward_model_values_equal_trls(tiny_model_dir, embedded_dir, tmp_path):
    from datasets import Dataset
    from trl import GRPOConfig, GRPOTrainer

    folder = str(save_tiny_model(tmp_path / "rm", classifier=True))
    prompts = ["Say hi.", "Explain rain briefly."]
    completions = ["Hi there!", "Water falls from clouds when droplets grow heavy."]
    args = GRPOConfig(
        output_dir=str(tmp_path / "out"),
        num_generations=2,
        per_device_train_batch_size=2,
        max_completion_length=4,
        use_cpu=True,
        bf16=False,
        report_to=[],
    )
    trainer = GRPOTrainer(
        model=str(tiny_model_dir), reward_funcs=folder, args=args, train_dataset=Dataset.from_dict({"prompt": prompts})
    )
    trl_values = trainer._calculate_rewards([{"prompt": p} for p in prompts], prompts, completions, [[1], [1]])
    reward = get_reward_model_reward(folder, batch_size=1)
    assert reward.trl_reward_func == folder
    ours = reward(completions, prompts=prompts)
    assert ours == pytest.approx(trl_values[:, 0].tolist(), abs=1e-5)
    assert ours[0] != ours[1]
    with pytest.raises(RewardError, match="needs a model"):
        get_reward_model_reward("")(["x"])


def test_judge_is_deterministic_bounded_and_time_limited(tiny_full_vocab_dir):
    judge = get_judge_reward("The answer is short.", model=str(tiny_full_vocab_dir), batch_size=2)
    texts = ["Yes.", "A long rambling answer that goes on and on.", "No."]
    first = judge(texts, prompts=["Q"] * 3)
    assert first == judge(texts, prompts=["Q"] * 3)
    assert all(0.0 < v < 1.0 for v in first) and len(set(first)) == 3
    # The padded batch gives the same values as one completion at a time.
    assert get_judge_reward("The answer is short.", model=str(tiny_full_vocab_dir), batch_size=1)(
        texts, prompts=["Q"] * 3
    ) == pytest.approx(first, abs=1e-5)
    assert get_judge_reward("x", model=str(tiny_full_vocab_dir), time_limit=1e-9)(texts) == [None, None, None]
