# expect: ok
# output: [output truncated: 100000000 more characters]
# values: 1.0, 1.0
# category: output
# timeout: 15
def reward(completions, **kwargs):
    print("x" * (64 * 1024 + 100_000_000), end="")
    return [1.0] * len(completions)
