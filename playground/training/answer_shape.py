"""What held-out answers in tags look like, beyond their rewards: two shares the eval rows carry for tagged answers.

- `empty_section_rate`: the share of answers that close a tag with nothing inside (`<conclusion></conclusion>`), the
  reward-hacking lesson's measure.
- `sentence_rate`: the share of answers with a sentence in every tag: each section holds at least four words and
  ends in `.`, `!`, `?` or `。！？` (a Chinese character counts as a word), the rule of the `tag_sentences` reward
  (`rewards.format.is_sentence`), and none of the run's tags is left out (`<intro>` and `<conclusion>` with no
  `<body>` count as a missing sentence). A format reward pays for `<intro>A</intro>`; a reader wants a sentence there.

Both are shares of answers that use tags at all; a point whose answers use none has neither.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rewards.format import is_sentence


SECTION = re.compile(r"<(\w+)>(.*?)</\1>", re.DOTALL)
_ANY_TAG = re.compile(r"</?\w+>")
_OPEN = re.compile(r"<\w+>")
_EMPTY = re.compile(r"<(\w+)>\s*</\1>")


def sentence_in_every_tag(text: str, tags: Sequence[str] = ()) -> bool:
    """True when `text` has at least one section, every tag it opens is closed, every section holds a sentence, and
    each of `tags` (the tags the run asks for, when it names them) has a section: an answer that leaves one out has
    no sentence there.

    >>> sentence_in_every_tag("<intro>Cats are great pets.</intro><body>They purr all day.</body>")
    True
    >>> sentence_in_every_tag("<intro>A</intro><body>breathtaking</body><conclusion>abundance of</conclusion>")
    False
    >>> sentence_in_every_tag("<intro>Cats are great pets.</intro><conclusion>Get one now.</conclusion>", ["body"])
    False
    """
    sections = SECTION.findall(text)
    opened = _OPEN.findall(text)
    named = {name for name, _ in sections}
    return (
        bool(sections)
        and len(sections) == len(opened)
        and all(tag in named for tag in tags)
        and all(is_sentence(body) for _, body in sections)
    )


def answer_shape(texts: list[str], tags: Sequence[str] = ()) -> dict[str, float]:
    """{"empty_section_rate", "sentence_rate"} over `texts` (the answers as a reader sees them, completion prefix
    included) when any of them uses tags; {} otherwise. `tags`: the tags every answer should have (a warm-up's)."""
    if not texts or not any(_ANY_TAG.search(t) for t in texts):
        return {}
    n = len(texts)
    return {
        "empty_section_rate": round(sum(1 for t in texts if _EMPTY.search(t)) / n, 4),
        "sentence_rate": round(sum(1 for t in texts if sentence_in_every_tag(t, tags)) / n, 4),
    }
