"""The packages' layering: rules import neither vision nor web; the app never loads the
measuring tools or the training code."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def modules_after(code: str) -> list[str]:
    """Return the names of the project's modules a fresh interpreter imported running *code*."""
    probe = (f"{code}\nimport json, sys\n"
             "print(json.dumps(sorted(m for m in sys.modules "
             "if m.split('.')[0] in {'scorekeeper', 'vision', 'web', 'models', 'pipkeeper'})))")
    result = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True,
                            text=True, timeout=60, check=True)
    found: list[str] = json.loads(result.stdout.strip().splitlines()[-1])
    return found


@pytest.mark.parametrize(
    ("code", "forbidden"),
    [
        ("import scorekeeper, scorekeeper.audit, scorekeeper.advisor", ("vision", "web", "models")),
        ("import vision; from vision import read_dice", ("web", "models")),
        ("import web.api, web.pages, web.asgi, web.events", ("models", "vision")),
    ],
)
def test_imports_follow_the_layers(code: str, forbidden: tuple[str, ...]) -> None:
    loaded = modules_after(code)
    assert loaded, "the probe saw no module of the project"
    assert [m for m in loaded if m.split(".")[0] in forbidden] == []


def test_measuring_tools_run_without_pytorch() -> None:
    """`make eval` and `make bench` need only the test install: PyTorch is for training."""
    probe = ("import sys\nimport models.evaluate, models.loso, models.bench, models.calibrate\n"
             "print('torch' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True,
                            text=True, timeout=60, check=True)
    assert result.stdout.strip() == "False"


def test_test_modules_have_names_of_their_own() -> None:
    """pytest imports test modules by file name: two of one name stop the whole run."""
    names = [path.name for path in (ROOT / "tests").rglob("test_*.py")]
    assert len(names) > 50
    assert sorted({n for n in names if names.count(n) > 1}) == []
