"""Fixtures for the vision tests: the shared labelled photos."""

from __future__ import annotations

from pathlib import Path

import pytest
from vision_samples import SHARED


@pytest.fixture
def shared_data() -> Path:
    """The shared labelled dice photos; the test is skipped where they are absent."""
    if not (SHARED / "byler" / "images" / "val").is_dir():
        pytest.skip(f"shared dice photos not found at {SHARED}")
    return SHARED
