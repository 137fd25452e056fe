"""Chinese for the details that parsers and Python write in English inside a catalogue text: a CSV, JSON or YAML
parser's message, a Python syntax error's. A text fills them in as its `detail` or `error` value; on a Chinese page
`render` writes the Chinese (`explain`) in their place, and the page keeps the original in a collapsible detail
(`originals`), so nothing is lost for a search or a bug report. A message not listed is shown as written.
"""

from __future__ import annotations

import re


# Values that carry a library's own message: English from the parser, not from the catalogue.
DETAIL_NAMES = ("detail", "error")
_CHINESE_DETAIL = re.compile(r"[\u4e00-\u9fff]")

# (the English message as a regular expression, its Chinese with the groups filled in)
EXPLAINED: tuple[tuple[str, str], ...] = (
    # Python's compiler
    (r"expected '(.+)'", "这里缺少 '{0}'"),
    (r"'(.)' was never closed", "'{0}' 没有闭合"),
    (r"unmatched '(.)'", "多了一个 '{0}'（前面没有与它配对的括号）"),
    (r"closing parenthesis '(.)' does not match opening parenthesis '(.)'.*", "右括号 '{0}' 与左括号 '{1}' 不匹配"),
    (r"unterminated (?:triple-quoted )?string literal.*", "字符串没有结束（缺少结尾的引号）"),
    (r"EOL while scanning string literal", "字符串没有结束（缺少结尾的引号）"),
    (r"unexpected indent", "多余的缩进"),
    (r"unindent does not match any outer indentation level", "缩进与外层的任何一级都对不上"),
    (
        r"expected an indented block after '(\w+)' statement on line (\d+)",
        "第 {1} 行的 '{0}' 语句之后应有缩进的代码块",
    ),
    (r"expected an indented block after function definition on line (\d+)", "第 {0} 行的函数定义之后应有缩进的代码块"),
    (r"expected an indented block after class definition on line (\d+)", "第 {0} 行的类定义之后应有缩进的代码块"),
    (r"expected an indented block.*", "这里应有缩进的代码块"),
    (r"invalid syntax\. Perhaps you forgot a comma\?", "语法无效，也许少了一个逗号"),
    (
        r"invalid syntax\. Maybe you meant '==' or ':=' instead of '='\?",
        "语法无效，也许应该是 '==' 或 ':='，而不是 '='",
    ),
    (r"invalid syntax", "语法无效"),
    (r"invalid character '(.)' \((U\+[0-9A-F]+)\)", "无效字符 '{0}'（{1}）"),
    (r"invalid decimal literal", "无效的数字写法"),
    (r"cannot assign to (.+)", "不能给 {0} 赋值"),
    (r"unexpected EOF while parsing", "代码意外结束"),
    (r"'return' outside function", "'return' 出现在函数之外"),
    (r"inconsistent use of tabs and spaces in indentation", "缩进中混用了制表符和空格"),
    # Python's csv module
    (r"'(.)' expected after '(.)'", "'{1}' 之后应是 '{0}'（引号里的字段结束后应紧跟分隔符）"),
    (r"unexpected end of data", "数据意外结束（可能有没闭合的引号）"),
    (r"new-line character seen in unquoted field.*", "没有引号的字段里出现了换行符"),
    (r"field larger than field limit \((\d+)\)", "字段超过了长度上限（{0} 个字符）"),
    (r"line contains NUL", "这一行含有 NUL 字符"),
    # Python's json module
    (r"Expecting value", "这里应是一个值"),
    (r"Expecting property name enclosed in double quotes", "属性名应放在双引号里"),
    (r"Expecting '(.)' delimiter", "缺少分隔符 '{0}'"),
    (r"Unterminated string starting at", "字符串没有结束"),
    (r"Extra data", "有多余的数据"),
    (r"Invalid control character at", "含有无效的控制字符"),
    (r"Invalid \\escape", "无效的反斜杠转义"),
    # pandas / pyarrow
    (
        r"Error tokenizing data\. C error: Expected (\d+) fields in line (\d+), saw (\d+)",
        "第 {1} 行应有 {0} 个字段，实际有 {2} 个",
    ),
    (r"Parquet magic bytes not found.*", "文件开头没有 Parquet 的标记字节"),
)


def explain(detail: str) -> str | None:
    """`detail` (a parser's or Python's English message) in Chinese, or None for a message not listed here (it is
    shown as written: it may be a reward's own exception message)."""
    text = detail.strip().rstrip(".")
    for pattern, chinese in EXPLAINED:
        match = re.fullmatch(pattern, text, re.DOTALL)
        if match:
            return chinese.format(*match.groups())
    return None


def explained(name: str, value: object) -> str | None:
    """The Chinese for the value `name` of a text when it is a library's English message that `explain` knows."""
    # a plain str only: a catalogue `Text` (a str subclass) renders in the page's language itself
    if name not in DETAIL_NAMES or type(value) is not str or _CHINESE_DETAIL.search(value):
        return None
    return explain(value)
