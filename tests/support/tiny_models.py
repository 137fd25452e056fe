"""Tiny random Llama models saved as local model folders, for the tests and the bench scripts (not shipped).

One builder, `save_tiny_model`: a random-init Llama (a causal LM, or a one-label sequence classifier as TRL's reward
models are) with a given tokenizer, saved with it. `small_vocab_tokenizer` is SmolLM2's tokenizer cut to its first
tokens, the tests' tiny model's (sampling and the output layer cost in proportion to the vocabulary).
`char_tokenizer` makes a character-level tokenizer for models that must not depend on the embedded model's files
(the GPU check) or that must learn within a few steps (cold start). `tiny_spec` is the run spec the tests train such
a model with. `save_char_model` and `vowel_fraction` are a model and a reward where learning shows within a few
steps on a CPU.
"""

from __future__ import annotations

import copy
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


# The tests' tiny model's vocabulary: SmolLM2's first 1,024 tokens (its 17 special tokens, the 256 bytes, the first
# merges). Its output layer, softmax and sampling are 48x smaller than with the whole 49,152: a dry run of 16 prompts
# x 8 completions x 64 tokens samples in 0.5 s instead of 10.
SMALL_VOCAB = 1024


def small_vocab_tokenizer(size: int = SMALL_VOCAB):
    """The embedded SmolLM2's tokenizer with only its first `size` tokens and the merges that make them.

    Any text still encodes (byte-level BPE: in more, shorter tokens) and decodes back; the special tokens, the chat
    template and the tokenizer's settings are SmolLM2's.
    """
    import json
    import tempfile

    from transformers import AutoTokenizer

    from playground.models import ensure_embedded_model

    with tempfile.TemporaryDirectory() as folder:
        AutoTokenizer.from_pretrained(ensure_embedded_model()).save_pretrained(folder)
        path = Path(folder) / "tokenizer.json"
        data = json.loads(path.read_text())
        bpe = data["model"]
        bpe["vocab"] = {token: i for token, i in bpe["vocab"].items() if i < size}
        pairs = [m if isinstance(m, list) else m.split(" ") for m in bpe["merges"]]
        bpe["merges"] = [[a, b] for a, b in pairs if a + b in bpe["vocab"] and a in bpe["vocab"] and b in bpe["vocab"]]
        data["added_tokens"] = [t for t in data["added_tokens"] if t["id"] < size]
        path.write_text(json.dumps(data))
        return AutoTokenizer.from_pretrained(folder)


# A group of 4 completions per prompt and one prompt group per step: the smallest GRPO step that still compares.
TINY_RUN = dict(num_generations=4, per_device_train_batch_size=4)


def tiny_spec(model_dir: str | Path, rewards=None, *, base=None, custom_code: str | None = None, **settings: Any):
    """A `RunSpec` on the model in `model_dir`, with `TINY_RUN` and then `settings` set by their flat names.

    Args:
        model_dir: the model folder (`save_tiny_model`'s).
        rewards: a list of `RewardChoice`; default: `length` with `ideal_length=5`.
        base: the spec to start from (e.g. `demo_spec()`); default: a fresh `RunSpec()`.
        custom_code: the spec's custom reward source.
        **settings: spec fields (TRL's names: `max_steps`, `learning_rate`, `dataset_name`, ...), set in order.
    """
    from playground.scoring import RewardChoice
    from playground.spec import RunSpec

    spec = base if base is not None else RunSpec()
    spec.model.model_name_or_path = str(model_dir)
    for name, value in {**TINY_RUN, **settings}.items():
        spec.set(name, value)
    # A copy: a partial that names its rewards once hands each spec its own (a test may change a weight).
    spec.rewards = (
        copy.deepcopy(list(rewards)) if rewards is not None else [RewardChoice("length", 1.0, {"ideal_length": 5})]
    )
    if custom_code is not None:
        spec.custom_code = custom_code
    return spec


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


CHAR_VOCAB = ["<pad>", "<eos>", "<unk>"] + list("abcdefghijklmnopqrstuvwxyz0123456789 .,?!:")
VOWELS = set("aeiou")


def save_char_model(path: str | Path) -> Path:
    """A tiny random Llama over a 45-symbol character vocabulary, where a reward on letters is learnable in steps."""
    template = (
        "{% for m in messages %}{{ m['role'][0] }}:{{ m['content'] }}. {% endfor %}"
        "{% if add_generation_prompt %}a:{% endif %}"
    )
    return save_tiny_model(
        path,
        char_tokenizer(CHAR_VOCAB, template),
        max_position_embeddings=256,
        initializer_range=0.3,  # peaky logits, so a LoRA update moves the distribution within a few steps
        tie_word_embeddings=False,
    )


def vowel_fraction(completions, **kwargs) -> list[float]:
    """Fraction of characters that are vowels: about 5/45 for a random character model (a reward it learns).

    >>> vowel_fraction(["aab", [{"role": "assistant", "content": "xyz"}]])
    [0.6666666666666666, 0.0]
    """
    texts = [c if isinstance(c, str) else c[-1]["content"] for c in completions]
    return [sum(ch in VOWELS for ch in t) / max(len(t), 1) for t in texts]
