"""Custom code gets what TRL passes: strings, or chat messages when the run has a system prompt or a
conversational dataset. The seed article's reward code, pasted as is, is warned about on chat completions (its
`len(c)` of a one-message list is 1 for every completion, `re.match` on a list raises), and works with the run
spec's `completions_as_text`: in the trial, in a real GRPO step, and in the exported rewards module.
"""

import pytest

from playground.sandbox.client import close_rewards
from playground.sandbox.custom import CHAT_HINT, TRIAL_COMPLETIONS, as_the_spec_asks, compile_rewards, trial_run
from playground.scoring import RewardChoice
from playground.spec import RunSpec
from rewards._text import TextCompletions


# The seed article's three rewards, as printed there (only the line breaks restored).
ARTICLE = '''
def reward_length(completions, **kwargs):
    """奖励生成长度适中的文本"""
    ideal_length = 100
    return [-abs(ideal_length - len(c)) for c in completions]


import re


def reward_format(completions, **kwargs):
    """检查是否遵循特定格式"""
    pattern = r"^<intro>.+</intro><body>.+</body><conclusion>.+</conclusion>$"
    return [1.0 if re.match(pattern, c) else 0.0 for c in completions]


def combined_reward(completions, **kwargs):
    """结合多个奖励信号"""
    length_rewards = reward_length(completions)
    format_rewards = reward_format(completions)
    return [0.7*l + 0.3*f for l,f in zip(length_rewards, format_rewards)]
'''
TEXT_LENGTHS = [-abs(100 - len(t)) for t in TRIAL_COMPLETIONS]


@pytest.fixture(scope="module")
def article():
    rewards = compile_rewards(ARTICLE)
    yield rewards
    close_rewards(rewards)


def _by_name(results):
    return {r.function: r for r in results}


def test_a_run_with_chat_completions_gets_the_warning(article):
    got = _by_name(trial_run(article, conversational=True))
    length = got["reward_length"]
    assert length.values == [-99.0] * len(TRIAL_COMPLETIONS)  # len() of a one-message list, for every completion
    assert any(f.startswith("Gives every chat completion the same value (-99.0)") for f in length.flags)
    for name in ("reward_format", "combined_reward"):
        assert "TypeError" in got[name].error and got[name].flags == [CHAT_HINT]


def test_a_run_with_plain_prompts_scores_text_and_still_warns(article):
    got = _by_name(trial_run(article))  # the run's format unknown: strings, as TRL passes plain prompts
    assert got["reward_length"].values == TEXT_LENGTHS
    assert any("Gives every chat completion the same value" in f for f in got["reward_length"].flags)
    (flag,) = [f for f in got["reward_format"].flags if f.startswith("Fails on chat completions")]
    assert "TypeError" in flag and flag.endswith(CHAT_HINT)


def test_completions_as_text_hands_the_article_strings(article):
    spec = RunSpec()
    assert as_the_spec_asks(article, spec) is article
    spec.set("completions_as_text", "true")
    wrapped = as_the_spec_asks(article, spec)
    assert all(isinstance(f, TextCompletions) and f.__name__ == name for name, f in wrapped.items())
    got = _by_name(trial_run(wrapped, conversational=True))
    assert got["reward_length"].values == TEXT_LENGTHS and got["reward_length"].flags == []
    assert got["reward_format"].values == [0.0] * len(TRIAL_COMPLETIONS) and got["reward_format"].error is None
    assert got["combined_reward"].values == pytest.approx([0.7 * v for v in TEXT_LENGTHS])


def test_a_reward_that_reads_both_shapes_gets_no_warning():
    source = (
        "def words(completions, **kwargs):\n"
        "    return [float(len((c if isinstance(c, str) else c[-1]['content']).split())) for c in completions]\n"
    )
    rewards = compile_rewards(source)
    try:
        for conversational in (True, False, None):
            (result,) = trial_run(rewards, conversational=conversational)
            assert result.values == [4.0, 6.0, 4.0, 0.0] and result.flags == []
    finally:
        close_rewards(rewards)


def test_one_grpo_step_with_a_system_prompt_and_completions_as_text(tiny_model_dir, tmp_path):
    from playground.training.run_queue import JobManager
    from playground.training.store import RunStore
    from tests.support.tiny_models import tiny_spec

    spec = tiny_spec(
        tiny_model_dir,
        [RewardChoice("reward_length", 1.0), RewardChoice("reward_format", 1.0)],
        custom_code=ARTICLE,
        max_steps=1,
        max_completion_length=8,
        system_prompt="Answer in sections.",
        completions_as_text=True,
    )
    job = JobManager(RunStore(tmp_path / "runs")).start(spec)
    job.join(300)
    assert job.status == "finished", job.error
    samples = job.run.samples()
    assert len(samples) == 4
    lengths = [s["rewards"]["reward_length"] for s in samples]
    assert lengths == [-abs(100 - len(s["completion"])) for s in samples]  # the text's length, not 1 message
    assert all(s["rewards"]["reward_format"] == 0.0 for s in samples)


def test_export_wraps_the_custom_rewards_the_same_way():
    from playground.export.reward_code import rewards_code

    choices = [RewardChoice("reward_length"), RewardChoice("combined_reward"), RewardChoice("length")]
    plain = rewards_code(choices, ARTICLE)
    code = rewards_code(choices, ARTICLE, completions_as_text=True)
    assert "completions_as_text" not in plain.source("m") and "reward_length = completions_as_text(reward_length)" in (
        code.wiring
    )
    module: dict = {}
    exec(compile(code.source("Exported."), "rewards_module", "exec"), module)
    chats = [[{"role": "assistant", "content": t}] for t in TRIAL_COMPLETIONS]
    length, combined, library = module["REWARD_FUNCS"]
    assert length.__name__ == "reward_length" and length(chats) == TEXT_LENGTHS
    assert combined.__name__ == "combined_reward" and combined(chats) == pytest.approx([0.7 * v for v in TEXT_LENGTHS])
    assert library.__name__ == "length" and library(chats) == library(list(TRIAL_COMPLETIONS))
