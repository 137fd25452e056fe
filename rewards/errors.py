"""The reward library's errors: each one sentence a user can act on, raised with a message key and its values.

`RewardError("reward.ngram_size", value=0)` reads the English sentence of `MESSAGES["reward.ngram_size"]`, and keeps
the key and values (`error.key`, `error.values`) for an application that shows messages in other languages. A
`RewardError` is a `ValueError`, as TRL's and open-r1's rewards raise for bad arguments, so code written against them
catches it.

An application gives the library's errors a place in its own error family with `rewards.host.configure(
error_class=...)`: a subclass of `RewardError` that every `RewardError(...)` raised here then is (the playground's
joins its `PlaygroundError`, whose handlers show the message in the page's language).
"""

from __future__ import annotations

from typing import Any


MESSAGES: dict[str, str] = {
    "reward.unknown": "Unknown reward {name!r}. Valid rewards: {valid}.",
    "reward.param_choice": "Reward {name!r}: parameter {param!r} must be one of {valid}, got {value!r}.",
    "reward.param_min": "Reward {name!r}: parameter {param!r} must be >= {min}, got {value!r}.",
    "reward.param_max": "Reward {name!r}: parameter {param!r} must be <= {max}, got {value!r}.",
    "reward.param_type": "Reward {name!r}: parameter {param!r} must be {type}, got {value!r}.",
    "reward.param_unknown": "Reward {name!r} has no parameter {param!r}. Its parameters: {known}.",
    "reward.completion_type": "A completion must be a string or a list of chat messages, got {kind}: {value}.",
    "reward.column_missing": (
        "Reward {name!r} needs the dataset column {column!r}, but the batch only has these columns: {columns}."
    ),
    "reward.column_missing_none": (
        "Reward {name!r} needs the dataset column {column!r}, but the batch only has these columns: none."
    ),
    "reward.column_length": "Reward {name!r}: column {column!r} has {count} entries for {n} completions.",
    "reward.needs_column": "The {name} reward needs the name of a dataset column, got {value!r}.",
    "reward.option": "The {name} {option} must be one of {valid}, got {value!r}.",
    "reward.code_fence": "The code format language must be a fence tag such as python, got {value!r}.",
    "reward.code_python": "The code_tests reward runs Python only, got language {value!r}.",
    "reward.code_time_limit": "The code_tests time_limit must be in (0, 60] seconds, got {value!r}.",
    "reward.code_sandbox": (
        "code_tests runs programs in the playground's sandbox, which this process has not set up (call "
        "playground.bootstrap())."
    ),
    "reward.code_tests_json": "code_tests: a row's tests are text that is not JSON; give a list of test cases.",
    "reward.code_tests_shape": (
        'code_tests: a row\'s tests must be a list of {{"input": ..., "output": ...}} objects or Python strings.'
    ),
    "reward.keywords_empty": "The keywords reward needs at least one keyword to include or to exclude.",
    "reward.regex_empty": "The regex reward needs a non-empty pattern, got {value!r}.",
    "reward.regex_invalid": "The regex pattern {pattern!r} is not a valid regular expression: {error}.",
    "reward.regex_slow": (
        "The regex pattern {pattern!r} took more than {seconds:g} s to match {n} completion(s); nested quantifiers "
        "such as (a+)+ backtrack without end. Simplify the pattern."
    ),
    "reward.language_threshold": "The language threshold must be between 0 and 1, got {value!r}.",
    "reward.allow_empty": "allow_empty must be true or false, got {value!r}.",
    "reward.tags_empty": "This reward needs at least one tag name, e.g. intro,body,conclusion.",
    "reward.tag_invalid": "Tag name {name!r} is not valid; use names such as intro, body, think, answer.",
    "reward.tags_repeat": "The tags of this reward must differ, got {tags}.",
    "reward.formula_empty": "The formula is empty; write e.g. `0.9 * similarity + 0.1 * format`.",
    "reward.formula_long": "The formula is longer than {max} characters.",
    "reward.formula_syntax": "The formula {formula!r} is not a valid expression: {error}.",
    "reward.formula_node": "The formula {formula!r} uses {node}, which formulas do not allow.",
    "reward.formula_constant": "The formula {formula!r} may only contain numbers, not {value!r}.",
    "reward.formula_call": "The formula {formula!r} may only call {functions} (positional arguments).",
    "reward.formula_name": "The formula {formula!r} uses {name!r}, which is not one of: {names}.",
    "reward.formula_power": "Powers above 10 are not allowed in a formula.",
    "reward.formula_unexpected": "Unexpected {node} in a formula.",
    "reward.formula_terms_json": "The formula's terms are not valid JSON: {error}.",
    "reward.formula_terms_shape": (
        'The formula\'s terms must look like {{"a": {{"name": "similarity", "params": {{...}}}}}}.'
    ),
    "reward.formula_no_reward": "The formula {formula!r} reads no reward; name at least one, e.g. `format`.",
    "reward.formula_nested": "A formula cannot contain another formula.",
    "reward.formula_overflow": "The formula {formula!r} made a number too large for a reward.",
    "reward.formula_failed": "The formula {formula!r} failed: {error}.",
    "reward.judge_load": "Could not load the judge model {model!r}: {error}",
    "reward.judge_rubric": "The judge needs a rubric: one or two sentences saying what a good answer does.",
    "reward.judge_model": "The judge needs a model: 'embedded', a Hub id or a local folder.",
    "reward.batch_size": "batch_size must be a whole number of at least 1, got {value!r}.",
    "reward.time_limit": "time_limit must be a positive number of seconds, got {value!r}.",
    "reward.judge_tokens": "The judge model {model!r} has no single token for 'yes' and 'no'.",
    "reward.model_load": "Could not load reward model {model!r}: {error}",
    "reward.model_id": "The reward model must be a Hub id or a folder, got {value!r}.",
    "reward.model_missing": "The reward_model reward needs a model: a Hub id or a local folder.",
    "reward.similarity_metric": "Unknown similarity metric {value!r}; use one of {valid}.",
    "reward.completion_ids": "Got {count} completion_ids for {n} completions.",
    "reward.ngram_size": "The repetition penalty ngram_size must be a whole number >= 1, got {value!r}.",
    "reward.max_penalty": "The repetition penalty max_penalty must not be positive, got {value!r}.",
    "reward.repetition_language": "The repetition penalty language must be one of {valid}.",
    "reward.overlong_value": "The soft overlong {param} must be a non-negative whole number, got {value!r}.",
    "reward.overlong_range": (
        "The soft overlong punishment needs 0 <= soft_punish_cache <= max_completion_len and max_completion_len >= 1,"
        " got soft_punish_cache={cache} and max_completion_len={length}."
    ),
    "reward.delimiters": "The reasoning accuracy reward needs at least one reasoning delimiter, e.g. </think>.",
    "reward.cosine_max_len": "The cosine scaled reward's max_len must be a whole number >= 1, got {value!r}.",
    "reward.cosine_unit": "The cosine scaled reward's length_unit must be one of {valid}.",
    "reward.ideal_length": "ideal_length must be a non-negative whole number of characters, got {value!r}.",
}


class RewardError(ValueError):
    """A reward is unknown, badly configured, or was given something it cannot score."""

    host_class: type[RewardError] | None = None  # what `RewardError(...)` makes: see `rewards.host.configure`

    def __new__(cls, *args: Any, **values: Any):
        if cls is RewardError and RewardError.host_class is not None:
            cls = RewardError.host_class
        return super().__new__(cls, *args)

    def __init__(self, message: str = "", /, **values: Any):
        keyed = type(message) is str and message in MESSAGES
        if values and not keyed:
            raise KeyError(f"Unknown message key {message!r}")
        self._key, self._values = (message, values) if keyed else (None, {})
        super().__init__(MESSAGES[message].format(**values) if keyed else message)

    @property
    def message(self) -> str:
        return self.args[0] if self.args else ""

    @property
    def key(self) -> str | None:
        return self._key

    @property
    def values(self) -> dict[str, Any]:
        return self._values

    def render(self, lang: str | None) -> str:
        """The message in `lang`: English here; an application's subclass translates."""
        return str(self)
