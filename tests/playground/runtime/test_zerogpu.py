"""ZeroGPU calls off a ZeroGPU Space: plain calls in this process, so the chunked training path runs on a CPU."""

import importlib.util
import os

import pytest

from playground.runtime import zerogpu


def add(a, b):
    return a + b


def test_off_a_space_a_gpu_call_is_a_plain_call_in_this_process(monkeypatch):
    monkeypatch.delenv(zerogpu.ZEROGPU_ENV, raising=False)
    assert not zerogpu.on_zerogpu()
    assert zerogpu.gpu_call("os:getpid", duration=30) == os.getpid()
    assert zerogpu.gpu_call("tests.playground.runtime.test_zerogpu:add", 2, 3) == 5
    assert zerogpu.gpu_handler(add) is add


@pytest.mark.skipif(importlib.util.find_spec("spaces") is not None, reason="the `spaces` package is installed")
def test_zerogpu_set_without_the_spaces_package_runs_without_it(monkeypatch, caplog):
    monkeypatch.setenv(zerogpu.ZEROGPU_ENV, "true")
    assert not zerogpu.on_zerogpu()
    assert "`spaces` package is not installed" in caplog.text
    assert zerogpu.gpu_handler(add) is add


def test_the_spaces_package_off_a_space_is_a_no_op(monkeypatch):
    """With the `zerogpu` extra installed (`pip install .[zerogpu]`), off a ZeroGPU Space."""
    spaces = pytest.importorskip("spaces")
    monkeypatch.delenv(zerogpu.ZEROGPU_ENV, raising=False)
    assert spaces.GPU(add, duration=30) is add
    assert spaces.GPU(duration=30)(add) is add
    assert zerogpu.gpu_call("tests.playground.runtime.test_zerogpu:add", 2, 3) == 5
