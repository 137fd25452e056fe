# expect: Reward 'reward' raised PermissionError: [Errno 1] Operation not permitted (line 18).
# category: signals
# needs: seccomp
# landlock-abi: 5
# rt_sigqueueinfo with signal 0 only checks that it may signal the app; on kernels before 6.12 (Landlock ABI <= 5) the
# same call with SIGKILL killed the app. seccomp must refuse it whatever Landlock does.
import ctypes
import os
import platform


NR = {"x86_64": 129, "aarch64": 138}[platform.machine()]


def reward(completions, **kwargs):
    info = (ctypes.c_int * 32)(0, 0, -1)  # siginfo: si_signo, si_errno, si_code = SI_QUEUE
    if ctypes.CDLL(None, use_errno=True).syscall(NR, os.getppid(), 0, info) != 0:
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))
    return [0.0] * len(completions)
