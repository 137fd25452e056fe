"""Shared fixtures: the embedded model (converted once per machine) and a tiny random model with its real tokenizer.

The suite runs on pytest-xdist workers (`scripts/test.sh`: `-n 2 --dist loadgroup`). A module's tests stay on one
worker, so its module-scoped app, browser or sandbox starts once; the tests that start several training processes
share one worker, so two of them never compete for the cores side by side.
"""

import os

import pytest


os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
# Each xdist worker gets its share of the cores for torch's threads (and passes it on to the processes it starts);
# set before any test imports torch. Two workers on two cores with two threads each would fight over them.
_WORKERS = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT") or 0)
if _WORKERS:
    os.environ.setdefault("OMP_NUM_THREADS", str(max(1, (os.cpu_count() or 1) // _WORKERS)))


def pytest_configure(config):
    """Under xdist the controller converts the embedded model before the workers start: on a fresh machine two
    workers would otherwise both convert it (about 35 s and 2 GB each) before one rename wins."""
    if getattr(config.option, "numprocesses", None) and not hasattr(config, "workerinput"):
        from playground.errors import ModelLoadError
        from playground.models import ensure_embedded_model

        try:
            ensure_embedded_model()
        except ModelLoadError:
            pass  # not installed: the tests that need it say so themselves


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


@pytest.hookimpl(tryfirst=True)  # before xdist reads the xdist_group marks
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
        if "xdist_group" not in marks:
            # --dist loadgroup: the multi-process tests run one after another on one worker; any other test stays
            # with its module (one worker starts the module's app, browser, sandbox or run once). The browser modules
            # spread over the workers: together they are longer than half the suite, and they wait on the page a lot.
            group = "multiproc" if "multiproc" in marks else item.nodeid.split("::")[0]
            item.add_marker(pytest.mark.xdist_group(group))
    if _WORKERS:
        # Longest first (with --no-loadscope-reorder xdist hands out the groups in this order): the browser modules,
        # the multi-process group, the modules with slow tests, then the quick ones that fill the gaps at the end.
        slow_modules = {item.nodeid.split("::")[0] for item in items if item.get_closest_marker("slow")}

        def rank(item) -> int:
            if item.get_closest_marker("browser"):
                return 0
            if item.get_closest_marker("multiproc"):
                return 1
            return 2 if item.nodeid.split("::")[0] in slow_modules else 3

        items.sort(key=rank)  # stable: each module keeps its own order
