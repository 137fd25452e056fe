"""The registered rewards. Importing this module fills `rewards.registry.REGISTRY`; nothing is built here."""

from __future__ import annotations

from rewards import accuracy as accuracy_rewards
from rewards import code as code_rewards
from rewards import content as content_rewards
from rewards import format as format_rewards
from rewards import formula as formula_rewards
from rewards import judge as judge_rewards
from rewards import length as length_rewards
from rewards import model as model_rewards
from rewards import other as other_rewards
from rewards import reasoning as reasoning_rewards
from rewards import similarity as similarity_rewards
from rewards.registry import Example, RewardFunc, RewardSpec, factory_params, register


def _plain(func: RewardFunc):
    """A factory without parameters for a plain (module-level, hence picklable) reward function."""

    def factory() -> RewardFunc:
        return func

    factory.__name__ = f"get_{func.__name__}"
    return factory


_SECTIONS = (
    "<intro>Plants make their own food.</intro>\n<body>Leaves catch sunlight\nand turn it into sugar.</body>\n"
    "<conclusion>Light becomes food.</conclusion>"
)
_THINK_ANSWER = "<think>\n2 + 2 = 4\n</think>\n<answer>\n4\n</answer>\n"

register(
    RewardSpec(
        name="length",
        factory=length_rewards.get_length_reward,
        description="Closeness to a target length: -abs(ideal_length - number of characters).",
        family="length",
        params=factory_params(length_rewards.get_length_reward, ideal_length={"minimum": 0}),
        # About 70 characters: the good one at the demo's ideal_length=50 and at the default 100, the rambling bad
        # one far from both, so the card's scores agree with its marks whichever of the two is set.
        good=Example("Plants use sunlight, water and carbon dioxide to make sugar and oxygen."),
        bad=Example(
            "Plants, you see, are living things, and living things need food, and so plants, which are living things "
            "that need food, make food, and the food they make, which is sugar, is made from light, which they get "
            "from the sun, mostly."
        ),
    )
)
register(
    RewardSpec(
        name="format",
        factory=format_rewards.get_format_reward,
        description="1.0 if the text is exactly <intro>…</intro><body>…</body><conclusion>…</conclusion> with text in "
        "every section (the article's .+), else 0.0; unlike the article's regex, whitespace between sections and "
        "multi-line sections are accepted.",
        family="format",
        params=factory_params(format_rewards.get_format_reward),
        good=Example(_SECTIONS),
        bad=Example("Plants make their own food from sunlight."),
    )
)
register(
    RewardSpec(
        name="tag_layout",
        factory=format_rewards.get_tag_layout_reward,
        description="Partial credit per tag (opened, closed, in order), 0.0 to 1.0, none for an empty section; the "
        "strict format reward's cold start.",
        family="format",
        params=factory_params(format_rewards.get_tag_layout_reward),
        good=Example(_SECTIONS),
        bad=Example("<intro>Plants make their own food from sunlight."),
    )
)
register(
    RewardSpec(
        name="tag_sentences",
        factory=format_rewards.get_tag_sentences_reward,
        description="Share of the tags whose section holds a sentence (at least four words, ending in . ! ? or "
        "。！？), 0.0 to 1.0: what a reader wants inside the layout a format reward pays for.",
        family="format",
        params=factory_params(format_rewards.get_tag_sentences_reward),
        good=Example(
            "<intro>Plants make their own food.</intro>\n<body>Leaves catch sunlight and turn it into sugar.</body>\n"
            "<conclusion>So light becomes their food.</conclusion>"
        ),
        bad=Example("<intro>Plants</intro>\n<body>make food</body>\n<conclusion>from light</conclusion>"),
    )
)
register(
    RewardSpec(
        name="combined",
        factory=length_rewards.get_combined_reward,
        description="Weighted sum length_weight * length + format_weight * format (the seed article's reward).",
        family="length",
        params=factory_params(
            length_rewards.get_combined_reward,
            length_weight={"minimum": 0.0},
            format_weight={"minimum": 0.0},
            ideal_length={"minimum": 0},
        ),
        good=Example(_SECTIONS),
        bad=Example("Plants eat light."),
    )
)
register(
    RewardSpec(
        name="think_format",
        factory=_plain(format_rewards.think_format_reward),
        description="TRL's think_format_reward: 1.0 if the text starts with one <think>…</think> block, else 0.0.",
        family="format",
        good=Example("<think>\n2 + 2 = 4\n</think>\nThe answer is 4."),
        bad=Example("The answer is 4."),
    )
)
register(
    RewardSpec(
        name="think_answer_strict",
        factory=_plain(format_rewards.think_answer_strict_reward),
        description="1.0 if the whole text is <think>\\n…\\n</think>\\n<answer>\\n…\\n</answer>, else 0.0.",
        family="format",
        good=Example(_THINK_ANSWER),
        bad=Example("<think>2 + 2 = 4</think> <answer>4</answer>"),
    )
)
register(
    RewardSpec(
        name="think_answer_soft",
        factory=_plain(format_rewards.think_answer_soft_reward),
        description="1.0 if a <think>…</think> block followed by an <answer>…</answer> block appears, else 0.0.",
        family="format",
        good=Example("Sure. <think>2 + 2 = 4</think> <answer>4</answer>"),
        bad=Example("The answer is 4."),
    )
)
register(
    RewardSpec(
        name="xml_count",
        factory=_plain(format_rewards.xml_count_reward),
        description="willccbb's xmlcount (GRPO demo): 0.125 per <think>/<answer> tag found once (max 0.5), minus "
        "0.001 per character after </answer>.",
        family="format",
        good=Example(_THINK_ANSWER),
        bad=Example("<answer>4</answer>"),
    )
)
register(
    RewardSpec(
        name="tag_count",
        factory=_plain(format_rewards.tag_count_reward),
        description="open-r1's tag_count_reward: 0.25 per <think>/<answer> tag found exactly once (max 1.0).",
        family="format",
        good=Example(_THINK_ANSWER),
        bad=Example("<answer>4</answer>"),
    )
)
register(
    RewardSpec(
        name="reasoning_steps",
        factory=_plain(reasoning_rewards.reasoning_steps_reward),
        description="open-r1's reasoning_steps_reward: min(1, step markers / 3) for Step N:, bullets, First, ... "
        "Finally,.",
        family="format",
        good=Example("Step 1: 48 / 2 = 24.\nStep 2: 48 + 24 = 72.\nStep 3: so 72 clips."),
        bad=Example("72 clips."),
    )
)
register(
    RewardSpec(
        name="code_format",
        factory=code_rewards.get_code_format_reward,
        description="open-r1's code_format_reward: 1.0 for <think>…</think><answer>…```language…```…</answer>, "
        "else 0.0.",
        family="format",
        params=factory_params(code_rewards.get_code_format_reward),
        good=Example(
            "<think>\nAdd them.\n</think>\n<answer>\n```python\ndef add(a, b):\n    return a + b\n```\n</answer>"
        ),
        bad=Example("def add(a, b):\n    return a + b"),
    )
)
register(
    RewardSpec(
        name="correctness",
        factory=accuracy_rewards.get_correctness_reward,
        description="1.0 if the final answer equals the reference answer column (numbers or LaTeX), else 0.0.",
        family="accuracy",
        params=factory_params(
            accuracy_rewards.get_correctness_reward, mode={"choices": accuracy_rewards.CORRECTNESS_MODES}
        ),
        columns=("answer",),
        good=Example("Natalia sold 48 + 24 = 72 clips.\n#### 72", {"answer": "72"}),
        bad=Example("Natalia sold 48 + 24 = 70 clips.\n#### 70", {"answer": "72"}),
    )
)
register(
    RewardSpec(
        name="accuracy",
        factory=_plain(accuracy_rewards.accuracy_reward),
        description="TRL's accuracy_reward: the boxed/LaTeX answer is checked against the solution with math_verify.",
        family="accuracy",
        columns=("solution",),
        good=Example(r"The answer is $\boxed{\frac{1}{3}}$.", {"solution": r"$\frac{1}{3}$"}),
        bad=Example(r"The answer is $\boxed{\frac{1}{2}}$.", {"solution": r"$\frac{1}{3}$"}),
    )
)
_THIRD = r"$\frac{1}{3}$"
register(
    RewardSpec(
        name="reasoning_accuracy",
        factory=reasoning_rewards.get_reasoning_accuracy_reward,
        description="TRL's reasoning_accuracy_reward: the answer after </think> is checked against the solution "
        "with math_verify; 0.0 if reasoning never ends.",
        family="accuracy",
        params=factory_params(reasoning_rewards.get_reasoning_accuracy_reward),
        columns=("solution",),
        good=Example(r"<think>1 of 3 parts.</think> The answer is $\boxed{\frac{1}{3}}$.", {"solution": _THIRD}),
        bad=Example(r"<think>1 of 3 parts, so $\boxed{\frac{1}{3}}$ but", {"solution": _THIRD}),
    )
)
register(
    RewardSpec(
        name="cosine_scaled",
        factory=reasoning_rewards.get_cosine_scaled_reward,
        description="Correctness scaled by length on a cosine schedule: TRL's get_cosine_scaled_reward (tokens) or "
        "open-r1's (characters).",
        family="accuracy",
        params=factory_params(
            reasoning_rewards.get_cosine_scaled_reward,
            max_len={"minimum": 1},
            length_unit={"choices": reasoning_rewards.COSINE_LENGTH_UNITS},
        ),
        columns=("solution",),
        good=Example(r"The answer is $\boxed{\frac{1}{3}}$.", {"solution": _THIRD}),
        bad=Example(r"The answer is $\boxed{\frac{1}{2}}$.", {"solution": _THIRD}),
    )
)
register(
    RewardSpec(
        name="len_reward",
        factory=_plain(reasoning_rewards.len_reward),
        description="open-r1's len_reward (Kimi 1.5): 0.5 for the shortest to -0.5 for the longest completion of a "
        "prompt; wrong ones at most 0.",
        family="length",
        columns=("solution",),
        good=Example(r"$\boxed{\frac{1}{3}}$", {"solution": _THIRD}),
        bad=Example(
            r"Let me think about it for a long while. The answer is $\boxed{\frac{1}{2}}$.", {"solution": _THIRD}
        ),
    )
)
_ADD_TESTS = [{"input": "2\n3\n", "output": "5"}, {"input": "-4\n10\n", "output": "6"}]
register(
    RewardSpec(
        name="code_tests",
        factory=code_rewards.get_code_tests_reward,
        description="open-r1's code reward, offline: the completion's ```python block runs against the tests column "
        "in the sandbox; the pass rate.",
        family="accuracy",
        params=factory_params(
            code_rewards.get_code_tests_reward, time_limit={"minimum": 0.01, "maximum": 60.0}, omit=("language",)
        ),
        columns=("tests",),
        good=Example("```python\nprint(int(input()) + int(input()))\n```", {"tests": _ADD_TESTS}),
        bad=Example("```python\nprint(int(input()) - int(input()))\n```", {"tests": _ADD_TESTS}),
        export_refusal="export.not_code_tests",
    )
)
register(
    RewardSpec(
        name="keywords",
        factory=content_rewards.get_keywords_reward,
        description="Fraction of `include` keywords present minus fraction of `exclude` keywords present.",
        family="content",
        params=factory_params(
            content_rewards.get_keywords_reward, include={"default": ["because"]}, exclude={"default": []}
        ),
        good=Example("The sky is blue because air scatters blue light the most."),
        bad=Example("The sky is blue."),
    )
)
register(
    RewardSpec(
        name="regex",
        factory=content_rewards.get_regex_reward,
        description="1.0 if the text matches a regular expression, else 0.0.",
        family="content",
        params=factory_params(content_rewards.get_regex_reward, mode={"choices": content_rewards.REGEX_MODES}),
        good=Example("There are 3 apples."),
        bad=Example("There are three apples."),
    )
)
register(
    RewardSpec(
        name="json_valid",
        factory=content_rewards.get_json_valid_reward,
        description="1.0 if the text (or its one ```json fenced block) is valid JSON, else 0.0.",
        family="content",
        params=factory_params(content_rewards.get_json_valid_reward),
        good=Example('{"name": "Ada", "born": 1815}'),
        bad=Example("name: Ada, born: 1815"),
    )
)
register(
    RewardSpec(
        name="language",
        factory=content_rewards.get_language_reward,
        description="1.0 if enough of the letters are in the target language's script (CJK or Latin), else 0.0.",
        family="content",
        params=factory_params(
            content_rewards.get_language_reward,
            language={"choices": content_rewards.LANGUAGES},
            threshold={"minimum": 0.0, "maximum": 1.0},
        ),
        good=Example("光合作用把光能转化为化学能。"),
        bad=Example("Photosynthesis turns light into chemical energy."),
    )
)
register(
    RewardSpec(
        name="repetition_penalty",
        factory=other_rewards.get_repetition_penalty_reward,
        description="Repetition penalty (TRL on token ids, open-r1 on text): max_penalty times the fraction of "
        "repeated n-grams.",
        family="other",
        params=factory_params(
            other_rewards.get_repetition_penalty_reward,
            ngram_size={"minimum": 1},
            max_penalty={"maximum": 0.0},
            language={"choices": other_rewards.REPETITION_LANGUAGES},
        ),
        good=Example("The quick brown fox jumps over the lazy dog."),
        bad=Example("the cat the cat the cat the cat the cat"),
    )
)
register(
    RewardSpec(
        name="soft_overlong",
        factory=other_rewards.get_soft_overlong_reward,
        description="TRL's soft overlong punishment (DAPO): 0 when short, down to -1.0 at max_completion_len tokens.",
        family="other",
        params=factory_params(
            other_rewards.get_soft_overlong_reward, max_completion_len={"minimum": 1}, soft_punish_cache={"minimum": 0}
        ),
        good=Example("A short answer: 42."),
        bad=Example("This sentence keeps going. " * 20),
    )
)


# --- reward lab: reference similarity, formula, reward model, LLM judge ----------------------------------------------
register(
    RewardSpec(
        name="similarity",
        factory=similarity_rewards.get_similarity_reward,
        description="Similarity in [0, 1] to a reference column: ROUGE, BLEU, GLEU, chrF or fuzzy (CJK by character).",
        family="accuracy",
        params=factory_params(
            similarity_rewards.get_similarity_reward, metric={"choices": similarity_rewards.METRICS}
        ),
        columns=("reference",),
        good=Example("Plants turn sunlight into food.", {"reference": "Plants turn sunlight into their food."}),
        bad=Example("The stock market fell on Monday.", {"reference": "Plants turn sunlight into their food."}),
        lab_family="similarity",
    )
)
register(
    RewardSpec(
        name="string_check",
        factory=similarity_rewards.get_string_check_reward,
        description="1.0 when the text matches a reference column exactly: eq, ne, like, ilike (OpenAI string_check).",
        family="accuracy",
        params=factory_params(
            similarity_rewards.get_string_check_reward, operation={"choices": similarity_rewards.STRING_OPERATIONS}
        ),
        columns=("reference",),
        good=Example("Paris", {"reference": "Paris"}),
        bad=Example("Lyon", {"reference": "Paris"}),
    )
)
register(
    RewardSpec(
        name="formula",
        factory=formula_rewards.get_formula_reward,
        description="Combine named rewards with an expression (min, max, clip, gates such as `a if b == 1 else 0`).",
        family="other",
        params=factory_params(formula_rewards.get_formula_reward),
        good=Example(_SECTIONS),
        bad=Example("Plants eat light."),
        lab_family="formula",
        composite=True,
    )
)
register(
    RewardSpec(
        name="reward_model",
        factory=model_rewards.get_reward_model_reward,
        description="A one-label sequence-classification reward model scores prompt + completion, as TRL runs it.",
        family="other",
        params=factory_params(
            model_rewards.get_reward_model_reward, model={"loads_model": True}, batch_size={"minimum": 1}
        ),
        good=Example("Plants use sunlight, water and carbon dioxide to make sugar."),
        bad=Example("no"),
        lab_family="model",
    )
)
register(
    RewardSpec(
        name="judge",
        factory=judge_rewards.get_judge_reward,
        description="A local LLM judges a rubric: P(yes) from its logits. Weak on the embedded 135M model.",
        family="other",
        params=factory_params(
            judge_rewards.get_judge_reward,
            model={"loads_model": True},
            batch_size={"minimum": 1},
            time_limit={"minimum": 1.0},
        ),
        good=Example("Thank you! Plants make food from sunlight."),
        bad=Example("You are stupid."),
        export_refusal="export.not_judge",
        lab_family="judge",
    )
)
