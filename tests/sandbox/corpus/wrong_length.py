# expect: Reward 'reward' returned a list of length 1 for 2 completions: one score per completion is needed.
# category: values
def reward(completions, **kwargs):
    return [1.0]
