# expect: Reward 'reward' raised PermissionError: [Errno 1] Operation not permitted (line 10).
# category: signals
# needs: seccomp
# landlock-abi: 5
# Setting the app's nice value to what it is; a higher value (or PRIO_USER) would slow the app for everyone.
import os


def reward(completions, **kwargs):
    os.setpriority(os.PRIO_PROCESS, os.getppid(), os.getpriority(os.PRIO_PROCESS, os.getppid()))
    return [0.0] * len(completions)
