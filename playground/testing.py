"""Tiny random Llama models saved as local model folders, for the tests and the bench scripts.

One builder, `save_tiny_model`: a random-init Llama (a causal LM, or a one-label sequence classifier as TRL's reward
models are) with a given tokenizer, saved with it. `char_tokenizer` makes a character-level tokenizer for models that
must not depend on the embedded model's files (the GPU check) or that must learn within a few steps (cold start).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


# The smallest shape that still has grouped-query attention (4 heads over 2 key/value heads) and two layers.
TINY_SHAPE = dict(
    hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2
)


def save_tiny_model(
    path: str | Path, tokenizer=None, *, classifier: bool = False, shape: dict | None = None, **config: Any
) -> Path:
    """Save a random Llama (seed 0) and its tokenizer to `path` and return it.

    Args:
        path: the folder to write (created if missing).
        tokenizer: default: the embedded SmolLM2's tokenizer (with its chat template).
        classifier: a one-label `LlamaForSequenceClassification` instead of a causal LM.
        shape: the layer sizes; default `TINY_SHAPE`.
        **config: other `LlamaConfig` fields (e.g. `initializer_range`, `max_position_embeddings`).
    """
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM, LlamaForSequenceClassification

    if tokenizer is None:
        from transformers import AutoTokenizer

        from playground.models import ensure_embedded_model

        tokenizer = AutoTokenizer.from_pretrained(ensure_embedded_model())
    pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.eos_token_id
    settings = dict(
        vocab_size=len(tokenizer),
        max_position_embeddings=512,
        tie_word_embeddings=not classifier,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=pad,
    )
    if classifier:
        settings["num_labels"] = 1
    settings |= shape or TINY_SHAPE
    settings |= config
    torch.manual_seed(0)
    model = (LlamaForSequenceClassification if classifier else LlamaForCausalLM)(LlamaConfig(**settings))
    path = Path(path)
    model.save_pretrained(path)
    tokenizer.save_pretrained(path)
    return path


def char_tokenizer(chars: list[str], chat_template: str, *, vocab_size: int | None = None, fuse: bool = False):
    """A tokenizer with one token per character of `chars` (the first three are pad, eos and unk).

    `vocab_size` pads the vocabulary with unused tokens (to give a model a real model's embedding size); `fuse`
    decodes without spaces between the characters.
    """
    from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    pad, eos, unk = chars[:3]
    vocab = {ch: i for i, ch in enumerate(chars)}
    vocab.update({f"<unused{i}>": i for i in range(len(chars), vocab_size or len(chars))})
    backend = Tokenizer(models.WordLevel(vocab=vocab, unk_token=unk))
    backend.pre_tokenizer = pre_tokenizers.Split(Regex("."), behavior="isolated")
    if fuse:
        backend.decoder = decoders.Fuse()
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=backend, pad_token=pad, eos_token=eos, unk_token=unk)
    tokenizer.chat_template = chat_template
    return tokenizer
