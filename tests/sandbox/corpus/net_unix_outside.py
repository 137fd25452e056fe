# expect: Reward 'reward' raised PermissionError: Network access is off in the public sandbox
# category: network
# mode: public
import socket


def reward(completions, **kwargs):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect("/tmp/.X11-unix/X0")
    return [0.0] * len(completions)
