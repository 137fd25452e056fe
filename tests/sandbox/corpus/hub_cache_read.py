# expect: Reward 'reward' raised PermissionError: [Errno 13] Permission denied:
# category: shared
# mode: public
# needs: landlock
# plant: $HF_HUB_CACHE/playground-corpus-secret
import os


def reward(completions, **kwargs):
    with open(os.path.join(os.environ["HF_HUB_CACHE"], "playground-corpus-secret")) as f:
        return [float(len(f.read()))] * len(completions)
