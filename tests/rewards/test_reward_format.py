import pytest

from rewards.format import (
    format_reward,
    think_answer_soft_reward,
    think_answer_strict_reward,
    think_format_reward,
    xml_count_reward,
)


def _conv(text):
    return [{"role": "assistant", "content": text}]


class TestFormatReward:
    @pytest.mark.parametrize(
        "text, expected",
        [
            ("<intro>Hi</intro><body>Text</body><conclusion>Bye</conclusion>", 1.0),
            ("\n  <intro>Hi</intro>\n<body>Text</body>\n<conclusion>Bye</conclusion>\n\n", 1.0),
            # Multi-line sections must match: the missing-re.DOTALL bug of several GRPO notebooks.
            ("<intro>Line 1\nLine 2</intro>\n<body>A\nB\nC</body>\n<conclusion>End\n</conclusion>", 1.0),
            ("<intro>Hi</intro><body>Text</body>", 0.0),
            ("<body>Text</body><intro>Hi</intro><conclusion>Bye</conclusion>", 0.0),
            ("Sure! <intro>Hi</intro><body>Text</body><conclusion>Bye</conclusion>", 0.0),
            ("<intro>Hi</intro><body>Text</body><conclusion>Bye</conclusion> Anything else?", 0.0),
            ("Plain text.", 0.0),
            ("", 0.0),
        ],
    )
    def test_values(self, text, expected):
        assert format_reward([text]) == [expected]
        assert format_reward([_conv(text)]) == [expected]

    def test_multiline_body_in_a_batch(self):
        multi = "<intro>\nHello\n</intro>\n<body>\nOne.\nTwo.\n</body>\n<conclusion>\nBye.\n</conclusion>"
        assert format_reward([multi, "no tags"], prompts=["p", "p"]) == [1.0, 0.0]


class TestThinkFormatReward:
    @pytest.mark.parametrize(
        "text, expected",
        [
            ("<think>\nThis is my reasoning.\n</think>\nThis is my answer.", 1.0),
            ("<think>Short</think>Answer", 1.0),
            ("<think>\nThis is my reasoning.\nThis is my answer.", 0.0),
            ("Preamble <think>reasoning</think> answer", 0.0),
            ("<think>a</think><think>b</think>", 0.0),
            ("This is my answer.", 0.0),
        ],
    )
    def test_values(self, text, expected):
        assert think_format_reward([text]) == [expected]
        assert think_format_reward([_conv(text)]) == [expected]


class TestThinkAnswerStrictReward:
    @pytest.mark.parametrize(
        "text, expected",
        [
            ("<think>\nHm\n</think>\n<answer>\n4\n</answer>", 1.0),
            ("<think>\nHm\n</think>\n<answer>\n4\n</answer>\n", 1.0),
            ("<think>\nStep 1.\nStep 2.\n</think>\n<answer>\n4\n</answer>\n", 1.0),
            ("<think>Hm</think><answer>4</answer>", 0.0),
            ("<think>\nHm\n</think>\n\n<answer>\n4\n</answer>", 0.0),
            # Text after the answer is rejected (open-r1's re.MULTILINE let `$` match at the end of any line).
            ("<think>\nHm\n</think>\n<answer>\n4\n</answer>\nP.S. bye", 0.0),
            ("Intro\n<think>\nHm\n</think>\n<answer>\n4\n</answer>", 0.0),
        ],
    )
    def test_values(self, text, expected):
        assert think_answer_strict_reward([text]) == [expected]
        assert think_answer_strict_reward([_conv(text)]) == [expected]


class TestThinkAnswerSoftReward:
    @pytest.mark.parametrize(
        "text, expected",
        [
            ("<think>Hm</think><answer>4</answer>", 1.0),
            ("Sure. <think>Line 1\nLine 2</think>\n\n<answer>\n4\n</answer> Bye.", 1.0),
            ("<answer>4</answer><think>Hm</think>", 0.0),
            ("<think>Hm</think> The answer is 4.", 0.0),
            ("<answer>4</answer>", 0.0),
        ],
    )
    def test_values(self, text, expected):
        assert think_answer_soft_reward([text]) == [expected]
        assert think_answer_soft_reward([_conv(text)]) == [expected]


class TestXmlCountReward:
    @pytest.mark.parametrize(
        "text, expected",
        [
            ("<think>\nHm\n</think>\n<answer>\n4\n</answer>\n", 0.5),
            ("<think>\nHm\n</think>\n<answer>\n4\n</answer>", 0.5),
            ("<think>\nHm\n</think>\n<answer>\n4\n</answer>\nextra", 0.495),
            ("<think>\nHm\n</think>\n", 0.25),
            ("<think>\n<think>\nHm\n</think>\n<answer>\n4\n</answer>", 0.375),
            ("<answer>4</answer>", 0.0),
            ("", 0.0),
        ],
    )
    def test_values(self, text, expected):
        assert xml_count_reward([text]) == [expected]
        assert xml_count_reward([_conv(text)]) == [expected]
