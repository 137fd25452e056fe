import atexit
import os
import sys

from playground.cli.main import main


code = main()
# After training in a background thread, C++ static destructors at interpreter exit can abort the process
# ("terminate called without an active exception") although all work is done and saved. Run Python's exit
# handlers, flush, and leave without them, so the exit code is the command's.
atexit._run_exitfuncs()
sys.stdout.flush()
sys.stderr.flush()
os._exit(code)
