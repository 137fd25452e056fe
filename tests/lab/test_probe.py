"""Reward-hacking probe: degenerate texts that score at or above the real completions are reported."""

import json

from playground.cli.main import main
from playground.lab.probe import battery, probe
from playground.scoring import LOCAL, RewardChoice, build_rewards


def _probe(*names, **kwargs):
    choices = [RewardChoice(n) for n in names]
    funcs, _ = build_rewards(choices, executor=LOCAL)
    return probe(choices, funcs, **kwargs)


EMPTY_SECTIONS = "<intro></intro><body></body><conclusion></conclusion>"


def test_format_with_empty_sections_allowed_gives_them_full_marks():
    choices = [RewardChoice("format", 1.0, {"allow_empty": True})]
    funcs, _ = build_rewards(choices, executor=LOCAL)
    report = probe(choices, funcs)
    empty = [f for f in report.findings if f.text == EMPTY_SECTIONS]
    assert empty and empty[0].score == 1.0 and empty[0].reward == "format(allow_empty=True)"
    assert "checks the tags" in empty[0].why
    assert not any(f.text == "" for f in report.findings)  # the empty text scores 0 < 1


def test_strict_format_wants_text_in_every_section_but_not_on_topic_text():
    report = _probe("format")
    assert not any(f.text == EMPTY_SECTIONS for f in report.findings)
    assert [f.label for f in report.findings] == ["off_topic"] and report.findings[0].score == 1.0


def test_accuracy_reward_flags_the_bare_answer_and_not_the_wrong_one():
    report = _probe("correctness", columns={"answer": "72"}, completions=["48 + 24 = 72, so #### 72"])
    texts = {f.text for f in report.findings}
    assert "72" in texts
    assert not any("73" in t for t in texts)  # a wrong answer, well formatted, scores 0


def constant_reward(completions, **kwargs):
    return [0.5] * len(completions)


def test_a_reward_that_scores_everything_alike_is_one_finding():
    report = probe([RewardChoice("constant_reward")], [constant_reward], completions=["a real answer"])
    assert len(report.findings) == 1
    assert "cannot tell them apart" in report.findings[0].why and report.findings[0].score == 0.5


def test_custom_reward_without_real_completions_is_skipped():
    assert probe([RewardChoice("constant_reward")], [constant_reward]).findings == []


def test_battery_uses_prompt_answer_and_best_completion():
    labels = [
        label for label, _ in battery("Say hi.", "4", "<intro>a</intro><body>b</body><conclusion>c</conclusion>")
    ]
    assert "a copy of the prompt" in labels and "the answer alone" in labels
    assert "the best completion with its sections emptied" in labels


def test_cli_probe_json(capsys):
    assert main(["probe", "--reward", "format", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"findings"}
    assert {"reward", "text", "score", "why"} == set(data["findings"][0])
    assert [f["reward"] for f in data["findings"]] == ["format"] and "Bananas" in data["findings"][0]["text"]


def test_ties_at_the_lowest_score_are_left_out():
    """Untagged real answers score 0 on the strict format, like most degenerate texts: only what beats them is
    reported, not a row per text that scores 0 "as much as the best (0)"."""
    choices = [RewardChoice("format")]
    funcs, _ = build_rewards(choices, executor=LOCAL)
    report = probe(choices, funcs, prompt="Write about cats.", completions=["Cats purr.", "Cats sleep a lot."])
    [finding] = report.findings
    assert (finding.label, finding.labels, finding.score, finding.best) == ("off_topic", ["off_topic"], 1.0, 0.0)
    assert finding.why.startswith("A degenerate text (well formatted but off-topic) scores 1, more than the best")
    assert report.tried == 14


def test_what_beats_and_what_ties_the_best_are_one_finding_each():
    choices = [RewardChoice("length", 1.0, {"ideal_length": 20})]
    funcs, _ = build_rewards(choices, executor=LOCAL)
    report = probe(choices, funcs, completions=["A short real answer about cats and dogs, forty-five characters"])
    beats, ties = report.findings
    assert beats.score > beats.best and ties.score == ties.best == -42.0
    assert ties.labels == ["best_reversed", "best_filler"] and ties.text.startswith("characters forty-five dogs")
    assert ties.why.startswith("2 kinds of degenerate text (the best completion with its words reversed, filler as ")
    assert beats.label in beats.labels and len(beats.labels) >= 2 and "more than the best real completion" in beats.why


def article_format_reward(completions, **kwargs):
    """The seed article's regex, `.+` in every section: it pays for tags standing where the text should be."""
    import re

    pattern = re.compile(r"^<intro>.+</intro><body>.+</body><conclusion>.+</conclusion>$")
    return [1.0 if pattern.match(c) else 0.0 for c in completions]


def test_the_nested_tag_layout_is_tried_and_caught_where_a_reward_pays_for_it():
    real = ["<intro>Pets are kind.</intro><body>They help.</body><conclusion>Get one.</conclusion>"]
    report = probe([RewardChoice("article_format_reward")], [article_format_reward], completions=real)
    tied = [f for f in report.findings if "nested_tags" in f.labels]
    assert tied and tied[0].score == 1.0
    assert "sections holding only their own opening tag" in tied[0].why
    for name, params in (("format", {}), ("format", {"allow_empty": True})):  # the hacking lesson's two formats
        choices = [RewardChoice(name, 1.0, params)]
        found = probe(choices, build_rewards(choices, executor=LOCAL)[0], completions=real).findings
        assert not any("nested_tags" in f.labels for f in found)


def test_the_hacking_lessons_probe_tries_the_nested_tag_layout():
    from playground.lab.probe import NESTED_TAGS, battery_items
    from playground.lessons.catalog import LESSONS

    lesson = next(lesson for lesson in LESSONS if lesson.id == "hacking")
    funcs, _ = build_rewards(list(lesson.rewards), executor=LOCAL)
    texts = dict(battery_items())
    assert texts["nested_tags"] == NESTED_TAGS
    loose, strict = funcs[0], funcs[2]  # format(allow_empty=True), trained; format, watched
    assert loose([NESTED_TAGS]) == [0.0] and strict([NESTED_TAGS]) == [0.0]


REAL = [
    "<intro>Pets are kind.</intro><body>They help us a lot every day.</body><conclusion>Get one.</conclusion>",
    "I like pets because they are nice.",
]


def test_the_rewards_are_probed_together_with_the_recipes_weights_and_aggregation():
    """A text the weighted recipe would push towards: its advantage among the real completions, computed as training
    computes it, beats theirs. Normalizing each reward first (normalize_then_sum) lets the strict format's 0/1 count
    as much as the length's spread, so an off-topic well-formatted text joins the findings."""
    from playground.advantages import AdvantageSettings

    choices = [RewardChoice("format"), RewardChoice("length", 1.0, {"ideal_length": 20})]
    funcs, weights = build_rewards(choices, executor=LOCAL)
    found = {}
    for aggregation in ("sum_then_normalize", "normalize_then_sum"):
        settings = AdvantageSettings("group", aggregation)
        report = probe(choices, funcs, completions=REAL, weights=weights, advantage=settings)
        [recipe] = [f for f in report.findings if f.kind == "recipe"]
        assert recipe.reward == "reward" and recipe.score > recipe.best
        assert "training would push towards it" in recipe.why
        found[aggregation] = recipe.labels
    assert "off_topic" in found["normalize_then_sum"] and "off_topic" not in found["sum_then_normalize"]
    alone = probe(choices, funcs, completions=REAL)  # without the recipe's weights: each reward on its own
    assert not any(f.kind == "recipe" for f in alone.findings)


def test_the_cli_and_the_mcp_tool_probe_the_same_recipe(capsys):
    """format + length (ideal 100 characters): summed raw, the length's spread drowns the format and 25 repeated
    words beat both real answers; normalized first, they do not."""
    from playground.ui.lab_mcp import lab_probe

    rewards = json.dumps([{"name": "format"}, {"name": "length"}])
    for aggregation, pushed in (("sum_then_normalize", ["repeated_word"]), ("normalize_then_sum", [])):
        argv = ["probe", "--reward", "format", "--reward", "length", "--json", "--completion", REAL[0]]
        argv += ["--completion", REAL[1], "--multi_objective_aggregation", aggregation]
        assert main(argv) == 0
        cli = json.loads(capsys.readouterr().out)
        mcp = lab_probe(rewards, completions=REAL, multi_objective_aggregation=aggregation)
        assert cli == mcp
        recipe = [f for f in cli["findings"] if f["reward"] == "reward"]
        assert [f["text"] for f in recipe] == (["the " * 25] if pushed else [])
