# expect: Reward 'reward' was killed by SIGKILL (by the system's out-of-memory killer, or by the code itself).
# category: exit
# restart: yes
import os
import signal


def reward(completions, **kwargs):
    os.kill(os.getpid(), signal.SIGKILL)
