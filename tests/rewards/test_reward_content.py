import pytest

from playground.errors import RewardError
from rewards.content import (
    get_json_valid_reward,
    get_keywords_reward,
    get_language_reward,
    get_regex_reward,
    language_fraction,
)


def _conv(text):
    return [{"role": "assistant", "content": text}]


class TestKeywordsReward:
    @pytest.mark.parametrize(
        "kwargs, text, expected",
        [
            ({"include": ["because", "so"], "exclude": ["maybe"]}, "So, because of rain.", 1.0),
            ({"include": ["because", "so"], "exclude": ["maybe"]}, "Maybe so.", -0.5),
            ({"include": ["because", "so"], "exclude": ["maybe"]}, "", 0.0),
            ({"include": ["because", "so"]}, "Because.", 0.5),
            ({"include": ["because"], "case_sensitive": True}, "Because.", 0.0),
            ({"include": ["cat"]}, "A category.", 0.0),  # whole words for Latin keywords
            ({"include": ["cat"]}, "The cat sat.", 1.0),
            ({"exclude": ["sorry", "cannot"]}, "Sorry, I cannot.", -1.0),
            ({"include": ["因为"]}, "天空是蓝色的因为散射。", 1.0),  # substrings for Chinese keywords
            ({"include": ["c++"]}, "I like C++ a lot.", 1.0),
        ],
    )
    def test_values(self, kwargs, text, expected):
        reward = get_keywords_reward(**kwargs)
        assert reward([text]) == [expected]
        assert reward([_conv(text)]) == [expected]

    @pytest.mark.parametrize("kwargs", [{}, {"include": [], "exclude": []}, {"include": ["", "  "]}])
    def test_needs_a_keyword(self, kwargs):
        with pytest.raises(RewardError, match="at least one keyword"):
            get_keywords_reward(**kwargs)


class TestRegexReward:
    @pytest.mark.parametrize(
        "kwargs, text, expected",
        [
            ({}, "There are 3 apples.", 1.0),
            ({}, "There are three apples.", 0.0),
            ({"pattern": r"\d+", "mode": "fullmatch"}, "42", 1.0),
            ({"pattern": r"\d+", "mode": "fullmatch"}, "42 apples", 0.0),
            ({"pattern": r"(?s)^Answer:.*done$", "mode": "search"}, "Answer: 1\n2\ndone", 1.0),
        ],
    )
    def test_values(self, kwargs, text, expected):
        reward = get_regex_reward(**kwargs)
        assert reward([text]) == [expected]
        assert reward([_conv(text)]) == [expected]

    def test_invalid_pattern_names_pattern_and_error(self):
        with pytest.raises(RewardError, match=r"pattern '\(ab' is not a valid regular expression: missing \)"):
            get_regex_reward(pattern="(ab")

    def test_invalid_mode(self):
        with pytest.raises(RewardError, match="search"):
            get_regex_reward(mode="match")


class TestJsonValidReward:
    @pytest.mark.parametrize(
        "text, any_value, object_only",
        [
            ('{"a": 1}', 1.0, 1.0),
            ('  {"a": [1, 2]}\n', 1.0, 1.0),
            ('```json\n{"a": 1}\n```', 1.0, 1.0),
            ('```\n{"a": 1}\n```', 1.0, 1.0),
            ("[1, 2, 3]", 1.0, 0.0),
            ("42", 1.0, 0.0),
            ("{'a': 1}", 0.0, 0.0),
            ('{"a": 1', 0.0, 0.0),
            ('Here you go: {"a": 1}', 0.0, 0.0),
            ("", 0.0, 0.0),
        ],
    )
    def test_values(self, text, any_value, object_only):
        assert get_json_valid_reward()([text]) == [any_value]
        assert get_json_valid_reward(require_object=True)([_conv(text)]) == [object_only]


class TestLanguageReward:
    @pytest.mark.parametrize(
        "kwargs, text, expected",
        [
            ({}, "答案是 42。", 1.0),
            ({}, "光合作用把光能转化为化学能。", 1.0),
            ({}, "The answer is 42.", 0.0),
            ({}, "我喜欢Python", 0.0),  # 3 of 9 letters are CJK
            ({"threshold": 0.3}, "我喜欢Python", 1.0),
            ({}, "これはペンです", 0.0),  # Japanese kana are not CJK ideographs
            ({}, "", 0.0),
            ({"threshold": 0.0}, "42, 3.14!", 0.0),  # no letters at all
            ({"language": "en"}, "The answer is 42.", 1.0),
            ({"language": "en"}, "答案是 42。", 0.0),
            ({"language": "en", "threshold": 0.8}, "Café", 0.0),  # 3 of 4 letters are ASCII
        ],
    )
    def test_values(self, kwargs, text, expected):
        reward = get_language_reward(**kwargs)
        assert reward([text]) == [expected]
        assert reward([_conv(text)]) == [expected]

    @pytest.mark.parametrize(
        "text, language, expected",
        [("我喜欢Python", "zh", 1 / 3), ("Café", "en", 0.75), ("中文 text", "en", 4 / 6), ("123", "zh", None)],
    )
    def test_fraction(self, text, language, expected):
        assert language_fraction(text, language) == (None if expected is None else pytest.approx(expected))

    @pytest.mark.parametrize("kwargs", [{"language": "fr"}, {"threshold": 1.5}])
    def test_rejects_bad_arguments(self, kwargs):
        with pytest.raises(RewardError):
            get_language_reward(**kwargs)
