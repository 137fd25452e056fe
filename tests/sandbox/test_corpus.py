"""The hardening corpus: one bad reward per file in `corpus/`, with its expected message in a header comment.

Header lines: `# expect:` a fragment of the message (or `ok`), `# category:`, `# phase: load` when the failure happens
while loading, `# restart: yes` when the worker must be replaced, `# needs: seccomp|landlock`, `# absent: PATH` (a
file that must not exist afterwards), `# output:` a fragment of the captured output, `# values:` the values of an ok
case. Each case also checks that the next good call works and that another session's sandbox is untouched.
"""

import os
import resource
from pathlib import Path

import pytest

from playground.sandbox import SandboxError
from tests.sandbox.conftest import PROBE


CORPUS = Path(__file__).parent / "corpus"
CASES = sorted(CORPUS.glob("*.py"))


def header(path: Path) -> dict[str, str]:
    meta = {}
    for line in path.read_text().splitlines():
        if not line.startswith("# ") or ":" not in line:
            break
        key, _, value = line[2:].partition(":")
        meta[key.strip()] = value.strip()
    return meta


def test_corpus_is_complete():
    categories = {}
    for path in CASES:
        meta = header(path)
        assert meta.get("expect") and meta.get("category"), path.name
        categories[meta["category"]] = categories.get(meta["category"], 0) + 1
    assert categories == {
        "time": 4,
        "memory": 2,
        "exception": 3,
        "exit": 4,
        "processes": 5,
        "secrets": 2,
        "files": 2,
        "output": 3,
        "values": 7,
    }


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_bad_reward(path, make_sandbox, bystander, monkeypatch):
    meta = header(path)
    monkeypatch.setenv("HF_TOKEN", "hf_corpus_secret")  # in the app's environment, before the worker starts
    if meta.get("absent"):
        Path(meta["absent"]).unlink(missing_ok=True)
    sandbox = make_sandbox(path.read_text() + PROBE, ["reward", "probe"])
    completions = ["alpha", "beta"]
    peak_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    if meta.get("phase") == "load":
        with pytest.raises(SandboxError) as err:
            sandbox.start()
        assert meta["expect"] in str(err.value)
        assert sandbox.pid is None
        sandbox.load(PROBE, ["probe"])  # the user fixes the code
        first_pid = None
    else:
        sandbox.start()
        needs = meta.get("needs")
        if needs and sandbox.features.get(needs) is not True:
            pytest.skip(f"{needs} is unavailable here: {sandbox.features.get(needs)}")
        first_pid = sandbox.pid
        if meta["expect"] == "ok":
            result = sandbox.call("reward", completions)
            assert result.values == [float(v) for v in meta["values"].split(",")]
            assert meta.get("output", "") in result.output
            assert len(result.output) <= 64 * 1024 + 100
        else:
            with pytest.raises(SandboxError) as err:
                sandbox.call("reward", completions)
            assert meta["expect"] in str(err.value)
        restarted = meta.get("restart") == "yes"
        assert sandbox.pid == (None if restarted else first_pid)
    assert completions == ["alpha", "beta"]
    assert sandbox.call("probe", ["abc", "de"]).values == [3.0, 2.0]  # the next good call works
    assert sandbox.pid is not None and (meta.get("restart") != "yes" or sandbox.pid != first_pid)
    assert bystander.pid == bystander.first_pid  # another session's worker was not touched
    assert bystander.call("probe", ["xyz"]).values == [3.0]
    if meta.get("absent"):
        assert not os.path.exists(meta["absent"])
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak_before) / 1024
    assert grown_mb < 50  # the app's memory is not blown up by what the worker printed or allocated
