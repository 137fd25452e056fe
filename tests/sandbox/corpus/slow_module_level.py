# expect: Loading the custom code timed out after 2 s.
# category: time
# phase: load
import time


time.sleep(100)  # a slow import or statement at module level


def reward(completions, **kwargs):
    return [0.0] * len(completions)
