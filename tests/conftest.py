"""Shared fixtures: the embedded model (converted once per machine) and a tiny random model with its real tokenizer."""

import os

import pytest


os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


@pytest.fixture(scope="session")
def embedded_dir():
    from playground.models import ensure_embedded_model

    return ensure_embedded_model()


@pytest.fixture(scope="session")
def tiny_model_dir(tmp_path_factory, embedded_dir):
    """A 2-layer random Llama with SmolLM2's real tokenizer and chat template, saved as a local model folder."""
    from playground.testing import save_tiny_model

    return save_tiny_model(tmp_path_factory.mktemp("tiny-model"))


@pytest.fixture(scope="session")
def tiny(tiny_model_dir):
    """(model, tokenizer) of the tiny model, loaded through the playground's own loader."""
    from playground.models import load_model

    return load_model(str(tiny_model_dir))


CHAR_VOCAB = ["<pad>", "<eos>", "<unk>"] + list("abcdefghijklmnopqrstuvwxyz0123456789 .,?!:")


@pytest.fixture(scope="session")
def char_model_dir(tmp_path_factory):
    """A tiny random Llama over a 45-symbol character vocabulary, where a reward on letters is learnable in steps."""
    from playground.testing import char_tokenizer, save_tiny_model

    template = (
        "{% for m in messages %}{{ m['role'][0] }}:{{ m['content'] }}. {% endfor %}"
        "{% if add_generation_prompt %}a:{% endif %}"
    )
    return save_tiny_model(
        tmp_path_factory.mktemp("char-model"),
        char_tokenizer(CHAR_VOCAB, template),
        max_position_embeddings=256,
        initializer_range=0.3,  # peaky logits, so a LoRA update moves the distribution within a few steps
        tie_word_embeddings=False,
    )
