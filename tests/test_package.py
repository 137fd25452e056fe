"""`pip install .` builds a wheel with the engine, the reward library, their data files and the console script."""

import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest


ROOT = Path(__file__).resolve().parents[1]
SETUPTOOLS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
PACKAGE_DATA = SETUPTOOLS["package-data"]
PACKAGES = [name for name in SETUPTOOLS["packages"]["find"]["include"] if "." not in name]  # playground, rewards


def data_files() -> set[str]:
    """Every file of the packages that is not Python source, as a path from the repository root."""
    found = set()
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*"):
            if path.is_file() and path.suffix not in (".py", ".pyc") and "__pycache__" not in path.parts:
                found.add(path.relative_to(ROOT).as_posix())
    return found


def test_package_data_names_exactly_the_data_files_of_the_tree():
    matched = {}
    for package, patterns in PACKAGE_DATA.items():
        for pattern in patterns:
            matched[f"{package}/{pattern}"] = {p.relative_to(ROOT).as_posix() for p in (ROOT / package).glob(pattern)}
    assert {pattern for pattern, files in matched.items() if not files} == set(), "patterns that match no file"
    assert data_files() - set().union(*matched.values()) == set(), "data files that no pattern ships"
    assert PACKAGES == ["playground", "rewards"] and len(data_files()) >= 16


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
    assert data_files() <= names
    assert "playground/templates/train_grpo.py.tmpl" in names
    assert "rewards/registry.py" in names and "playground/cli/main.py" in names
    assert not any(n.startswith(("tests/", "bench/")) for n in names)
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    assert "grpo-playground = playground.console:main" in zipfile.ZipFile(wheel).read(entry_points).decode()


def test_the_command_hands_app_to_the_web_app_and_the_rest_to_the_cli(capsys):
    """Through `playground.console.run`, what the console script and `python -m playground` call (as processes in
    tests/test_doc_commands.py and tests/playground/cli/)."""
    from playground.console import run

    def command(*args: str) -> tuple[int, str]:
        try:
            code = run(args)
        except SystemExit as exc:  # argparse's --help
            code = exc.code
        return code, capsys.readouterr().out

    code, out = command("app", "--help")
    assert code == 0 and "--mcp" in out
    code, out = command("--help")
    assert code == 0 and "grpo-playground app" in out and "dryrun" in out
