"""decode -> detect -> crop -> classify -> DiceReading."""

from __future__ import annotations

import numpy as np

from vision.detect import DiceDetector, default_detector, suppress
from vision.faces import NOT_A_DIE, FaceReader, Faces, default_reader
from vision.image import DecodedImage, ImageSource, load
from vision.reading import DiceReading, Die

# A die is kept when the classifier thinks it is more likely a die than not.
MAX_NOT_A_DIE = 0.5


def visible_share(boxes: np.ndarray, width: int, height: int) -> np.ndarray:
    """Return the share of each box's area inside a width x height image (0..1)."""
    clipped = boxes.copy()
    clipped[:, [0, 2]] = clipped[:, [0, 2]].clip(0, width)
    clipped[:, [1, 3]] = clipped[:, [1, 3]].clip(0, height)
    area = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    inside = (clipped[:, 2] - clipped[:, 0]) * (clipped[:, 3] - clipped[:, 1])
    return np.asarray(inside / np.maximum(area, 1e-6))


def combine(image: DecodedImage, faces: Faces) -> DiceReading:
    """Return the reading from the reader's boxes (in the decoded pixels) and probabilities.

    Boxes the classifier calls "not a die" are dropped, and of two refined boxes on
    one die the likelier die stays; the confidence of the rest is the probability of
    the chosen face times the share of the die inside the photo.
    """
    h, w = image.pixels.shape[:2]
    is_die = 1 - faces.probs[:, NOT_A_DIE]
    kept = np.flatnonzero(is_die > 1 - MAX_NOT_A_DIE)
    kept = kept[suppress(faces.boxes[kept], is_die[kept], 0.0)]
    share = visible_share(faces.boxes, w, h)
    dice = []
    for box, row, seen in zip(faces.boxes[kept], faces.probs[kept], share[kept], strict=True):
        face = int(np.argmax(row[:NOT_A_DIE]))
        x1, y1, x2, y2 = (np.clip(box, 0, [w, h, w, h]) * image.scale).round().astype(int)
        edge = (x1, y1, min(int(x2), image.width), min(int(y2), image.height))
        dice.append(Die(face + 1, (int(edge[0]), int(edge[1]), edge[2], edge[3]),
                        float(row[face]) * float(seen) ** 2))
    dice.sort(key=lambda d: (d.box[0], d.box[1]))
    return DiceReading(image.width, image.height, tuple(dice))


def read_image(image: DecodedImage, detector: DiceDetector, reader: FaceReader) -> DiceReading:
    """Return the dice in a decoded image using the given models."""
    found = detector.detect(image.pixels)
    return combine(image, reader.read(image.pixels, found.boxes))


def read_dice(source: ImageSource, detector: DiceDetector | None = None,
              reader: FaceReader | None = None) -> DiceReading:
    """Return the dice in a photo given as a path, bytes or BGR/gray array.

    Raises vision.image.ImageError for input that is not a readable image and
    vision.onnx.ModelError when a model file is missing.
    """
    return read_image(load(source), detector or default_detector(), reader or default_reader())
