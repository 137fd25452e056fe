# expect: Reward 'reward' raised PermissionError: [Errno 1] Operation not permitted (line 17).
# category: signals
# needs: seccomp
# landlock-abi: 5
# rt_tgsigqueueinfo to the app's main thread, signal 0 (see sigqueue_parent.py).
import ctypes
import os
import platform


NR = {"x86_64": 297, "aarch64": 240}[platform.machine()]


def reward(completions, **kwargs):
    info = (ctypes.c_int * 32)(0, 0, -1)
    if ctypes.CDLL(None, use_errno=True).syscall(NR, os.getppid(), os.getppid(), 0, info) != 0:
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))
    return [0.0] * len(completions)
