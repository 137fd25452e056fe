"""Format rewards: does the completion follow a tag layout?"""

from __future__ import annotations

import re

from rewards._text import HAN, completion_text, completion_texts
from rewards.errors import RewardError


# The seed article's regex is `^<intro>.+</intro><body>.+</body><conclusion>.+</conclusion>$` with `re.match`. Kept:
# every section needs text (`.+`; here at least one non-space character, so `<conclusion> </conclusion>` is empty too).
# Deliberately different: re.DOTALL (without it `.` stops at a newline and any multi-line section scores 0.0, the bug
# in several Unsloth / HF-course GRPO notebooks), whitespace allowed around and between the sections (the article
# gives 0.0 to `</intro>\n<body>`, which is how models lay sections out), and no section tag inside a section (with
# DOTALL, `.+` would let the last section swallow a second copy of the whole layout). Text means text: a section
# holding only tags (`<intro><intro></intro>`, `<body><b></b></body>`) is empty, where the article's `.+` pays for the
# tags. `allow_empty=True` is the loophole of the earlier `.*?` version: GRPO learned to leave
# `<conclusion></conclusion>` empty (the reward-hacking lesson).
_NO_SECTION_TAG = r"(?:(?!</?(?:intro|body|conclusion)>).)"
_SECTION = rf"({_NO_SECTION_TAG}*?)"
_LAYOUT = rf"\s*<intro>{_SECTION}</intro>\s*<body>{_SECTION}</body>\s*<conclusion>{_SECTION}</conclusion>\s*"
_SECTIONS = re.compile(_LAYOUT, re.DOTALL)
_ANY_TAG = re.compile(r"<[^<>]*>")
_THINK_ANSWER_STRICT = re.compile(r"<think>\n.*?\n</think>\n<answer>\n.*?\n</answer>\n?", re.DOTALL)
_THINK_ANSWER_SOFT = re.compile(r"<think>.*?</think>\s*<answer>.*?</answer>", re.DOTALL)


def format_reward(completions: list, **kwargs) -> list[float]:
    r"""
    Reward function that checks the completion is exactly `<intro>…</intro><body>…</body><conclusion>…</conclusion>`
    with text in every section: the seed article's reward (`.+` in each section). Unlike the article's regex,
    whitespace is allowed around and between the sections, a section may span several lines (`re.DOTALL`), and a
    section may not hold another section's tag (so the layout written twice scores 0.0). A section holding only
    whitespace or only tags (`<intro><intro></intro>`, `<body><b></b></body>`) counts as empty.

    Args:
        completions (`list[str]` or `list[list[dict[str, str]]]`):
            Standard or conversational completions.
        **kwargs:
            Ignored; accepted for compatibility with [`GRPOTrainer`].

    Returns:
        `list[float]`: 1.0 for each completion that matches the layout, otherwise 0.0.

    Example:
    ```python
    >>> format_reward(["<intro>Hi</intro>\n<body>a\nb</body>\n<conclusion>Bye</conclusion>", "Hi"])
    [1.0, 0.0]
    >>> format_reward(["<intro>Hi</intro>\n<body>a</body>\n<conclusion></conclusion>"])
    [0.0]
    >>> format_reward(["<intro><intro></intro><body><body></body><conclusion><conclusion></conclusion>"])
    [0.0]
    ```
    """
    return [1.0 if _filled_layout(text) else 0.0 for text in completion_texts(completions)]


def _filled_layout(text: str) -> bool:
    """The layout, each section holding text once its tags are taken out (a tag is no text)."""
    match = _SECTIONS.fullmatch(text)
    return bool(match) and all(_ANY_TAG.sub("", section).strip() for section in match.groups())


def format_may_be_empty_reward(completions: list, **kwargs) -> list[float]:
    r"""
    [`format_reward`] with empty sections allowed (`.*?` instead of `.+`): `<conclusion></conclusion>` scores 1.0.
    A loophole kept on purpose, to show reward hacking: GRPO learns to leave sections empty.

    Example:
    ```python
    >>> format_may_be_empty_reward(["<intro>Hi</intro>\n<body>a</body>\n<conclusion></conclusion>"])
    [1.0]
    ```
    """
    return [1.0 if _SECTIONS.fullmatch(text) else 0.0 for text in completion_texts(completions)]


def get_format_reward(allow_empty: bool = False):
    r"""
    The article's strict format reward, [`format_reward`], or with `allow_empty` its loophole version.

    Args:
        allow_empty (`bool`, *optional*, defaults to `False`):
            Let empty sections (<conclusion></conclusion>) score 1.0: a loophole GRPO learns to exploit. True gives
            `<intro></intro>` and other empty sections 1.0, as the article's `.*?` regex does.

    Returns:
        `Callable`: A reward function returning 1.0 or 0.0 per completion.

    Example:
    ```python
    >>> get_format_reward(allow_empty=True)(["<intro></intro><body>a</body><conclusion></conclusion>"])
    [1.0]
    ```
    """
    if not isinstance(allow_empty, bool):
        raise RewardError("reward.allow_empty", value=allow_empty)
    return format_may_be_empty_reward if allow_empty else format_reward


def think_format_reward(completions: list, **kwargs) -> list[float]:
    r"""
    TRL's [`~trl.rewards.think_format_reward`]: 1.0 if the completion starts with one `<think>…</think>` block (then
    anything, e.g. the answer), otherwise 0.0. TRL's function only reads conversational completions; standard (`str`)
    ones are wrapped into an assistant message first.

    Args:
        completions (`list[str]` or `list[list[dict[str, str]]]`):
            Standard or conversational completions.
        **kwargs:
            Ignored; accepted for compatibility with [`GRPOTrainer`].

    Returns:
        `list[float]`: 1.0 or 0.0 per completion.

    Example:
    ```python
    >>> think_format_reward(["<think>\nReasoning.\n</think>\nAnswer.", "<think>\nReasoning. Answer."])
    [1.0, 0.0]
    ```
    """
    from trl.rewards import think_format_reward as trl_think_format_reward  # at first use: importing TRL costs a
    # quarter of a second, which a worker that scores other rewards need not pay

    messages = [[{"role": "assistant", "content": completion_text(c)}] for c in completions]
    return trl_think_format_reward(messages)


def think_answer_strict_reward(completions: list, **kwargs) -> list[float]:
    r"""
    Reward function that checks the whole completion is `<think>\n…\n</think>\n<answer>\n…\n</answer>` with an
    optional final newline (the open-r1 format reward, i.e. `^<think>\n.*?\n</think>\n<answer>\n.*?\n</answer>\n?$`
    with `re.DOTALL`). Unlike open-r1 it does not use `re.MULTILINE`, so text after `</answer>\n` is not accepted.

    Args:
        completions (`list[str]` or `list[list[dict[str, str]]]`):
            Standard or conversational completions.
        **kwargs:
            Ignored; accepted for compatibility with [`GRPOTrainer`].

    Returns:
        `list[float]`: 1.0 or 0.0 per completion.

    Example:
    ```python
    >>> think_answer_strict_reward(["<think>\nHm\n</think>\n<answer>\n4\n</answer>", "<answer>4</answer>"])
    [1.0, 0.0]
    ```
    """
    return [1.0 if _THINK_ANSWER_STRICT.fullmatch(text) else 0.0 for text in completion_texts(completions)]


def think_answer_soft_reward(completions: list, **kwargs) -> list[float]:
    r"""
    Reward function that checks a `<think>…</think>` block followed by an `<answer>…</answer>` block appears anywhere
    in the completion (whitespace allowed between them, sections may span lines).

    Args:
        completions (`list[str]` or `list[list[dict[str, str]]]`):
            Standard or conversational completions.
        **kwargs:
            Ignored; accepted for compatibility with [`GRPOTrainer`].

    Returns:
        `list[float]`: 1.0 or 0.0 per completion.

    Example:
    ```python
    >>> think_answer_soft_reward(["Sure. <think>Hmm</think> <answer>4</answer>", "<answer>4</answer>"])
    [1.0, 0.0]
    ```
    """
    return [1.0 if _THINK_ANSWER_SOFT.search(text) else 0.0 for text in completion_texts(completions)]


def xml_count_reward(completions: list, **kwargs) -> list[float]:
    r"""
    willccbb's `xmlcount_reward_func` (GRPO demo, https://gist.github.com/willccbb/4676755236bb08cab5f4e54a0475d6fb)
    with `<think>` in place of its `<reasoning>`: 0.125 for each of `"<think>\n"`, `"\n</think>\n"`, `"\n<answer>\n"`
    and `"\n</answer>"` that occurs exactly once (four tags, so at most 0.5), minus 0.001 per character after the
    last `"\n</answer>"` (one trailing newline is free), to discourage text after the answer. The gist subtracts the
    trailing text twice and, when the completion ends right at `</answer>`, the length of the whole completion; here
    it is subtracted once. open-r1's `tag_count_reward` (registered as `tag_count`) pays 0.25 a tag and has no
    trailing penalty.

    Args:
        completions (`list[str]` or `list[list[dict[str, str]]]`):
            Standard or conversational completions.
        **kwargs:
            Ignored; accepted for compatibility with [`GRPOTrainer`].

    Returns:
        `list[float]`: At most 0.5 per completion.

    Example:
    ```python
    >>> xml_count_reward(["<think>\nHmm\n</think>\n<answer>\n4\n</answer>\n", "<answer>4</answer>"])
    [0.5, 0.0]
    ```
    """
    return [_xml_count(text) for text in completion_texts(completions)]


def _xml_count(text: str) -> float:
    score = 0.0
    for tag in ("<think>\n", "\n</think>\n", "\n<answer>\n"):
        if text.count(tag) == 1:
            score += 0.125
    if text.count("\n</answer>") == 1:
        score += 0.125
        trailing = text.split("\n</answer>")[-1]
        trailing = trailing[1:] if trailing.startswith("\n") else trailing
        score -= 0.001 * len(trailing)
    return round(score, 6)


# open-r1's tags, each of which must occur exactly once to earn its quarter.
_TAG_COUNT_TAGS = ("<think>\n", "\n</think>\n", "\n<answer>\n", "\n</answer>")


def tag_count_reward(completions: list, **kwargs) -> list[float]:
    r"""
    open-r1's `tag_count_reward` (adapted there from willccbb's GRPO demo): 0.25 for each of `"<think>\n"`,
    `"\n</think>\n"`, `"\n<answer>\n"` and `"\n</answer>"` that occurs exactly once, so 1.0 for the layout of
    `think_answer_strict`.

    Args:
        completions (`list[str]` or `list[list[dict[str, str]]]`):
            Standard or conversational completions.

    Returns:
        `list[float]`: 0.0, 0.25, 0.5, 0.75 or 1.0 per completion.

    Example:
    ```python
    >>> tag_count_reward(["<think>\nHmm\n</think>\n<answer>\n4\n</answer>", "Hmm\n</think>\n<answer>\n4\n</answer>"])
    [1.0, 0.75]
    ```
    """
    return [
        sum((0.25 for tag in _TAG_COUNT_TAGS if text.count(tag) == 1), 0.0) for text in completion_texts(completions)
    ]


ARTICLE_TAGS = ("intro", "body", "conclusion")


def get_tag_layout_reward(tags: list[str] | tuple[str, ...] = ARTICLE_TAGS):
    r"""
    Partial-credit reward for a tag layout, next to the strict `format_reward`: each tag earns up to `1 / len(tags)`,
    a third each for being opened (`<tag>`), being closed after it opens (`</tag>`), and coming in order (opened once,
    after the previous tag was closed). Only the first `<tag>` and the first `</tag>` after it count; a tag opened
    twice loses its "in order" third (measured: GRPO on the format lesson otherwise learned to repeat `<body>`
    sections). A section closed with nothing but whitespace in it earns nothing (the strict reward wants text in every
    section, and GRPO learned to empty them when they paid). Text around or between the sections costs nothing, so a
    perfect layout scores 1.0 here and may still score 0.0 on the strict reward.

    Args:
        tags (`list[str]`, *optional*, defaults to `["intro", "body", "conclusion"]`):
            Tag names in order (comma-separated), e.g. think,answer.

    Returns:
        `Callable`: A reward function returning a float in `[0.0, 1.0]` per completion.

    Example:
    ```python
    >>> reward = get_tag_layout_reward(["intro", "body", "conclusion"])
    >>> reward(["<intro>Hi</intro><body>a</body><conclusion>Bye</conclusion>", "<intro>Hi</intro> and more", "Hi"])
    [1.0, 0.333333, 0.0]
    ```
    """
    return _TagLayoutReward(_checked_tags(tags))


def _checked_tags(tags) -> tuple[str, ...]:
    tags = tuple(t.strip() for t in (tags or ()) if t and t.strip())
    if not tags:
        raise RewardError("reward.tags_empty")
    bad = [t for t in tags if not re.fullmatch(r"[A-Za-z_][\w.-]*", t)]
    if bad:
        raise RewardError("reward.tag_invalid", name=bad[0])
    if len(set(tags)) != len(tags):
        raise RewardError("reward.tags_repeat", tags=", ".join(tags))
    return tags


class _TagLayoutReward:
    __name__ = "tag_layout_reward"

    def __init__(self, tags: tuple[str, ...]):
        self.tags = tags

    def __call__(self, completions: list, **kwargs) -> list[float]:
        return [tag_layout_score(text, self.tags) for text in completion_texts(completions)]


# A sentence, as a reader of a tagged answer wants one in each section: at least four words (a Chinese character counts
# as one), ending in . ! ? or 。！？ (a closing quote or bracket may follow).
_CJK = re.compile(f"[{HAN}]")
_SENTENCE_END = re.compile(r"[.!?。！？][\"'”’)）]*$")
MIN_SENTENCE_WORDS = 4


def count_words(text: str) -> int:
    """Words in `text`: whitespace-separated tokens with a letter or digit, each Chinese character counted as one.

    >>> count_words("A short one."), count_words("猫喜欢睡觉。")
    (3, 5)
    """
    tokens = _CJK.sub(" ", text).split()
    return sum(1 for t in tokens if any(c.isalnum() for c in t)) + len(_CJK.findall(text))


def is_sentence(text: str) -> bool:
    """At least four words, ending in sentence punctuation.

    >>> is_sentence("Cats sleep a lot."), is_sentence("breathtaking"), is_sentence("我喜欢我的猫。")
    (True, False, True)
    """
    text = text.strip()
    return count_words(text) >= MIN_SENTENCE_WORDS and bool(_SENTENCE_END.search(text))


def get_tag_sentences_reward(tags: list[str] | tuple[str, ...] = ARTICLE_TAGS):
    r"""
    Reward for what a reader wants inside a tag layout: the share of `tags` whose section holds a sentence (at least
    four words, a Chinese character counting as one, ending in `.`, `!`, `?` or `。！？`). The strict `format_reward`
    pays as much for `<intro>A</intro>` as for a paragraph; this reward pays nothing for a word or a fragment. Each
    tag's first section counts (`<tag>…</tag>`); text around the sections costs nothing, so use it next to a format
    reward, which judges the layout. The same rule gives the eval rows' `sentence_rate` (the share of answers with a
    sentence in every section).

    Args:
        tags (`list[str]`, *optional*, defaults to `["intro", "body", "conclusion"]`):
            Tag names whose sections should each hold a sentence (comma-separated), e.g. intro,body,conclusion.

    Returns:
        `Callable`: A reward function returning a float in `[0.0, 1.0]` per completion.

    Example:
    ```python
    >>> reward = get_tag_sentences_reward(["intro", "body", "conclusion"])
    >>> reward(["<intro>Cats are calm pets.</intro><body>They sleep a lot.</body><conclusion>Get a cat!</conclusion>",
    ...         "<intro>A</intro><body>breathtaking</body><conclusion>abundance of</conclusion>"])
    [0.666667, 0.0]
    ```
    """
    return _TagSentencesReward(_checked_tags(tags))


class _TagSentencesReward:
    __name__ = "tag_sentences_reward"

    def __init__(self, tags: tuple[str, ...]):
        self.tags = tags
        self._sections = [re.compile(rf"<{re.escape(t)}>(.*?)</{re.escape(t)}>", re.DOTALL) for t in tags]

    def __call__(self, completions: list, **kwargs) -> list[float]:
        return [self.score(text) for text in completion_texts(completions)]

    def score(self, text: str) -> float:
        found = (pattern.search(text) for pattern in self._sections)
        return round(sum(1 for m in found if m and is_sentence(m.group(1))) / len(self.tags), 6)


def tag_layout_score(text: str, tags: tuple[str, ...] | list[str]) -> float:
    """The partial credit of `get_tag_layout_reward` for one text."""
    credit, previous_end = 0.0, 0
    for tag in tags:
        start = text.find(f"<{tag}>")
        if start < 0:
            previous_end = None
            continue
        end = text.find(f"</{tag}>", start + len(tag) + 2)
        previous = previous_end
        previous_end = end + len(tag) + 3 if end >= 0 else None
        if end >= 0 and not text[start + len(tag) + 2 : end].strip():
            continue  # an empty section earns nothing: GRPO otherwise learns to close sections without writing them
        credit += 1.0
        if end >= 0:
            credit += 1.0
        if previous is not None and start >= previous and text.count(f"<{tag}>") == 1:
            credit += 1.0  # a repeated tag is not "in order": partial credit must not pay for padding sections
    return round(credit / (3 * len(tags)), 6)
