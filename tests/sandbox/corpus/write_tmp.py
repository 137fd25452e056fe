# expect: PermissionError: [Errno 13] Permission denied: '/tmp/playground-sandbox-escape' (line 6).
# category: files
# needs: landlock
# absent: /tmp/playground-sandbox-escape
def reward(completions, **kwargs):
    with open("/tmp/playground-sandbox-escape", "w") as f:
        f.write("escaped")
    return [0.0] * len(completions)
