"""Code rewards: open-r1's code format reward, and `code_tests`, which runs the completion's code in the sandbox.

The sandbox (`playground.sandbox`) builds on the reward library, so the library does not import it: the engine
installs the runner `code_tests` uses (`install_program_runner`, done by `playground.bootstrap()`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from rewards._text import column, completion_texts
from rewards.errors import RewardError


_LANGUAGE = re.compile(r"[A-Za-z0-9_+#.-]+")


def get_code_format_reward(language: str = "python"):
    r"""
    open-r1's `get_code_format_reward`: 1.0 if the whole text is `<think>\n…\n</think>\n<answer>\n…\n</answer>` and
    the answer holds a ```` ```<language> ```` fenced block, else 0.0. A `language` dataset column, when the batch has
    one, overrides the parameter per row (open-r1's mixed-language training).

    Args:
        language (`str`, *optional*, defaults to `"python"`):
            Language tag of the fenced block (a `language` column overrides).

    Returns:
        `Callable`: A reward function returning 1.0 or 0.0 per completion.

    Example:
    ```python
    >>> good = "<think>\nPlan\n</think>\n<answer>\n```python\nprint(1)\n```\n</answer>"
    >>> get_code_format_reward()([good, "print(1)"])
    [1.0, 0.0]
    ```
    """
    if not isinstance(language, str) or not _LANGUAGE.fullmatch(language):
        raise RewardError("reward.code_fence", value=language)
    return _CodeFormat(language)


class _CodeFormat:
    __name__ = "code_format_reward"

    def __init__(self, language: str):
        self.language = language

    def __call__(self, completions: list, **kwargs) -> list[float]:
        texts = completion_texts(completions)
        languages = kwargs.get("language")
        if not isinstance(languages, list | tuple) or len(languages) != len(texts):
            languages = [self.language] * len(texts)
        return [_code_format(text, str(lang)) for text, lang in zip(texts, languages, strict=True)]


def _code_format(text: str, language: str) -> float:
    """open-r1's pattern `^<think>\\n.*?\\n</think>\\n<answer>\\n.*?```{language}.*?```.*?\\n</answer>$` (DOTALL,
    MULTILINE), matched piece by piece: the earliest place of each piece leaves the most room for the next, so one
    scan decides it. The regex backtracks through every combination of its four `.*?` (a text that repeats the pieces
    takes seconds); this is linear."""
    if not text.startswith("<think>\n"):
        return 0.0
    start = text.find("\n</think>\n<answer>\n", len("<think>\n"))
    fence = -1 if start < 0 else text.find(f"```{language}", start + len("\n</think>\n<answer>\n"))
    close = -1 if fence < 0 else text.find("```", fence + 3 + len(language))
    end = -1 if close < 0 else close + 3
    while end >= 0:
        end = text.find("\n</answer>", end)
        if end >= 0 and text[end + len("\n</answer>") : end + len("\n</answer>") + 1] in ("", "\n"):
            return 1.0
        end = -1 if end < 0 else end + 1
    return 0.0


def extract_code(text: str, language: str = "python") -> str:
    """open-r1's `extract_code`: the last ```` ```<language> ```` fenced block of the text, or `""`."""
    matches = re.findall(rf"```{re.escape(language)}\n(.*?)```", text, re.DOTALL)
    return matches[-1] if matches else ""


ProgramRunner = Callable[[list[str], list[list], float], list[float | None]]
# The engine installs the runner (`playground.bootstrap()`): the sandbox lies above the reward library.
_RUNNER: list[ProgramRunner] = []


def install_program_runner(runner: ProgramRunner) -> None:
    """Install what `code_tests` runs programs with: `runner(programs, tests, time_limit)` -> pass rates."""
    _RUNNER[:] = [runner]


def get_code_tests_reward(column: str = "tests", language: str = "python", time_limit: float = 1.0):
    r"""
    open-r1's code reward without E2B or Morph: the last ```` ```python ```` block of the completion runs against the
    test cases in a dataset column, in the playground's sandbox (a separate, confined worker process: no network in
    public mode, the sandbox's memory and time limits; see `playground.sandbox.programs`), and the reward is the
    fraction of tests passed.

    A row's test cases are a list (or its JSON text, or open-r1's `verification_info` object with `test_cases`); each
    case is `{"input": stdin, "output": expected stdout}` (stdout and expected output compared line by line, each line
    stripped, as open-r1 does, but over every line) or a string of Python run after the program, such as
    `assert add(1, 2) == 3`. Each test has `time_limit` seconds, and a program's tests not started within three
    quarters of the sandbox's per-call timeout fail. A completion without a code block gets 0.0; a row without tests
    gets `None` (TRL skips it).

    Args:
        column (`str`, *optional*, defaults to `"tests"`):
            Dataset column with the test cases (stdin/stdout pairs or asserts).
        language (`str`, *optional*, defaults to `"python"`):
            The fence's language tag; only Python runs.
        time_limit (`float`, *optional*, defaults to `1.0`):
            Seconds per test. Wall-clock time.

    Returns:
        `Callable`: A reward function returning the pass rate in [0, 1] (or `None`) per completion.

    Example:
    ```python
    >>> import playground
    >>> settings = playground.bootstrap()  # installs the sandbox runner, as every entry point does
    >>> tests = [[{"input": "2\n3\n", "output": "5"}]] * 2
    >>> get_code_tests_reward()(["```python\nprint(int(input()) + int(input()))\n```", "print(5)"], tests=tests)
    [1.0, 0.0]
    ```
    """
    if not isinstance(column, str) or not column.strip():
        raise RewardError("reward.needs_column", name="code_tests", value=column)
    if language != "python":
        raise RewardError("reward.code_python", value=language)
    if not 0 < float(time_limit) <= 60:
        raise RewardError("reward.code_time_limit", value=time_limit)
    return _CodeTests(column.strip(), float(time_limit))


class _CodeTests:
    __name__ = "code_tests_reward"

    def __init__(self, column: str, time_limit: float):
        self.column = column
        self.time_limit = time_limit

    def __call__(self, completions: list, **kwargs) -> list[float | None]:
        texts = completion_texts(completions)
        cases = [_test_cases(value) for value in column("code_tests", self.column, kwargs, len(texts))]
        if not _RUNNER:
            raise RewardError("reward.code_sandbox")
        rewards: list[float | None] = [None if tests is None else 0.0 for tests in cases]
        todo = [i for i, (text, tests) in enumerate(zip(texts, cases, strict=True)) if tests and extract_code(text)]
        if todo:
            ran = _RUNNER[0]([extract_code(texts[i]) for i in todo], [cases[i] for i in todo], self.time_limit)
            for i, value in zip(todo, ran, strict=True):
                rewards[i] = value
        return rewards


def _test_cases(value) -> list | None:
    """A row's test cases as a list: a list, its JSON text, or open-r1's `verification_info` with `test_cases`."""
    if value is None:
        return None
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError:
            raise RewardError("reward.code_tests_json") from None
    if isinstance(value, dict) and "test_cases" in value:
        value = value["test_cases"]
    if not isinstance(value, list | tuple) or not all(isinstance(t, dict | str) for t in value):
        raise RewardError("reward.code_tests_shape")
    return [dict(t) if isinstance(t, dict) else t for t in value] or None
