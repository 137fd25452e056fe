import pytest

from playground.errors import RewardError
from rewards.other import get_repetition_penalty_reward, get_soft_overlong_reward


class TestRepetitionPenaltyReward:
    def test_trl_example_on_completion_ids(self):
        reward = get_repetition_penalty_reward(ngram_size=2, max_penalty=-1.0)
        assert reward(["ignored", "ignored"], completion_ids=[[1, 2, 3, 4], [5, 5, 5, 5, 5]]) == [0.0, -0.75]

    @pytest.mark.parametrize(
        "text, expected",
        [
            ("the cat sat on the mat", 0.0),
            ("the cat the cat the cat the cat the cat", -0.75),  # 2 unique of 8 word trigrams
            ("too short", 0.0),
            ("", 0.0),
        ],
    )
    def test_falls_back_to_words(self, text, expected):
        reward = get_repetition_penalty_reward()
        assert reward([text]) == [expected]
        assert reward([[{"role": "assistant", "content": text}]]) == [expected]

    @pytest.mark.parametrize(
        "text, language, expected",
        [
            ("これはペンです。これはペンです。", "auto", -6 / 14),  # kana: characters, 8 unique of 14 trigrams
            ("これはペンです。これはペンです。", "ja", -6 / 14),
            ("这个这个这个", "ja", -0.5),  # characters: 这个这 个这个 这个这 个这个
            ("这个这个这个", "zh", 0.0),  # jieba: 这个 这个 这个, one trigram
            ("Word word WORD word", "en", -0.5),  # folded: 1 unique of 2 trigrams
            ("Word word WORD word", "auto", -0.5),
            ("Word word WORD word WORD 中", "auto", -0.5),  # one Chinese character: still folded English words
            ("这个这个这个", "auto", 0.0),  # Chinese: jieba's words
            ("这个这个这个 ok", "auto", 0.0),  # mostly Chinese: jieba's words
        ],
    )
    def test_text_languages(self, text, language, expected):
        assert get_repetition_penalty_reward(language=language)([text]) == [pytest.approx(expected)]

    def test_token_ids_win_over_text(self):
        reward = get_repetition_penalty_reward(ngram_size=2)
        assert reward(["这个这个这个这个这个"], completion_ids=[[1, 2, 3, 4]]) == [0.0]

    def test_scales_with_max_penalty(self):
        assert get_repetition_penalty_reward(max_penalty=-0.5)(["a b a b a b"]) == [-0.25]

    @pytest.mark.parametrize("kwargs", [{"max_penalty": 0.5}, {"ngram_size": 0}, {"language": "fr"}])
    def test_rejects_bad_arguments(self, kwargs):
        with pytest.raises(RewardError):
            get_repetition_penalty_reward(**kwargs)


class TestSoftOverlongReward:
    def test_called_with_completion_ids_only_as_trls_test_calls_it(self):
        from trl.rewards import get_soft_overlong_punishment

        ids = [[1] * 70, [1] * 90, [1] * 110]
        reference = get_soft_overlong_punishment(max_completion_len=100, soft_punish_cache=20)(completion_ids=ids)
        reward = get_soft_overlong_reward(max_completion_len=100, soft_punish_cache=20)
        assert reward(completion_ids=ids) == reference == [0.0, -0.5, -1.0]

    def test_built_from_the_registry_it_takes_completion_ids_alone_too(self):
        from trl.rewards import get_soft_overlong_punishment

        from rewards.registry import build_reward

        ids = [[1] * 70, [1] * 90, [1] * 110]
        reference = get_soft_overlong_punishment(max_completion_len=100, soft_punish_cache=20)(completion_ids=ids)
        reward = build_reward("soft_overlong", {"max_completion_len": 100, "soft_punish_cache": 20})
        assert reward(completion_ids=ids) == reference == [0.0, -0.5, -1.0]
        with pytest.raises(TypeError):  # a reward that reads completions still needs them
            build_reward("length")(completion_ids=ids)

    def test_trl_example_on_completion_ids(self):
        reward = get_soft_overlong_reward(max_completion_len=100, soft_punish_cache=20)
        ids = [[1] * 80, [1] * 90, [1] * 100, [1] * 101]
        assert reward(["x"] * 4, completion_ids=ids) == [0.0, -0.5, -1.0, -1.0]

    @pytest.mark.parametrize("words, expected", [(2, 0.0), (3, -0.5), (4, -1.0), (5, -1.0)])
    def test_falls_back_to_words(self, words, expected):
        text = " ".join(["word"] * words)
        assert get_soft_overlong_reward(max_completion_len=4, soft_punish_cache=2)([text]) == [expected]

    def test_zero_cache_is_a_hard_limit(self):
        assert get_soft_overlong_reward(max_completion_len=2, soft_punish_cache=0)(["a b", "a b c"]) == [0.0, -1.0]

    @pytest.mark.parametrize(
        "kwargs",
        [{"soft_punish_cache": 100}, {"max_completion_len": 0, "soft_punish_cache": 0}, {"soft_punish_cache": -1}],
    )
    def test_rejects_bad_arguments(self, kwargs):
        with pytest.raises(RewardError):
            get_soft_overlong_reward(**kwargs)

    def test_mismatched_completion_ids(self):
        with pytest.raises(RewardError, match="completion_ids"):
            get_soft_overlong_reward()(["a", "b"], completion_ids=[[1]])
