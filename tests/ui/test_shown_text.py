"""Completions as the page shows them: one cut inside a UTF-8 character ends in "…", not in "\ufffd"."""

from playground.scoring import score_group
from playground.ui.common import score_frame, shown_completion
from playground.ui.eval_answers import eval_answers_frame


def test_a_character_cut_by_the_token_limit_is_not_shown():
    assert shown_completion("猫是很好的宠物，因为它们\ufffd") == "猫是很好的宠物，因为它们…"
    assert shown_completion("\ufffd\ufffd") == "…"
    assert shown_completion("a \ufffd b") == "a \ufffd b"  # inside the text: what the model wrote
    assert shown_completion("done.") == "done."


def test_the_preview_table_and_the_held_out_answers_show_it_cut():
    score = score_group(["你好\ufffd", "再见"], [lambda completions, **kw: [len(c) for c in completions]], [1.0])
    frame = score_frame(score, "zh").data
    assert frame["生成结果"].tolist() == ["你好…", "再见"]
    row = {"step": 0, "eval_of": "base", "prompt": "p", "completion": "你好\ufffd"}
    assert eval_answers_frame([row], "zh")["生成结果"].tolist() == ["你好…"]
