import pickle
import re

import pytest

from playground.errors import RewardError
from rewards.format import (
    format_may_be_empty_reward,
    format_reward,
    get_format_reward,
    think_answer_soft_reward,
    think_answer_strict_reward,
    think_format_reward,
    xml_count_reward,
)
from rewards.registry import build_reward


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

    @pytest.mark.parametrize(
        "text, strict, may_be_empty",
        [
            ("<intro>Hi</intro><body>Text</body><conclusion>Bye</conclusion>", 1.0, 1.0),
            # The article's `.+`: every section needs text. A section of whitespace only is empty too.
            ("<intro>Hi</intro>\n<body>Text</body>\n<conclusion></conclusion>", 0.0, 1.0),
            ("<intro></intro><body></body><conclusion></conclusion>", 0.0, 1.0),
            ("<intro>Hi</intro><body> \n </body><conclusion>Bye</conclusion>", 0.0, 1.0),
            ("<intro>\nHi\n</intro><body>\nText</body><conclusion>Bye\n</conclusion>", 1.0, 1.0),
            ("<intro>Hi</intro><body>Text</body>", 0.0, 0.0),
            # No section tag inside a section: the layout written twice does not pass as one long conclusion.
            (
                "<intro>a</intro><body>b</body><conclusion>c</conclusion>\n<intro>a</intro><body>b</body>"
                "<conclusion>c</conclusion>",
                0.0,
                0.0,
            ),
            ("<intro>a <b>bold</b></intro><body>b < c</body><conclusion>c</conclusion>", 1.0, 1.0),
            # Tags are no text: a section holding only tags is empty, whatever the tags.
            ("<intro><intro></intro><body><body></body><conclusion><conclusion></conclusion>", 0.0, 0.0),
            ("<intro><b></b></intro><body>b</body><conclusion>c</conclusion>", 0.0, 1.0),
            ("<intro><br/> </intro><body>b</body><conclusion>c</conclusion>", 0.0, 1.0),
            ("<intro><b>Hi</b></intro><body>b</body><conclusion>c</conclusion>", 1.0, 1.0),
        ],
    )
    def test_empty_sections(self, text, strict, may_be_empty):
        assert format_reward([text]) == [strict]
        assert get_format_reward()([text]) == [strict]
        assert get_format_reward(allow_empty=True)([_conv(text)]) == [may_be_empty]
        assert format_may_be_empty_reward([text]) == [may_be_empty]

    def test_differs_from_the_article_regex_only_by_dotall_and_whitespace(self):
        article = re.compile(r"^<intro>.+</intro><body>.+</body><conclusion>.+</conclusion>$")
        same = ["<intro>a</intro><body>b</body><conclusion>c</conclusion>", "<intro></intro><body>b</body>", "x"]
        for text in [*same, "<intro>a</intro><body>b</body><conclusion></conclusion>"]:
            assert format_reward([text]) == [1.0 if article.match(text) else 0.0]
        laid_out = "<intro>a</intro>\n<body>b\nc</body>\n<conclusion>d</conclusion>"
        assert (format_reward([laid_out]), bool(article.match(laid_out))) == ([1.0], False)
        # The article's `.+` pays for tags standing where the text should be (docs/rewards.md lists it).
        nested = "<intro><intro></intro><body><body></body><conclusion><conclusion></conclusion>"
        assert (format_reward([nested]), bool(article.match(nested))) == ([0.0], True)

    def test_allow_empty_must_be_a_bool(self):
        with pytest.raises(RewardError, match="allow_empty"):
            get_format_reward(allow_empty="yes")

    def test_registry_names_the_loophole(self):
        loose = build_reward("format", {"allow_empty": True})
        assert loose.__name__ == "format(allow_empty=True)"
        assert build_reward("format").__name__ == "format"
        hacked = "<intro>Hi</intro><body>Text</body><conclusion></conclusion>"
        assert (build_reward("format")([hacked]), loose([hacked])) == ([0.0], [1.0])
        assert pickle.loads(pickle.dumps(loose))([hacked]) == [1.0]

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
