# expect: Reward 'reward' returned a list of length 10000000 for 2 completions: one score per completion is needed.
# category: values
# timeout: 30
def reward(completions, **kwargs):
    return [0.0] * 10_000_000
