"""The lessons, in the order of the seed article: groups, length, format (with its cold start), combining rewards,
reading the metrics, troubleshooting, and arithmetic with think/answer.

Their texts are in `playground.texts.lessons`; the `expected` figures were measured with `python bench/lessons.py` on a
2-core AMD EPYC (see docs/performance.md, "Lessons").
"""

from __future__ import annotations

from playground.lessons.lesson import Lesson
from playground.scoring import RewardChoice


# The format lesson's cold start: a short SFT warm-up on the base model's own answers wrapped in the article's tags,
# the answer pre-filled with "<intro>", and the strict reward next to the partial-credit one.
FORMAT_RECIPE = {
    "dataset_name": "writing",
    "max_steps": 20,
    # Three sections with text each must fit. Training caps an answer at 128 tokens: one cut before </conclusion>
    # scores 0, which teaches brevity, and a long answer holds a step's rollout for fewer tokens. The held-out eval
    # allows 160, so it judges what an answer wrote, not where the training cap cut it: with 128 for both, 9 of the
    # 17 failures after GRPO (seed 42) were answers cut there. 160 for both (beta 0.04) ended at a mean of 0.60 over
    # three seeds, against 0.76, and took 551-600 s against 353 s.
    # At 80 the strict format fell from 0.44 after the warm-up to 0.22 at step 10.
    "max_completion_length": 128,
    "eval_max_completion_length": 160,
    "num_generations": 8,
    "per_device_train_batch_size": 8,
    # 5e-4 learnt faster at some seeds but drifted at others (kl 0.2-0.4) into answers that run to the length cap:
    # one of three seeds fell from 0.25 after the warm-up to 0.03; 1e-3 undid the warm-up within two steps
    "learning_rate": 3e-4,
    # TRL's default: no KL term, so no reference forward a step. With beta 0.04 (KL to the warmed-up adapter) seed 42
    # reached 0.56 instead of 0.72, for 17 % more CPU time.
    "beta": 0.0,
    "temperature": 0.9,
    "sft_warmup_steps": 20,
    "sft_examples": "auto",
    "sft_tags": ["intro", "body", "conclusion"],
    "sft_num_examples": 16,
    "sft_learning_rate": 5e-4,
    "completion_prefix": "<intro>",
    "eval_every": 10,  # each eval point costs about a GRPO step's generation x 4: two points after the warm-up
    "eval_prompts": 8,  # 8 held-out prompts x 4 samples: 4 prompts gave a curve too coarse to trust
    "eval_num_generations": 4,
}

# The lessons built on the format lesson's cold start keep the KL term and one length cap for training and eval, as
# their figures were measured (the metrics lesson reads `kl`).
AS_MEASURED = {"beta": 0.04, "eval_max_completion_length": 0}

LESSONS: tuple[Lesson, ...] = (
    Lesson(
        id="groups",
        preview_prompt="In two short sentences, explain why the sky looks blue.",
        overrides={"dataset_name": "writing", "num_generations": 8, "max_completion_length": 64},
        rewards=(RewardChoice("length", 1.0, {"ideal_length": 50}),),
    ),
    Lesson(
        id="length",
        preview_prompt="Describe a rainy morning in a big city in about 100 characters.",
        overrides={"dataset_name": "writing", "max_steps": 20, "eval_every": 5, "eval_prompts": 4},
        rewards=(RewardChoice("length", 1.0, {"ideal_length": 50}),),
    ),
    Lesson(
        id="format",
        preview_prompt="Write a short paragraph about why people keep pets.",
        overrides=dict(FORMAT_RECIPE),
        rewards=(RewardChoice("format", 1.0), RewardChoice("tag_layout", 1.0)),
        chart=("format", "tag_layout", "sentence_rate"),
    ),
    Lesson(
        id="hacking",
        preview_prompt="Write a short paragraph about why people keep pets.",
        # as measured: the figures above are at a learning rate of 5e-4 and 128 new tokens
        overrides={**FORMAT_RECIPE, **AS_MEASURED, "learning_rate": 5e-4, "max_completion_length": 128},
        rewards=(
            RewardChoice("format", 1.0, {"allow_empty": True}),
            # "be brief": every character past 20 costs 0.01, so the shortest answer the loose format pays for,
            # three empty sections, beats any answer with text in them
            RewardChoice("length", 0.01, {"ideal_length": 20}),
            RewardChoice("format", 0.0),
        ),
        chart=("format(allow_empty=True)", "format", "empty_section_rate"),
    ),
    Lesson(
        id="combine",
        preview_prompt="Write a short paragraph about why people keep pets.",
        # The fix, as measured: the article's length and format rewards and tag_sentences (a sentence in each tag),
        # each normalized in its group before the sum (TRL's multi_objective_aggregation), after a warm-up whose
        # examples hold a whole sentence in every tag. The length target fits three sentences and the tags. Length
        # weighs 2: at 1, one seed of three grew sentences into paragraphs, ran to the length cap and lost the layout
        # (a sentence in every tag 0.78 after the warm-up -> 0.56 at step 10); without tag_sentences GRPO added
        # nothing to the warm-up's sentences on two seeds of three. 5e-4, the trap's rate, ended higher than 3e-4
        # on the seeds run at both and never drifted here (docs/performance.md, "Lessons").
        overrides={
            **FORMAT_RECIPE,
            "eval_max_completion_length": 0,
            "learning_rate": 5e-4,
            "multi_objective_aggregation": "normalize_then_sum",
            "sft_split": "sentences",
        },
        rewards=(
            RewardChoice("length", 2.0, {"ideal_length": 200}),
            RewardChoice("format", 1.0),
            RewardChoice("tag_sentences", 1.0),
        ),
        chart=("format", "sentence_rate"),
        trap_chart=("tag_layout",),
        # The trap, as measured: a plain weighted sum, where the length reward's spread drowns the layout's.
        trap=(
            (RewardChoice("length", 0.01, {"ideal_length": 200}), RewardChoice("tag_layout", 1.0)),
            {
                **AS_MEASURED,
                "max_steps": 10,
                "max_completion_length": 80,
                "learning_rate": 5e-4,
                "multi_objective_aggregation": "sum_then_normalize",
                "sft_split": "words",
            },
        ),
    ),
    Lesson(
        id="metrics",
        preview_prompt="Describe a rainy morning in a big city in about 100 characters.",
        overrides={"dataset_name": "writing", "max_steps": 10, "beta": 0.04, "eval_every": 5},
        rewards=(RewardChoice("length", 1.0, {"ideal_length": 50}),),
    ),
    Lesson(
        id="troubleshooting",
        preview_prompt="Write a short paragraph about why people keep pets.",
        overrides={"dataset_name": "writing", "max_steps": 8, "max_completion_length": 96},
        rewards=(RewardChoice("format", 1.0),),
        chart=("format",),
    ),
    Lesson(
        id="arithmetic",
        preview_prompt="Tom has 12 apples and buys 7 more. How many apples does he have now?",
        overrides={
            **FORMAT_RECIPE,
            **AS_MEASURED,
            "dataset_name": "arithmetic",
            "max_completion_length": 80,  # as measured
            # Two problems a step (G = 8 each). With one, correctness had no signal in about half the steps (a problem
            # the model always or never solves scores every answer alike) and GRPO's share stayed within the noise.
            "per_device_train_batch_size": 16,
            "sft_tags": ["think", "answer"],
            "completion_prefix": "<think>",
            "learning_rate": 3e-4,  # 5e-4 drifted (kl 0.2-0.4) into repeated <answer> blocks that never stopped
            "eval_every": 10,
            "eval_prompts": 16,  # 16 held-out problems x 4 = 64 samples: at 32, one sample moved correctness 3 points
        },
        rewards=(
            RewardChoice("think_answer_strict", 1.0),
            RewardChoice("tag_layout", 1.0, {"tags": ["think", "answer"]}),
            RewardChoice("correctness", 1.0),
        ),
        chart=("correctness", "think_answer_strict"),
    ),
)
