# expect: Loading the custom code raised ZeroDivisionError: division by zero (line 4).
# category: exception
# phase: load
SCALE = 1 / 0


def reward(completions, **kwargs):
    return [SCALE] * len(completions)
