# expect: Reward 'reward' must return a list of floats, got str.
# category: values
def reward(completions, **kwargs):
    return "0.5"
