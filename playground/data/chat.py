"""Prompts as chat messages, and the text the model sees for a prompt (its tokenizer's chat template).

Prompts are either standard (a string) or conversational (a list of `{"role", "content"}` messages), as in TRL.
"""

from __future__ import annotations

from typing import Any

from playground.data.parsers import first_line
from playground.errors import DataError


ROLES = ("system", "user", "assistant", "tool")


def to_messages(prompt: str | list[dict[str, str]], system_prompt: str | None = None) -> list[dict[str, str]]:
    """Return `prompt` as chat messages; `system_prompt` is prepended unless the conversation already has one."""
    if isinstance(prompt, str):
        messages = [{"role": "user", "content": prompt}]
    else:
        messages = [{"role": m["role"], "content": m["content"]} for m in prompt]
    if system_prompt and not (messages and messages[0]["role"] == "system"):
        messages.insert(0, {"role": "system", "content": system_prompt})
    return messages


def render_prompt(tokenizer: Any, prompt: str | list[dict[str, str]], use_chat_template: bool = True) -> str:
    """The text the model sees for `prompt`.

    Conversational prompts always go through the tokenizer's chat template (with the generation prompt); plain prompts
    do too when `use_chat_template` is set, as a single user message. Without a chat template, plain prompts are used
    as-is and conversations are reduced to their message contents, one per line.
    """
    has_template = bool(getattr(tokenizer, "chat_template", None))
    if isinstance(prompt, str) and not (has_template and use_chat_template):
        return prompt
    if not has_template:
        return "\n".join(m["content"] for m in prompt)
    try:
        text = tokenizer.apply_chat_template(to_messages(prompt), add_generation_prompt=True, tokenize=False)
    except Exception as e:  # jinja errors, e.g. "roles must alternate"
        raise DataError("data.chat_template", detail=first_line(e)) from e
    return text
