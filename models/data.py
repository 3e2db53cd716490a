"""Labelled dice photos (YOLO format) loaded for training and evaluation.

The photos live outside the repository (``../shared/data/dice`` by default,
or ``$PIPKEEPER_DICE_DATA``); nothing here copies them into the project.
"""

from __future__ import annotations

import os
from pathlib import Path

from models.labels import LabelledPhoto, photos_in

REPO = Path(__file__).resolve().parent.parent


def data_root() -> Path:
    """Return the folder holding the shared dice data sets."""
    return Path(os.environ.get("PIPKEEPER_DICE_DATA", REPO.parent / "shared" / "data" / "dice"))


SOURCES: dict[str, tuple[str, ...]] = {
    "byler-train": ("byler/images/train",),
    "byler-val": ("byler/images/val", "byler/images/test"),
    "roboflow": ("roboflow-v3-train/train/images",),
}


def source_photos(name: str) -> list[LabelledPhoto]:
    """Return the photos of a named source (see SOURCES).

    Raises FileNotFoundError when the shared data folder is missing.
    """
    root = data_root()
    if not root.is_dir():
        raise FileNotFoundError(f"dice data not found at {root}; set PIPKEEPER_DICE_DATA")
    return [p for folder in SOURCES[name] for p in photos_in(root / folder)]

