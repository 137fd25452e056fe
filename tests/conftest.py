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
    import torch
    from transformers import AutoTokenizer, LlamaConfig, LlamaForCausalLM

    tokenizer = AutoTokenizer.from_pretrained(embedded_dir)
    config = LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=512,
        tie_word_embeddings=True,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.eos_token_id,
    )
    torch.manual_seed(0)
    model = LlamaForCausalLM(config)
    path = tmp_path_factory.mktemp("tiny-model")
    model.save_pretrained(path)
    tokenizer.save_pretrained(path)
    return path


@pytest.fixture(scope="session")
def tiny(tiny_model_dir):
    """(model, tokenizer) of the tiny model, loaded through the playground's own loader."""
    from playground.models import load_model

    return load_model(str(tiny_model_dir))


CHAR_VOCAB = ["<pad>", "<eos>", "<unk>"] + list("abcdefghijklmnopqrstuvwxyz0123456789 .,?!:")


@pytest.fixture(scope="session")
def char_model_dir(tmp_path_factory):
    """A tiny random Llama over a 45-symbol character vocabulary, where a reward on letters is learnable in steps."""
    import torch
    from tokenizers import Regex, Tokenizer, models, pre_tokenizers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    vocab = {ch: i for i, ch in enumerate(CHAR_VOCAB)}
    backend = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
    backend.pre_tokenizer = pre_tokenizers.Split(Regex("."), behavior="isolated")
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=backend, pad_token="<pad>", eos_token="<eos>", unk_token="<unk>"
    )
    tokenizer.chat_template = (
        "{% for m in messages %}{{ m['role'][0] }}:{{ m['content'] }}. {% endfor %}"
        "{% if add_generation_prompt %}a:{% endif %}"
    )
    config = LlamaConfig(
        vocab_size=len(CHAR_VOCAB),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=256,
        initializer_range=0.3,  # peaky logits, so a LoRA update moves the distribution within a few steps
        pad_token_id=0,
        eos_token_id=1,
        bos_token_id=None,
    )
    torch.manual_seed(0)
    model = LlamaForCausalLM(config)
    path = tmp_path_factory.mktemp("char-model")
    model.save_pretrained(path)
    tokenizer.save_pretrained(path)
    return path
