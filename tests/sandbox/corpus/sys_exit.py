# expect: Reward 'reward' called sys.exit(None); a reward must return its values.
# category: exit
import sys


def reward(completions, **kwargs):
    sys.exit()
