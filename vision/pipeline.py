"""decode -> detect -> crop -> classify -> DiceReading."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.calibration import Calibration
from vision.detect import (
    DiceDetector,
    areas,
    default_detector,
    intersection,
    sides,
    suppress,
)
from vision.faces import NOT_A_DIE, FaceReader, Faces, default_reader
from vision.image import DecodedImage, ImageSource, load
from vision.reading import DOUBTFUL_BELOW, DiceReading, Die, judge

# A find is returned (perhaps as doubtful) when the classifier gives it at least this
# chance of being a die; below it, it is dropped as table.
MIN_IS_DIE = 0.2
# A find that lies mostly (INSIDE of its area) within a sure die (P(die) at least SURE)
# is a pip or a mark on that die when it is more likely not a die (P(die) below
# UNSURE) or, whatever its P(die), when that die is PIP_RATIO times its size or more
# and read surely too (its face's probability at least SURE): the pips of a die close
# to the camera are as big as dice further off, and one or two can look like a one or
# a two. (A big find around a group of dice may look like a die to the reader; it is
# not read surely, or it holds more dice than its face has pips, and the dice inside it
# stay while it goes: see around_sure_dice and crowded.)
UNSURE, SURE, INSIDE, PIP_RATIO = 0.5, 0.9, 0.6, 2.5
# A find holding at least this many sure dice more than the pips of the face it is read
# as is a group of dice (a felt tray of six dice can look like a six), however surely it
# is read: one pip may be found twice or a mark taken for one, not two.
CROWDED_BY = 2


def mostly_within(boxes: np.ndarray) -> np.ndarray:
    """Return (N, N) whether box i lies mostly (INSIDE of its area) within box j, i != j."""
    within = intersection(boxes, boxes) / np.maximum(areas(boxes)[:, None], 1e-6) >= INSIDE
    np.fill_diagonal(within, False)
    return np.asarray(within)


def sure_dice_within(boxes: np.ndarray, is_die: np.ndarray) -> np.ndarray:
    """Return how many sure dice (P(die) at least SURE) lie mostly within each box."""
    return np.asarray((mostly_within(boxes).T & (is_die >= SURE)[None, :]).sum(axis=1))


def on_sure_dice(boxes: np.ndarray, is_die: np.ndarray,
                 face: np.ndarray | None = None) -> np.ndarray:
    """Return which boxes are pips or marks on a sure die (see INSIDE and PIP_RATIO).

    *face* is each find's probability of the face read (default: its P(die)).
    """
    within = mostly_within(boxes)
    on_sure = within & (is_die >= SURE)[None, :]
    read_surely = (is_die if face is None else face) >= SURE
    side = sides(boxes)
    far_bigger = (side[None, :] >= PIP_RATIO * side[:, None]) & read_surely[None, :]
    return np.asarray(((is_die < UNSURE) & on_sure.any(axis=1))
                      | (on_sure & far_bigger).any(axis=1))


def around_sure_dice(boxes: np.ndarray, is_die: np.ndarray, face: np.ndarray) -> np.ndarray:
    """Return which boxes hold a group of dice: two or more sure dice (P(die) at least
    SURE) lie mostly (INSIDE) within each, and its own face is not read surely (below
    UNSURE). A die holds no dice; the pips of a sure die are dropped before (see
    on_sure_dice)."""
    return np.asarray((sure_dice_within(boxes, is_die) >= 2) & (face < UNSURE))


def crowded(boxes: np.ndarray, is_die: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Return which boxes hold CROWDED_BY or more sure dice (P(die) at least SURE, mostly
    within it) than the face it is read as (*values*, 1..6) has pips: not a die but a
    group of dice, such as a dice tray, whatever its own reading."""
    return np.asarray(sure_dice_within(boxes, is_die) >= values + CROWDED_BY)


def visible_share(boxes: np.ndarray, width: int, height: int) -> np.ndarray:
    """Return the share of each box's area inside a width x height image (0..1)."""
    clipped = boxes.copy()
    clipped[:, [0, 2]] = clipped[:, [0, 2]].clip(0, width)
    clipped[:, [1, 3]] = clipped[:, [1, 3]].clip(0, height)
    return np.asarray(areas(clipped) / np.maximum(areas(boxes), 1e-6))


@dataclass(frozen=True, slots=True)
class Candidates:
    """Dice the reader kept, before calibration: boxes (N, 4) in original pixels, values
    1..6, raw scores (face probability times the squared share inside the photo) and
    the probability of being a die at all."""

    boxes: np.ndarray
    values: np.ndarray
    scores: np.ndarray
    is_die: np.ndarray


def candidates(image: DecodedImage, faces: Faces) -> Candidates:
    """Return the reader's dice with their raw scores.

    Boxes the classifier calls "not a die" with little doubt are dropped, of two
    refined boxes on one die the likelier die stays, boxes holding more sure dice than
    their face has pips (crowded), the pips of a sure die (see on_sure_dice) and boxes
    around groups of sure dice (around_sure_dice) are dropped.
    """
    h, w = image.pixels.shape[:2]
    is_die = 1 - faces.probs[:, NOT_A_DIE]
    kept = np.flatnonzero(is_die >= MIN_IS_DIE)
    kept = kept[suppress(faces.boxes[kept], is_die[kept], 0.0)]
    chosen = faces.probs[:, :NOT_A_DIE].argmax(axis=1)
    face = faces.probs[np.arange(len(chosen)), chosen]  # the probability of the face read
    kept = kept[~crowded(faces.boxes[kept], is_die[kept], chosen[kept] + 1)]
    kept = kept[~on_sure_dice(faces.boxes[kept], is_die[kept], face[kept])]
    kept = kept[~around_sure_dice(faces.boxes[kept], is_die[kept], face[kept])]
    share = visible_share(faces.boxes[kept], w, h)
    boxes = (np.clip(faces.boxes[kept], 0, [w, h, w, h]) * image.scale).round()
    boxes = np.minimum(boxes, [image.width, image.height] * 2).astype(int).reshape(-1, 4)
    return Candidates(boxes, chosen[kept] + 1, face[kept] * share**2, is_die[kept])


def combine(image: DecodedImage, faces: Faces, *, calibration: Calibration | None = None,
            expect: int | None = None, threshold: float = DOUBTFUL_BELOW) -> DiceReading:
    """Return the reading from the reader's boxes (in the decoded pixels) and probabilities.

    The candidates' raw scores become probabilities by *calibration* (identity by
    default); which dice are doubtful follows vision.reading.judge (*expect*, *threshold*).
    """
    found = candidates(image, faces)
    confidence = (calibration or Calibration())(found.scores, found.is_die)
    dice = [Die(int(v), (int(b[0]), int(b[1]), int(b[2]), int(b[3])), float(p))
            for b, v, p in zip(found.boxes, found.values, confidence, strict=True)]
    dice.sort(key=lambda d: (d.box[0], d.box[1]))
    return DiceReading(image.width, image.height, judge(dice, expect, threshold))


def read_image(image: DecodedImage, detector: DiceDetector, reader: FaceReader, *,
               expect: int | None = None) -> DiceReading:
    """Return the dice in a decoded image using the given models (see read_dice)."""
    found = detector.detect(image.pixels)
    return combine(image, reader.read(image.pixels, found.boxes),
                   calibration=reader.calibration, expect=expect)


def read_dice(source: ImageSource, detector: DiceDetector | None = None,
              reader: FaceReader | None = None, *, expect: int | None = None) -> DiceReading:
    """Return the dice in a photo given as a path, bytes or BGR/gray array.

    Every find is returned; those with a confidence below vision.reading.DOUBTFUL_BELOW
    are marked doubtful. With ``expect=N`` (how many dice were thrown) the N most
    likely finds are counted and the rest marked doubtful instead.

    Raises vision.image.ImageError for input that is not a readable image,
    vision.onnx.ModelError when a model file is missing and ValueError for a
    negative *expect* (vision.reading.judge).
    """
    return read_image(load(source), detector or default_detector(), reader or default_reader(),
                      expect=expect)
