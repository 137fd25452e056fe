# expect: Reward 'reward' ended the sandbox worker: it exited with code 1 (os._exit / sys.exit).
# category: exit
# restart: yes
import os


def reward(completions, **kwargs):
    os._exit(1)
