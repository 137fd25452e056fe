# expect: Reward 'reward' raised RecursionError: maximum recursion depth exceeded (line 4).
# category: exception
def bomb(n):
    return bomb(n + 1)


def reward(completions, **kwargs):
    return bomb(0)
