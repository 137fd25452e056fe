"""The alert log on the Train and Runs tabs: an alert that cleared stays, marked resolved with its steps, in English
and Chinese; the alerts that hold come first."""

from playground.training.alert_log import log_alerts
from playground.training.health import alert_record, health_alerts
from playground.ui.train_tab import alerts_markdown
from tests.playground.training.test_alert_log import row


def logged(spreads: list[float]) -> tuple[list[dict], list[dict]]:
    """(rows, alert log) of GRPO rows with these spreads, the log kept as the job keeps it."""
    rows, log = [], []
    for step, spread in enumerate(spreads, start=1):
        rows.append(row(step, spread))
        current = [alert_record(a) for a in health_alerts(rows)]
        log = log_alerts(log, current, step)
    return rows, log


def test_a_cleared_alert_is_shown_resolved_in_both_languages():
    rows, log = logged([0.0, 0.0, 0.0, 0.4, 0.4])
    en, zh = alerts_markdown(log, rows, "en"), alerts_markdown(log, rows, "zh")
    assert "No alerts so far" not in en and "same reward" in en
    assert "Resolved at step 4:" in en and "(step 3)" in en and "No alert holds now" in en
    assert "第 4 步起已消除：" in zh and "（第 3 步）" in zh and "目前没有生效的提醒" in zh
    assert "No alert" not in zh and "Resolved" not in zh


def test_holding_alerts_come_first_with_their_steps():
    rows, log = logged([0.0, 0.0, 0.0, 0.0, 0.0])
    text = alerts_markdown(log, rows, "en")
    assert text.startswith("- ⚠") and "(steps 3–5)" in text and "Resolved" not in text
    assert "（第 3–5 步）" in alerts_markdown(log, rows, "zh")
    # a run stored before the log was kept: its alerts, shown as holding
    legacy = [alert_record(a) for a in health_alerts(rows)]
    assert alerts_markdown(legacy, rows, "en").startswith("- ⚠") and "(step 5)" in alerts_markdown(legacy, rows, "en")


def test_an_alert_headline_is_bold_when_rendered_in_both_languages():
    """Rendered as CommonMark (Gradio's Markdown follows its emphasis rules): the headline is bold, with no
    asterisks left in the text; `**` after a Chinese full stop followed by a character did not close."""
    from markdown_it import MarkdownIt

    for spreads, strong in (([0.0] * 5, 1), ([0.0, 0.0, 0.0, 0.4, 0.4], 2)):  # holding: its headline; resolved: +mark
        rows, log = logged(spreads)
        for lang in ("en", "zh"):
            rendered = MarkdownIt("commonmark").render(alerts_markdown(log, rows, lang))
            assert "**" not in rendered, rendered
            assert rendered.count("<strong>") == strong, rendered


def test_an_alert_replaced_by_a_broader_one_says_so_in_both_languages():
    from tests.playground.training.test_alert_log import two_reward_row

    rows, log = [], []
    for step in range(1, 5):
        rows.append(two_reward_row(step))
        log = log_alerts(log, [alert_record(a) for a in health_alerts(rows, weights={"format": 1, "length": 1})], step)
    en, zh = alerts_markdown(log, rows, "en"), alerts_markdown(log, rows, "zh")
    assert "Replaced at step 3 by a broader alert (not resolved):" in en and "Resolved" not in en
    assert "第 3 步起由更全面的提醒取代（并未消除）：" in zh and "已消除：" not in zh
    assert en.startswith("- ⚠") and en.index("Replaced") > en.index("⚠")  # the broader alert, holding, comes first
