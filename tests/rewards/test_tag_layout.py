"""The partial-credit tag-layout reward: a third of each tag's share for opened, closed, in order."""

import pytest

from playground.errors import RewardError
from rewards.format import format_reward, get_tag_layout_reward
from rewards.registry import build_reward, metric_name


ARTICLE = ["intro", "body", "conclusion"]
PERFECT = "<intro>Hi.</intro>\n<body>Text.</body>\n<conclusion>Bye.</conclusion>"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (PERFECT, 1.0),
        ("Some words first. " + PERFECT + " and after", 1.0),  # surrounding text costs nothing here...
        ("", 0.0),
        ("Plants make food.", 0.0),
        ("<intro>Plants make food.", 0.222222),  # opened and first (in order): 2 of 9
        ("<intro>Plants</intro>", 0.333333),  # intro complete: 3 of 9
        ("<intro>a</intro><body>b</body>", 0.666667),
        ("<intro>a</intro><body>b", 0.555556),  # body opened and in order, not closed
        ("<body>b</body><intro>a</intro>", 0.555556),  # intro 3, body opened and closed but before intro's end: 2
        (
            "<intro>a</intro><conclusion>c</conclusion>",
            0.555556,
        ),  # conclusion comes after a missing body: not in order
        ("</intro><intro>a", 0.222222),  # a closing tag before the opening one does not count
        ("<INTRO>a</INTRO>", 0.0),  # tags are case-sensitive
        # a repeated section loses its "in order" third: padding with <body> sections does not pay
        ("<intro>a</intro><body>b</body><body>c</body><conclusion>d</conclusion>", 0.888889),
        # an empty section earns nothing, not even "opened": emptying a section must not pay
        ("<intro>a</intro><body>b</body><conclusion></conclusion>", 0.666667),
        ("<intro>a</intro><body> \n </body><conclusion>c</conclusion>", 0.666667),
        ("<intro></intro><body></body><conclusion></conclusion>", 0.0),
        ("<intro>a</intro><body>b</body><conclusion>", 0.888889),  # unclosed: opened and in order, 2 of 3
    ],
)
def test_article_layout_partial_credit(text, expected):
    assert get_tag_layout_reward(ARTICLE)([text]) == [expected]


@pytest.mark.parametrize(
    ("tags", "text", "expected"),
    [
        (["think", "answer"], "<think>2 + 2 = 4</think> <answer>4</answer>", 1.0),
        (["think", "answer"], "<think>2 + 2 = 4", 0.333333),
        (["think", "answer"], "<answer>4</answer>", 0.333333),  # answer opened and closed; not after a think
        (["answer"], "The <answer>4</answer>.", 1.0),
    ],
)
def test_any_tag_list(tags, text, expected):
    assert get_tag_layout_reward(tags)([text]) == [expected]


def test_next_to_the_strict_reward():
    loose = "Sure! <intro>Hi.</intro> <body>Text.</body> <conclusion>Bye.</conclusion> Hope it helps."
    assert format_reward([PERFECT, loose]) == [1.0, 0.0]
    assert get_tag_layout_reward(ARTICLE)([PERFECT, loose]) == [1.0, 1.0]


def test_conversational_completions_and_registry_defaults():
    reward = build_reward("tag_layout")
    assert reward([[{"role": "assistant", "content": PERFECT}]]) == [1.0]
    assert reward.__name__ == "tag_layout"  # the registry names it by its metric
    assert metric_name("tag_layout") == "tag_layout"
    assert metric_name("tag_layout", {"tags": ["think", "answer"]}) == "tag_layout(tags=think|answer)"


@pytest.mark.parametrize("tags", [[], [" "], ["in tro"], ["a", "a"], ["<intro>"]])
def test_bad_tags_are_refused(tags):
    with pytest.raises(RewardError):
        get_tag_layout_reward(tags)
