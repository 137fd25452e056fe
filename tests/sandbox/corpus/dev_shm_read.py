# expect: Reward 'reward' raised PermissionError: [Errno 13] Permission denied: '/dev/shm/playground-corpus-secret'
# category: shared
# mode: public
# needs: landlock
# plant: /dev/shm/playground-corpus-secret
def reward(completions, **kwargs):
    with open("/dev/shm/playground-corpus-secret") as f:
        return [float(len(f.read()))] * len(completions)
