import threading

import pytest

from playground.errors import RewardError
from rewards.accuracy import accuracy_reward, extract_number, get_correctness_reward


def _conv(text):
    return [{"role": "assistant", "content": text}]


class TestExtractNumber:
    @pytest.mark.parametrize(
        "text, expected",
        [
            ("<answer>\n-3\n</answer>", -3.0),
            ("<answer>42</answer> and later 43", 42.0),
            (r"First 5, then \boxed{7}, then 9", 7.0),
            (r"\boxed{\frac{1}{2}}", 0.5),
            (r"\boxed{-\dfrac{3}{4}}", -0.75),
            (r"\boxed{1{,}234}", 1234.0),
            ("Reasoning 5 + 6.\n#### 11", 11.0),
            ("It costs $1,234.50 in total", 1234.5),
            ("I think 70, no wait, 72.", 72.0),
            ("3-4 is -1", -1.0),
            ("the list 1,2,3", 3.0),
            ("a distance of 5km", 5.0),
            ("Released on 2020/01/05", None),
            ("version v2", None),
            ("no number", None),
            ("<answer>seven</answer> but 7 elsewhere", None),
        ],
    )
    def test_values(self, text, expected):
        assert extract_number(text) == expected


class TestCorrectnessReward:
    @pytest.mark.parametrize(
        "text, answer, expected",
        [
            ("Half of 144.\n#### 72", "72", 1.0),
            (r"So the total is \boxed{72}.", "72", 1.0),
            ("<answer>72</answer> (not 73)", "72", 1.0),
            ("I think 70, no wait, 72.", "72", 1.0),
            ("It costs $1,234.00", "1,234", 1.0),
            ("0.1 + 0.2 = 0.30000000000000004", "0.3", 1.0),
            ("#### 71", "72", 0.0),
            ("I have no idea.", "72", 0.0),
            ("#### 72", "Natalia sold 48/2 = 24 clips in May.\n#### 72", 1.0),  # GSM8K-style reference
            ("#### 72", 72, 1.0),  # a numeric column
            (r"The answer is $\boxed{\frac{2}{4}}$", r"\frac{1}{2}", 1.0),  # LaTeX reference: math_verify
            (r"The answer is $\boxed{\frac{1}{3}}$", r"\frac{1}{2}", 0.0),
            ("<answer>x^2+1</answer>", "x^2+1", 1.0),
            ("<answer>x^2+2</answer>", "x^2+1", 0.0),
            ("#### 72", None, None),
            ("#### 72", "", None),
            ("#### 72", "hello world", None),
        ],
    )
    def test_auto_mode(self, text, answer, expected):
        reward = get_correctness_reward()
        assert reward([text], answer=[answer]) == [expected]
        assert reward([_conv(text)], answer=[answer]) == [expected]

    def test_numeric_mode_reads_latex_fractions(self):
        reward = get_correctness_reward(mode="numeric")
        assert reward([r"\boxed{\frac{1}{2}}", "0.25"], answer=["0.5", "0.5"]) == [1.0, 0.0]
        assert reward(["42"], answer=["no number here"]) == [None]

    def test_math_verify_mode(self):
        reward = get_correctness_reward(mode="math_verify")
        completions = [r"$\boxed{\frac{1}{2}}$", "0.5", r"$\boxed{\sqrt{2}}$"]
        assert reward(completions, answer=["1/2", "1/2", r"\sqrt{2}"]) == [1.0, 1.0, 1.0]
        assert reward(["$3$"], answer=["hello world"]) == [None]

    @pytest.mark.integration  # off the main thread math_verify runs in the answer checker, a process
    def test_math_verify_off_the_main_thread(self):
        reward = get_correctness_reward(mode="math_verify")
        results = []
        thread = threading.Thread(target=lambda: results.append(reward([r"$\frac{2}{4}$"], answer=[r"\frac{1}{2}"])))
        thread.start()
        thread.join(timeout=60)
        assert results == [[1.0]]

    def test_custom_column(self):
        reward = get_correctness_reward(column="gold")
        assert reward(["#### 3", "#### 4"], gold=["3", "3"], answer=["4", "4"]) == [1.0, 0.0]

    def test_missing_column_is_a_clear_error(self):
        with pytest.raises(RewardError, match="needs the dataset column 'answer'.*solution"):
            get_correctness_reward()(["#### 3"], solution=["3"])

    @pytest.mark.parametrize("kwargs", [{"mode": "exact"}, {"column": ""}])
    def test_rejects_bad_arguments(self, kwargs):
        with pytest.raises(RewardError):
            get_correctness_reward(**kwargs)


class TestAccuracyReward:
    def test_trl_example(self):
        solutions = [r"\frac{1}{3}", r"\frac{1}{3}"]
        completions = [r"My answer is \boxed{\frac{1}{3}}", r"My answer is \boxed{\frac{1}{2}}"]
        assert accuracy_reward(completions, solution=solutions) == [1.0, 0.0]
        assert accuracy_reward([_conv(c) for c in completions], solution=solutions) == [1.0, 0.0]

    def test_unparseable_solution_is_skipped(self):
        assert accuracy_reward([r"\boxed{1}"], solution=["no math here"]) == [None]

    def test_forwards_log_extra(self):
        logged = {}
        accuracy_reward([r"\boxed{2}"], solution=["$2$"], log_extra=logged.__setitem__)
        assert logged["solution"] == ["$2$"]

    def test_missing_solution_is_a_clear_error(self):
        with pytest.raises(RewardError, match="'solution'"):
            accuracy_reward([r"\boxed{2}"], answer=["2"])
