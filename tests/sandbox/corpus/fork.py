# expect: Reward 'reward' raised PermissionError: [Errno 1] Operation not permitted (line 8).
# category: processes
# needs: seccomp
import os


def reward(completions, **kwargs):
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    return [0.0] * len(completions)
