"""The `>>>` examples in the docstrings of the engine and the reward library run as doctests and print what they say.

Every module of `playground/` and `rewards/` whose source holds an example is found by reading the tree, so a new
example is tested without a list to update. The judge's example runs in the playground (its embedded model, through
`rewards.host`), as the docs show it.
"""

import doctest
import importlib
import re
from pathlib import Path

import pytest

import playground.errors  # noqa: F401  (configures rewards.host: the judge's "embedded" model)


ROOT = Path(__file__).resolve().parents[1]
# Examples that cannot print the same on every machine, each with why (by doctest name).
NOT_RUN = {
    "rewards.model.get_reward_model_reward": "scores with the user's own reward model folder, which a test lacks",
}
# Modules whose examples start a process or load a model: the `integration` tier (tests/conftest.py).
INTEGRATION = {
    "rewards.code": "runs the program in a sandbox process",
    "rewards.judge": "loads the embedded model",
}


class FencedParser(doctest.DocTestParser):
    """Docstrings hold their examples in Markdown fences (TRL's style): a closing fence is not expected output."""

    def parse(self, string, name="<string>"):
        return super().parse(re.sub(r"^[ \t]*```[\w-]*[ \t]*$", "", string, flags=re.MULTILINE), name)


def modules_with_examples() -> list[str]:
    """The dotted names of the modules of `playground/` and `rewards/` whose source holds `>>> `."""
    found = []
    for package in ("playground", "rewards"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if ">>> " in path.read_text(encoding="utf-8"):
                found.append(".".join(path.relative_to(ROOT).with_suffix("").parts))
    return found


def test_the_tree_has_examples_in_both_packages():
    modules = modules_with_examples()
    assert {"rewards.format", "rewards.judge", "playground.redact"} <= set(modules)


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(name, marks=[pytest.mark.integration] if name in INTEGRATION else [])
        for name in modules_with_examples()
    ],
)
def test_docstring_examples_print_what_they_say(name):
    module = importlib.import_module(name)
    tests = [t for t in doctest.DocTestFinder(parser=FencedParser()).find(module) if t.examples]
    assert tests, f"{name} holds `>>> ` but doctest finds no example in it"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for test in tests:
        if test.name not in NOT_RUN:
            runner.run(test)  # prints each failure: expected and got
    assert runner.summarize(verbose=False).failed == 0
