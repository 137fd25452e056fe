"""The settings read from the environment (playground/settings.py): the one error for a bad value, and what each kind
of value allows. Variable names and the on/off words stay as they are."""

TEXTS: dict[str, tuple[str, str]] = {
    "settings.invalid": (
        "Bad setting {name}={value!r}: {name} takes {allowed}.",
        "环境变量设置有误 {name}={value!r}：{name} 应为{allowed}。",
    ),
    "settings.allowed.flag": ("one of {on} (on) or {off} (off)", "{on}（开）或 {off}（关）之一"),
    "settings.allowed.choice": ("one of {choices}", "{choices} 之一"),
    "settings.allowed.int": ("a whole number of at least {low}", "不小于 {low} 的整数"),
    "settings.allowed.number": ("a number of at least {low}", "不小于 {low} 的数"),
    "settings.allowed.number_above": ("a number above {low}", "大于 {low} 的数"),
    "settings.allowed.secret": ("a text of at least {low} characters", "至少 {low} 个字符的文本"),
}
