# expect: Reward 'reward' raised PermissionError: [Errno 1] Operation not permitted (line 11).
# category: signals
# needs: seccomp
# landlock-abi: 5
# Reading the app's limits; with the same call a reward could set the app's RLIMIT_AS or RLIMIT_NOFILE to nothing.
import os
import resource


def reward(completions, **kwargs):
    resource.prlimit(os.getppid(), resource.RLIMIT_CORE)
    return [0.0] * len(completions)
