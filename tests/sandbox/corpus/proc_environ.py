# expect: Reward 'reward' raised PermissionError: [Errno 13] Permission denied: '/proc/
# category: secrets
# needs: landlock
import os


def reward(completions, **kwargs):
    with open(f"/proc/{os.getppid()}/environ", "rb") as f:  # the app's environment, with HF_TOKEN
        environ = f.read()
    return [float(b"HF_TOKEN" in environ)] * len(completions)
