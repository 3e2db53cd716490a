"""A compact bank of the training photos' dice, to train a reader without the photos.

Each labelled die is kept as a small JPEG patch cut with the margin the trainer's crops
take (models.augment.die_crop cuts CONTEXT * ROOM times the box), with its box in the
patch and its value, so crops cut from the patch are the crops the trainer would cut
from the photo. The training photos' 14,121 dice take 26 MB.
"""

from __future__ import annotations

import pickle
from pathlib import Path

import cv2
import numpy as np

from models.augment import ROOM
from models.samples import Photo, load_photos
from vision.faces import CONTEXT, cut, square_around

PATCH = 64  # side of a banked die's patch (enough for the shipped reader's 40 px crops)
QUALITY = 92  # JPEG quality of the banked patches

Banked = tuple[bytes, np.ndarray, int]  # patch JPEG, x1y1x2y2 box in the patch, value


def patch_of(image: np.ndarray, box: np.ndarray,
             side: int = PATCH) -> tuple[bytes, np.ndarray]:
    """Return the JPEG of *box*'s patch (*side* px) and the box in the patch's pixels."""
    square = square_around(box, CONTEXT * ROOM)
    patch = cut(image, square, side)
    scale = side / square[2]
    inside = (box - np.array([square[0], square[1]] * 2, np.float32)) * scale
    ok, jpeg = cv2.imencode(".jpg", patch, [cv2.IMWRITE_JPEG_QUALITY, QUALITY])
    if not ok:
        raise RuntimeError("could not encode a patch")
    return jpeg.tobytes(), inside.astype(np.float32)


def bank_source(photos: list[Photo], side: int = PATCH) -> list[Banked]:
    """Return every labelled die of *photos* as (patch JPEG, box in patch, value)."""
    return [(*patch_of(p.image, box, side), int(value))
            for p in photos for box, value in zip(p.boxes, p.values, strict=True)]


def build_bank(sources: list[str], path: Path, side: int = PATCH) -> dict[str, int]:
    """Write the bank of every training source's dice to *path*, patches of *side* px (a
    reader of larger crops needs larger patches); return dice per source."""
    bank = {source: bank_source(load_photos(source), side) for source in sources}
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as out:
        pickle.dump(bank, out)
    return {source: len(dice) for source, dice in bank.items()}


def unbank(dice: list[Banked]) -> list[Photo]:
    """Return banked dice as one-die photos the trainer's crops are cut from."""
    photos = []
    for jpeg, box, value in dice:
        image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
        if image is None:
            raise ValueError("a banked patch is not a JPEG")
        photos.append(Photo(image, box[None], np.array([value], np.int64)))
    return photos


def load_bank(path: Path, without: tuple[str, ...] = ()) -> dict[str, list[Banked]]:
    """Return the bank written by build_bank: each source's banked dice, but those of the
    sources whose name starts with one of *without* ("rune55" leaves out its three kinds)."""
    with path.open("rb") as stored:
        bank: dict[str, list[Banked]] = pickle.load(stored)
    return {source: dice for source, dice in bank.items() if not source.startswith(without)}
