"""Where this process runs, and what that allows: a ZeroGPU Space's lent GPU (`zerogpu`), and the app's temporary
folders, swept when their process is gone (`tempdirs`).

Leaf modules: nothing here imports the rest of the playground but its settings (`playground.settings`).
"""
