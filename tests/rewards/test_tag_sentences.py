"""The sentence-per-tag reward: the share of the tags whose section holds a sentence, the eval rows' sentence rule."""

import pytest

from playground.errors import RewardError
from playground.training.answer_shape import sentence_in_every_tag
from rewards.format import get_tag_sentences_reward, tag_layout_score
from rewards.registry import build_reward, metric_name


ARTICLE = ["intro", "body", "conclusion"]
WRITTEN = (
    "<intro>People keep pets for company.</intro>\n<body>A dog greets you at the door every day.</body>\n"
    "<conclusion>Pets make a home feel warm!</conclusion>"
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (WRITTEN, 1.0),
        ("Before. " + WRITTEN + " After.", 1.0),  # text around the sections costs nothing here
        # the format lesson's answers after GRPO: the strict format pays 1.0 for each, this reward nothing
        ("<intro>A</intro>\n<body>breathtaking</body>\n<conclusion>abundance of</conclusion>", 0.0),
        (
            "<intro>A beloved vinyl record shop</intro>\n<body>that's a highlight of my Cantina.</body>\n"
            "<conclusion>where</conclusion>",
            0.333333,
        ),
        ("<intro>Three words here.</intro><body>Four words are here.</body>", 0.333333),  # under four words
        ("<intro>Four words without end</intro>", 0.0),  # no sentence punctuation
        ('<intro>He said "it is fine."</intro>', 0.333333),  # a closing quote may follow the full stop
        ("<intro>猫是很好的宠物。</intro><body>它们整天睡觉！</body><conclusion>养猫吧？</conclusion>", 0.666667),
        ("<intro>Cats are great pets.", 0.0),  # never closed
        ("<intro></intro><body> </body><conclusion>\n</conclusion>", 0.0),
        ("", 0.0),
        ("People keep pets for company.", 0.0),  # a sentence outside any tag
    ],
)
def test_each_tag_with_a_sentence_earns_its_share(text, expected):
    assert get_tag_sentences_reward(ARTICLE)([text]) == [expected]


def test_it_pays_for_what_the_format_rewards_do_not_ask():
    """Two answers the partial-credit layout scores alike: only the one with sentences earns this reward."""
    fragments = "<intro>A</intro>\n<body>breathtaking</body>\n<conclusion>abundance of</conclusion>"
    assert tag_layout_score(fragments, ARTICLE) == tag_layout_score(WRITTEN, ARTICLE) == 1.0
    assert get_tag_sentences_reward(ARTICLE)([fragments, WRITTEN]) == [0.0, 1.0]


@pytest.mark.parametrize(
    "text",
    [
        WRITTEN,
        "<intro>A</intro><body>breathtaking</body><conclusion>abundance of</conclusion>",
        "<intro>Cats purr all day long.</intro><body>They sleep.</body><conclusion>Get a cat now!</conclusion>",
    ],
)
def test_a_full_score_is_the_eval_rows_sentence_in_every_tag(text):
    """One rule: where every section of the article's layout is present, 1.0 here is `sentence_rate`'s answer."""
    (score,) = get_tag_sentences_reward(ARTICLE)([text])
    assert (score == 1.0) == sentence_in_every_tag(text)


def test_other_tags_and_conversational_completions():
    reward = get_tag_sentences_reward(["think", "answer"])
    messages = [{"role": "assistant", "content": "<think>Two and two make four.</think><answer>42</answer>"}]
    assert reward([messages]) == [0.5]


def test_the_registry_builds_it_under_its_metric_name():
    func = build_reward("tag_sentences", {"tags": "intro,body"})
    assert func.__name__ == metric_name("tag_sentences", {"tags": "intro,body"}) == "tag_sentences(tags=intro|body)"
    assert metric_name("tag_sentences") == "tag_sentences"
    assert func(["<intro>Cats purr all day long.</intro><body>short</body>"]) == [0.5]


@pytest.mark.parametrize(("tags", "key"), [([], "reward.tags_empty"), (["a b"], "reward.tag_invalid")])
def test_bad_tags_are_refused_with_the_layout_rewards_messages(tags, key):
    with pytest.raises(RewardError) as info:
        get_tag_sentences_reward(tags)
    assert info.value.key == key


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("<intro>猫喜欢睡。</intro>", 1.0),  # four Han characters: four words
        ("<intro>𠀀𠀁𠀂𠀃。</intro>", 1.0),  # CJK extension B (U+20000-20003) counts as Han too
        ("<intro>䷀䷁䷂䷃。</intro>", 0.0),  # Yijing hexagram symbols (U+4DC0-4DC3) are no words
        ("<intro>Cats ䷀ sleep well.</intro>", 0.0),  # three words and a symbol
    ],
)
def test_han_characters_are_words_and_hexagrams_are_not(text, expected):
    assert get_tag_sentences_reward(["intro"])([text]) == [expected]
