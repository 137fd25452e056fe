"""Dry run: batched sampling equals per-prompt greedy decoding; the embedded model's signal per reward."""

import pytest
import torch
from transformers import GenerationConfig

from playground.data.chat import render_prompt
from playground.data.sources import PromptSource
from playground.fastpath.decode import decode_prompts
from playground.lab.dryrun import dry_run, load_rows
from playground.lab.sampling import _sample_chunk, sample_prompts
from playground.models import load_model
from playground.scoring import LOCAL, RewardChoice, build_rewards


@pytest.fixture(scope="module")
def tiny_sampler(tiny_model_dir):
    return load_model(str(tiny_model_dir), inference=True)


def test_batched_prompts_decode_like_each_prompt_alone(tiny_sampler):
    model, tokenizer = tiny_sampler
    assert model.playground_sampler is not None  # the lean decoder path is the one under test
    texts = [render_prompt(tokenizer, "Hi."), render_prompt(tokenizer, "Why is the sky blue? Answer at length.")]
    prompts = [tokenizer(t, return_tensors="pt", add_special_tokens=False)["input_ids"][0] for t in texts]
    assert prompts[0].numel() != prompts[1].numel()  # left padding is exercised
    config = GenerationConfig(
        max_new_tokens=10, do_sample=False, pad_token_id=tokenizer.pad_token_id, eos_token_id=None
    )
    got = _sample_chunk(model, prompts, 2, config)
    for p, prompt in enumerate(prompts):
        alone = model.generate(
            input_ids=prompt[None], attention_mask=torch.ones_like(prompt[None]), generation_config=config
        )
        assert torch.equal(got[2 * p], alone[0, prompt.numel() :])
        assert torch.equal(got[2 * p + 1], alone[0, prompt.numel() :])


def test_rows_that_finish_leave_the_batch_and_no_token_changes(tiny_sampler):
    model, tokenizer = tiny_sampler
    decoder, pad = model.playground_sampler, tokenizer.pad_token_id
    texts = ["Hi there", "Why is the sky blue? Answer at length", "Name a color:"]  # of different lengths
    prompts = [tokenizer(t, return_tensors="pt", add_special_tokens=False)["input_ids"][0] for t in texts]
    greedy = GenerationConfig(max_new_tokens=24, do_sample=False, pad_token_id=pad, eos_token_id=None)
    first = decode_prompts(decoder, prompts, 4, greedy)  # the random tiny model repeats one token per prompt
    assert first[0, 0] not in first[4:]
    # Sampling: an eighth of the vocabulary ends a row. Greedy: prompt 1's token ends its rows at once, not others'.
    for do_sample, eos in ((True, list(range(3, len(tokenizer), 8))), (False, [int(first[0, 0])])):
        config = GenerationConfig(max_new_tokens=24, do_sample=do_sample, pad_token_id=pad, eos_token_id=eos)
        counts, reference_counts = {}, {}
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(5)
            compacted = decode_prompts(decoder, prompts, 4, config, counts=counts)
            torch.manual_seed(5)
            reference = decode_prompts(decoder, prompts, 4, config, compact=False, counts=reference_counts)
        assert torch.equal(compacted, reference)
        assert counts["row_steps"] < reference_counts["row_steps"]  # finished rows were not decoded on
        ended = [next((i for i, t in enumerate(row.tolist()) if t in eos), None) for row in compacted]
        assert sum(e is not None for e in ended) >= 4 and len(set(ended)) >= 2, ended  # rows left at different steps
    for p, prompt in enumerate(prompts):  # greedy: each prompt alone through transformers' generate, up to its EOS
        alone = model.generate(
            input_ids=prompt[None], attention_mask=torch.ones_like(prompt[None]), generation_config=config
        )[0, prompt.numel() :]
        assert torch.equal(compacted[4 * p, : alone.numel()], alone)
        assert (compacted[4 * p, alone.numel() :] == pad).all()
    assert alone.numel() == 24 and (compacted[0, 1:] == pad).all()


def test_same_seed_same_completions_whatever_the_chunking(tiny_sampler):
    model, tokenizer = tiny_sampler
    texts = [render_prompt(tokenizer, p) for p in ("One.", "Two, longer prompt.", "Three")]
    a = sample_prompts(model, tokenizer, texts, 2, max_new_tokens=6, seed=3)
    b = sample_prompts(model, tokenizer, texts, 2, max_new_tokens=6, seed=3)
    assert a.ids == b.ids and len(a.texts) == 3 and all(len(g) == 2 for g in a.texts)


@pytest.mark.slow
def test_embedded_format_gives_no_signal_and_length_gives_signal_everywhere(embedded_dir):
    model, tokenizer = load_model(str(embedded_dir), inference=True)
    rows = load_rows(PromptSource(kind="builtin", name="writing"), 4)
    funcs, weights = build_rewards([RewardChoice("format"), RewardChoice("length")], executor=LOCAL)
    run = dry_run(model, tokenizer, rows, funcs, weights, num_generations=4, max_new_tokens=24, seed=0)
    assert run.names == ["format", "length"] and len(run.table) == 16

    fmt = run.summarize(enabled=[True, False])
    assert [p["zero_std"] for p in fmt.prompts] == [True] * 4
    assert fmt.frac_reward_zero_std == 1.0 and fmt.rewards == {"format": {"mean": 0.0, "std": 0.0}}
    assert fmt.verdict.startswith("No signal")
    assert run.signal_jsonl(fmt) == ""

    length = run.summarize(enabled=[False, True])
    assert [p["zero_std"] for p in length.prompts] == [False] * 4
    assert length.frac_reward_zero_std == 0.0 and length.verdict.startswith("Good signal")
    assert run.signal_jsonl(length).count("\n") == 4
    assert length.reward == pytest.approx(sum(r[1] for r in run.table) / 16, abs=1e-4)


def test_completion_prefix_is_continued_and_scored_as_in_training(tiny_sampler):
    """The model continues after the prefix, and rewards see prefix plus continuation (format cold start)."""
    from playground.data.completion_prefix import prompt_with_prefix
    from rewards.format import ARTICLE_TAGS, tag_layout_score

    model, tokenizer = tiny_sampler
    funcs, weights = build_rewards([RewardChoice("tag_layout")], executor=LOCAL)
    rows = [{"prompt": "Hi."}, {"prompt": "Say more."}]
    run = dry_run(
        model, tokenizer, rows, funcs, weights, num_generations=2, max_new_tokens=4, completion_prefix="<intro>"
    )
    texts = [prompt_with_prefix(tokenizer, row["prompt"], "<intro>") for row in rows]
    sampled = sample_prompts(model, tokenizer, texts, 2, max_new_tokens=4, temperature=1.0, top_p=1.0, seed=0)
    assert run.completions == [["<intro>" + text for text in group] for group in sampled.texts]
    flat = [text for group in run.completions for text in group]
    assert [row[0] for row in run.table] == [tag_layout_score(text, ARTICLE_TAGS) for text in flat]
    assert min(row[0] for row in run.table) >= round(2 / 9, 6)  # "<intro>" is opened and first: 2 of 9
    assert run.settings["completion_prefix"] == "<intro>"
