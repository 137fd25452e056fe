# expect: ok
# values: 2.0, 2.0
# category: values
def reward(completions, **kwargs):
    n = len(completions)
    completions.clear()  # the app's list must stay as it was: the worker got a copy
    completions.append("mutated")
    return [float(n)] * n
