"""The clipped alert fires for the ratios a real first run showed (0.75-0.88 of completions cut off), not only above
0.9."""

from playground.training.health import health_alerts


def rows(ratios: list[float]) -> list[dict]:
    return [{"step": i + 1, "reward": 0.5, "completions/clipped_ratio": r} for i, r in enumerate(ratios)]


def test_clipped_fires_at_three_quarters_cut_off():
    alerts = {a.code: a for a in health_alerts(rows([0.75, 0.88, 0.8]))}
    assert "clipped" in alerts and alerts["clipped"].step == 3
    assert "at least 75%" in alerts["clipped"].message


def test_clipped_stays_quiet_when_most_completions_finish():
    assert "clipped" not in {a.code for a in health_alerts(rows([0.75, 0.4, 0.8]))}
    assert "clipped" not in {a.code for a in health_alerts(rows([0.3, 0.2, 0.25]))}
