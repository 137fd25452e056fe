# expect: Reward 'reward' raised PermissionError: [Errno 1] Operation not permitted (line 8).
# category: processes
# needs: seccomp
import subprocess


def reward(completions, **kwargs):
    out = subprocess.run(["ls"], capture_output=True)
    return [float(len(out.stdout))] * len(completions)
