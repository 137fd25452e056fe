# expect: Reward 'reward' raised PermissionError: [Errno 1] Operation not permitted (line 10).
# category: processes
# needs: seccomp
# landlock-abi: 5
# Signal 0 only checks that the app process exists; the same filter stops SIGKILL.
import os


def reward(completions, **kwargs):
    os.kill(os.getppid(), 0)
    return [0.0] * len(completions)
