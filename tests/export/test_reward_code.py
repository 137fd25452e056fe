"""An export's rewards are the library's own, copied as it is: same names and scores, in a Python that cannot import
the playground."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

import rewards
from playground.errors import PlaygroundError, RewardError
from playground.export.reward_code import copy_library, reward_sources, rewards_code
from playground.scoring import RewardChoice
from rewards.registry import build_reward, list_specs, metric_name


CUSTOM = '''\
from rewards._text import completion_text


def shouty(completions, **kwargs):
    """1.0 for an all-caps completion."""
    return [float(completion_text(c).isupper()) for c in completions]
'''

RUNNER = """
import json, sys
sys.path.insert(0, sys.argv[1])
# The product may be installed (pip install -e .): block the playground so the script proves it does not need it.
sys.modules["playground"] = None
import rewards_module as m
import rewards
assert rewards.__file__.startswith(sys.argv[1]), rewards.__file__  # the export's copy of the library
cases = json.load(open(sys.argv[2]))
out = []
for name, completions, kwargs in cases:
    func = getattr(m, name)
    out.append([func.__name__, func(completions, **kwargs)])
print(json.dumps(out))
"""


def _cases(choices, names):
    """(module attribute, completions, kwargs) for each reward on its registry examples, plus a chat completion."""
    specs = {s.name: s for s in list_specs()}
    cases = []
    for choice, name in zip(choices, names, strict=True):
        spec = specs.get(choice.name)
        examples = [e for e in (spec.good, spec.bad) if e] if spec else []
        completions = [e.completion for e in examples] or ["HELLO", "hello"]
        kwargs = {k: [e.kwargs[k] for e in examples] for k in (examples[0].kwargs if examples else {})}
        cases.append((name, completions, kwargs))
        chat = [[{"role": "assistant", "content": c}] for c in completions]
        cases.append((name, chat, kwargs))
    return cases


# The LLM judge loads the playground's embedded model by default, and code_tests runs programs in the playground's
# sandbox: an export refuses them with one sentence.
NOT_EXPORTABLE = {s.name for s in list_specs() if s.export_refusal}
# reward_model goes to TRL as its id (tests/export/test_lab_rewards_export.py); the formula is built with its terms.
NEEDS_A_MODEL = {"reward_model"}


def test_a_reward_that_needs_the_playground_is_refused_by_name():
    assert NOT_EXPORTABLE == {"judge", "code_tests"}
    with pytest.raises(PlaygroundError, match="'judge' reward cannot be exported.*model loader"):
        rewards_code([RewardChoice("judge")], "")
    judged = {"expression": "j + length", "terms": '{"j": {"name": "judge"}, "length": {"name": "length"}}'}
    with pytest.raises(PlaygroundError, match="'judge' reward cannot be exported"):  # inside a formula too
        rewards_code([RewardChoice("formula", 1.0, judged)], "")
    with pytest.raises(PlaygroundError, match="'code_tests' reward cannot be exported.*sandbox"):
        rewards_code([RewardChoice("code_tests")], "")


@pytest.mark.slow
def test_every_library_reward_runs_standalone_with_the_same_scores(tmp_path):
    choices = [RewardChoice(s.name) for s in list_specs() if s.name not in NOT_EXPORTABLE | NEEDS_A_MODEL]
    choices += [
        RewardChoice("length", 2.0, {"ideal_length": 7}),
        RewardChoice("keywords", 0.5, {"include": ["blue", "sky"], "case_sensitive": True}),
        RewardChoice("shouty", 0.25),
    ]
    code = rewards_code(choices, CUSTOM)
    assert code.names[-3:] == ["reward_length_2", "reward_keywords_2", "shouty"]
    assert code.weights[-3:] == [2.0, 0.5, 0.25]
    (tmp_path / "rewards_module.py").write_text(code.source("Test module."))
    copy_library(tmp_path)
    cases = _cases(choices, code.names)
    (tmp_path / "cases.json").write_text(json.dumps(cases))

    proc = subprocess.run(
        [sys.executable, "-I", "-c", RUNNER, str(tmp_path), str(tmp_path / "cases.json")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    got = json.loads(proc.stdout.strip().splitlines()[-1])

    custom = {}
    exec(compile(CUSTOM, "custom", "exec"), custom)
    for (name, completions, kwargs), (got_name, got_values), choice in zip(
        cases, got, [c for c in choices for _ in range(2)], strict=True
    ):
        if choice.name == "shouty":
            expected_name, expected = "shouty", custom["shouty"](completions)
        else:
            expected_name = metric_name(choice.name, choice.params)
            expected = build_reward(choice.name, choice.params)(completions, **kwargs)
        assert got_name == expected_name
        assert got_values == pytest.approx(expected), name
    assert got[0] == ["length", [-29.0, -127.0]]  # checked by hand: ideal length 100, completions of 71 and 227


def test_the_module_builds_the_chosen_rewards_from_the_copied_library(tmp_path):
    code = rewards_code([RewardChoice("length", 1.0, {"ideal_length": 50}), RewardChoice("think_format", 0.5)])
    source = code.source("Doc.")
    assert code.imports == ["from __future__ import annotations", "from rewards.registry import build_reward"]
    assert 'reward_length = build_reward("length", {"ideal_length": 50})' in source
    assert 'reward_think_format = build_reward("think_format")' in source
    assert "REWARD_FUNCS = [reward_length, reward_think_format]" in source and "REWARD_WEIGHTS = [1.0, 0.5]" in source
    assert "import playground" not in source and "from playground" not in source
    compile(source, "rewards_module.py", "exec")
    copied = copy_library(tmp_path)
    library = Path(rewards.__file__).parent
    assert sorted(p.name for p in copied.iterdir()) == sorted(p.name for p in library.glob("*.py"))
    assert (copied / "length.py").read_text() == (library / "length.py").read_text()  # as it is, not rewritten


def test_a_long_call_is_wrapped_as_ruff_formats_it():
    long = {"include": ["photosynthesis", "chlorophyll", "sunlight", "glucose"], "case_sensitive": True}
    wiring = rewards_code([RewardChoice("keywords", 1.0, long)]).wiring
    assert wiring.startswith(
        'reward_keywords = build_reward(\n    "keywords",\n    {"include": ["photosynthesis", "chlorophyll", '
        '"sunlight", "glucose"], "case_sensitive": True},\n)\n'
    )


def test_custom_code_that_redefines_build_reward_is_refused():
    clash = "def build_reward(name):\n    return None\n\n\ndef mine(completions, **kwargs):\n    return [1.0]\n"
    with pytest.raises(PlaygroundError, match="defines 'build_reward'.*rename it"):
        rewards_code([RewardChoice("length"), RewardChoice("mine")], clash)
    # Importing it from the library itself is no clash: it is the same function.
    same = "from rewards.registry import build_reward\n\n\ndef mine(completions, **kwargs):\n    return [1.0]\n"
    assert rewards_code([RewardChoice("length"), RewardChoice("mine")], same).names == ["reward_length", "mine"]


def test_custom_code_that_imports_the_playground_is_refused():
    code = "from playground.data import to_messages\n\n\ndef mine(completions, **kwargs):\n    return [1.0]\n"
    with pytest.raises(PlaygroundError, match=r"imports the playground \(playground.data\) cannot be exported"):
        rewards_code([RewardChoice("mine")], code)


def test_custom_code_errors_are_one_sentence():
    with pytest.raises(PlaygroundError, match="syntax error on line 2"):
        rewards_code([RewardChoice("mine")], "def mine(completions, **kwargs):\nreturn 1\n")
    with pytest.raises(RewardError, match="Unknown reward 'missing'"):
        rewards_code([RewardChoice("missing")], CUSTOM)


def test_reward_sources_are_the_library_source():
    text = reward_sources(RewardChoice("length", 1.0, {"ideal_length": 5}))
    assert text.startswith("def get_length_reward(ideal_length: int = 100):")
    assert "class _LengthReward:" in text
    fmt = reward_sources(RewardChoice("format"))
    assert fmt.startswith("def get_format_reward(allow_empty: bool = False):") and "\ndef format_reward(" in fmt


def test_the_playground_reads_the_module_back_as_the_choices_it_came_from(tmp_path):
    """`train --config` reads an exported module without running it: each `build_reward(name, params)` is that
    choice again, a formula with its terms included."""
    from playground.cli.recipe import recipe_rewards

    formula = {"expression": "2 * a", "terms": '{"a": {"name": "length", "params": {"ideal_length": 20}}}'}
    choices = [RewardChoice("length", 2.0, {"ideal_length": 50}), RewardChoice("formula", 0.5, formula)]
    code = rewards_code(choices)
    (tmp_path / "rewards_module.py").write_text(code.source("Doc."))
    read, custom = recipe_rewards(tmp_path / "recipe.yaml", [f"rewards_module.{n}" for n in code.names], code.weights)
    assert [c.to_dict() for c in read] == [c.to_dict() for c in choices] and custom is None
