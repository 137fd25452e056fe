"""The Reward lab in a real headless Chromium: a small dry run shows TRL's step-0 metrics and its verdict, and the
probe then lists, for the session's length reward, filler as long as the best real completion."""

from tests.ui.test_browser import open_tab, wait_for


def test_lab_dry_run_and_probe(app, browser):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.goto(app.url)
    open_tab(page, "Reward lab")
    page.get_by_label("Prompts (N)").first.fill("2")
    page.get_by_label("max_new_tokens").first.fill("8")
    page.get_by_role("button", name="Dry run", exact=True).click()
    wait_for(lambda: page.get_by_text("frac_reward_zero_std").count() > 0, 180, "the dry run's metrics")
    assert page.get_by_text("rewards/length(ideal_length=50)/mean").count() > 0
    assert page.get_by_text("signal: ").count() > 0  # the verdict ("Good signal: ...", "No signal: ...")
    page.get_by_role("button", name="Probe the selected rewards").click()
    wait_for(lambda: page.get_by_text("filler as long as the best completion").count() > 0, 60, "the probe's finding")
    assert page.locator(".toast-body.error").count() == 0
    context.close()
