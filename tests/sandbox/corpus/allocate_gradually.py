# expect: Reward 'reward' exceeded the 512 MB memory limit.
# category: memory
# restart: yes
# timeout: 10
def reward(completions, **kwargs):
    blocks = []
    while True:
        blocks.append(bytearray(10 * 1024**2))
