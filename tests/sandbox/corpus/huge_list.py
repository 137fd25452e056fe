# expect: Reward 'reward' returned 10000000 values for 2 completions.
# category: values
def reward(completions, **kwargs):
    return [0.0] * 10_000_000
