# expect: Reward 'reward' raised PermissionError: Network access is off in the public sandbox
# category: network
# mode: public
import socket


def reward(completions, **kwargs):
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.sendto(b"hello", ("127.0.0.1", 9))
    return [0.0] * len(completions)
