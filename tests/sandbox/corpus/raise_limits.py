# expect: Reward 'reward' raised ValueError: not allowed to raise maximum limit (line 7).
# category: processes
import resource


def reward(completions, **kwargs):
    resource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    return [0.0] * len(completions)
