"""Custom reward code: static checks in the app, execution only in a sandbox worker process.

A user's source is parsed in the app (`inspect_code`) and run only in a separate, long-lived worker process
(`Sandbox`), never in the app's process. The worker gets:

- a per-call wall-clock timeout (the app kills and replaces the worker), an address-space limit, a CPU-time backstop,
  a cap on file size, a disk quota on its folder (bytes and files) and a cap on the printed output it sends back;
- an environment without secrets (only PATH, locale and Python settings pass; `HF_TOKEN` and every `*_TOKEN`, `*_KEY`,
  `*_SECRET`, `*_PASSWORD` are dropped), and a fresh temporary folder as its cwd and HOME, removed afterwards;
- no child processes and no exec (seccomp; `RLIMIT_NPROC=0` where seccomp is refused), no signals (a descriptor's
  SIGIO owner included), ptrace, limits or scheduling changes to other processes, no io_uring, no memfd or IPC
  objects; a worker that leaves threads running after a call is replaced;
- file writes only in its temporary folder, file reads only from Python's install and import path and system
  folders, and listings only of Python's folders and its own (Landlock), so `/proc/<app pid>/environ`, the run
  folders and the system's temporary folder stay out of reach.

The app reads nothing back through a path the worker could replace: replies come over a pipe, its stderr through a
descriptor the app holds. docs/security.md says what holds on which kernel.

seccomp and Landlock are applied where the kernel and container allow them (`Sandbox.features` says which); the
timeouts, limits, scrubbed environment and separate process always apply. This limits the damage a reward can do, but
it is not a boundary like a virtual machine: the worker shares the kernel and the user account (and, outside public
mode, the network).

Modes, from the environment (see `settings.py`):

- local (the default off a Space): 5 s per call, 20 s to load, 1024 MB.
- public (`PLAYGROUND_PUBLIC=1`; **the default on a Space**, where `SPACE_ID` is set, unless `PLAYGROUND_PUBLIC=0`):
  2 s per call, 10 s to load, 512 MB, 128 MB of disk cleaned after each call, no sockets, no /dev/shm or Hub cache.
  Strangers share the machine, so the stricter limits keep one user's reward from holding the training loop, memory
  or disk, or reaching the app. Importing torch needs about 600 MB, so it fails under these limits.
- `PLAYGROUND_CUSTOM_CODE=off` disables custom code entirely, with a message that says so.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any


if TYPE_CHECKING:  # for type checkers and editors; at run time `__getattr__` below imports on first use
    from playground.sandbox.checks import CodeIssue, CodeReport, inspect_code  # noqa: F401
    from playground.sandbox.client import CallResult, Sandbox, SandboxedReward, SandboxError, close_rewards  # noqa: F401
    from playground.sandbox.custom import (  # noqa: F401
        TRIAL_COMPLETIONS,
        CodeSession,
        TrialResult,
        compile_rewards,
        custom_reward_names,
        custom_rewards_for,
        trial_run,
    )
    from playground.sandbox.settings import (  # noqa: F401
        DEFAULT_LIMITS,
        PUBLIC_LIMITS,
        CodePolicy,
        SandboxLimits,
        code_policy,
        require_custom_code,
    )

# Exports are loaded on first use, so that the worker (`python -m playground.sandbox.worker`) starts without them.
_EXPORTS = {
    "checks": ("CodeIssue", "CodeReport", "inspect_code"),
    "client": ("CallResult", "Sandbox", "SandboxedReward", "SandboxError", "close_rewards"),
    "custom": (
        "TRIAL_COMPLETIONS",
        "CodeSession",
        "TrialResult",
        "compile_rewards",
        "custom_reward_names",
        "custom_rewards_for",
        "trial_run",
    ),
    "settings": (
        "DEFAULT_LIMITS",
        "PUBLIC_LIMITS",
        "CodePolicy",
        "SandboxLimits",
        "code_policy",
        "require_custom_code",
    ),
}
_MODULE_OF = {name: module for module, names in _EXPORTS.items() for name in names}
__all__ = sorted(_MODULE_OF)


def __getattr__(name: str) -> Any:
    if name not in _MODULE_OF:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_MODULE_OF[name]}"), name)
