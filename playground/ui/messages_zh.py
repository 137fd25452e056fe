"""The engine's messages in the page's language.

The engine raises and reports catalogue texts (`playground.texts`): a `Text`, or an error raised with one, carries
its key and values, and `translate_error` renders it in the browser's language. A plain sentence (from a library, or
a message not yet in the catalogue) is shown as it is.
"""

from typing import Any

from playground.texts import Text


def translate_error(lang: str | None, message: Any) -> str:
    """`message` (a `Text`, an error, or a plain sentence) in `lang`: catalogue texts in that language, the rest as
    they are."""
    if isinstance(message, BaseException):
        message = message.args[0] if len(message.args) == 1 else str(message)
    if isinstance(message, Text):
        return message.render(lang)
    return "" if message is None else str(message)
