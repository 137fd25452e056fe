"""TRL's own reward test cases (trl/tests/test_rewards.py, TRL 1.16), table-driven, run against the playground's
registered rewards. Completions are given as TRL gives them (conversational), and token ids as `completion_ids`.
"""

import pickle
import threading

import pytest

from rewards.registry import build_reward


def _chat(*texts):
    return [[{"content": t}] for t in texts]


def _ids(completion_ids):
    """Token-id rewards are called with placeholder completions, as TRL always passes completions too."""
    return {"completions": ["x"] * len(completion_ids), "completion_ids": completion_ids}


class TestThinkFormatReward:
    @pytest.mark.parametrize(
        "text, expected",
        [
            ("<think>This is my reasoning.</think>This is my answer.", 1.0),
            ("<think>\nThis is my reasoning.\n</think>\nThis is my answer.", 1.0),
            ("<think>\nThis is\nmy reasoning.\n</think>\nThis is my answer.", 1.0),
            ("<think>\nThis is <some tag> my reasoning.</think>\nThis is my answer.", 1.0),
            ("<think></think>\nThis is my answer.", 1.0),
            ("<think>\nThis is my reasoning.\nThis is my answer.", 0.0),
            ("<think>This is my reasoning.\nThis is my answer.", 0.0),
            ("This is my reasoning. This is my answer.", 0.0),
            ("This is my reasoning.\nThis is my answer.", 0.0),
            ("This is my reasoning.</think>\nThis is my answer.", 0.0),
            ("This is my reasoning.</think>This is my answer.", 0.0),
            ("This<think>is my reasoning.</think>\nThis is my answer.", 0.0),
            ("<think>This is<think>my reasoning.</think></think>This is my answer.", 0.0),
            ("<think>This is</think>\nmy\n<think>reasoning.</think>\nThis is my answer.", 0.0),
        ],
    )
    def test_case(self, text, expected):
        assert build_reward("think_format")(_chat(text)) == [expected]


class TestSoftOverlongPunishmentReward:
    @pytest.mark.parametrize("length, expected", [(50, 0.0), (110, -1.0), (90, -0.5)])
    def test_case(self, length, expected):
        reward = build_reward("soft_overlong", {"max_completion_len": 100, "soft_punish_cache": 20})
        assert reward(**_ids([[1] * length])) == [pytest.approx(expected, abs=1e-4)]


class TestRepetitionPenaltyReward:
    @pytest.mark.parametrize(
        "ngram_size, max_penalty, completion_ids, expected",
        [
            (2, -1.0, [[1, 2, 3, 4]], [0.0]),  # no repetition
            (2, -1.0, [[5, 5, 5, 5, 5]], [-0.75]),  # 4 bigrams, 1 unique
            (2, -1.0, [[1, 2, 1, 2, 1, 2]], [-0.6]),  # 5 bigrams, 2 unique
            (3, -1.0, [[1, 2]], [0.0]),  # shorter than ngram_size
            (3, -1.0, [[1, 2, 3]], [0.0]),  # exactly one n-gram
            (3, -1.0, [[]], [0.0]),  # empty
            (2, -0.5, [[5, 5, 5, 5, 5]], [-0.375]),  # max_penalty scales
            (2, -1.0, [[1, 2, 3, 1, 2, 3]], [-0.4]),  # bigrams: 5 total, 3 unique
            (3, -1.0, [[1, 2, 3, 1, 2, 3]], [-0.25]),  # trigrams: 4 total, 3 unique
            (2, -1.0, [[1, 2, 3, 4], [5, 5, 5, 5, 5], [9]], [0.0, -0.75, 0.0]),  # a batch
        ],
    )
    def test_case(self, ngram_size, max_penalty, completion_ids, expected):
        reward = build_reward("repetition_penalty", {"ngram_size": ngram_size, "max_penalty": max_penalty})
        assert reward(**_ids(completion_ids)) == pytest.approx(expected)

    def test_positive_max_penalty_raises(self):
        from playground.errors import RewardError

        with pytest.raises(RewardError):
            build_reward("repetition_penalty", {"ngram_size": 2, "max_penalty": 0.5})

    def test_extra_kwargs_are_ignored(self):
        reward = build_reward("repetition_penalty", {"ngram_size": 2})
        assert reward(**_ids([[5, 5, 5, 5, 5]]), prompts=["x"]) == [pytest.approx(-0.75)]

    def test_reward_is_picklable(self):
        reward = pickle.loads(pickle.dumps(build_reward("repetition_penalty", {"ngram_size": 2})))
        assert reward(**_ids([[5, 5, 5, 5, 5]])) == [pytest.approx(-0.75)]
        assert reward.__name__ == "repetition_penalty(ngram_size=2)"


class TestAccuracyReward:
    @pytest.mark.parametrize(
        "completions, solution, expected",
        [
            ([r"\boxed{\frac{63}{400}}"] * 2, [r"\frac{63}{400}", "63/400"], [1.0, 1.0]),
            ([r"\boxed{\frac{64}{400}}"], [r"\frac{63}{400}"], [0.0]),
            ([r"\boxed{3}"], ["6"], [0.0]),
            (
                ["Answer is forty two.", r"Some other content. \boxed{43}."],
                ["Answer is forty two.", "Answer is forty three."],
                [None, None],
            ),
        ],
    )
    def test_case(self, completions, solution, expected):
        assert build_reward("accuracy")(_chat(*completions), solution=solution) == expected

    @pytest.mark.integration  # off the main thread math_verify runs in the answer checker, a process
    def test_in_worker_thread(self):
        results = []
        thread = threading.Thread(
            target=lambda: results.extend(
                build_reward("accuracy")(_chat(r"\boxed{\frac{1}{3}}"), solution=[r"\frac{1}{3}"])
            )
        )
        thread.start()
        thread.join(timeout=60)
        assert results == [1.0]


class TestReasoningAccuracyReward:
    @pytest.mark.parametrize(
        "completions, solution, delimiters, expected",
        [
            (
                [
                    r"<think> Reasoning content </think> \boxed{\frac{63}{400}}",
                    r"Reasoning content </think> \boxed{\frac{63}{400}}",
                ],
                [r"\frac{63}{400}"] * 2,
                None,
                [1.0, 1.0],
            ),
            (
                [r"<REASONING_START> Reasoning content </REASONING_END> \boxed{\frac{63}{400}}"],
                [r"\frac{63}{400}"],
                ["</REASONING_END>"],
                [1.0],
            ),
            ([r"<think> Reasoning content </think> \boxed{\frac{64}{400}}"], [r"\frac{63}{400}"], None, [0.0]),
            (
                [
                    r"<think> My answer is \boxed{42} </think> Some other text.",
                    r"<think> The answer is \boxed{42} </think> Here's a wrong answer: \boxed{43}.",
                ],
                [r"\boxed{42}"] * 2,
                None,
                [0.0, 0.0],
            ),
            (
                [
                    r"<think> Incomplete reasoning without closing tag",
                    r"Correct answer \frac{63}{400} but completely missing reasoning content",
                ],
                [r"\frac{63}{400}"] * 2,
                None,
                [0.0, 0.0],
            ),
            ([r"<think> Reasoning content </think> \boxed{42}"], ["forty two"], None, [None]),
        ],
    )
    def test_case(self, completions, solution, delimiters, expected):
        params = {} if delimiters is None else {"reasoning_delimiters": delimiters}
        assert build_reward("reasoning_accuracy", params)(_chat(*completions), solution=solution) == expected


class TestCosineScaledReward:
    THIRD, HALF = r"\boxed{\frac{1}{3}}", r"\boxed{\frac{1}{2}}"

    @pytest.mark.parametrize(
        "params, completions, lengths, expected",
        [
            ({}, [THIRD, THIRD], [25, 75], [0.92678, 0.57322]),  # correct: shorter rewarded more
            ({}, [HALF, HALF], [25, 75], [-0.92678, -0.57322]),  # wrong: longer penalized less
            ({}, [THIRD, HALF], [50, 50], [0.75, -0.75]),  # midpoint
            ({}, [THIRD, THIRD], [0, 100], [1.0, 0.5]),  # correct bounds
            ({}, [HALF, HALF], [0, 100], [-1.0, -0.5]),  # wrong bounds
            ({}, [THIRD, HALF], [200, 200], [0.5, -0.5]),  # past max_len: clamped
            ({"min_value_correct": 0.0, "max_value_correct": 2.0}, [THIRD], [50], [1.0]),  # custom bounds
        ],
    )
    def test_case(self, params, completions, lengths, expected):
        reward = build_reward("cosine_scaled", {"max_len": 100, **params})
        ids = [[1] * n for n in lengths]
        values = reward(_chat(*completions), solution=[r"\frac{1}{3}"] * len(completions), completion_ids=ids)
        assert values == [pytest.approx(v, abs=1e-4) for v in expected]

    def test_unparsable_gold_yields_none(self):
        reward = build_reward("cosine_scaled", {"max_len": 100})
        assert reward(_chat(r"\boxed{42}"), solution=["forty two"], completion_ids=[[1] * 50]) == [None]

    def test_reward_is_picklable(self):
        reward = pickle.loads(pickle.dumps(build_reward("cosine_scaled", {"max_len": 100})))
        assert reward(_chat(self.THIRD), solution=[r"\frac{1}{3}"], completion_ids=[[1] * 50]) == [pytest.approx(0.75)]
        assert reward.__name__ == "cosine_scaled(max_len=100)"


class TestSeveralMessages:
    """A tool-calling completion: TRL's rewards read its first message (the call), the playground's its last assistant
    message (the final answer), as docs/rewards.md says. One message: the same value as TRL's."""

    CALL = {"role": "assistant", "content": "<think>I need the calculator.</think>calculator(6 * 7)"}
    TOOL = {"role": "tool", "content": "42"}
    FINAL = {"role": "assistant", "content": "The answer is $42$."}

    def test_the_last_assistant_message_is_scored_where_trl_reads_the_first(self):
        from trl.rewards import accuracy_reward, think_format_reward

        exchange = [[self.CALL, self.TOOL, self.FINAL]]
        assert think_format_reward(exchange) == [1.0]  # TRL: the call has the think block
        assert build_reward("think_format")(exchange) == [0.0]  # here: the final answer has none
        assert accuracy_reward(exchange, solution=["$42$"]) == [0.0]  # TRL: the call holds no answer
        assert build_reward("accuracy")(exchange, solution=["$42$"]) == [1.0]  # here: the final answer is right

    @pytest.mark.parametrize("message", [CALL, FINAL])
    def test_one_message_scores_as_trl(self, message):
        from trl.rewards import accuracy_reward, think_format_reward

        one = [[message]]
        assert build_reward("think_format")(one) == think_format_reward(one)
        assert build_reward("accuracy")(one, solution=["$42$"]) == accuracy_reward(one, solution=["$42$"])
