"""What held-out answers in tags look like, beyond their rewards: two shares the eval rows carry for tagged answers.

- `empty_section_rate`: the share of answers that close a tag with nothing inside (`<conclusion></conclusion>`), the
  reward-hacking lesson's measure.
- `sentence_rate`: the share of answers with a sentence in every tag: each section holds at least four words and
  ends in `.`, `!`, `?` or `。！？` (a Chinese character counts as a word). A format reward pays for
  `<intro>A</intro>`; a reader wants a sentence there.

Both are shares of answers that use tags at all; a point whose answers use none has neither.
"""

from __future__ import annotations

import re


SECTION = re.compile(r"<(\w+)>(.*?)</\1>", re.DOTALL)
_ANY_TAG = re.compile(r"</?\w+>")
_OPEN = re.compile(r"<\w+>")
_EMPTY = re.compile(r"<(\w+)>\s*</\1>")
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_SENTENCE_END = re.compile(r"[.!?。！？][\"'”’)）]*$")
MIN_WORDS = 4


def words(text: str) -> int:
    """Words in `text`: whitespace-separated tokens with a letter or digit, each Chinese character counted as one.

    >>> words("A short one.") , words("猫喜欢睡觉。")
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
    return words(text) >= MIN_WORDS and bool(_SENTENCE_END.search(text))


def sentence_in_every_tag(text: str) -> bool:
    """True when `text` has at least one section, every tag it opens is closed, and every section holds a sentence.

    >>> sentence_in_every_tag("<intro>Cats are great pets.</intro><body>They purr all day.</body>")
    True
    >>> sentence_in_every_tag("<intro>A</intro><body>breathtaking</body><conclusion>abundance of</conclusion>")
    False
    """
    sections = SECTION.findall(text)
    opened = _OPEN.findall(text)
    return bool(sections) and len(sections) == len(opened) and all(is_sentence(body) for _, body in sections)


def answer_shape(texts: list[str]) -> dict[str, float]:
    """{"empty_section_rate", "sentence_rate"} over `texts` (the answers as a reader sees them, completion prefix
    included) when any of them uses tags; {} otherwise."""
    if not texts or not any(_ANY_TAG.search(t) for t in texts):
        return {}
    n = len(texts)
    return {
        "empty_section_rate": round(sum(1 for t in texts if _EMPTY.search(t)) / n, 4),
        "sentence_rate": round(sum(1 for t in texts if sentence_in_every_tag(t)) / n, 4),
    }
