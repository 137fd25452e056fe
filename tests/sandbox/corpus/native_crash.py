# expect: Reward 'reward' crashed the sandbox worker (SIGSEGV
# category: exit
# restart: yes
import ctypes


def reward(completions, **kwargs):
    return [float(ctypes.string_at(0)[0])] * len(completions)  # reads address 0
