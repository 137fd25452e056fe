"""Which Chromium the browser tests and the docs' screenshots drive: Debian's, never Playwright's own download.

Its headless shell where installed (the same engine without the full browser's window and display compositor: a page
load of this app costs the browser about a third less CPU, 2.2 s instead of 3.3 s on 2 cores), else the full browser
in headless mode.
"""

from pathlib import Path


SHELL, FULL = "/usr/bin/chromium-headless-shell", "/usr/bin/chromium"
CHROMIUM = next((path for path in (SHELL, FULL) if Path(path).exists()), FULL)
