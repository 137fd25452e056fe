# expect: Reward 'reward' raised PermissionError: Network access is off in the public sandbox
# category: network
# mode: public
# A reward that reaches 127.0.0.1 can call the app's own API as another visitor (the port is in /proc/net/tcp).
import socket


def reward(completions, **kwargs):
    socket.create_connection(("127.0.0.1", 7860), timeout=0.5).close()
    return [0.0] * len(completions)
