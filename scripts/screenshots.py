"""Render the docs' screenshots of the tabs (docs/screenshots/<tab>.png and <tab>-zh.png) on a real model.

Starts the app on 127.0.0.1, then in Debian's Chromium (Playwright for Python, never `playwright install`), once per
language: ticks the `format` reward, generates a group of 8, trains 3 steps, compares, opens the run, and shows the
format lesson's reference run on the Learn tab; then, as a phone (390 x 844), the first visit's "start here" and the
Learn tab it leads to (phone-start.png, phone-learn.png and their -zh twins).

    HF_HUB_OFFLINE=1 python scripts/screenshots.py                 # the embedded model, into docs/screenshots/
    HF_HUB_OFFLINE=1 python scripts/screenshots.py --model <folder> --out /tmp/shots

The page's text needs Debian's `fonts-noto-cjk` (Chinese) and `fonts-noto-color-emoji` (the ⏱ of a lesson's duration);
without them those characters render as boxes, and the script says so before it starts.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path


ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-sync", "--no-first-run"]
VIEWPORT = {"width": 1400, "height": 900}
LOCALES = {"en": "en-US", "zh": "zh-CN"}


FONTS = ("Noto Sans CJK", "Noto Color Emoji")  # the Chinese page; the ⏱ of a lesson's duration


def installed_fonts() -> str:
    """What fontconfig lists (empty without fc-list)."""
    try:
        return subprocess.run(["fc-list"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return ""


def wait_for(predicate, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.25)
    raise TimeoutError(f"timed out after {timeout:.0f} s waiting for {what}")


def tour(page, url: str, lang: str, out: Path, run_id) -> list[Path]:
    """One visit through the tabs, a full-page screenshot of each; returns the files written."""
    from playground.ui.i18n import EN, ZH

    text = {"en": EN, "zh": ZH}[lang]
    suffix = "" if lang == "en" else "-zh"
    shots = []

    def shoot(tab: str) -> None:
        time.sleep(1.0)  # let Gradio's "updating" fades finish
        path = out / f"{tab}{suffix}.png"
        page.screenshot(path=str(path), full_page=True)
        shots.append(path)

    def open_tab(key: str) -> None:
        page.get_by_role("tab", name=text[key], exact=True).click()

    def click(key: str) -> None:
        page.get_by_role("button", name=text[key], exact=True).click()

    page.goto(url)
    page.get_by_text(text["rewards.try.title"], exact=True).wait_for(timeout=60_000)
    page.get_by_label(text["rewards.use"]).first.check()
    page.get_by_role("columnheader", name="format").first.wait_for(timeout=30_000)
    shoot("rewards")

    open_tab("preview.tab")
    click("preview.generate")
    grid = page.get_by_role("grid").last
    wait_for(lambda: grid.get_by_role("row").count() == 1 + 8, 300, "the group of 8")
    shoot("preview")

    open_tab("train.tab")
    generation = page.locator("#train-group-generation > .label-wrap")  # a collapsed group of the form
    generation.click()
    for label, value in (("max_steps", "3"), ("num_generations", "4"), ("max_completion_length", "32")):
        box = page.get_by_label(label, exact=True)
        box.fill(value)
        box.press("Tab")
    generation.click()  # closed again: the screenshot shows the form as a first visit sees it
    click("train.start")
    status = page.locator(".prose.pg-status")
    wait_for(lambda: text["train.state.finished"] in status.inner_text(), 900, "the run to finish")
    shoot("train")

    open_tab("compare.tab")
    block = page.locator(".block", has=page.get_by_text(text["compare.samples"], exact=True))
    samples = block.locator("input[type=number]")
    samples.fill("2")
    samples.press("Tab")
    click("compare.run_button")
    summary = text["compare.summary"].split("{delta}")[0].strip("*")  # the result's Markdown, not the progress bar
    page.locator(".prose", has_text=summary).first.wait_for(timeout=600_000)
    shoot("compare")

    open_tab("runs.tab")
    picker = page.get_by_label(text["runs.run"], exact=True).last
    picker.click()
    page.get_by_role("option", name=run_id()).click()
    shoot("runs")

    # Learn: the format lesson and its reference run (no compute), its eval curve drawn as the Train tab's charts.
    from playground.lessons import LESSONS, get_lesson

    lesson = get_lesson("format")
    open_tab("learn.tab")
    page.get_by_label(text["learn.pick"], exact=True).click()
    page.get_by_role("option", name=f"{LESSONS.index(lesson) + 1}. {lesson.title[lang]}", exact=True).click()
    page.get_by_role("heading", name=lesson.title[lang]).wait_for(timeout=60_000)
    curve = page.locator(".pg-reference-curve g.mark-line path")
    wait_for(lambda: curve.count() > 0, 60, "the reference curve")
    shoot("learn")
    return shots


PHONE = {"width": 390, "height": 844}


def phone_tour(page, url: str, lang: str, out: Path) -> list[Path]:
    """A first visit on a phone: the page with its "start here", then the format lesson it leads to."""
    from playground.ui.i18n import EN, ZH

    text = {"en": EN, "zh": ZH}[lang]
    suffix = "" if lang == "en" else "-zh"
    shots = []
    page.goto(url)
    start = page.get_by_role("button", name=text["app.start_here.button"], exact=True)
    start.wait_for(timeout=60_000)
    time.sleep(1.0)
    shots.append(out / f"phone-start{suffix}.png")
    page.screenshot(path=str(shots[-1]))  # the first screen, as the visitor sees it
    start.click()
    curve = page.locator(".pg-reference-curve g.mark-line path")
    wait_for(lambda: curve.count() > 0, 60, "the reference curve")
    time.sleep(1.0)
    shots.append(out / f"phone-learn{suffix}.png")
    page.screenshot(path=str(shots[-1]), full_page=True)
    return shots


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="embedded", help="the app's model (default: embedded)")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots", help="folder for the PNG files")
    parser.add_argument("--lang", action="append", choices=sorted(LOCALES), help="default: every language")
    parser.add_argument("--phone-only", action="store_true", help="only the phone's first visit (no training)")
    args = parser.parse_args()
    missing = [family for family in FONTS if family not in installed_fonts()]
    if missing:
        fix = "apt-get install fonts-noto-cjk fonts-noto-color-emoji"
        print(f"missing fonts: {', '.join(missing)}; their characters render as boxes ({fix})", file=sys.stderr)

    from playwright.sync_api import sync_playwright

    from tests.support.chromium import CHROMIUM
    from tests.ui.live_app import running_app

    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as runs, running_app(args.model, runs) as app:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            for lang in args.lang or sorted(LOCALES):
                context = browser.new_context(locale=LOCALES[lang], viewport=VIEWPORT)
                shots = []
                if not args.phone_only:
                    shots = tour(context.new_page(), app.url, lang, args.out, lambda: app.ctx.jobs.current.run.id)
                context.close()
                phone = browser.new_context(locale=LOCALES[lang], viewport=PHONE, is_mobile=True, has_touch=True)
                shots += phone_tour(phone.new_page(), app.url, lang, args.out)
                phone.close()
                print("\n".join(str(s) for s in shots))
            browser.close()
    return 0


if __name__ == "__main__":
    import playground

    playground.bootstrap()  # an entry point: the settings, the reward library's host, the code_tests runner
    raise SystemExit(main())
