import pytest

from playground.errors import RewardError
from rewards.length import get_combined_reward, get_length_reward


SECTIONS = "<intro>a</intro><body>b</body><conclusion>c</conclusion>"  # 56 characters, matches the format


class TestLengthReward:
    @pytest.mark.parametrize(
        "text, expected",
        [("hello", 0.0), ("hi", -3.0), ("", -5.0), ("hello world", -6.0), ("你好世界呀", 0.0)],
    )
    def test_values(self, text, expected):
        reward = get_length_reward(ideal_length=5)
        assert reward([text]) == [expected]
        assert reward([[{"role": "assistant", "content": text}]]) == [expected]

    def test_default_ideal_length_is_100(self):
        assert get_length_reward()(["x" * 100, "x" * 130, "x" * 70]) == [0.0, -30.0, -30.0]

    @pytest.mark.parametrize("bad", [-1, 2.5, "10", True])
    def test_rejects_bad_ideal_length(self, bad):
        with pytest.raises(RewardError, match="ideal_length"):
            get_length_reward(ideal_length=bad)


class TestCombinedReward:
    @pytest.mark.parametrize(
        "text, expected",
        [
            (SECTIONS, 0.3),  # length 0, format 1
            ("x" * 56, 0.0),  # length 0, format 0
            ("x" * 46, -7.0),  # 0.7 * -10
            (SECTIONS + "\n" * 10, -6.7),  # 0.7 * -10 + 0.3
        ],
    )
    def test_default_weights(self, text, expected):
        assert get_combined_reward(ideal_length=56)([text]) == [expected]

    def test_custom_weights(self):
        reward = get_combined_reward(length_weight=1.0, format_weight=2.0, ideal_length=53)
        assert reward([SECTIONS, "x" * 53]) == [-1.0, 0.0]

    def test_seed_defaults(self):
        # length -47 * 0.7 + format 1 * 0.3
        assert get_combined_reward()([SECTIONS]) == [-30.5]
