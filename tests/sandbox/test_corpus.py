"""The hardening corpus: one bad reward per file in `corpus/`, with its expected message in a header comment.

Header lines: `# expect:` a fragment of the message (or `ok`), `# category:`, `# phase: load` when the failure happens
while loading, `# restart: yes` when the worker must be replaced, `# needs: seccomp|landlock`, `# absent: PATH` (a
file that must not exist afterwards), `# output:` a fragment of the captured output, `# values:` the values of an ok
case, `# mode: public` for the public limits (no network, no /dev/shm or Hub cache, folder cleaned between calls),
`# landlock-abi: 5` to apply Landlock as a kernel before 6.12 would (no signal scoping, so seccomp alone must hold),
`# disk: MB,FILES` for a small disk quota, `# timeout: S` for a longer call budget than the test limits' 1 s (a case
whose limit must be reached by work that a loaded machine slows, such as faulting in 512 MB), `# plant: PATH` (a
file written before, removed after; `$HF_HUB_CACHE` is a test folder). Each case also checks that the next good call
works and that another session's sandbox is untouched.
"""

import dataclasses
import os
import resource
from pathlib import Path

import pytest

from playground.sandbox import PUBLIC_LIMITS, SandboxError
from tests.sandbox.conftest import LIMITS, PROBE
from tests.security.confinement import require_confinement


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
        "signals": 5,
        "disk": 2,
        "network": 6,
        "shared": 2,
    }


def limits_for(meta: dict[str, str]):
    """The test limits, with the case's mode, Landlock ABI and disk quota."""
    limits = LIMITS
    if meta.get("mode") == "public":
        public = ("network", "shared_reads", "clean_between_calls", "disk_mb", "disk_files")
        limits = dataclasses.replace(limits, **{name: getattr(PUBLIC_LIMITS, name) for name in public})
    if meta.get("landlock-abi"):
        limits = dataclasses.replace(limits, landlock_abi=int(meta["landlock-abi"]))
    if meta.get("timeout"):
        limits = dataclasses.replace(limits, timeout=float(meta["timeout"]))
    if meta.get("disk"):
        mb, files = meta["disk"].split(",")
        limits = dataclasses.replace(limits, disk_mb=int(mb), disk_files=int(files))
    return limits


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_bad_reward(path, make_sandbox, bystander, monkeypatch, tmp_path):
    meta = header(path)
    monkeypatch.setenv("HF_TOKEN", "hf_corpus_secret")  # in the app's environment, before the worker starts
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    if meta.get("absent"):
        Path(meta["absent"]).unlink(missing_ok=True)
    planted = Path(os.path.expandvars(meta["plant"])) if meta.get("plant") else None
    if planted:
        planted.parent.mkdir(parents=True, exist_ok=True)
        planted.write_text("a secret of another program")
    try:
        run_case(path, meta, make_sandbox, bystander)
    finally:
        if planted:
            planted.unlink(missing_ok=True)


def run_case(path, meta, make_sandbox, bystander):
    sandbox = make_sandbox(path.read_text() + PROBE, ["reward", "probe"], limits_for(meta))
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
        if needs:
            require_confinement(sandbox.features, needs)
        first_pid = sandbox.pid
        workdir = sandbox.workdir
        if meta.get("landlock-abi"):
            assert sandbox.features["landlock"] is not True or sandbox.features["landlock_abi"] <= 5
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
        assert os.path.isdir(workdir) != restarted  # a replaced worker's folder is removed with it
    assert completions == ["alpha", "beta"]
    assert sandbox.call("probe", ["abc", "de"]).values == [3.0, 2.0]  # the next good call works
    assert sandbox.pid is not None and (meta.get("restart") != "yes" or sandbox.pid != first_pid)
    assert bystander.pid == bystander.first_pid  # another session's worker was not touched
    assert bystander.call("probe", ["xyz"]).values == [3.0]
    if meta.get("absent"):
        assert not os.path.exists(meta["absent"])
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak_before) / 1024
    assert grown_mb < 50  # the app's memory is not blown up by what the worker printed or allocated
