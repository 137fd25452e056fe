"""Print the README's reward list from the registry, or rewrite it in place with `--write`.

One bullet per reward (name, description, origin), wrapped at `WIDTH` columns like the rest of the README.

Each reward's origin comes from `ORIGINS` below; a reward missing there is listed as the playground's own. Add a new
reward's origin here and run `python scripts/reward_table.py --write` (a test checks the README is current).
"""

from __future__ import annotations

import argparse
import re
import sys
import textwrap
from pathlib import Path


ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

README = ROOT / "README.md"
START, END = "<!-- rewards:start -->", "<!-- rewards:end -->"
WIDTH = 120  # the README's longest line (tests/test_docs.py, MAX_README_COLUMNS)
# A wrapped line that starts like this would open a nested list, a heading, a quote or a code fence.
BLOCK_START = re.compile(r"([-*+]|\d+[.)])(\s|$)|#|>|```")

ARTICLE = "[article](https://huggingface.co/learn/llm-course/chapter12/4)"
TRL = "[TRL](https://huggingface.co/docs/trl/rewards)"
OPEN_R1 = "[open-r1](https://github.com/huggingface/open-r1/blob/main/src/open_r1/rewards.py)"
OPENAI = "[OpenAI grader](https://platform.openai.com/docs/guides/graders)"
OWN = "own"

ORIGINS = {
    "length": ARTICLE,
    "format": ARTICLE,
    "combined": ARTICLE,
    "think_format": TRL,
    "accuracy": TRL,
    "repetition_penalty": TRL,
    "soft_overlong": f"{TRL} (DAPO)",
    "think_answer_strict": OPEN_R1,
    "xml_count": "willccbb's GRPO demo (`xmlcount_reward_func`)",
    "tag_count": OPEN_R1,
    "reasoning_steps": OPEN_R1,
    "code_format": OPEN_R1,
    "len_reward": f"{OPEN_R1} (Kimi 1.5)",
    "code_tests": f"{OPEN_R1} (`code_reward`, run offline in the sandbox)",
    "reasoning_accuracy": TRL,
    "cosine_scaled": f"{TRL}, {OPEN_R1}",
    "similarity": f"{OPENAI} (`text_similarity`)",
    "string_check": OPENAI,
    "formula": f"{OPENAI} (`multi`)",
    "judge": f"{OPENAI} (`score_model`, run locally)",
    "reward_model": f"{TRL} (a reward-model id in `reward_funcs`)",
}


def table() -> str:
    from rewards.registry import list_specs

    items = []
    for spec in list_specs():
        # Escaped for Markdown: `<tag>` would be read as HTML, a ``` fence would open a block.
        description = spec.description.replace("<", "&lt;").replace("```", "\\`\\`\\`")
        text = f"- `{spec.name}` ({ORIGINS.get(spec.name, OWN)}): {description}"
        lines = textwrap.wrap(text, WIDTH, subsequent_indent="  ", break_long_words=False, break_on_hyphens=False)
        bad = [line for line in lines[1:] if BLOCK_START.match(line.strip())]
        if bad:
            raise ValueError(f"{spec.name}: a wrapped line would start a Markdown block: {bad[0]!r}")
        items.append("\n".join(lines))
    return "\n".join(items)


def block() -> str:
    return f"{START}\n{table()}\n{END}"


def current(text: str) -> str:
    """The README's reward block as it stands."""
    start, end = text.index(START), text.index(END) + len(END)
    return text[start:end]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite the list in README.md")
    args = parser.parse_args()
    if not args.write:
        print(table())
        return 0
    text = README.read_text(encoding="utf-8")
    README.write_text(text.replace(current(text), block()), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
