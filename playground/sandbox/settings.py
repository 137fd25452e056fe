"""Sandbox limits and the custom-code policy, from the settings (`playground.settings`).

`PLAYGROUND_CUSTOM_CODE=off` disables custom reward code. `PLAYGROUND_PUBLIC=1` selects the public limits; unset, it
defaults to on where `SPACE_ID` is set (a Hugging Face Space). `PLAYGROUND_SANDBOX_TIMEOUT` (seconds per call) and
`PLAYGROUND_SANDBOX_MEMORY_MB` override the chosen limits; `PLAYGROUND_SANDBOX_READ_PATHS` (separated by `:`) adds
folders the sandbox may read; `PLAYGROUND_SANDBOX_DISK_MB` and `PLAYGROUND_SANDBOX_DISK_FILES` set the disk quota of
the worker's folder.

Fail closed: public limits require seccomp and Landlock (`require_confinement`); where the kernel or container cannot
apply both, custom code and `code_tests` are refused with a message that says so, unless the operator accepts the risk
with `PLAYGROUND_ALLOW_UNCONFINED=1`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace

from playground.errors import PlaygroundError
from playground.settings import current, is_public
from playground.texts import msg


@dataclass(frozen=True)
class SandboxLimits:
    """Limits of one sandbox worker.

    Args:
        timeout (`float`, *optional*, defaults to `5.0`):
            Wall-clock seconds one reward call may take; the worker is killed and replaced after that.
        load_timeout (`float`, *optional*, defaults to `20.0`):
            Seconds the code's top level (imports included) may take to run. Importing torch takes 1-5 s.
        memory_mb (`int`, *optional*, defaults to `1024`):
            Address-space limit (`RLIMIT_AS`). Importing torch alone maps about 600 MB.
        cpu_seconds (`int`, *optional*, defaults to `3600`):
            CPU seconds one worker may use in its life (`RLIMIT_CPU` hard limit); it is recycled before reaching it.
        output_bytes (`int`, *optional*, defaults to `65536`):
            Printed characters kept per call (64 KB of ASCII); the rest is counted and dropped.
        file_mb (`int`, *optional*, defaults to `64`):
            Largest file the worker may write (`RLIMIT_FSIZE`), in its temporary folder.
        read_paths (`tuple[str, ...]`, *optional*, defaults to `()`):
            Extra folders the worker may read, besides Python's install, system folders and its temporary folder.
        disk_mb (`int`, *optional*, defaults to `512`):
            Disk quota of the worker's folder, in MB (blocks really used). Checked every 0.1 s while the worker runs
            and after each call; past it the worker is stopped and its folder removed.
        disk_files (`int`, *optional*, defaults to `2000`):
            Most files and folders the worker's folder may hold; enforced like `disk_mb`.
        clean_between_calls (`bool`, *optional*, defaults to `False`):
            Remove what a call wrote in the worker's folder once it returns (what loading the code wrote stays).
        network (`bool`, *optional*, defaults to `True`):
            Whether the worker may open sockets. Off, `socket()` is refused for every family (seccomp), with a clear
            message from Python; socket pairs (asyncio's) still work.
        shared_reads (`bool`, *optional*, defaults to `True`):
            Whether the worker may read /dev/shm (and the rest of /dev) and the Hugging Face Hub cache.
        children (`bool`, *optional*, defaults to `False`):
            The worker runs only trusted code that starts a confined child per user program (the `code_tests`
            runner): it may fork and signal its children, which cannot reach its descriptors (`confine.confine`).
        nice (`int`, *optional*, defaults to `0`):
            CPU priority the worker gives itself (`setpriority`, 0 to 19): visitor workers take 10, so the process
            that serves pages keeps its share of the CPU while they compute.
        require_confinement (`bool`, *optional*, defaults to `False`):
            Refuse to run code where the worker could not apply both seccomp and Landlock (public mode).
        landlock_abi (`int`, *optional*, defaults to `0`):
            Apply at most this Landlock ABI version (0: the kernel's). A test setting: ABI 5 behaves like a kernel
            before 6.12, where Landlock does not scope signals, so that seccomp alone must stop them.
    """

    timeout: float = 5.0
    load_timeout: float = 20.0
    memory_mb: int = 1024
    cpu_seconds: int = 3600
    output_bytes: int = 64 * 1024
    file_mb: int = 64
    read_paths: tuple[str, ...] = ()
    disk_mb: int = 512
    disk_files: int = 2000
    clean_between_calls: bool = False
    network: bool = True
    shared_reads: bool = True
    children: bool = False
    nice: int = 0
    require_confinement: bool = False
    landlock_abi: int = 0

    def __post_init__(self):
        if not (0 < self.timeout and 0 < self.load_timeout):
            raise ValueError(msg("sandbox.setting_timeouts"))
        if self.memory_mb < 64:  # the interpreter alone maps about 20 MB; below 64 MB nothing useful runs
            raise ValueError(msg("sandbox.setting_memory", mb=self.memory_mb))
        if self.disk_mb < 1 or self.disk_files < 10:  # the folder holds the worker's log and Python's caches
            raise ValueError(msg("sandbox.setting_disk", mb=self.disk_mb))

    def to_dict(self) -> dict:
        return {**asdict(self), "read_paths": list(self.read_paths)}


DEFAULT_LIMITS = SandboxLimits()
# Public mode: strangers share the machine and the app's user account, so the worker gets no network, no shared memory
# or Hub cache, a small disk quota, and a folder emptied after every call.
PUBLIC_LIMITS = SandboxLimits(
    timeout=2.0,
    load_timeout=10.0,
    memory_mb=512,
    cpu_seconds=1800,
    disk_mb=128,
    disk_files=500,
    clean_between_calls=True,
    network=False,
    shared_reads=False,
    require_confinement=True,
)
CONFINEMENT = ("seccomp", "landlock")


@dataclass(frozen=True)
class CodePolicy:
    enabled: bool
    public: bool
    limits: SandboxLimits


def code_policy(public: bool | None = None) -> CodePolicy:
    """Whether custom code is allowed, and the limits it runs under."""
    settings = current()
    public = is_public(public)
    limits = PUBLIC_LIMITS if public else DEFAULT_LIMITS
    overrides = {
        "timeout": settings.sandbox_timeout,
        "memory_mb": settings.sandbox_memory_mb,
        "disk_mb": settings.sandbox_disk_mb,
        "disk_files": settings.sandbox_disk_files,
        "read_paths": settings.sandbox_read_paths or None,
        "require_confinement": False if settings.allow_unconfined else None,
    }
    limits = replace(limits, **{name: value for name, value in overrides.items() if value is not None})
    return CodePolicy(enabled=settings.custom_code, public=public, limits=limits)


def require_custom_code(public: bool | None = None) -> SandboxLimits:
    """The limits for custom code, or a `PlaygroundError` when this server disables custom code."""
    policy = code_policy(public)
    if not policy.enabled:
        raise PlaygroundError("rewards.custom.off")
    if policy.limits.require_confinement:
        check_confinement(kernel_confinement())
    return policy.limits


def kernel_confinement() -> dict[str, object]:
    """{"seccomp": True or why not, "landlock": True or why not}, as this kernel reports (before any worker starts;
    a container may still refuse them, which the worker's own report (`check_confinement`) catches)."""
    from playground.sandbox import confine

    return {"seccomp": confine.seccomp_available() or True, "landlock": True if confine.landlock_abi() else "absent"}


def check_confinement(features: dict) -> None:
    """A `PlaygroundError` (fail closed) unless seccomp and Landlock are both in `features`."""
    missing = [step for step in CONFINEMENT if features.get(step) is not True]
    if missing:
        raise PlaygroundError("sandbox.unconfined", missing=" + ".join(missing))
