"""Which Chromium the browser tests and the docs' screenshots drive: Debian's, never Playwright's own download.

Its headless shell where installed (the same engine without the full browser's window and display compositor, so a
page load costs the browser less CPU), else the full browser in headless mode.
"""

from pathlib import Path


SHELL, FULL = "/usr/bin/chromium-headless-shell", "/usr/bin/chromium"
CHROMIUM = next((path for path in (SHELL, FULL) if Path(path).exists()), FULL)
