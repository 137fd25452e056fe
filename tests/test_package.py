"""`pip install .` builds a wheel with the engine, the reward library, their data files and the console script."""

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest


ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_the_wheel_holds_both_packages_their_data_and_the_command(tmp_path):
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(tmp_path), "."],
        cwd=ROOT,
        check=True,
        capture_output=True,
        timeout=300,
    )
    (wheel,) = tmp_path.glob("grpo_reward_playground-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    data = {p.relative_to(ROOT).as_posix() for p in ROOT.glob("playground/**/*") if p.suffix in (".jsonl", ".md")}
    assert data and data <= names
    assert "playground/templates/train_grpo.py.tmpl" in names
    assert "rewards/registry.py" in names and "playground/cli/main.py" in names
    assert not any(n.startswith(("tests/", "bench/")) for n in names)
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    assert "grpo-playground = playground.console:main" in zipfile.ZipFile(wheel).read(entry_points).decode()


def test_the_command_hands_app_to_the_web_app_and_the_rest_to_the_cli():
    app = subprocess.run([sys.executable, "-m", "playground", "app", "--help"], capture_output=True, text=True)
    assert app.returncode == 0 and "--mcp" in app.stdout
    cli = subprocess.run([sys.executable, "-m", "playground", "--help"], capture_output=True, text=True)
    assert cli.returncode == 0 and "grpo-playground app" in cli.stdout and "dryrun" in cli.stdout
