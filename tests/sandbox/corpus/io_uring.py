# expect: Reward 'reward' raised PermissionError: [Errno 1] Operation not permitted (line 13).
# category: network
# needs: seccomp
# io_uring runs socket, connect and open without passing seccomp, so the ring itself is refused.
import ctypes
import os


def reward(completions, **kwargs):
    params = (ctypes.c_uint32 * 30)()
    fd = ctypes.CDLL(None, use_errno=True).syscall(425, 8, params)  # io_uring_setup, same number on arm64
    if fd < 0:
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))
    os.close(fd)
    return [0.0] * len(completions)
