"""The seccomp filter's tables against this machine's kernel headers, and the test-only Landlock ABI cap."""

import re
from pathlib import Path

import pytest

from playground.sandbox import Sandbox, SandboxLimits
from playground.sandbox.confine import DENIED, DENIED_ARGS, NETWORK, PATH_TRUNCATE, SELF_ONLY, SELF_OR_ZERO, SYSCALLS
from tests.sandbox.conftest import PROBE
from tests.security.confinement import require_confinement


HEADERS = {
    "x86_64": (Path("/usr/include/x86_64-linux-gnu/asm/unistd_64.h"), re.compile(r"#define __NR_(\w+) (\d+)$")),
    "aarch64": (Path("/usr/include/asm-generic/unistd.h"), re.compile(r"#define __NR(?:3264)?_(\w+) (\d+)$")),
}
FILTERED = (*DENIED, *SELF_ONLY, *SELF_OR_ZERO, *NETWORK, *PATH_TRUNCATE, *DENIED_ARGS, "clone", "clone3", "capset")


@pytest.mark.parametrize("arch", sorted(SYSCALLS))
def test_syscall_numbers_match_the_kernel_headers(arch):
    path, pattern = HEADERS[arch]
    if not path.exists():
        pytest.skip(f"{path} is not installed")
    numbers = {m[1]: int(m[2]) for line in path.read_text().splitlines() if (m := pattern.match(line))}
    table = {name: nr for name, nr in SYSCALLS[arch].items() if name != "arch"}
    assert {name: numbers.get(name) for name in table} == table


@pytest.mark.parametrize("arch", sorted(SYSCALLS))
def test_every_filtered_call_is_in_the_table(arch):
    missing = {name for name in FILTERED if name not in SYSCALLS[arch]}
    assert missing == ({"fork", "vfork"} if arch == "aarch64" else set())  # arm64 has only clone


def test_the_signal_calls_are_self_only_and_nothing_is_both_denied_and_allowed():
    assert {"kill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo"} <= set(SELF_ONLY)
    assert {"tkill", "pidfd_send_signal", "io_uring_setup", "setpriority"} <= set(DENIED)
    assert not set(DENIED) & (set(SELF_ONLY) | set(SELF_OR_ZERO) | set(NETWORK))


def test_landlock_abi_can_be_capped_for_tests():
    sandbox = Sandbox(PROBE, ["probe"], SandboxLimits(timeout=2.0, load_timeout=5.0, landlock_abi=5))
    try:
        sandbox.start()
        require_confinement(sandbox.features, "landlock")
        assert sandbox.features["landlock_abi"] == 5
        assert sandbox.call("probe", ["abc"]).values == [3.0]
    finally:
        sandbox.close()
