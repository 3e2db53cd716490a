"""Labelled photos: YOLO label files (``class cx cy w h``, class k = face k+1)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")


@dataclass(frozen=True, slots=True)
class LabelledPhoto:
    """A photo path with its dice: values 1..6 and boxes (x1, y1, x2, y2) relative 0..1."""

    path: Path
    values: tuple[int, ...]
    boxes: np.ndarray  # (n, 4) float32, relative to the upright image size


def label_path(image: Path) -> Path:
    """Return the YOLO label file of an image: ``labels/...`` beside ``images/...``.

    Raises FileNotFoundError when neither layout has one.
    """
    parts = list(image.parts)
    for i in range(len(parts) - 1, -1, -1):
        if parts[i] == "images":
            candidate = Path(*parts[:i], "labels", *parts[i + 1 :]).with_suffix(".txt")
            if candidate.exists():
                return candidate
    sibling = image.parent.parent / "labels" / (image.stem + ".txt")
    if sibling.exists():
        return sibling
    raise FileNotFoundError(f"no YOLO label file for {image}")


def read_labels(path: Path) -> tuple[tuple[int, ...], np.ndarray]:
    """Return (values, relative x1y1x2y2 boxes) from a YOLO label file."""
    values: list[int] = []
    boxes: list[list[float]] = []
    for line in path.read_text().splitlines():
        fields = line.split()
        if len(fields) < 5:
            continue
        k, cx, cy, w, h = int(fields[0]), *map(float, fields[1:5])
        values.append(k + 1)
        boxes.append([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2])
    return tuple(values), np.array(boxes, np.float32).reshape(-1, 4)


def photos_in(folder: Path) -> list[LabelledPhoto]:
    """Return every labelled photo in *folder*, sorted by name."""
    photos = []
    for image in sorted(folder.iterdir()):
        if image.suffix.lower() in IMAGE_SUFFIXES:
            values, boxes = read_labels(label_path(image))
            photos.append(LabelledPhoto(image, values, boxes))
    return photos
