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


# --- tiers: `pytest -m "not slow"` for a quick loop; `slow`, `browser`, `multiproc` are registered in pyproject.toml.
# Tests of more than about 10 s on 2 CPU cores (a real run through a subprocess, the embedded model, a launched app).
SLOW = (
    "tests/bench/test_gpu_check.py::test_gpu_check_dry_run",
    "tests/playground/cli/test_cli.py::test_preview_embedded",
    "tests/playground/cli/test_cli.py::test_train_ctrl_c",
    "tests/playground/training/test_coldstart.py::test_train_lesson_runs",
    "tests/export/test_recipe.py::test_trl_cli_trains",
    "tests/export/test_lab_rewards_export.py::test_script_formula",
    "tests/export/test_inline.py::test_every_library_reward_runs_standalone",
    "tests/lab/test_dryrun.py::test_embedded_",
    "tests/export/test_script.py",
    "tests/export/test_script_cold_start.py",
    "tests/export/test_dockerfile.py",
    "tests/ui/test_client.py",
    "tests/ui/test_load.py",
)
# Tests that start several training processes (accelerate launch, trl grpo with --num_processes).
MULTIPROC = (
    "tests/playground/training/test_launcher.py::test_two_processes",
    "tests/playground/training/test_launcher.py::test_a_crash_of_the_processes",
    "tests/export/test_recipe_processes.py",
)


def pytest_collection_modifyitems(config, items):
    for item in items:
        marks = {m.name for m in item.iter_markers()}
        if "browser" in getattr(item, "fixturenames", ()) or item.nodeid.split("::")[0].endswith("_browser.py"):
            item.add_marker(pytest.mark.browser)
            marks.add("browser")
        if item.nodeid.startswith(MULTIPROC):
            item.add_marker(pytest.mark.multiproc)
            marks.add("multiproc")
        if "slow" not in marks and (item.nodeid.startswith(SLOW) or marks & {"browser", "multiproc"}):
            item.add_marker(pytest.mark.slow)
