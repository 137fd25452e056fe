"""The live alerts on the Chinese page keep the engine's reward names and figures, in Chinese sentences."""

import re
from dataclasses import asdict

import pytest

from playground.training.health import health_alerts
from playground.ui.train_tab import _alert_text
from tests.playground.training.test_health import CASES, WEIGHTS


ALLOWED = {"GRPO", "KL", "max_completion_length", "learning_rate", "beta", "temperature", "num_generations", "token"}
ALLOWED |= {"sft_warmup_steps", "completion_prefix", "tag_layout", "soft_overlong", "SFT", "length", "accuracy"}


def alerts_of_every_kind():
    seen = {}
    for metrics, _ in CASES.values():
        for alert in health_alerts(metrics, weights=WEIGHTS):
            seen.setdefault((alert.code, alert.message[:40], alert.advice[:40]), alert)
    return list(seen.values())


@pytest.mark.parametrize("alert", alerts_of_every_kind(), ids=lambda a: a.code)
def test_every_alert_reads_in_chinese_with_its_names_and_figures(alert):
    text = _alert_text(asdict(alert), "zh")  # the page reads alerts as the job wrote them (dicts)
    visible = re.sub(r"</?strong>", "", text)  # the headline's bold tags are markup, not words
    english = {w for w in re.findall(r"[A-Za-z][A-Za-z_]*", visible) if w not in ALLOWED}
    assert not english, (english, text)
    names = re.findall(r"'([a-z_]+)'", alert.message)
    figures = re.findall(r"\d+(?:\.\d+)?%?", alert.message)
    for value in names + figures:
        assert value in text, (value, text)


def test_dominant_reward_keeps_the_name_and_the_share():
    [alert] = [a for a in alerts_of_every_kind() if a.code == "dominant_reward"][:1]
    text = _alert_text(asdict(alert), "zh")  # the page reads alerts as the job wrote them (dicts)
    share = re.search(r"\d+%", alert.message).group(0)
    assert "'length'" in text and share in text and "占加权奖励的" in text
