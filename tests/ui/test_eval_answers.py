"""The Train tab's held-out answers: a few per eval point, newest first, with each reward."""

from playground.ui.eval_answers import eval_answers_frame, shown_answers


def sample(step, of, prompt, completion):
    return {"step": step, "eval_of": of, "prompt": prompt, "seed": 42, "completion": completion}


ROWS = [
    {**sample(0, "base", "p1", "<intro>Hi"), "rewards": {"format": 0.0, "tag_layout": 0.222222}},
    {**sample(0, "base", "p1", "<intro>Yo"), "rewards": {"format": 0.0, "tag_layout": 0.222222}},
    {**sample(0, "base", "p2", "<intro>Hey"), "rewards": {"format": 0.0, "tag_layout": 0.222222}},
    {**sample(0, "base", "p3", "<intro>Ho"), "rewards": {"format": 0.0, "tag_layout": 0.222222}},
    {**sample(5, "grpo", "p1", "<intro>a</intro><body>b</body><conclusion>c</conclusion>")}
    | {"rewards": {"format": 1.0, "tag_layout": 1.0}},
]


def test_first_answer_of_the_first_prompts_per_point_newest_first():
    frame = eval_answers_frame(ROWS, "en", per_point=2)
    assert list(frame.columns) == ["step", "Model", "format", "tag_layout", "prompt", "completion"]
    assert frame.values.tolist() == [
        [5, "After GRPO step 5", 1.0, 1.0, "p1", "<intro>a</intro><body>b</body><conclusion>c</conclusion>"],
        [0, "Before training", 0.0, 0.222222, "p2", "<intro>Hey"],
        [0, "Before training", 0.0, 0.222222, "p1", "<intro>Hi"],
    ]


def test_chinese_headers_and_models():
    frame = eval_answers_frame(ROWS[:1], "zh")
    assert list(frame.columns)[:2] == ["步", "模型"] and frame.values.tolist()[0][1] == "训练前"
    assert eval_answers_frame([], "en").empty


def test_every_eval_point_of_grpo_is_named_by_its_step():
    """With eval_every=2 the answers at step 2 are mid-training ones, not the run's last."""
    rows = [sample(step, "grpo", "p1", f"answer {step}") for step in (2, 4)]
    assert eval_answers_frame(rows, "en")["Model"].tolist() == ["After GRPO step 4", "After GRPO step 2"]
    assert eval_answers_frame(rows, "zh")["模型"].tolist() == ["GRPO 第 4 步后", "GRPO 第 2 步后"]


def test_scores_show_three_decimals_as_the_samples_do():
    html = shown_answers(ROWS, "en").to_html()
    assert "0.222" in html and "1.000" in html and "0.222222" not in html
