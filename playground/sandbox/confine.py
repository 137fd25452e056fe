"""Confinement the worker applies to itself after startup, before it runs any user code.

- rlimits: address space, CPU time, file size, no core files.
- Capabilities dropped, so a worker started as root cannot raise its own limits again.
- seccomp (a BPF filter, through ctypes): no fork, vfork, non-thread clone, exec, ptrace; signals (kill, tgkill,
  rt_sigqueueinfo, rt_tgsigqueueinfo), limits (prlimit64) and scheduling only on the worker itself, on every kernel;
  no io_uring (it would bypass this filter), mounts, namespaces, bpf, userfaultfd, perf events or keyrings; no memfd,
  System V IPC or POSIX message queues (memory outside the address-space limit, or that outlives the worker); no
  owner or signal for a descriptor's SIGIO (fcntl F_SETOWN, F_SETOWN_EX, F_SETSIG, O_ASYNC; ioctl FIOASYNC,
  FIOSETOWN, SIOCSPGRP), which would signal another process on any kernel; no TIOCSTI; no truncate() by path where
  Landlock (below ABI 3) cannot refuse it. Without network (public mode) `socket()` is refused for every family.
  Threads still work: `clone3` answers ENOSYS, so glibc falls back to `clone` with `CLONE_THREAD`. Where seccomp is
  refused, `RLIMIT_NPROC=0` stops new processes instead (and threads with them; root ignores it).
- Landlock (Linux >= 5.13, through ctypes): writes only inside the temporary folder; reads and listings only in
  Python's install and import path, `/proc/self` and the temporary folder, plus file reads (no listing) in system
  folders (/usr, /lib, /etc, /dev, /sys). That keeps `/proc/<app pid>/environ` (the app's secrets) out of reach, and
  the worker cannot list `/` or the system's temporary folder (other visitors' files). With Landlock ABI >= 6, signals
  outside are blocked too (seccomp blocks them on older kernels). In public mode /dev is narrowed to a few devices (no
  /dev/shm), the Hub cache is not readable, and with ABI >= 4 TCP bind and connect are refused as well.

Each step is best effort: `confine()` reports what it could apply, and the rest of the sandbox still works (timeouts,
memory limit, scrubbed environment, fresh temporary folder) where a kernel or container refuses seccomp or Landlock.
"""

from __future__ import annotations

import ctypes
import os
import platform
import resource
import signal
import struct
import sys
from collections.abc import Iterable


# --- rlimits and capabilities ---------------------------------------------------------------------------------------


def set_rlimits(memory_mb: int, cpu_seconds: int, file_mb: int) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (memory_mb << 20, memory_mb << 20))
    # Past the soft limit the kernel sends SIGXCPU (reported as "used more than its CPU time limit"); past the hard
    # limit, SIGKILL. One second between them keeps the two apart.
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))
    resource.setrlimit(resource.RLIMIT_FSIZE, (file_mb << 20, file_mb << 20))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a too-large write fails with EFBIG instead of killing the worker


def forbid_processes() -> bool:
    """`RLIMIT_NPROC=0`: the fallback when seccomp is unavailable. It counts threads too, so it stops them as well."""
    try:
        resource.setrlimit(resource.RLIMIT_NPROC, (0, 0))
    except (ValueError, OSError):
        return False
    return True


def allow_cpu(seconds: float) -> None:
    """Let the next call use about `seconds` more CPU time: a backstop under the app's wall-clock timeout."""
    used = resource.getrusage(resource.RUSAGE_SELF)
    soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
    want = int(used.ru_utime + used.ru_stime + seconds) + 1
    resource.setrlimit(resource.RLIMIT_CPU, (min(want, hard - 1) if hard != resource.RLIM_INFINITY else want, hard))


_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long
_libc.prctl.restype = ctypes.c_int

PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2


def _error(what: str) -> str:
    return f"{what}: {os.strerror(ctypes.get_errno())}"


def drop_capabilities() -> str | None:
    """Drop every capability of this process (a no-op for a normal user). None on success, else the reason."""
    if os.geteuid() != 0:
        return None
    nr = SYSCALLS.get(platform.machine(), {}).get("capset")
    if nr is None:
        return "capset: unknown architecture"
    header = struct.pack("Ii", 0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this process
    data = ctypes.create_string_buffer(24)  # two zeroed {effective, permitted, inheritable}
    if _libc.syscall(nr, ctypes.c_char_p(header), data) != 0:
        return _error("capset")
    return None


# --- seccomp --------------------------------------------------------------------------------------------------------

# Numbers from the kernel's syscall tables (arch/x86/entry/syscalls/syscall_64.tbl, include/uapi/asm-generic/unistd.h);
# tests/sandbox/test_confine.py checks them against this machine's headers.
SYSCALLS = {
    "x86_64": {
        "arch": 0xC000003E,
        "fork": 57,
        "vfork": 58,
        "clone": 56,
        "clone3": 435,
        "execve": 59,
        "execveat": 322,
        "kill": 62,
        "tkill": 200,
        "tgkill": 234,
        "rt_sigqueueinfo": 129,
        "rt_tgsigqueueinfo": 297,
        "ptrace": 101,
        "process_vm_readv": 310,
        "process_vm_writev": 311,
        "process_madvise": 440,
        "process_mrelease": 448,
        "pidfd_open": 434,
        "pidfd_send_signal": 424,
        "pidfd_getfd": 438,
        "kcmp": 312,
        "unshare": 272,
        "setns": 308,
        "capset": 126,
        "prlimit64": 302,
        "setpriority": 141,
        "ioprio_set": 251,
        "sched_setaffinity": 203,
        "sched_setscheduler": 144,
        "sched_setparam": 142,
        "sched_setattr": 314,
        "migrate_pages": 256,
        "move_pages": 279,
        "io_uring_setup": 425,
        "io_uring_enter": 426,
        "io_uring_register": 427,
        "bpf": 321,
        "userfaultfd": 323,
        "perf_event_open": 298,
        "keyctl": 250,
        "add_key": 248,
        "request_key": 249,
        "mount": 165,
        "umount2": 166,
        "pivot_root": 155,
        "chroot": 161,
        "open_tree": 428,
        "move_mount": 429,
        "fsopen": 430,
        "fsconfig": 431,
        "fsmount": 432,
        "fspick": 433,
        "mount_setattr": 442,
        "kexec_load": 246,
        "quotactl": 179,
        "memfd_create": 319,
        "memfd_secret": 447,
        "shmget": 29,
        "msgget": 68,
        "semget": 64,
        "mq_open": 240,
        "truncate": 76,
        "fcntl": 72,
        "ioctl": 16,
        "socket": 41,
        "fallocate": 285,
    },
    "aarch64": {
        "arch": 0xC00000B7,
        "clone": 220,
        "clone3": 435,
        "execve": 221,
        "execveat": 281,
        "kill": 129,
        "tkill": 130,
        "tgkill": 131,
        "rt_sigqueueinfo": 138,
        "rt_tgsigqueueinfo": 240,
        "ptrace": 117,
        "process_vm_readv": 270,
        "process_vm_writev": 271,
        "process_madvise": 440,
        "process_mrelease": 448,
        "pidfd_open": 434,
        "pidfd_send_signal": 424,
        "pidfd_getfd": 438,
        "kcmp": 272,
        "unshare": 97,
        "setns": 268,
        "capset": 91,
        "prlimit64": 261,
        "setpriority": 140,
        "ioprio_set": 30,
        "sched_setaffinity": 122,
        "sched_setscheduler": 119,
        "sched_setparam": 118,
        "sched_setattr": 274,
        "migrate_pages": 238,
        "move_pages": 239,
        "io_uring_setup": 425,
        "io_uring_enter": 426,
        "io_uring_register": 427,
        "bpf": 280,
        "userfaultfd": 282,
        "perf_event_open": 241,
        "keyctl": 219,
        "add_key": 217,
        "request_key": 218,
        "mount": 40,
        "umount2": 39,
        "pivot_root": 41,
        "chroot": 51,
        "open_tree": 428,
        "move_mount": 429,
        "fsopen": 430,
        "fsconfig": 431,
        "fsmount": 432,
        "fspick": 433,
        "mount_setattr": 442,
        "kexec_load": 104,
        "quotactl": 60,
        "memfd_create": 279,
        "memfd_secret": 447,
        "shmget": 194,
        "msgget": 186,
        "semget": 190,
        "mq_open": 180,
        "truncate": 45,
        "fcntl": 25,
        "ioctl": 29,
        "socket": 198,
        "fallocate": 47,
    },
}
# Denied outright (EPERM). Everything that creates processes, runs programs, reaches into another process (signals,
# memory, scheduling, limits), changes namespaces or mounts, or bypasses seccomp (io_uring runs socket, connect and
# open without passing this filter); plus bpf, userfaultfd, perf_event_open and the keyrings, which rewards never need
# and exploits often do. Memory outside the address-space limit: memfd_create and memfd_secret (a memfd filled with
# posix_fallocate holds memory no rlimit counts, for as long as the worker lives) and the IPC objects that outlive
# the worker: System V shared memory, message queues and semaphores, and POSIX message queues.
DENIED = (
    "fork",
    "vfork",
    "execve",
    "execveat",
    "tkill",
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "process_madvise",
    "process_mrelease",
    "pidfd_open",
    "pidfd_send_signal",
    "pidfd_getfd",
    "kcmp",
    "unshare",
    "setns",
    "setpriority",  # PRIO_USER would renice every process of the account, the app included
    "ioprio_set",
    "migrate_pages",
    "move_pages",
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    "bpf",
    "userfaultfd",
    "perf_event_open",
    "keyctl",
    "add_key",
    "request_key",
    "mount",
    "umount2",
    "pivot_root",
    "chroot",
    "open_tree",
    "move_mount",
    "fsopen",
    "fsconfig",
    "fsmount",
    "fspick",
    "mount_setattr",
    "kexec_load",
    "quotactl",
    "memfd_create",
    "memfd_secret",
    "shmget",
    "msgget",
    "semget",
    "mq_open",
)
# Allowed only when their first argument names this process: signals (kill, tgkill and both sigqueue calls take the
# target pid or thread group first; 0 would mean "my process group", which is refused too).
SELF_ONLY = ("kill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo")
# Allowed on this process, named by its pid or by 0 ("myself"): its own limits and scheduling. Another process of the
# same user (the app) would otherwise accept new limits (prlimit64) or a CPU mask from the worker.
SELF_OR_ZERO = ("prlimit64", "sched_setaffinity", "sched_setscheduler", "sched_setparam", "sched_setattr")
NETWORK = ("socket",)  # denied when the worker has no network (public mode); socketpair stays (asyncio needs it)
# Denied where Landlock cannot refuse it: before ABI 3 (Linux 6.2) truncate() by path is not a handled right, so it
# would cut any file the user account can write (another visitor's run files); opening a file for writing (and
# ftruncate on it) stays refused outside the worker's folder on every ABI.
PATH_TRUNCATE = ("truncate",)
# Denied for these second arguments (the fcntl command, the ioctl request): what names a process to receive SIGIO or
# another signal when a descriptor becomes ready. With an owner set, a write to a pipe signals that process, and the
# kernel checks only that both belong to the same user: a way around the signal rules above (Landlock scopes signals,
# this one included, only from ABI 6, Linux 6.12).
F_SETFL, F_SETOWN, F_SETSIG, F_SETOWN_EX = 4, 8, 10, 15
O_ASYNC = 0o20000
FIOASYNC, FIOSETOWN, SIOCSPGRP = 0x5452, 0x8901, 0x8902
TIOCSTI = 0x5412  # types into a terminal, as if its user had: the app's, where a worker could open it
DENIED_ARGS = {"fcntl": (F_SETOWN, F_SETOWN_EX, F_SETSIG), "ioctl": (FIOASYNC, FIOSETOWN, SIOCSPGRP, TIOCSTI)}
# fcntl(F_SETFL) is allowed without O_ASYNC in its third argument (set non-blocking, append: what Python does).
# fallocate is allowed with mode 0 only (what posix_fallocate uses): that mode grows the file's size, which
# RLIMIT_FSIZE and the disk quota see. FALLOC_FL_KEEP_SIZE would allocate blocks past the size, so a 0-byte file (or
# the worker's stderr) could hold any amount of disk; the other modes (punch or zero a range) rewards never need.
FALLOCATE_MODE_ZERO_ONLY = ("fallocate",)
# A parent worker (`parent=True`: the `code_tests` runner) starts one child per program and stops it when its time is
# up: fork and clone are allowed to it, and kill() of any process its Landlock domain may signal. Each child installs
# the full filter again on top of the parent's (`confine_child`), which takes both away from the program.
PARENT_ALLOWED = ("fork", "vfork")

CLONE_THREAD = 0x00010000
EPERM, ENOSYS = 1, 38
RET_ALLOW = 0x7FFF0000
RET_ERRNO = 0x00050000
LD_W_ABS, JEQ, JSET, RET = 0x20, 0x15, 0x45, 0x06
# struct seccomp_data; the low 32 bits of args[0], args[1] and args[2] (little-endian).
OFFSET_NR, OFFSET_ARCH, OFFSET_ARG0, OFFSET_ARG1, OFFSET_ARG2 = 0, 4, 16, 24, 32
X32_SYSCALL_BIT = 0x40000000


def _insn(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("HBBI", code, jt, jf, k)


def seccomp_program(
    table: dict[str, int], pid: int, network: bool = True, truncate: bool = True, parent: bool = False
) -> list[bytes]:
    """A BPF program: deny the calls in `DENIED` (and `NETWORK` unless `network`, `PATH_TRUNCATE` unless `truncate`),
    allow clone only for threads, the calls in `SELF_ONLY` / `SELF_OR_ZERO` only on `pid`, fcntl and ioctl except
    for `DENIED_ARGS` and O_ASYNC, and fallocate with mode 0 only. With `parent`, fork, vfork, clone and kill are
    allowed (see `PARENT_ALLOWED`)."""
    deny, nosys = RET_ERRNO | EPERM, RET_ERRNO | ENOSYS
    prog = [
        _insn(LD_W_ABS, OFFSET_ARCH),
        _insn(JEQ, table["arch"], jt=1),  # another ABI (e.g. 32-bit int 0x80) is denied outright
        _insn(RET, deny),
        _insn(LD_W_ABS, OFFSET_NR),
        _insn(JSET, X32_SYSCALL_BIT, jf=1),
        _insn(RET, deny),
    ]
    denied = [name for name in DENIED if not (parent and name in PARENT_ALLOWED)]
    for name in (*denied, *(() if network else NETWORK), *(() if truncate else PATH_TRUNCATE)):
        if name in table:
            prog += [_insn(JEQ, table[name], jf=1), _insn(RET, deny)]
    prog += [_insn(JEQ, table["clone3"], jf=1), _insn(RET, nosys)]
    for name in FALLOCATE_MODE_ZERO_ONLY:  # mode (the second argument) 0 only
        prog += [
            _insn(JEQ, table[name], jf=4),
            _insn(LD_W_ABS, OFFSET_ARG1),
            _insn(JEQ, 0, jf=1),
            _insn(RET, RET_ALLOW),
            _insn(RET, deny),
        ]
    if parent:  # clone of any kind, and signals to the children (Landlock keeps them from processes outside)
        prog += [_insn(JEQ, table["clone"], jf=1), _insn(RET, RET_ALLOW)]
        prog += [_insn(JEQ, table["kill"], jf=1), _insn(RET, RET_ALLOW)]
    # clone: allowed with CLONE_THREAD only.
    prog += [
        _insn(JEQ, table["clone"], jf=4),
        _insn(LD_W_ABS, OFFSET_ARG0),
        _insn(JSET, CLONE_THREAD, jf=1),
        _insn(RET, RET_ALLOW),
        _insn(RET, deny),
    ]
    for name, commands in DENIED_ARGS.items():
        block = [_insn(LD_W_ABS, OFFSET_ARG1)]
        for command in commands:
            block += [_insn(JEQ, command, jf=1), _insn(RET, deny)]
        if name == "fcntl":  # F_SETFL with O_ASYNC set
            block += [
                _insn(JEQ, F_SETFL, jf=3),
                _insn(LD_W_ABS, OFFSET_ARG2),
                _insn(JSET, O_ASYNC, jf=1),
                _insn(RET, deny),
            ]
        block.append(_insn(RET, RET_ALLOW))
        prog += [_insn(JEQ, table[name], jf=len(block)), *block]
    for name in (*SELF_ONLY, *SELF_OR_ZERO):
        zero_too = name in SELF_OR_ZERO
        prog += [
            _insn(JEQ, table[name], jf=5 if zero_too else 4),
            _insn(LD_W_ABS, OFFSET_ARG0),
            *([_insn(JEQ, 0, jt=1)] if zero_too else []),
            _insn(JEQ, pid, jf=1),
            _insn(RET, RET_ALLOW),
            _insn(RET, deny),
        ]
        prog.append(_insn(LD_W_ABS, OFFSET_NR))  # the next rule compares the syscall number again
    prog.append(_insn(RET, RET_ALLOW))
    return prog


def seccomp_available() -> str | None:
    """None when this kernel supports seccomp filters (PR_GET_SECCOMP answers), else the reason."""
    PR_GET_SECCOMP = 21
    if _libc.prctl(PR_GET_SECCOMP, 0, 0, 0, 0) < 0:
        return _error("seccomp")
    return None


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def install_seccomp(network: bool = True, truncate: bool = True, parent: bool = False) -> str | None:
    """Install the filter on this (single-threaded) process. None on success, else the reason."""
    table = SYSCALLS.get(platform.machine())
    if table is None:
        return f"seccomp: no syscall table for {platform.machine()}"
    code = b"".join(seccomp_program(table, os.getpid(), network, truncate, parent))
    buffer = ctypes.create_string_buffer(code, len(code))
    prog = _SockFprog(len(code) // 8, ctypes.cast(buffer, ctypes.c_void_p))
    if _libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        return _error("no_new_privs")
    if _libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0) != 0:
        return _error("seccomp")
    return None


# --- Landlock -------------------------------------------------------------------------------------------------------

LANDLOCK_CREATE_RULESET, LANDLOCK_ADD_RULE, LANDLOCK_RESTRICT_SELF = 444, 445, 446
LANDLOCK_CREATE_RULESET_VERSION = 1
LANDLOCK_RULE_PATH_BENEATH = 1
READ_FILE, READ_DIR, WRITE_FILE, TRUNCATE = 1 << 2, 1 << 3, 1 << 1, 1 << 14
WRITE_DIR = sum(1 << b for b in range(4, 13))  # remove dir/file, make char/dir/reg/sock/fifo/block/sym
REFER = 1 << 13
SCOPE_ABSTRACT_UNIX_SOCKET, SCOPE_SIGNAL = 1, 2
SYSTEM_READ = ("/usr", "/lib", "/lib64", "/lib32", "/bin", "/etc", "/dev", "/sys", "/opt")
# Without shared reads (public mode) /dev is narrowed to these devices: /dev/shm (other programs' shared memory) and
# the rest of /dev stay out of reach.
DEVICES = ("/dev/zero", "/dev/full", "/dev/random", "/dev/urandom")
NET_BIND_TCP, NET_CONNECT_TCP = 1, 2
PROC_FILES = ("/proc/cpuinfo", "/proc/meminfo", "/proc/stat", "/proc/loadavg", "/proc/sys")


def landlock_abi() -> int:
    """The kernel's Landlock ABI version, or 0 when Landlock is unavailable."""
    abi = _libc.syscall(LANDLOCK_CREATE_RULESET, None, 0, LANDLOCK_CREATE_RULESET_VERSION)
    return max(abi, 0)


def system_roots(shared: bool = True) -> list[str]:
    """System folders whose files the worker may read (shared libraries, /etc, /sys), but not list.

    Without `shared` (public mode), /dev is left out (only the devices in `DEVICES` are readable).
    """
    return [path for path in SYSTEM_READ if (shared or path != "/dev") and os.path.exists(path)]


def read_roots(repo_root: str, extra: Iterable[str] = (), shared: bool = True) -> list[str]:
    """Folders the worker may read and list: Python's install and import path, and `extra`.

    The repository root itself is not included (its `runs/` hold other sessions' data), only its code packages.
    With `shared` (off in public mode), the parent puts the Hugging Face Hub cache in `extra` (`Sandbox.start`); never
    HF_HOME itself, which holds `token`.
    """
    roots = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix, *extra}
    roots |= {os.path.join(repo_root, "playground"), os.path.join(repo_root, "rewards")}
    for entry in sys.path:
        path = os.path.abspath(entry) if entry else ""
        if path and path not in ("/", repo_root) and os.path.isdir(path):
            roots.add(path)
    return sorted(r for r in roots if os.path.exists(r))


def install_landlock(
    workdir: str,
    repo_root: str,
    extra_read: Iterable[str] = (),
    *,
    max_abi: int = 0,
    network: bool = True,
    shared: bool = True,
) -> str | int:
    """Restrict this process's file access; returns the ABI version applied, or the reason it was not.

    `max_abi` (a test setting) applies no more than that ABI version, as an older kernel would. Without `network`,
    TCP bind and connect are refused too (ABI >= 4); without `shared`, /dev/shm and the Hub cache are not readable.
    """
    abi = landlock_abi()
    if abi < 1:
        return _error("landlock")
    if max_abi > 0:
        abi = min(abi, max_abi)
    write = WRITE_FILE | WRITE_DIR | (REFER if abi >= 2 else 0) | (TRUNCATE if abi >= 3 else 0)
    handled = READ_FILE | READ_DIR | write
    attr = struct.pack("Q", handled)
    if abi >= 4:
        attr += struct.pack("Q", 0 if network else NET_BIND_TCP | NET_CONNECT_TCP)  # no rules: none allowed
    if abi >= 6:
        attr += struct.pack("Q", SCOPE_SIGNAL | SCOPE_ABSTRACT_UNIX_SOCKET)
    ruleset = _libc.syscall(LANDLOCK_CREATE_RULESET, ctypes.c_char_p(attr), len(attr), 0)
    if ruleset < 0:
        return _error("landlock_create_ruleset")
    try:
        # No rule on "/": outside these folders the worker can neither read nor list (the system's temporary folder
        # holds other visitors' uploads and downloads, under names that are the only thing guarding them).
        rules = [(path, READ_FILE | READ_DIR) for path in read_roots(repo_root, extra_read, shared)]
        rules += [(path, READ_FILE) for path in system_roots(shared)]
        rules += [] if shared else [(path, READ_FILE) for path in DEVICES]
        rules += [(f"/proc/{os.getpid()}", READ_FILE | READ_DIR)]
        rules += [(path, READ_FILE) for path in PROC_FILES if os.path.isfile(path)]
        rules += [("/dev/null", READ_FILE | WRITE_FILE | (TRUNCATE if abi >= 3 else 0))]
        rules += [(workdir, handled)]
        for path, access in rules:
            reason = _add_rule(ruleset, path, access)
            if reason:
                return reason
        if _libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            return _error("no_new_privs")
        if _libc.syscall(LANDLOCK_RESTRICT_SELF, ruleset, 0) != 0:
            return _error("landlock_restrict_self")
    finally:
        os.close(ruleset)
    return abi


def _add_rule(ruleset: int, path: str, access: int) -> str | None:
    if os.path.isdir(path):
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    elif os.path.exists(path):
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
        access &= READ_FILE | WRITE_FILE | TRUNCATE  # a file rule takes file rights only
    else:
        return None
    try:
        attr = struct.pack("=Qi", access, fd)  # struct landlock_path_beneath_attr is packed
        if _libc.syscall(LANDLOCK_ADD_RULE, ruleset, LANDLOCK_RULE_PATH_BENEATH, ctypes.c_char_p(attr), 0) != 0:
            return _error(f"landlock_add_rule({path})")
    finally:
        os.close(fd)
    return None


PR_SET_DUMPABLE, PR_SET_PDEATHSIG = 4, 1
# What `confine` applied, for `confine_child`: a child installs the same filter, for its own pid.
APPLIED: dict = {}


def confine(
    workdir: str,
    repo_root: str,
    memory_mb: int,
    cpu_seconds: int,
    file_mb: int,
    extra_read=(),
    *,
    max_abi: int = 0,
    network: bool = True,
    shared: bool = True,
    parent: bool = False,
) -> dict:
    """Apply every confinement step; returns {step: True or the reason it is missing}.

    `parent`: this worker runs no user code itself, only children that call `confine_child` first (the `code_tests`
    runner). It may fork and signal them, and it is not dumpable, so a child cannot open its descriptors (the reply
    pipe) or memory through /proc.
    """
    set_rlimits(memory_mb, cpu_seconds, file_mb)
    caps = drop_capabilities()
    landlock = install_landlock(workdir, repo_root, extra_read, max_abi=max_abi, network=network, shared=shared)
    truncate = isinstance(landlock, int) and landlock >= 3
    if parent and _libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0:
        parent_reason = _error("dumpable")
    else:
        parent_reason = None
    seccomp = install_seccomp(network, truncate=truncate, parent=parent)
    APPLIED.update(network=network, truncate=truncate, seccomp=seccomp is None)
    return {
        "rlimits": True,
        "capabilities": caps or True,
        "landlock": landlock if isinstance(landlock, str) else True,
        "landlock_abi": landlock if isinstance(landlock, int) else 0,
        "seccomp": seccomp or parent_reason or True,
        "nproc_zero": forbid_processes() if seccomp and not parent else False,
    }


def confine_child(cpu_seconds: int) -> None:
    """In a child of a parent worker, before it runs a program: the full filter (no fork, signals to itself only), a
    CPU limit of its own, and death with its parent. Raises OSError when the filter cannot be installed where the
    parent had one: the program must not run."""
    _libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))
    if APPLIED.get("seccomp"):
        reason = install_seccomp(APPLIED.get("network", True), truncate=APPLIED.get("truncate", True))
        if reason:
            raise OSError(reason)
    else:
        forbid_processes()
