# expect: Reward 'reward' broke the sandbox protocol (the worker sent a malformed reply).
# category: output
# restart: yes
import os
import struct


def reward(completions, **kwargs):
    body = b"[" * 100_000 + b"]" * 100_000  # valid JSON, nested deeper than the app's parser recurses
    for fd in range(3, 16):
        try:
            os.write(fd, struct.pack(">I", len(body)) + body)
        except OSError:
            pass
    return [0.0] * len(completions)
