# expect: Reward 'reward' must return a list of floats, got dict.
# category: values
def reward(completions, **kwargs):
    return {c: 1.0 for c in completions}
