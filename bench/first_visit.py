"""A first visit's page time on the embedded model: from the navigation to the "start here" button, and from its
click to the format lesson's reference run drawn on the Learn tab (its summary and its chart's lines); and what the
load costs the visitor's browser: Chromium's CPU seconds from the navigation to 3 s after the button shows (all its
processes, from /proc), and the events the page sent the server meanwhile; then, after the visitor ticks a reward card,
the browser's CPU for one Try on text.

Launches the real app on 127.0.0.1 (a fresh runs folder, the embedded model) and opens it --visits times in Debian's
Chromium, each time in a fresh browser context (a new visitor: no remembered tab). Prints one line a visit and a JSON
line with the medians; the target is a first load under 3 s of page time.

    HF_HUB_OFFLINE=1 python bench/first_visit.py
    HF_HUB_OFFLINE=1 python bench/first_visit.py --visits 5 --locale zh-CN
"""

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path


sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from bench.common import cpu_name, launched_app  # noqa: E402


CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
TARGET_S = 3.0


SETTLE_S = 3.0  # after the button shows: the page-load events' answers arrive and are drawn
SCORES, SCORE_SETTLE_S = 5, 2.0  # Try on text presses after a reward edit, each given this long to be drawn


def chromium_cpu_s() -> float:
    """CPU seconds of every Chromium process now (user and system, from /proc/<pid>/stat)."""
    tick, total = os.sysconf("SC_CLK_TCK"), 0.0
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            if b"chrom" not in Path(entry.path, "cmdline").read_bytes():
                continue
            stat = Path(entry.path, "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


def visit(browser, url: str, locale: str) -> dict:
    from playground.ui.i18n import EN, ZH

    text = ZH if locale.startswith("zh") else EN
    context = browser.new_context(locale=locale, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    events = []
    page.on("request", lambda r: events.append(r) if r.method == "POST" and "queue/join" in r.url else None)
    try:
        cpu = chromium_cpu_s()
        start = time.perf_counter()
        page.goto(url, wait_until="commit")
        button = page.get_by_role("button", name=text["app.start_here.button"], exact=True)
        button.wait_for(timeout=120_000)
        shown = time.perf_counter()
        # the browser's own figure: navigation start to the load event
        load_event = page.evaluate(
            "() => { const n = performance.getEntriesByType('navigation')[0]; return n ? n.loadEventEnd : null; }"
        )
        time.sleep(SETTLE_S)
        load_cpu, load_events = chromium_cpu_s() - cpu, len(events)
        clicked = time.perf_counter()
        button.click()
        panel = page.locator(".pg-reference")
        page.wait_for_function(
            "(title) => [...document.querySelectorAll('.pg-reference')].some(e => e.innerText.includes(title))",
            arg=text["learn.ref.title"],
            timeout=60_000,
        )
        page.locator(".pg-reference-curve svg path[aria-roledescription='line mark']").first.wait_for(timeout=60_000)
        drawn = time.perf_counter()
        assert panel.count() >= 1
        edit_cpu = after_an_edit(page, text)
        return {
            "start_here_s": round(shown - start, 2),
            "load_event_s": round(load_event / 1000, 2) if load_event else None,
            "reference_drawn_s": round(drawn - clicked, 2),
            "first_visit_s": round(shown - start + drawn - clicked, 2),
            "load_browser_cpu_s": round(load_cpu, 2),
            "load_events": load_events,
            "score_browser_cpu_s": edit_cpu,
        }
    finally:
        context.close()


def after_an_edit(page, text: dict) -> float:
    """The browser's CPU seconds for one Try on text (Score) after the visitor ticked a reward card: the median of
    `SCORES` presses, each measured over `SCORE_SETTLE_S`. Every status message of an event makes Gradio's front end
    walk its table of loading states, which holds the inputs of every event that has finished."""
    page.get_by_role("tab", name=text["rewards.tab"], exact=True).click()
    page.get_by_label(text["rewards.use"]).first.check()
    time.sleep(SCORE_SETTLE_S)  # the selection is re-read and the summary drawn
    score = page.get_by_role("button", name=text["rewards.try.run"], exact=True)
    spent = []
    for _ in range(SCORES):
        cpu = chromium_cpu_s()
        score.click()
        time.sleep(SCORE_SETTLE_S)
        spent.append(chromium_cpu_s() - cpu)
    return round(statistics.median(spent), 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--visits", type=int, default=3, help="fresh visitors to time (default: 3)")
    parser.add_argument("--locale", default="en-US", help="the browser's language (default: en-US)")
    args = parser.parse_args()
    if not Path(CHROMIUM).exists():  # the tests' headless shell is lighter than a visitor's browser: not a stand-in
        sys.exit(f"{CHROMIUM} is not installed: this bench times Debian's full Chromium (apt-get install chromium).")

    from playwright.sync_api import sync_playwright

    with launched_app("embedded") as (url, _), sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            visits = []
            for i in range(args.visits):
                result = visit(browser, url, args.locale)
                visits.append(result)
                print(f"visit {i + 1}: {result}", flush=True)
        finally:
            browser.close()
    medians = {key: statistics.median(v[key] for v in visits if v[key] is not None) for key in visits[0]}
    print(
        json.dumps(
            {
                "bench": "first_visit",
                "cpu": cpu_name(),
                "cores": os.cpu_count(),
                "load_avg_1min": round(os.getloadavg()[0], 2),
                "locale": args.locale,
                "visits": args.visits,
                "median": medians,
                "target_start_here_s": TARGET_S,
            }
        )
    )


if __name__ == "__main__":
    import playground

    playground.bootstrap()  # an entry point: the settings, the reward library's host, the code_tests runner
    main()
