# expect: Reward 'reward' raised ValueError: cannot score 'alpha' (line 6).
# category: exception
def reward(completions, **kwargs):
    values = []
    for c in completions:
        raise ValueError(f"cannot score {c!r}")
    return values
