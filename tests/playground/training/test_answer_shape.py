"""The shares of held-out answers in tags that the eval rows carry: empty sections and a sentence in every tag."""

import pytest

from playground.training.answer_shape import answer_shape, is_sentence, sentence_in_every_tag
from rewards.format import count_words as words


# Answers a format reward pays 1.0 for, as the format lesson's GRPO wrote them: a fragment in each tag.
FRAGMENTS = [
    "<intro>A</intro>\n<body>breathtaking</body>\n<conclusion>abundance of</conclusion>",
    "<intro>A beloved vinyl record shop</intro>\n<body>that's a highlight of my Cantina.</body>\n<conclusion>where"
    "</conclusion>",
]
SENTENCES = [
    "<intro>People keep pets for company.</intro>\n<body>A dog greets you at the door every day.</body>\n"
    "<conclusion>That is why pets matter so much!</conclusion>",
    "<intro>我们养猫是为了陪伴。</intro><body>猫每天都在家里等我们回来。</body><conclusion>所以宠物很重要！</conclusion>",
]


@pytest.mark.parametrize("text", FRAGMENTS)
def test_fragments_are_not_sentences(text):
    assert not sentence_in_every_tag(text)


@pytest.mark.parametrize("text", SENTENCES)
def test_a_sentence_in_every_tag(text):
    assert sentence_in_every_tag(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Cats sleep a lot.", True),
        ("Cats sleep a lot", False),  # no end
        ("Cats sleep.", False),  # two words
        ("“He said it was fine.”", True),  # a closing quote after the period
        ("我喜欢猫。", True),  # four Chinese characters, then 。
        ("好的。", False),
        ("Wow !!! ...", False),  # punctuation is not words
    ],
)
def test_is_sentence(text, expected):
    assert is_sentence(text) is expected


def test_words_count_chinese_characters_and_not_punctuation():
    assert words("A short one.") == 3
    assert words("猫喜欢睡觉。") == 5
    assert words("— , . !") == 0


def test_shares_over_answers():
    texts = [*FRAGMENTS, *SENTENCES, "<intro>Hi there, friend.</intro><body></body><conclusion>Bye now.</conclusion>"]
    assert answer_shape(texts) == {"empty_section_rate": 0.2, "sentence_rate": 0.4}


def test_no_shares_without_tags():
    assert answer_shape(["Just a plain answer with no tags."]) == {}
    assert answer_shape([]) == {}


def test_an_answer_cut_inside_a_tag_has_no_sentence_in_every_tag():
    # cut by the length cap before its last tag closes: the open section holds no finished sentence
    assert not sentence_in_every_tag("<intro>Dogs are loyal friends.</intro><body>They run all day long.")
    assert not sentence_in_every_tag("<intro>Dogs are loyal friends.")
    assert sentence_in_every_tag("<intro>Dogs are loyal friends.</intro><body>They run all day long.</body>")


# The combine lesson's length reward, outweighing an unsettled format, led GRPO to drop the body: two tags, a
# sentence each. The run's tags say what "every tag" is.
NO_BODY = (
    "<intro>In my opinion, walking every day is a very necessary practice.</intro>\n"
    "<conclusion>Thus, it is a very advisable practice that we should make use of.</conclusion>"
)


def test_an_answer_that_leaves_out_one_of_the_runs_tags_has_no_sentence_in_every_tag():
    tags = ["intro", "body", "conclusion"]
    assert sentence_in_every_tag(NO_BODY) and not sentence_in_every_tag(NO_BODY, tags)
    assert all(sentence_in_every_tag(t, tags) for t in SENTENCES)
    assert answer_shape([NO_BODY, *SENTENCES], tags)["sentence_rate"] == 0.6667  # 2 of 3
    assert answer_shape([NO_BODY, *SENTENCES])["sentence_rate"] == 1.0


def test_the_tags_a_run_asks_for_are_its_warm_ups():
    from playground.lessons import get_lesson
    from playground.training.evaluation import expected_tags

    assert expected_tags(get_lesson("combine").run_spec()) == ["intro", "body", "conclusion"]
    assert expected_tags(get_lesson("arithmetic").run_spec()) == ["think", "answer"]
    assert expected_tags(get_lesson("length").run_spec()) == []  # no warm-up: no tags asked for
