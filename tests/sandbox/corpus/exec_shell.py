# expect: Reward 'reward' raised PermissionError: [Errno 1] Operation not permitted (line 8).
# category: processes
# needs: seccomp
import os


def reward(completions, **kwargs):
    os.execv("/bin/sh", ["sh", "-c", "true"])
