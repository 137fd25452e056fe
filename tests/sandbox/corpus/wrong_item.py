# expect: Reward 'reward' returned str 'high' for completion 2; expected a float or None.
# category: values
def reward(completions, **kwargs):
    return [1.0, "high"]
