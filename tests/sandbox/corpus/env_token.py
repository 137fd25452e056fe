# expect: Reward 'reward' raised KeyError: 'HF_TOKEN' (line 7).
# category: secrets
import os


def reward(completions, **kwargs):
    token = os.environ["HF_TOKEN"]  # set in the app's environment by the test; the worker must not see it
    return [float(len(token))] * len(completions)
