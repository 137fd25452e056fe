import sys

from playground.cli import main


sys.exit(main())
