"""The tiers tell the truth: every test is in exactly one of them, and a `unit` test cannot start a process, listen on
a socket or build a model (tests/conftest.py)."""

import multiprocessing
import os
import socket
import subprocess

import pytest

from tests.conftest import INTEGRATION_FIXTURES, TIERS, NotAUnitTest


def test_every_collected_test_is_in_exactly_one_tier(request):
    tiers = {item.nodeid: [t for t in TIERS if item.get_closest_marker(t)] for item in request.session.items}
    assert tiers and [(node, found) for node, found in tiers.items() if len(found) != 1] == []
    assert request.node.get_closest_marker("unit") is not None  # this very test takes no model, app or process


def test_a_test_that_takes_a_model_fixture_is_integration(request):
    with_model = [i for i in request.session.items if set(getattr(i, "fixturenames", ())) & INTEGRATION_FIXTURES]
    assert all(i.get_closest_marker("unit") is None for i in with_model)


@pytest.mark.parametrize(
    "start",
    [
        lambda: subprocess.run(["true"], check=True),
        lambda: multiprocessing.get_context("spawn").Process(target=print).start(),
        lambda: os.system("true"),
        lambda: socket.socket().listen(),
    ],
    ids=["subprocess", "multiprocessing", "os.system", "listen"],
)
def test_a_unit_test_cannot_start_a_process_or_a_server(start):
    with pytest.raises(NotAUnitTest, match="mark it `integration`"):
        start()


def test_a_unit_test_cannot_build_a_model():
    from transformers import LlamaConfig, LlamaForCausalLM

    config = LlamaConfig(hidden_size=8, intermediate_size=16, num_hidden_layers=1, num_attention_heads=2)
    with pytest.raises(NotAUnitTest, match="built a model"):
        LlamaForCausalLM(config)


def test_what_a_library_does_at_its_import_is_not_the_tests_doing(tmp_path, monkeypatch):
    source = "import subprocess\nVERSION = subprocess.run(['true']).returncode\n"
    (tmp_path / "asks_git_at_import.py").write_text(source)
    monkeypatch.syspath_prepend(str(tmp_path))
    import asks_git_at_import  # huggingface_hub.hf_api runs `git --version` as it is imported

    assert asks_git_at_import.VERSION == 0


@pytest.mark.integration
def test_an_integration_test_may(tmp_path):
    assert subprocess.run(["true"]).returncode == 0
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
