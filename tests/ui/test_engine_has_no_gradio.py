"""The engine (`playground/*.py`, its subpackages except `playground.ui`, and `rewards`) never imports gradio."""

import json
import pkgutil
import subprocess
import sys
from pathlib import Path


ROOT = Path(__file__).resolve().parents[2]


def engine_modules() -> list[str]:
    import playground
    import rewards

    names = ["playground", "rewards"]
    for package in (playground, rewards):
        for info in pkgutil.walk_packages(package.__path__, prefix=f"{package.__name__}."):
            if info.name.startswith("playground.ui") or info.name.endswith("__main__"):
                continue
            names.append(info.name)
    return sorted(names)


def test_engine_modules_are_found():
    names = engine_modules()
    for expected in ("playground.models", "playground.training.job", "playground.training.store", "rewards.registry"):
        assert expected in names


def test_importing_the_engine_leaves_gradio_out():
    names = engine_modules()
    code = (
        "import importlib, json, sys\n"
        f"for name in {names!r}:\n"
        "    importlib.import_module(name)\n"
        "print(json.dumps(sorted(m for m in sys.modules if m == 'gradio' or m.startswith('gradio.'))))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300, check=False
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []
