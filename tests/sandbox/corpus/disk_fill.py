# expect: Reward 'reward' wrote more than the sandbox's disk quota (32 MB and 100 files in its folder
# category: disk
# disk: 32,100
# restart: yes
# One call wrote 25 files of 64 MB (1.6 GB) in 4 s before the quota existed; here 25 files of 4 MB against 32 MB.
def reward(completions, **kwargs):
    block = b"x" * (4 << 20)
    for i in range(25):
        with open(f"fill-{i}.bin", "wb") as f:
            f.write(block)
    return [0.0] * len(completions)
