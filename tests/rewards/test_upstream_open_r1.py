"""open-r1's own reward test cases (open-r1/tests/test_rewards.py), table-driven, run against the playground's
registered rewards: one class per reward. open-r1 passes conversational completions, as here.

open-r1's `format_reward` is registered as `think_answer_strict`, its `tag_count_reward` as `tag_count`, its
`len_reward` as `len_reward`, its character-length cosine reward as `cosine_scaled` with `length_unit=characters`.
"""

import re

import pytest

from playground.errors import RewardError
from rewards.registry import build_reward


def _chat(*texts):
    return [[{"content": t}] for t in texts]


RIGHT, WRONG, GOLD = r"\boxed{\frac{63}{400}}", r"\boxed{\frac{64}{400}}", r"\frac{63}{400}"


class TestRegistry:
    @pytest.mark.parametrize(
        "open_r1, ours",
        [
            ("accuracy", "accuracy"),
            ("format", "think_answer_strict"),
            ("reasoning_steps", "reasoning_steps"),
            ("cosine", "cosine_scaled"),
            ("repetition_penalty", "repetition_penalty"),
            ("length", "len_reward"),
            ("tag_count", "tag_count"),
            ("code_format", "code_format"),
            ("code", "code_tests"),
            ("soft_overlong_punishment", "soft_overlong"),
        ],
    )
    def test_every_open_r1_reward_has_a_counterpart(self, open_r1, ours):
        assert build_reward(ours).__name__ == ours


class TestAccuracyReward:
    @pytest.mark.parametrize(
        "completions, solution, expected",
        [
            ([RIGHT], [GOLD], [1.0]),
            ([WRONG], [GOLD], [0.0]),
            ([r"\boxed{3}"], ["6"], [0.0]),
            ([RIGHT, WRONG], [GOLD, GOLD], [1.0, 0.0]),  # multiple completions
        ],
    )
    def test_case(self, completions, solution, expected):
        assert build_reward("accuracy")(_chat(*completions), solution=solution) == expected


class TestFormatReward:
    @pytest.mark.parametrize(
        "text, expected",
        [
            ("<think>\nSome reasoning\n</think>\n<answer>\nThe answer\n</answer>", 1.0),
            ("<think>Only thinking</think>", 0.0),
            ("<answer>Only answer</answer>", 0.0),
            ("No tags at all", 0.0),
            ("<think>Missing closing</think><answer>Missing closing", 0.0),
            ("<think>Wrong order</answer><answer>Wrong order</think>", 0.0),
            (
                "<think>\nI will count each distinct object in the image:\n1. Purple scooter\n2. Red bicycle\n"
                "3. Green motorcycle\n4. Gray sedan\n5. Yellow school bus\n6. Small green double-decker bus\n"
                "7. Small red car\n8. Small purple car\n9. Small gray dirt bike\n\n"
                "There are 9 distinct objects in total.\n</think>\n<answer>\n9\n</answer>",
                1.0,
            ),
        ],
    )
    def test_case(self, text, expected):
        assert build_reward("think_answer_strict")(_chat(text)) == [expected]


class TestReasoningStepsReward:
    @pytest.mark.parametrize(
        "text, expected",
        [
            ("Step 1: First step\nStep 2: Second step\nStep 3: Third step", 1.0),
            ("First, we do this.\nSecond, we do that.\nFinally, we conclude.", 1.0),
            ("Step 1: Only step", 1 / 3),
            ("First, we do this.\nFinally, we conclude.", 2 / 3),
            ("Just plain text without any clear steps", 0.0),
        ],
    )
    def test_case(self, text, expected):
        assert build_reward("reasoning_steps")(_chat(text)) == [pytest.approx(expected)]


class TestCosineScaledReward:
    PARAMS = {
        "min_value_wrong": -1.0,
        "max_value_wrong": -0.5,
        "min_value_correct": 0.5,
        "max_value_correct": 1.0,
        "max_len": 100,
        "length_unit": "characters",
    }

    @pytest.mark.parametrize(
        "content, length, expected",
        [(RIGHT, 20, 0.943), (RIGHT, 80, 0.547), (WRONG, 20, -0.942), (WRONG, 80, -0.547)],
    )
    def test_case(self, content, length, expected):
        padded = content + " " * (length - len(content))
        rewards = build_reward("cosine_scaled", self.PARAMS)(_chat(padded), solution=[GOLD])
        assert rewards[0] == pytest.approx(expected, abs=0.005)  # assertAlmostEqual(places=2)

    def test_a_number_solution_is_scored_where_open_r1_pays_every_completion(self):
        """open-r1's cosine reward (open-r1/src/open_r1/rewards.py: its gold parsing and schedule) reads the gold
        answer with LaTeX extraction only: a plain `72` parses to nothing and every completion gets 1.0. The
        characters mode checks with TRL's checker, which reads the number (documented in the factory)."""
        import math

        from math_verify import LatexExtractionConfig, parse, verify

        def open_r1_cosine(completions, solution, max_len=100):
            rewards = []
            for completion, sol in zip(completions, solution, strict=True):
                content = completion[0]["content"]
                gold = parse(sol, extraction_mode="first_match", extraction_config=[LatexExtractionConfig()])
                if len(gold) == 0:
                    rewards.append(1.0)  # open-r1: "Skip unparseable examples"
                    continue
                correct = verify(parse(content, extraction_mode="first_match"), gold)
                low, high = (0.5, 1.0) if correct else (-0.5, -1.0)
                rewards.append(low + 0.5 * (high - low) * (1.0 + math.cos(len(content) / max_len * math.pi)))
            return rewards

        completions, solution = _chat(r"\boxed{72}", r"\boxed{70}"), ["72", "72"]
        assert open_r1_cosine(completions, solution) == [1.0, 1.0]
        ours = build_reward("cosine_scaled", self.PARAMS)(completions, solution=solution)
        assert ours == [pytest.approx(0.9878, abs=1e-4), pytest.approx(-0.9878, abs=1e-4)]
        # a LaTeX solution: open-r1's function and the characters mode agree
        latex = [r"$72$", r"$72$"]
        assert ours == pytest.approx(open_r1_cosine(completions, latex), abs=1e-6)
        assert build_reward("cosine_scaled", self.PARAMS)(completions, solution=latex) == pytest.approx(ours)

    @pytest.mark.parametrize(
        "solution, right, wrong",
        [
            ("1/3", r"\boxed{\frac{1}{3}}", r"\boxed{\frac{1}{2}}"),
            ("(1, 2)", r"\boxed{(1, 2)}", r"\boxed{(1, 3)}"),
            ("1+2x", r"\boxed{1+2x}", r"\boxed{1+3x}"),
            (r"100\%", r"\boxed{100\%}", r"\boxed{50\%}"),
        ],
    )
    def test_a_solution_without_latex_is_read_as_latex(self, solution, right, wrong):
        """open-r1 finds no gold in these and pays 1.0 to both answers (docs/rewards.md); the characters mode reads
        the solution as one LaTeX expression, so it is the same as open-r1 given `$solution$`."""
        reward = build_reward("cosine_scaled", self.PARAMS)
        ours = reward(_chat(right, wrong), solution=[solution] * 2)
        assert ours[0] > 0.5 and ours[1] < -0.5
        assert ours == pytest.approx(reward(_chat(right, wrong), solution=[f"${solution}$"] * 2))


class TestLenReward:
    LONG_RIGHT, LONG_WRONG = RIGHT + "  " + "x" * 10, WRONG + "  " + "x" * 10

    def _reward(self, completions, solutions):
        return build_reward("len_reward")(_chat(*completions), solution=solutions)

    def test_same_length_responses(self):
        assert self._reward([RIGHT, WRONG], [GOLD, GOLD]) == [0.0, 0.0]

    def test_different_lengths_correct_answers(self):
        rewards = self._reward([RIGHT, self.LONG_RIGHT], [GOLD, GOLD])
        assert rewards[0] > rewards[1]
        assert rewards[0] == pytest.approx(0.5)

    def test_different_lengths_incorrect_answers(self):
        rewards = self._reward([WRONG, self.LONG_WRONG], [GOLD, GOLD])
        assert rewards[0] <= 0.0 and rewards[1] <= 0.0
        assert rewards[0] > rewards[1]

    def test_mixed_correctness(self):
        rewards = self._reward([RIGHT, self.LONG_RIGHT, WRONG, self.LONG_WRONG], [GOLD] * 4)
        assert rewards[0] > 0.0
        assert rewards[2] > rewards[1] >= rewards[3]
        assert rewards[2] <= 0.0 and rewards[3] <= 0.0
        assert rewards[0] > rewards[1] and rewards[2] > rewards[3]
        assert rewards == pytest.approx([0.5, -0.5, 0.0, -0.5])

    def test_unparseable_solution(self):
        rewards = self._reward([r"\boxed{answer}", r"\boxed{answer} " + "x" * 10], ["unparseable_latex"] * 2)
        assert rewards[0] > rewards[1]
        assert rewards[0] == pytest.approx(0.5)

    def test_groups_by_prompt(self):
        """A deliberate difference: min and max lengths are taken per prompt (Kimi 1.5's group), not per batch."""
        reward = build_reward("len_reward")
        completions = _chat(RIGHT, self.LONG_RIGHT, RIGHT + " " * 40, RIGHT + " " * 50)
        rewards = reward(completions, solution=[GOLD] * 4, prompts=["a", "a", "b", "b"])
        assert rewards == pytest.approx([0.5, -0.5, 0.5, -0.5])


class TestTagCountReward:
    @pytest.mark.parametrize(
        "text, expected",
        [
            ("<think>\nSome reasoning\n</think>\n<answer>\nThe answer\n</answer>", 1.0),
            ("Some reasoning\n</think>\n<answer>\nThe answer\n</answer>", 0.75),
            ("<think>\nSome reasoning\n<answer>\nThe answer\n</answer>", 0.75),
            ("<think>\nSome reasoning\n</think>\nThe answer\n</answer>", 0.75),
            ("<think>\nSome reasoning\n</think>\n<answer>\nThe answer", 0.75),
            ("Some reasoning\nThe answer", 0.0),
        ],
    )
    def test_case(self, text, expected):
        assert build_reward("tag_count")(_chat(text)) == [expected]


class TestSoftOverlongPunishment:
    @pytest.mark.parametrize("length, expected", [(50, 0.0), (110, -1.0), (90, -0.5)])
    def test_case(self, length, expected):
        reward = build_reward("soft_overlong", {"max_completion_len": 100, "soft_punish_cache": 20})
        assert reward(["x"], completion_ids=[[1] * length]) == [pytest.approx(expected, abs=1e-4)]


_THINK_CODE = (
    "<think>\nLet's solve this\nStep 1: First step\n</think>\n<answer>\n```python\ndef hello():\n"
    "    print('world')\n```\n</answer>"
)


class TestCodeFormat:
    @pytest.mark.parametrize(
        "language, text, expected",
        [
            ("python", _THINK_CODE, 1.0),
            ("python", "```python\ndef hello():\n    print('world')\n```", 0.0),
            ("python", "<think>Some thinking</think><answer>Just plain text</answer>", 0.0),
            ("python", "<think>Analysis</think><answer>```javascript\nconsole.log('hello');\n```</answer>", 0.0),
            ("python", "<think>Analysis</think><answer>```\ndef hello(): pass\n```</answer>", 0.0),
            ("python", "<answer>```python\ndef hello(): pass\n```</answer><think>Analysis</think>", 0.0),
            (
                "python",
                "<think>\nHere's an example:\n```python\nx = 1\n```\nNow the solution:\n</think>\n<answer>\n"
                "```python\ndef solution():\n    return 42\n```\n</answer>",
                1.0,
            ),
            (
                "javascript",
                "<think>\nAnalysis\n</think>\n<answer>\n```javascript\nconsole.log('hello');\n```\n</answer>",
                1.0,
            ),
            (
                "python",
                "<think>\nAnalysis\n</think>\n<answer>\n```javascript\nconsole.log('hello');\n```\n</answer>",
                0.0,
            ),
            (
                "python",
                "<think>\nHere's the analysis\n</think>\n<answer>\n```python\nclass Solution:\n"
                "    def __init__(self):\n        self.value = 42\n        \n    def get_value(self):\n"
                "        return self.value\n```\n</answer>",
                1.0,
            ),
        ],
    )
    def test_case(self, language, text, expected):
        assert build_reward("code_format", {"language": language})(_chat(text)) == [expected]

    @pytest.mark.parametrize(
        "text",
        [
            "<think>\n\n</think>\n<answer>\n```python```\n</answer>",  # every `.*?` empty
            "<think>\nA\n</think>\n<answer>\n```python\nx\n```\n</answer>\nafter",  # `$` at a line's end
            "<think>\nA\n</think>\n<answer>\n```python\nx\n```\n</answer>after",  # not at a line's end
            "<think>\nA\n</think>\n<answer>\n```python\n</answer>\n```\n</answer>",  # the fence closes later
            "<think>\nA\n</think>\n<answer>\n```pythonx```\n</answer>\n</answer>x",
            "<think>\n</think>\n<answer>\n```python\nx\n```\n</answer>",  # no line between the think tags
            "<think>\nA\n</think>\n<answer>\n```python\nx\n```\n</answer>" * 40,  # repeated whole answers
        ],
    )
    def test_matches_open_r1s_pattern(self, text):
        """The same verdict as open-r1's regex (which backtracks through its four `.*?`), without its cost."""
        pattern = r"^<think>\n.*?\n</think>\n<answer>\n.*?```python.*?```.*?\n</answer>$"
        expected = 1.0 if re.match(pattern, text, re.DOTALL | re.MULTILINE) else 0.0
        assert build_reward("code_format")(_chat(text)) == [expected]

    def test_language_column_overrides(self):
        text = "<think>\nAnalysis\n</think>\n<answer>\n```javascript\nconsole.log('hello');\n```\n</answer>"
        assert build_reward("code_format")(_chat(text, text), language=["javascript", "python"]) == [1.0, 0.0]


class TestRepetitionPenaltyReward:
    @pytest.mark.parametrize(
        "ngram_size, max_penalty, texts, expected",
        [
            (2, -1.0, ["this is a test sentence"], [0.0]),
            (2, -1.0, ["this this this this this"], [-0.75]),
            (2, -1.0, ["this is a this is a test"], [-1 / 3]),
            (3, -0.5, ["this is a test", "test test test test"], [0.0, -0.25]),
            (2, -1.0, [""], [0.0]),
            (3, -2.0, ["this is a this is a test"], [-0.4]),
            (3, -1.0, ["word"], [0.0]),
            (3, -1.0, ["two words"], [0.0]),
            (3, -1.0, ["three different words"], [0.0]),
            (3, -1.0, ["word word word word"], [-0.5]),
            (3, -1.0, ["one two one two"], [0.0]),
            (3, -0.5, ["A B C A B"], [0.0]),
            (3, -1.0, ["A B C A B C"], [-0.25]),
            (3, -1.0, ["A B C A B C E F G A B C A B C"], [-0.3846]),
            (3, -1.0, ["A B C D E F G H I J K L"], [0.0]),
            (2, -1.0, ["that that that that that"], [-0.75]),  # language="en"
            (2, -1.0, ["这个这个这个这个这个"], [-0.75]),  # language="zh": jieba's words
            (2, -1.0, ["The cat The cat the cat the cat"], [-5 / 7]),  # case folded: 2 unique of 7 bigrams
        ],
    )
    def test_case(self, ngram_size, max_penalty, texts, expected):
        reward = build_reward("repetition_penalty", {"ngram_size": ngram_size, "max_penalty": max_penalty})
        assert reward(_chat(*texts)) == [pytest.approx(v, abs=1e-4) for v in expected]

    def test_mixed_case(self):
        reward = build_reward("repetition_penalty", {"ngram_size": 2})
        first, second = reward(_chat("This is A Test", "this IS a test"))
        assert first == second

    @pytest.mark.parametrize("language", ["en", "zh"])
    def test_explicit_language(self, language):
        text = {"en": "that that that that that", "zh": "这个这个这个这个这个"}[language]
        assert build_reward("repetition_penalty", {"ngram_size": 2, "language": language})(_chat(text)) == [-0.75]

    @pytest.mark.parametrize("max_penalty", [1.0, 1.5])
    def test_positive_max_penalty_raises(self, max_penalty):
        with pytest.raises(RewardError, match="max_penalty"):
            build_reward("repetition_penalty", {"max_penalty": max_penalty})
