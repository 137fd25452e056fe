# expect: Reward 'reward' timed out after 1 s.
# category: time
# restart: yes
def reward(completions, **kwargs):
    while True:
        pass
