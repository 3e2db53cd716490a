"""Labelled dice photos (YOLO format) loaded for training and evaluation.

The photos live outside the repository (``../shared/data/dice`` by default,
or ``$PIPKEEPER_DICE_DATA``); nothing here copies them into the project.
"""

from __future__ import annotations

import os
import zlib
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


# A source split by the photo its files were taken from: (source, the held-out quarter?)
SPLITS: dict[str, tuple[str, bool]] = {
    "roboflow-rest": ("roboflow", False),
    "roboflow-quarter": ("roboflow", True),
}


def taken_from(path: Path) -> str:
    """Return the name of the photo a file was exported from: Roboflow exported each photo
    up to three times (cropped, brightened, noised) as NAME.rf.HASH.jpg."""
    return path.name.split(".rf.")[0]


def in_held_out_quarter(path: Path) -> bool:
    """Return whether a file's photo is in the quarter held out (fixed by its name), so
    that no export of a held-out photo is trained on."""
    return zlib.crc32(taken_from(path).encode()) % 4 == 0


def source_photos(name: str) -> list[LabelledPhoto]:
    """Return the photos of a named source (see SOURCES and SPLITS).

    Raises FileNotFoundError when the shared data folder is missing.
    """
    if name in SPLITS:
        source, held_out = SPLITS[name]
        return [p for p in source_photos(source) if in_held_out_quarter(p.path) == held_out]
    root = data_root()
    if not root.is_dir():
        raise FileNotFoundError(f"dice data not found at {root}; set PIPKEEPER_DICE_DATA")
    return [p for folder in SOURCES[name] for p in photos_in(root / folder)]

