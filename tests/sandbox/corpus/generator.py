# expect: Reward 'reward' must return a list of floats, got generator (a generator: wrap it in list(...)).
# category: values
def reward(completions, **kwargs):
    return (float(len(c)) for c in completions)
