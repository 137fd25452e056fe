"""Several prompts sampled in one batch, each with its own seed, give each prompt the group it gets alone."""

import pytest

from playground.models import load_model
from playground.preview import GenerationSettings, generate_group, generate_groups


PROMPTS = [
    [{"role": "user", "content": "Hi."}],
    [{"role": "user", "content": "Why is the sky blue? Answer at length, with reasons and examples."}],
    [{"role": "user", "content": "Name a colour."}],
]
SEEDS = [5, 9, 13]


@pytest.fixture(scope="module")
def sampler(tiny_full_vocab_dir):
    model, tokenizer = load_model(str(tiny_full_vocab_dir), inference=True)
    # Many end-of-sequence ids, so that rows end at different steps and leave the batch while others go on.
    model.generation_config.eos_token_id = list(range(3, 2000))
    return model, tokenizer


def settings(seed: int = 0) -> GenerationSettings:
    return GenerationSettings(num_generations=3, max_new_tokens=12, temperature=0.9, top_p=0.95, seed=seed)


def alone(model, tokenizer) -> list:
    return [generate_group(model, tokenizer, p, settings(s), "<intro>") for p, s in zip(PROMPTS, SEEDS, strict=True)]


@pytest.mark.parametrize("max_rows", [32, 3, 6])  # all prompts in one batch, one a batch, two then one
def test_each_group_equals_the_group_sampled_alone(sampler, max_rows):
    model, tokenizer = sampler
    assert model.playground_sampler is not None  # the batched path is the one under test
    expected = alone(model, tokenizer)
    lengths = {len(ids) for group in expected for ids in group.completion_ids}
    assert len(lengths) >= 2, lengths  # rows ended at different steps
    assert len({tuple(map(tuple, g.completion_ids)) for g in expected}) == 3  # the groups differ
    got = generate_groups(model, tokenizer, PROMPTS, settings(), SEEDS, "<intro>", max_rows=max_rows)
    assert [g.completion_ids for g in got] == [g.completion_ids for g in expected]
    assert [g.completions for g in got] == [g.completions for g in expected]
    assert all(c.startswith("<intro>") for g in got for c in g.completions)
    assert [g.prompt_text for g in got] == [g.prompt_text for g in expected]


def test_a_seed_changes_only_its_own_group(sampler):
    model, tokenizer = sampler
    base = generate_groups(model, tokenizer, PROMPTS, settings(), SEEDS)
    moved = generate_groups(model, tokenizer, PROMPTS, settings(), [5, 10, 13])
    assert base[0].completion_ids == moved[0].completion_ids and base[2].completion_ids == moved[2].completion_ids
    assert base[1].completion_ids != moved[1].completion_ids


def test_a_stop_between_batches_returns_the_groups_so_far(sampler):
    model, tokenizer = sampler
    asked = []

    def should_stop() -> bool:
        asked.append(1)
        return len(asked) > 1  # stop after the first batch

    got = generate_groups(model, tokenizer, PROMPTS, settings(), SEEDS, max_rows=3, should_stop=should_stop)
    assert len(got) == 1 and len(asked) == 2


def test_a_model_without_the_lean_decoder_samples_prompt_by_prompt(tiny):
    model, tokenizer = tiny  # loaded for training: `generate` serves it
    assert getattr(model, "playground_sampler", None) is None
    got = generate_groups(model, tokenizer, PROMPTS, settings(), SEEDS, "<intro>")
    assert [g.completion_ids for g in got] == [g.completion_ids for g in alone(model, tokenizer)]


def test_a_blank_prompt_is_refused(sampler):
    from playground.errors import PlaygroundError

    model, tokenizer = sampler
    with pytest.raises(PlaygroundError) as err:
        generate_groups(model, tokenizer, ["Hi", "  "], settings(), [1, 2])
    assert err.value.key == "preview.empty_prompt"
