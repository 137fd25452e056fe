# expect: Reward 'reward' returned 1 values for 2 completions.
# category: values
def reward(completions, **kwargs):
    return [1.0]
