"""Cold start on real tiny models: the completion prefix (what rewards see), the SFT warm-up phase, the eval curve, and
the CLI's `lessons` and `train --lesson`."""

import importlib.util
import json
import re
import time
from pathlib import Path

import pytest

from playground.cli.main import main
from playground.data.completion_prefix import PrefixedReward, add_prefix
from playground.lessons.reference import load_reference
from playground.training.answer_shape import sentence_in_every_tag
from playground.training.evaluation import read_eval_samples
from playground.training.warmup import wrap_in_tags
from rewards.format import tag_layout_score


def _bench_lessons():
    """bench/lessons.py as a module (bench/ is a folder of scripts)."""
    path = Path(__file__).resolve().parents[3] / "bench" / "lessons.py"
    spec = importlib.util.spec_from_file_location("bench_lessons", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_bench_lessons_splits_the_wall_time_into_phases():
    from types import SimpleNamespace

    from playground.training.progress import PhaseClock

    now = [0.0]
    clock = PhaseClock(clock=lambda: now[0])
    for phase, seconds in [("eval", 4.0), ("warmup", 30.0), ("eval", 5.0), ("grpo", 100.0), ("eval", 6.0)]:
        clock.enter(phase)
        now[0] += seconds
    clock.enter(None)
    bench = _bench_lessons()
    assert bench.phase_seconds(SimpleNamespace(clock=clock), wall=160.0) == {
        "warmup": 30.0,
        "eval": 15.0,
        "grpo": 100.0,
        "other": 15.0,
    }
    assert bench.phase_seconds(SimpleNamespace(), wall=160.0) == {}  # a run in another process


def test_rewards_see_the_prefix_plus_the_continuation():
    seen = []

    def starts_with_intro(completions, **kwargs):
        seen.extend(completions)
        return [
            1.0 if (c if isinstance(c, str) else c[0]["content"]).startswith("<intro>") else 0.0 for c in completions
        ]

    reward = PrefixedReward(starts_with_intro, "<intro>")
    assert reward.__name__ == "starts_with_intro"  # the metric name stays the wrapped reward's
    assert reward(["Hi</intro>", [{"role": "assistant", "content": "Yo"}]]) == [1.0, 1.0]
    assert seen == ["<intro>Hi</intro>", [{"role": "assistant", "content": "<intro>Yo"}]]
    assert add_prefix(["a"], "") == ["a"]


@pytest.mark.parametrize(
    ("text", "tags", "expected"),
    [
        (
            "Cats purr. They sleep a lot. I like them.",
            ["intro", "body", "conclusion"],
            "<intro>Cats purr.</intro>\n<body>They sleep a lot.</body>\n<conclusion>I like them.</conclusion>",
        ),
        # the sentence cut by the length limit is dropped; the middle sentences share the body
        (
            "One. Two. Three. Four. Fi",
            ["intro", "body", "conclusion"],
            "<intro>One.</intro>\n<body>Two. Three.</body>\n<conclusion>Four.</conclusion>",
        ),
        (
            "Two plus two is four. So 4.",
            ["think", "answer"],
            "<think>\nTwo plus two is four.\n</think>\n<answer>\nSo 4.\n</answer>",
        ),
        # two tags: all the reasoning goes in the first, the last sentence in the second
        (
            "Tom has 12. He buys 7. So he has 19.",
            ["think", "answer"],
            "<think>\nTom has 12. He buys 7.\n</think>\n<answer>\nSo he has 19.\n</answer>",
        ),
        # too few sentences: the words are split instead
        (
            "alpha beta gamma",
            ["intro", "body", "conclusion"],
            "<intro>alpha</intro>\n<body>beta</body>\n<conclusion>gamma</conclusion>",
        ),
        ("one", ["intro", "body", "conclusion"], None),
    ],
)
def test_warmup_examples_wrap_the_answer_in_the_tags(text, tags, expected):
    assert wrap_in_tags(text, tags) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a whole sentence of at least four words in every tag, the middle ones together in the body
        (
            "People keep pets for company. A dog greets you every day. Cats purr on your lap. Pets make us happy.",
            "<intro>People keep pets for company.</intro>\n<body>A dog greets you every day. Cats purr on your lap."
            "</body>\n<conclusion>Pets make us happy.</conclusion>",
        ),
        # two sentences for three tags: left out, where the 'words' split would cut a sentence across tags
        ("People keep pets for company. A dog greets you every day.", None),
        # a sentence of two words: not a sentence a teacher would show in a tag
        ("People keep pets for company. Dogs bark. Pets make us very happy.", None),
        # the length cap cut the last sentence: dropped, and then too few are left
        ("People keep pets for company. A dog greets you every day. Cats purr on", None),
        # a fragment in the answer: left out, and the sentences around it take one tag each
        (
            "Sure! People keep pets for company. A dog greets you every day. Pets make us happy.",
            "<intro>People keep pets for company.</intro>\n<body>A dog greets you every day.</body>\n"
            "<conclusion>Pets make us happy.</conclusion>",
        ),
        # a title's full stop does not end the sentence
        (
            "Dr. Lee keeps three cats at home. They sleep all day long. Dogs bark. She loves them all.",
            "<intro>Dr. Lee keeps three cats at home.</intro>\n<body>They sleep all day long.</body>\n"
            "<conclusion>She loves them all.</conclusion>",
        ),
    ],
)
def test_sentence_split_warmup_examples_hold_a_sentence_in_every_tag(text, expected):
    wrapped = wrap_in_tags(text, ["intro", "body", "conclusion"], split="sentences")
    assert wrapped == expected
    if wrapped is not None:
        assert sentence_in_every_tag(wrapped)


def test_sentence_split_keeps_the_earliest_sentences_that_fit():
    long = "A dog greets you at the door every single day, wagging its tail and jumping up with joy and love."
    text = f"People keep pets for company. {long} Cats purr on your lap. Pets make us happy. Fish are calm to watch."
    tags = ["intro", "body", "conclusion"]
    overhead = sum(2 * len(t) + 6 for t in tags)
    # the whole answer does not fit, nor do its first three sentences: the long one is skipped
    wrapped = wrap_in_tags(text, tags, max_chars=overhead + 90, split="sentences")
    assert wrapped == (
        "<intro>People keep pets for company.</intro>\n<body>Cats purr on your lap.</body>\n"
        "<conclusion>Pets make us happy.</conclusion>"
    )
    # no three of its sentences fit
    assert wrap_in_tags(text, tags, max_chars=overhead + 40, split="sentences") is None
    # the 'words' split keeps cutting the answer at its end
    assert wrap_in_tags(text, tags, max_chars=overhead + 90) == (
        "<intro>People keep</intro>\n<body>pets for</body>\n<conclusion>company.</conclusion>"
    )


def test_the_sentences_chosen_are_the_first_fitting_choice_in_reading_order():
    """The slot-by-slot choice equals the first of all n-sentence choices (in reading order) that fits, and takes
    no enumeration of them: 8 tags over 300 sentences, where only the last 8 fit, would be 10^15 choices."""
    import itertools
    import random

    from playground.training.answer_shape import is_sentence
    from playground.training.warmup import _one_sentence_each

    def first_fitting(sentences, n, room):
        good = [s for s in sentences if is_sentence(s)]
        for chosen in itertools.combinations(good, n):
            if room is None or sum(len(s) + 1 for s in chosen) <= room:
                return list(chosen)
        return None

    rng = random.Random(0)
    words = "cats dogs purr sleep a lot on the mat every day".split()
    found = 0
    for _ in range(500):
        sentences = [
            " ".join(rng.choice(words) for _ in range(rng.randint(1, 12))).capitalize() + rng.choice(".!?,")
            for _ in range(rng.randint(0, 9))
        ]
        n, room = rng.randint(1, 4), rng.choice([None, rng.randint(10, 200)])
        expected = first_fitting(sentences, n, room)
        assert _one_sentence_each(sentences, n, room) == expected, (sentences, n, room)
        found += expected is not None
    assert 100 < found < 500  # both outcomes are exercised

    long = "Cats sleep on the warm mat every single afternoon."
    short = [f"Cat {i} naps here." for i in range(8)]
    assert _one_sentence_each([long] * 292 + short, 8, sum(len(s) + 1 for s in short)) == short


def test_lessons_json_lists_ids_titles_and_expected_figures(capsys):
    assert main(["lessons", "--json"]) == 0
    lessons = json.loads(capsys.readouterr().out)
    ids = [lesson["id"] for lesson in lessons]
    assert ids[:7] == ["groups", "length", "format", "hacking", "combine", "metrics", "troubleshooting"]
    assert "arithmetic" in ids
    for lesson in lessons:
        assert lesson["title"]["en"] and lesson["title"]["zh"] != lesson["title"]["en"]
        assert lesson["expected"]["en"] and lesson["expected"]["zh"]
    # the combine lesson: its reference run is the fix's, and its trap comes with the trap's own reference run
    combine = next(lesson for lesson in lessons if lesson["id"] == "combine")
    assert combine["overrides"]["multi_objective_aggregation"] == "normalize_then_sum"
    assert combine["reference"]["run"]["max_steps"] == combine["overrides"]["max_steps"] == 20
    trap = combine["trap"]
    assert trap["overrides"]["multi_objective_aggregation"] == "sum_then_normalize"
    assert [r["name"] for r in trap["rewards"]] == ["length", "tag_layout"]
    assert trap["reference"]["run"]["max_steps"] == trap["overrides"]["max_steps"] == 10
    assert {"tag_layout", "length(ideal_length=200)"} <= set(trap["reference"]["eval"][0])
    assert "format" in combine["reference"]["eval"][0] and "format" not in trap["reference"]["eval"][0]
    assert all("trap" not in lesson for lesson in lessons if lesson["id"] != "combine")


def test_train_lesson_combine_trains_the_fix():
    """`train --lesson combine` starts from the fixed recipe (normalized sum, sentence warm-up), not the trap."""
    from playground.cli.train import base_spec
    from playground.lessons import get_lesson

    spec = base_spec(None, "combine")
    assert spec.to_dict() == get_lesson("combine").run_spec().to_dict()
    assert spec.grpo.multi_objective_aggregation == "normalize_then_sum" and spec.grpo.sft_split == "sentences"
    assert [(c.name, c.weight) for c in spec.rewards] == [("length", 2.0), ("format", 1.0), ("tag_sentences", 1.0)]
    assert spec.grpo.max_steps == 20


def test_unknown_lesson_lists_the_valid_ones(capsys):
    assert main(["train", "--lesson", "nope"]) == 2
    assert "the lessons are: groups, length, format" in capsys.readouterr().err


@pytest.mark.slow
def test_train_lesson_runs_warmup_then_grpo_with_eval_rows_and_compare_agrees(tmp_path, tiny_model_dir, capsys):
    """The format lesson's recipe on the tiny model: warm-up, prefix, eval points, then compare with that prefix."""
    from playground.models import load_model
    from playground.preview import GenerationSettings, preview_group
    from playground.scoring import LOCAL, build_rewards
    from playground.spec import RunSpec
    from playground.training.compare import compare_run
    from playground.training.store import RunStore

    flags = dict(
        model_name_or_path=str(tiny_model_dir),
        max_steps=3,
        num_generations=4,
        per_device_train_batch_size=4,
        max_completion_length=8,
        sft_warmup_steps=2,
        sft_num_examples=4,
        eval_every=3,
        eval_prompts=2,
        eval_num_generations=2,
        eval_max_completion_length=0,  # the training cap (the lesson judges at 160)
    )
    argv = ["train", "--lesson", "format", "--json_log", "--out", str(tmp_path)]
    for key, value in flags.items():
        argv += [f"--{key}", str(value)]
    assert main(argv) == 0
    captured = capsys.readouterr()
    rows = [json.loads(line) for line in captured.out.splitlines()]
    # the alert is printed live, as the step that raised it is logged, before the run's closing line
    assert "! step 3: 'format' (0), 'tag_layout' (0.222) gave every completion the same score in all 3" in captured.err
    assert captured.err.index("! step 3:") < captured.err.index(" finished")
    phases = [(r["phase"], r.get("eval_of")) for r in rows if "warmup/loss" in r or r["phase"] != "warmup"]
    assert phases == [
        ("eval", "base"),
        ("warmup", None),
        ("warmup", None),
        ("eval", "warmup"),
        ("grpo", None),
        ("grpo", None),
        ("eval", "grpo"),
        ("grpo", None),
    ]
    evals = [r for r in rows if r["phase"] == "eval"]
    assert [r["step"] for r in evals] == [0, 0, 3]
    for r in evals:
        assert r["eval_rewards/format/mean"] == 0.0  # a random model never writes the layout
        # every answer starts with the "<intro>" prefix, and the partial credit sees it: opened and first, 2 of 9
        assert r["eval_rewards/tag_layout/mean"] == pytest.approx(2 / 9, abs=1e-6)
    grpo = [r for r in rows if r["phase"] == "grpo" and "reward" in r]
    assert [r["rewards/tag_layout/mean"] for r in grpo] == pytest.approx([2 / 9] * 3, abs=1e-6)

    [info] = RunStore(tmp_path).list()
    run = RunStore(tmp_path).get(info.id)
    status = run.status()
    assert (status["status"], status["phase"], status["warmup_step"], status["warmup_examples"]) == (
        "finished",
        "grpo",
        2,
        4,
    )
    assert {a["code"] for a in status["alerts"]} >= {"constant_reward"}  # format never varied: the cold-start advice
    # every eval point's answers are kept: the same prompts and seeds before the warm-up, after it and after GRPO
    answers = read_eval_samples(run.path)
    assert [(r["step"], r["eval_of"]) for r in answers] == [(0, "base")] * 4 + [(0, "warmup")] * 4 + [(3, "grpo")] * 4
    assert [(r["prompt"], r["seed"]) for r in answers[:4]] == [(r["prompt"], r["seed"]) for r in answers[4:8]]
    assert [r["seed"] for r in answers[:4]] == [42, 42, 43, 43] and answers[0]["prompt"] != answers[2]["prompt"]
    for r in answers:
        assert r["completion"].startswith("<intro>") and r["rewards"]["format"] == 0.0
        assert r["rewards"]["tag_layout"] == tag_layout_score(r["completion"], ["intro", "body", "conclusion"])
        assert r["reward"] == pytest.approx(r["rewards"]["format"] + r["rewards"]["tag_layout"])
    # bench/lessons.py turns the run into the lesson's reference run, which the Learn tab and `lessons --json` read
    bench = _bench_lessons()
    points = bench.eval_points(run)
    assert [(p["step"], p["of"], p["format"]) for p in points] == [
        (0, "base", 0.0),
        (0, "warmup", 0.0),
        (3, "grpo", 0.0),
    ]
    assert all(p["empty_section_rate"] == 0.0 for p in points)  # "<intro>" never closed: no empty section
    assert all(p["sentence_rate"] == 0.0 for p in points)  # and no closed section, so no sentence in one
    # the eval rows themselves carry both shares (the Learn tab and the Runs tab read them from metrics.jsonl)
    rows = [r for r in run.metrics() if r.get("phase") == "eval"]
    assert [(r["empty_section_rate"], r["sentence_rate"]) for r in rows] == [(0.0, 0.0)] * 3
    result = {"lesson": "format", "wall_s": 61.0, "cpu_s": 50.0, "load_avg_1min": 1.0, "warmup_s": 3.0, "max_steps": 3}
    result |= {"seed": 42, "cpu": "test", "cores": 2, "eval_samples": 4, "eval": points, "run": str(run.path)}
    reference = load_reference("format", bench.write_reference(result, tmp_path / "ref", answers_per_point=1).parent)
    assert reference.eval == points and reference.run["eval_samples"] == 4
    assert [m["step"] for m in reference.metrics] == [1, 2, 3] and "rewards/tag_layout/mean" in reference.metrics[0]
    assert [(a["step"], a["eval_of"]) for a in reference.answers] == [(0, "base"), (0, "warmup"), (3, "grpo")]
    assert reference.answers[0]["completion"] == answers[0]["completion"]
    [row] = reference.answers_by_prompt()
    assert row["prompt"] == answers[0]["prompt"] and set(row) == {"prompt", "base", "warmup", "grpo"}
    assert reference.shares("format") == {"base": 0, "warmup": 0, "final": 0, "from_warmup": 0, "from_grpo": 0}
    examples = [json.loads(line) for line in (run.path / "warmup_examples.jsonl").read_text().splitlines()]
    assert len(examples) == 4
    assert all(e["completion"].startswith("<intro>") and e["completion"].endswith("</conclusion>") for e in examples)
    assert all(s["completion"].startswith("<intro>") for s in run.samples())

    # compare samples with the run's prefix, and the preview with the same prefix, prompt and seed draws the same group
    result = compare_run(run, ["Write a haiku about rain."], num_samples=2, seed=5)
    [item] = result.items
    for side in (item.base, item.trained):
        for c in side.completions:
            assert c.text.startswith("<intro>")
            assert c.rewards["tag_layout"] == tag_layout_score(c.text, ["intro", "body", "conclusion"])
    spec = RunSpec.from_dict(run.spec())
    funcs, weights = build_rewards(spec.rewards, executor=LOCAL)
    model, tokenizer = load_model(str(tiny_model_dir), inference=True)
    settings = GenerationSettings(num_generations=2, max_new_tokens=8, temperature=1.0, seed=5)
    preview = preview_group(model, tokenizer, "Write a haiku about rain.", funcs, weights, settings, prefix="<intro>")
    assert [c.text for c in preview.score.completions] == [c.text for c in item.base.completions]


def test_cold_start_turns_a_reward_the_base_model_never_earns_into_one_it_earns(tmp_path, char_model_dir):
    """The random character model never starts an answer with "ok." (about 1 in 45^3 draws): GRPO alone has no
    signal. Ten SFT warm-up steps on user-given examples make the reward reachable, at a fixed seed."""
    from playground.scoring import RewardChoice
    from playground.training.run_queue import JobManager
    from playground.training.store import RunStore
    from tests.support.tiny_models import tiny_spec

    examples = tmp_path / "examples.jsonl"
    prompts = ["say ok", "answer me", "what now", "tell me more"]
    examples.write_text("".join(json.dumps({"prompt": p, "completion": "ok."}) + "\n" for p in prompts))
    spec = tiny_spec(
        char_model_dir,
        # the character tokenizer decodes "ok." as "o k ."
        [RewardChoice("regex", 1.0, {"pattern": r"^o k \.", "mode": "search"})],
        max_steps=2,
        max_completion_length=8,
        learning_rate=1e-3,
        beta=0.0,
        sft_warmup_steps=20,
        sft_examples=str(examples),
        sft_learning_rate=1e-2,
        eval_every=2,
        eval_prompts=2,
        eval_num_generations=8,
    )
    began = time.monotonic()
    job = JobManager(RunStore(tmp_path / "runs")).start(spec)
    job.join(600)
    wall = time.monotonic() - began
    assert job.status == "finished", job.error
    key = "eval_rewards/regex(pattern=_o_k__.~34dec3)/mean"
    evals = {(r["step"], r["eval_of"]): r[key] for r in job.run.metrics() if r.get("phase") == "eval"}
    # measured at this seed: never earned by the base model, 13 of 16 eval answers after the warm-up, 15 of 16 after
    # two GRPO steps (the warm-up gave GRPO groups with a spread to learn from)
    assert evals == {(0, "base"): 0.0, (0, "warmup"): 0.8125, (2, "grpo"): 0.9375}
    grpo = [r for r in job.run.metrics() if r.get("phase") == "grpo" and "frac_reward_zero_std" in r]
    assert len(grpo) == 2 and all(r["rewards/regex(pattern=_o_k__.~34dec3)/mean"] > 0 for r in grpo)
    # The run's clock timed each phase apart (the per-phase ETA reads it): 20 warm-up steps, 2 GRPO steps, 3 evals,
    # and loading the model is in none of them.
    clock = job.clock
    assert clock.steps == {"warmup": 20, "grpo": 2, "eval": 3} and clock.phase is None
    phases = [clock.spent(phase) for phase in ("warmup", "grpo", "eval")]
    assert all(seconds > 0 for seconds in phases) and sum(phases) < wall


def test_warmup_rows_continue_the_exact_prompt_tokens_grpo_samples_after(embedded_dir):
    """The warm-up trains on the prompt tokens GRPO generates after (prompt and prefix tokenized alone), not on a
    tokenization of prompt + completion where the prefix's '>' merges with the answer's first characters."""
    from transformers import AutoTokenizer

    from playground.data.completion_prefix import prompt_with_prefix
    from playground.training.warmup import sft_dataset

    tok = AutoTokenizer.from_pretrained(embedded_dir)
    answer = '"Cats purr," she said.</intro>\n<body>b</body>'  # '>"' is one token in SmolLM2's vocabulary
    example = {"prompt": "Why keep pets?", "completion": "<intro>" + answer}
    prompt_text = prompt_with_prefix(tok, example["prompt"], "<intro>")
    joint = tok(text=prompt_text + answer)["input_ids"]
    grpo_prompt = tok(text=prompt_text)["input_ids"]
    assert joint[: len(grpo_prompt)] != grpo_prompt  # the trap: tokenized together, the boundary token differs

    (row,) = sft_dataset([example], tok, "<intro>").to_list()
    n = row["completion_mask"].index(1)
    assert row["input_ids"][:n] == grpo_prompt
    assert set(row["completion_mask"][n:]) == {1} and len(row["completion_mask"]) == len(row["input_ids"])
    assert tok.decode(row["input_ids"][n:]) == answer + tok.eos_token

    # without the prefix in the completion, the prompt has no prefix either
    (plain,) = sft_dataset([{"prompt": "Why keep pets?", "completion": "Hi."}], tok, "<intro>").to_list()
    m = plain["completion_mask"].index(1)
    assert plain["input_ids"][:m] == tok(text=prompt_with_prefix(tok, "Why keep pets?", ""))["input_ids"]


def test_warmup_examples_fit_the_budget_and_skip_degenerate_answers():
    from playground.training.warmup import repetitive
    from rewards.format import think_answer_strict_reward

    long = "word " * 40 + "end"
    wrapped = wrap_in_tags(long, ["think", "answer"], max_chars=80)
    assert wrapped is not None and len(wrapped) <= 80
    assert wrapped.startswith("<think>\nword") and wrapped.endswith("\n</answer>")
    assert think_answer_strict_reward([wrapped]) == [1.0]  # open-r1's layout for think/answer
    assert repetitive("the best bottle, the best bottle, the best bottle, the best bottle, the best bottle")
    assert not repetitive("Tom has twelve apples and buys seven more, so now he has nineteen apples in all.")


def test_rejection_sampled_warmup_falls_back_to_every_answer_when_none_is_right(tiny_model_dir, caplog):
    """With reference answers only right answers are kept; a random model gets none right, so all are used."""
    from transformers import AutoTokenizer

    from playground.spec import RunSpec
    from playground.training.warmup import build_examples

    spec = RunSpec()
    spec.model.model_name_or_path = str(tiny_model_dir)
    for name, value in dict(max_completion_length=8, sft_num_examples=3, sft_tags=["think", "answer"]).items():
        spec.set(name, value)
    tok = AutoTokenizer.from_pretrained(tiny_model_dir)
    prompts = ["What is 2 + 2?", "What is 3 + 4?"]
    with caplog.at_level("INFO", logger="playground.training.warmup"):
        examples = build_examples(spec, prompts, tok, answers=["987654321", "987654321"])
    assert len(examples) == 3
    # all three passes over the 2 prompts ran (4 answers each: at most 24), less the answers with no text to wrap
    wrong = re.search(r"0 right answers kept, (\d+) wrong ones left out", caplog.text)
    assert wrong and 16 < int(wrong.group(1)) <= 24, caplog.text
    assert "Fewer than 2 right answers" in caplog.text
    assert all(e["completion"].startswith("<think>") and e["completion"].endswith("</answer>") for e in examples)


def test_the_warmup_scores_through_the_cpu_lm_head(tmp_path, tiny_model_dir):
    """On CPU the SFT warm-up's steps run TRL's fused head in the playground's CPU tiles (completion positions only),
    and the head is TRL's own again afterwards."""
    import trl.kernels.chunked_logprob as chunked
    import trl.trainer.utils as trl_utils
    from peft import get_peft_model
    from transformers import AutoModelForCausalLM, AutoTokenizer, TrainerCallback

    from playground.fastpath.lm_head import CPU_LM_HEAD_CHUNK
    from playground.scoring import RewardChoice
    from playground.training.warmup import run_warmup
    from tests.support.tiny_models import tiny_spec

    seen = []

    class Watch(TrainerCallback):
        def on_step_begin(self, args, state, control, **kwargs):
            seen.append((chunked._forward_tile.__module__, trl_utils._CHUNKED_LOGPROB_CHUNK_SIZE))

    spec = tiny_spec(tiny_model_dir, [RewardChoice("length", 1.0)], sft_warmup_steps=2)
    model = get_peft_model(AutoModelForCausalLM.from_pretrained(tiny_model_dir), spec.lora_config())
    tokenizer = AutoTokenizer.from_pretrained(tiny_model_dir)
    examples = [
        {"prompt": f"Why keep pets? ({i})", "completion": "<intro>Pets are good company.</intro>"} for i in range(4)
    ]
    assert run_warmup(spec, model, tokenizer, examples, str(tmp_path), [Watch()]) == 2
    assert seen == [("playground.fastpath.lm_head", CPU_LM_HEAD_CHUNK)] * 2
    assert chunked._forward_tile.__module__ == chunked.__name__
