"""The SFT warm-up: a few steps of TRL's `SFTTrainer` on the run's own LoRA adapter, right before GRPO.

GRPO only amplifies a signal that exists: when the base model never earns a reward (the article's strict format on
SmolLM2-135M), every group scores the same and nothing is learned. A short supervised stage on answers in the target
layout (DeepSeek-R1's "cold start") makes the reward reachable; GRPO then takes over on the same adapter.

Examples come from a .jsonl file (prompt and completion columns) or are built here: the base model's own answers to
the training prompts, cut into sentences and wrapped in the tags of `sft_tags` (first sentence in the first tag, last
sentence in the last tag, the rest spread over the tags between). `sft_split="sentences"` puts whole sentences of at
least four words in every tag (one a tag when the answer's sentences do not all fit) and leaves out answers with too
few, so the examples never cut a sentence across tags.
"""

from __future__ import annotations

import heapq
import json
import logging
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playground.errors import DataError
from playground.spec import RunSpec
from playground.texts import msg
from playground.training.answer_shape import is_sentence


logger = logging.getLogger(__name__)

EXAMPLES_FILE = "warmup_examples.jsonl"  # written into the run folder, so the warm-up can be exported and repeated
SFT_BATCH_SIZE = 4
CHARS_PER_TOKEN = 3.0  # a cautious English estimate: the wrapped answer must fit in max_completion_length
# Examples use at most this share of max_completion_length: sampled at GRPO's temperature, answers run longer than the
# examples, and an answer cut by the length cap never closes its last tag.
EXAMPLE_SHARE = 0.6
OPEN_R1_TAGS = ("think", "answer")  # laid out with a newline inside each tag, as open-r1's format reward wants
# A sentence ends at . ! ? (or 。！？) and white space, except after a title such as "Dr." or "Mr.".
_SENTENCE_END = re.compile(r"(?<=[.!?。！？])(?<!\bMr\.)(?<!\bMs\.)(?<!\bDr\.)(?<!\bSt\.)(?<!\bMrs\.)\s+")


def wrap_in_tags(
    text: str, tags: list[str] | tuple[str, ...], max_chars: int | None = None, split: str = "words"
) -> str | None:
    """`text` cut into sentences and laid out in `tags`, or None when there is too little text.

    With `split="sentences"` every tag gets whole sentences of at least four words (`answer_shape.is_sentence`): the
    answer's sentences spread over the tags when they all are such sentences and fit, else its earliest sentences
    that fit, one a tag (fragments and sentences too long to fit left out). An answer with fewer such sentences than
    tags gives None instead of words cut at arbitrary points.

    >>> wrap_in_tags("Cats purr. They sleep a lot. I like them.", ["intro", "body", "conclusion"])
    '<intro>Cats purr.</intro>\\n<body>They sleep a lot.</body>\\n<conclusion>I like them.</conclusion>'
    >>> print(wrap_in_tags("Cats purr. They sleep a lot. I like them.", ["intro", "body"], split="sentences"))
    None
    """
    sentences = [s.strip() for s in _SENTENCE_END.split(" ".join(text.split())) if s.strip()]
    if sentences and not re.search(r"[.!?。！？]$", sentences[-1]) and len(sentences) > 1:
        sentences = sentences[:-1]  # a sentence cut by the length limit
    whole = list(sentences)
    overhead = sum(2 * len(t) + 6 for t in tags)
    if max_chars is not None:
        while len(sentences) > 1 and sum(len(s) + 1 for s in sentences) + overhead > max_chars:
            sentences.pop()
    if max_chars is not None and len(sentences) == 1 and len(sentences[0]) + overhead > max_chars:
        words = sentences[0].split()  # one long sentence: keep the words that fit
        while len(words) > len(tags) and sum(len(w) + 1 for w in words) + overhead > max_chars:
            words.pop()
        sentences = [" ".join(words)]
    if split == "sentences" and len(tags) > 1 and (len(sentences) < len(tags) or not all(map(is_sentence, sentences))):
        parts = _one_sentence_each(whole, len(tags), None if max_chars is None else max_chars - overhead)
    else:
        parts = _spread(sentences, len(tags))
    if parts is None:
        return None
    if tuple(tags) == OPEN_R1_TAGS:  # DeepSeek-R1 / open-r1's layout, which `think_answer_strict` checks
        return "\n".join(f"<{tag}>\n{part}\n</{tag}>" for tag, part in zip(tags, parts, strict=True))
    return "\n".join(f"<{tag}>{part}</{tag}>" for tag, part in zip(tags, parts, strict=True))


def repetitive(text: str) -> bool:
    """True for a degenerate answer (fewer than half of its words distinct, over at least 12 words): the warm-up
    would teach the loop.

    >>> repetitive("the ultimate in water, the ultimate in water, the ultimate in water, the ultimate in water")
    True
    """
    words = text.lower().split()
    return len(words) >= 12 and len(set(words)) < len(words) / 2


def _one_sentence_each(sentences: list[str], n: int, room: int | None) -> list[str] | None:
    """A sentence for each of `n` tags: the answer's earliest `n` sentences (in reading order, fragments left out)
    whose lengths fit in `room` characters together, or None when no `n` of them fit.

    The base model's answers rarely hold only short sentences: a fragment ("Sure!") or one long sentence would
    otherwise leave the whole answer out, and with it most of the prompts (measured on the writing prompts: 3 to 6
    answers of 132 kept, from 3 prompts, against 18 to 26 from 8 to 11 prompts).

    >>> _one_sentence_each(["Sure!", "Cats purr when they are happy.", "x" * 90 + ".", "They sleep a lot."], 2, 60)
    ['Cats purr when they are happy.', 'They sleep a lot.']
    """
    good = [s for s in sentences if is_sentence(s)]
    lengths = [len(s) + 1 for s in good]
    if len(good) < n:
        return None
    if room is None:
        return good[:n]
    # Slot by slot, the earliest sentence after the previous one that still leaves room for the shortest sentences
    # after it: the first choice of the n-subsets in reading order that fit, without enumerating them (an answer of
    # 4,096 tokens has hundreds of sentences, and sft_tags has no bound on its length).
    chosen: list[int] = []
    for slot in range(n):
        still, start = n - slot - 1, chosen[-1] + 1 if chosen else 0
        left = room - sum(lengths[i] for i in chosen)
        pick = next(
            (
                i
                for i in range(start, len(good) - still)
                if lengths[i] + sum(heapq.nsmallest(still, lengths[i + 1 :])) <= left
            ),
            None,
        )
        if pick is None:
            return None
        chosen.append(pick)
    return [good[i] for i in chosen]


def _spread(sentences: list[str], n: int) -> list[str] | None:
    if n == 1:
        return [" ".join(sentences)] if sentences else None
    if len(sentences) < n:  # too few sentences: split the words instead
        words = " ".join(sentences).split()
        if len(words) < n:
            return None
        size = -(-len(words) // n)
        chunks = [" ".join(words[i * size : (i + 1) * size]) for i in range(n)]
        return chunks if all(chunks) else None
    if n == 2:  # e.g. think/answer: the reasoning, then the last sentence
        return [" ".join(sentences[:-1]), sentences[-1]]
    first, last, middle = sentences[0], sentences[-1], sentences[1:-1]
    inner = n - 2
    size = -(-len(middle) // inner) if inner else 0
    groups = [" ".join(middle[i * size : (i + 1) * size]) for i in range(inner)]
    return [first, *groups, last] if all(groups) else None


def build_examples(
    spec: RunSpec,
    prompts: list[Any],
    tokenizer,
    answers: list[Any] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> list[dict[str, str]]:
    """`sft_num_examples` prompt/completion rows: the base model's answers to `prompts`, wrapped in `sft_tags`.

    With reference `answers` (the column the run's correctness reward reads), only wrapped answers the correctness
    reward accepts are kept: rejection sampling, as DeepSeek-R1's cold-start data was filtered, so the warm-up does
    not teach wrong numbers in the right layout. When fewer than two answers are right, every answer is used (and the
    log says so). The prompts still needed are sampled in one batch, each with its own seed (`generate_groups`).
    `should_stop` is asked before each batch: once it says yes, the examples so far are returned.
    """
    from playground.fastpath.decode import prepare_for_sampling
    from playground.models import load_model
    from playground.preview import GenerationSettings, generate_groups
    from rewards.accuracy import get_correctness_reward

    g = spec.grpo
    model, _ = load_model(spec.model.model_name_or_path, inference=True)
    if model.device.type == "cpu":
        prepare_for_sampling(model)
    budget = int(CHARS_PER_TOKEN * g.max_completion_length * EXAMPLE_SHARE)
    check = get_correctness_reward() if answers is not None else None
    # Rejection sampling needs more draws: four answers a prompt instead of two (one batch decodes them at about the
    # cost of two on a CPU, where decoding is bound by reading the weights).
    draws = 4 if check else 2
    settings = GenerationSettings(num_generations=draws, max_new_tokens=g.max_completion_length, temperature=0.7)
    examples: list[dict[str, str]] = []
    rejected: list[dict[str, str]] = []
    passes = max(len(prompts), 1) * 3  # up to three passes over the prompts
    i = 0
    while i < passes and prompts and len(examples) < g.sft_num_examples and not (should_stop and should_stop()):
        # Enough prompts for the examples still missing, sampled in one batch (each with its own seed, as alone).
        batch = range(i, min(passes, i + max(1, -(-(g.sft_num_examples - len(examples)) // draws))))
        groups = generate_groups(
            model, tokenizer, [prompts[j % len(prompts)] for j in batch], settings, [g.seed + j for j in batch]
        )
        for j, group in zip(batch, groups, strict=True):
            for text in group.completions:
                wrapped = None if repetitive(text) else wrap_in_tags(text, g.sft_tags, budget, g.sft_split)
                if wrapped is None or len(examples) >= g.sft_num_examples:
                    continue
                row = {"prompt": prompts[j % len(prompts)], "completion": wrapped}
                if check is None or check([wrapped], answer=[answers[j % len(prompts)]])[0] == 1.0:
                    examples.append(row)
                else:
                    rejected.append(row)
        i = batch.stop
    del model
    if should_stop and should_stop():
        return examples + rejected  # the run stops before the warm-up trains: nothing to check
    if check is not None:
        logger.info("Warm-up examples: %d right answers kept, %d wrong ones left out", len(examples), len(rejected))
        if len(examples) < 2:
            logger.warning("Fewer than 2 right answers: the warm-up uses the wrong ones too")
            examples = (examples + rejected)[: g.sft_num_examples]
    if len(examples) < 2:
        raise DataError("warmup.none_built")
    return examples


def load_examples(path: str) -> list[dict[str, Any]]:
    """Rows of a .jsonl file with `prompt` and `completion` columns."""
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise DataError("warmup.unreadable", path=path, error=exc.strerror) from None
    rows = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DataError("warmup.json", path=path, line=n, error=exc.msg) from None
        if not isinstance(row, dict) or not row.get("prompt") or not isinstance(row.get("completion"), str):
            raise DataError("warmup.row", path=path, line=n)
        rows.append({"prompt": row["prompt"], "completion": row["completion"]})
    if len(rows) < 2:
        raise DataError("warmup.too_few", path=path, count=len(rows))
    return rows


def sft_dataset(examples: list[dict[str, Any]], tokenizer, prefix: str = ""):
    """Pre-tokenized rows for `SFTTrainer`: the prompt tokens exactly as GRPO samples after them, then the completion.

    The prompt is rendered as in training with the completion prefix moved from the completion to the prompt, and
    tokenized alone, as TRL's GRPO tokenizes it (`tokenizer(text=prompt)`); the completion is tokenized on its own and
    ends with EOS. Tokenizing prompt and completion together instead (what SFTTrainer does with text rows) merges the
    prefix's last character with the completion's first ("<intro>" + "Cats" gives a ">C"-style token on some
    vocabularies), so the warm-up would teach a continuation of a context GRPO never shows the model.
    """
    from datasets import Dataset

    from playground.data.completion_prefix import prompt_with_prefix

    eos = tokenizer.eos_token_id
    rows = []
    for ex in examples:
        completion = ex["completion"]
        start = prefix if prefix and completion.startswith(prefix) else ""
        prompt_ids = tokenizer(text=prompt_with_prefix(tokenizer, ex["prompt"], start))["input_ids"]
        completion_ids = tokenizer(text=completion[len(start) :], add_special_tokens=False)["input_ids"]
        if eos is not None and (not completion_ids or completion_ids[-1] != eos):
            completion_ids = [*completion_ids, eos]
        rows.append(
            {
                "input_ids": prompt_ids + completion_ids,
                "completion_mask": [0] * len(prompt_ids) + [1] * len(completion_ids),
            }
        )
    return Dataset.from_list(rows)


def stop_callback(should_stop: Callable[[], bool]):
    """A `TrainerCallback` that ends SFTTrainer's loop after the step under way once `should_stop()` says so (the
    Trainer checks `should_training_stop` after each optimizer step)."""
    from transformers import TrainerCallback

    class StopCallback(TrainerCallback):
        def on_step_end(self, args, state, control, **kwargs):
            if should_stop():
                control.should_training_stop = True
            return control

    return StopCallback()


def run_warmup(
    spec: RunSpec,
    model,
    tokenizer,
    examples: list[dict[str, Any]],
    output_dir: str,
    callbacks: list,
    should_stop: Callable[[], bool] | None = None,
):
    """Train `model` (a PeftModel: its adapter is trained in place) for `sft_warmup_steps` SFT steps; with
    `should_stop`, it ends after the step under way once that says so (the page's Stop), keeping the steps done."""
    from transformers import PrinterCallback
    from trl import SFTConfig, SFTTrainer

    g = spec.grpo
    on_cpu = spec.resolved_device() == "cpu"
    args = SFTConfig(
        output_dir=output_dir,
        max_steps=g.sft_warmup_steps,
        learning_rate=g.sft_learning_rate,
        per_device_train_batch_size=min(SFT_BATCH_SIZE, len(examples)),
        logging_steps=1,
        save_strategy="no",
        report_to=[],
        seed=g.seed,
        bf16=not on_cpu,
        use_cpu=on_cpu,
        disable_tqdm=True,
        gradient_checkpointing=g.gradient_checkpointing,  # SFTConfig turns it on by default; GRPO's setting rules
        max_length=None,
        completion_only_loss=True,
    )
    trainer = SFTTrainer(
        model=model,
        args=args,
        train_dataset=sft_dataset(examples, tokenizer, g.completion_prefix),
        processing_class=tokenizer,
        callbacks=[*callbacks, stop_callback(should_stop)] if should_stop else callbacks,
    )
    trainer.remove_callback(PrinterCallback)
    if on_cpu:  # TRL's fused LM head on completion positions in CPU tiles, and freed memory kept, as in GRPO steps
        from playground.fastpath.allocator import training_allocator
        from playground.fastpath.lm_head import cpu_lm_head

        with training_allocator(), cpu_lm_head():
            trainer.train()
    else:
        trainer.train()
    model.train()  # GRPO expects the policy in training mode
    model.config.use_cache = True
    return trainer.state.global_step


def write_examples(path: Path, examples: list[dict[str, Any]]) -> None:
    with path.open("w", encoding="utf-8") as fh:
        for ex in examples:
            fh.write(json.dumps(ex, ensure_ascii=False) + "\n")


def examples_for(
    spec: RunSpec,
    prompts: list[Any],
    tokenizer,
    progress: Callable[[str], None] | None = None,
    answers: list[Any] | None = None,
    should_stop: Callable[[], bool] | None = None,
):
    """The warm-up examples of `spec`: read from `sft_examples`, or built from the model's answers to `prompts` (only
    the right ones when reference `answers` are given)."""
    if spec.grpo.sft_examples != "auto":
        return load_examples(spec.grpo.sft_examples)
    if progress:
        progress(msg("warmup.building"))
    return build_examples(spec, prompts, tokenizer, answers, should_stop)
