"""Durations written in the page's language."""

import pytest

from playground.ui.common import duration_text


@pytest.mark.parametrize(
    ("seconds", "en", "zh"),
    [
        (None, "—", "—"),
        (0.4, "0s", "0 秒"),
        (45, "45s", "45 秒"),
        (63, "1m 03s", "1 分 03 秒"),
        (353.4, "5m 53s", "5 分 53 秒"),
        (7500, "2h 05m", "2 小时 05 分"),
    ],
)
def test_durations_in_the_page_language(seconds, en, zh):
    assert duration_text(seconds, "en") == en
    assert duration_text(seconds, "zh") == zh
