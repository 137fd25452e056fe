# expect: Reward 'reward' raised PermissionError: [Errno 1] Operation not permitted (line 13).
# category: network
# mode: public
# needs: seccomp
# Past Python's socket module (and its audit hook), straight to libc; the kernel refuses it.
import ctypes
import os


def reward(completions, **kwargs):
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.socket(2, 2, 0) < 0:  # AF_INET, SOCK_DGRAM
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))
    return [0.0] * len(completions)
