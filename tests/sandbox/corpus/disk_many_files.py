# expect: Reward 'reward' wrote more than the sandbox's disk quota (32 MB and 100 files in its folder
# category: disk
# disk: 32,100
# restart: yes
import os


def reward(completions, **kwargs):
    os.makedirs("many", exist_ok=True)
    for i in range(3000):
        open(f"many/{i}", "w").close()
    return [0.0] * len(completions)
