# expect: Reward 'reward' exceeded the 512 MB memory limit.
# category: memory
# restart: yes
def reward(completions, **kwargs):
    block = bytearray(50 * 1024**3)
    return [float(len(block))] * len(completions)
