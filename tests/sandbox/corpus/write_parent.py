# expect: PermissionError: [Errno 13] Permission denied: '../playground-sandbox-escape-parent' (line 8).
# category: files
# needs: landlock
# The parent of the worker's folder is the system's temporary folder, shared with the app and other sessions.
def reward(completions, **kwargs):
    with open("x", "w") as f:  # its own folder: allowed
        f.write("ok")
    with open("../playground-sandbox-escape-parent", "w") as f:
        f.write("escaped")
    return [0.0] * len(completions)
