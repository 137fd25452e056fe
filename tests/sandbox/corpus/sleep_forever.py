# expect: Reward 'reward' timed out after 1 s.
# category: time
# restart: yes
import time


def reward(completions, **kwargs):
    time.sleep(1e9)
