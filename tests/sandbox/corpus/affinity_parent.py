# expect: Reward 'reward' raised PermissionError: [Errno 1] Operation not permitted (line 10).
# category: signals
# needs: seccomp
# landlock-abi: 5
# Giving the app its own CPU mask back; a one-CPU mask would halve a 2-vCPU Space for everyone.
import os


def reward(completions, **kwargs):
    os.sched_setaffinity(os.getppid(), os.sched_getaffinity(os.getppid()))
    return [0.0] * len(completions)
