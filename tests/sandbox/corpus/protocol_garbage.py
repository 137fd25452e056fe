# expect: Reward 'reward' broke the sandbox protocol (the worker sent a reply of 4294967295 bytes
# category: output
# restart: yes
import os


def reward(completions, **kwargs):
    for fd in range(3, 16):  # whichever descriptor is the reply pipe: a length header of 4 GB
        try:
            os.write(fd, b"\xff\xff\xff\xff")
        except OSError:
            pass
    return [0.0] * len(completions)
