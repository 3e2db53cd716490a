"""Labelled dice photos (YOLO format) loaded for training and evaluation.

The photos live outside the repository (``../shared/data/dice`` by default,
or ``$PIPKEEPER_DICE_DATA``); nothing here copies them into the project.
"""

from __future__ import annotations

import os
import re
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
    "rune55": ("rune55-v3/train/images",),
}

# Rune55's three kinds of scene, told apart by the source photo's name: a Pixel phone
# over coloured dice in felt trays (PXL_...), grayscale close-ups under a ring light
# (00NNN_jpg) and grayscale small angled dice on white tables (every other name).
KINDS: dict[str, tuple[str, str]] = {
    "rune55-trays": ("rune55", "trays"),
    "rune55-closeups": ("rune55", "closeups"),
    "rune55-tables": ("rune55", "tables"),
}

# A source split by the photo its files were taken from: (source, the held-out quarter?)
SPLITS: dict[str, tuple[str, bool]] = {
    f"{name}-{part}": (name, part == "quarter")
    for name in ("roboflow", *KINDS) for part in ("rest", "quarter")
}

# What `make train` learns from: every real source but the held-out photos.
TRAINING = ("byler-train", "roboflow-rest", "rune55-trays-rest", "rune55-closeups-rest",
            "rune55-tables-rest")
# Sources whose photos are taken at an angle: a die's top face is the one nearest the
# photo's top, so the reader's crops of them keep the photo's up (`--turn`).
ANGLED = ("roboflow-rest", "rune55-tables-rest")
# Every source's held-out photos, as `make eval` reports them.
HELD_OUT = ("byler-val", "rune55-trays-quarter", "rune55-closeups-quarter",
            "rune55-tables-quarter", "roboflow-quarter")


def taken_from(path: Path) -> str:
    """Return the name of the photo a file was exported from: Roboflow exported each photo
    up to three times (cropped, brightened, noised) as NAME.rf.HASH.jpg."""
    return path.name.split(".rf.")[0]


def rune55_kind(path: Path) -> str:
    """Return which of Rune55's kinds of scene (see KINDS) a file shows."""
    name = taken_from(path)
    if name.startswith("PXL_"):
        return "trays"
    return "closeups" if re.fullmatch(r"\d{5}_jpg", name) else "tables"


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
    if name in KINDS:
        source, kind = KINDS[name]
        return [p for p in source_photos(source) if rune55_kind(p.path) == kind]
    root = data_root()
    if not root.is_dir():
        raise FileNotFoundError(f"dice data not found at {root}; set PIPKEEPER_DICE_DATA")
    return [p for folder in SOURCES[name] for p in photos_in(root / folder)]

