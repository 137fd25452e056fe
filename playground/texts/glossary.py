"""The Chinese page's glossary: one Chinese term for each English term of GRPO training, everywhere.

A zh text whose English uses a term (outside code: `backticks`, 'quotes', field names with `_` or `/`) uses the
term's Chinese; the variants in `avoid` are used nowhere (tests/ui/test_glossary.py checks every text).
"""

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Term:
    english: str  # a regular expression over the English text, case-insensitive
    chinese: tuple[str, ...]  # the Chinese term (and, second, a short form that also names it)
    avoid: tuple[str, ...] = ()  # other Chinese words once used for it

    def matches(self, english: str) -> bool:
        return re.search(self.english, prose(english), re.IGNORECASE) is not None


GLOSSARY: dict[str, Term] = {
    "warm-up": Term(r"\bwarm(?:ing)?[- ]?ups?\b", ("预热",), ("热身",)),
    "completion prefix": Term(r"\bcompletion prefix\b", ("生成前缀",), ("回答前缀", "补全前缀")),
    "held-out prompts": Term(r"\bheld[- ]out\b", ("留出",), ("预留",)),
    # "completion length" is 生成长度: the length of what was generated.
    "completion": Term(r"\bcompletions?\b(?! prefix| length| columns?)", ("生成结果",), ("补全", "回答")),
    # A prompt is 提示词 (but for the names of TRL's keyword and of a column); 提示 alone is a hint or a note.
    "prompt": Term(r"(?<!passes )\bprompts?\b(?! and completion columns)", ("提示词",)),
    # A training run (the noun); the verb "run" is 运行.
    "run": Term(
        r"\b(?:a|the|this|your|each|one|latest|past|reference|stored|finished|other) runs?\b|^runs?$",
        ("训练",),
        ("训练列表",),
    ),
    "step": Term(r"\bsteps?\b", ("步",)),
}


def prose(english: str) -> str:
    """The English text without code: `backticks`, 'quoted names', {placeholders}, and names with `_`, `/` or `-`
    between letters and a digit or `=` (field names, metric keys, CLI flags)."""
    text = re.sub(r"`[^`]*`|'[^']*'|\{[^}]*\}|--[\w-]+", " ", english)
    return re.sub(r"\S*[_/=]\S*", " ", text)
