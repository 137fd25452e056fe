# expect: Reward 'reward' timed out after 1 s.
# category: time
# restart: yes
# With the recursion limit lifted, Python 3.11 recurses without using the C stack: it runs until the timeout.
import sys


sys.setrecursionlimit(10**9)


def deeper(n):
    return deeper(n + 1)


def reward(completions, **kwargs):
    return deeper(0)
