"""Which face is up: crops around detected dice, classified by a small ONNX network."""

from __future__ import annotations

import functools

import cv2
import numpy as np
import onnxruntime as ort

from vision.onnx import open_session

CROP_SIZE = 40
# The crop is this many times the die's box: the whole die plus a little table,
# so that the crop is normalized to the die's own size, whatever the camera.
CONTEXT = 1.4
NOT_A_DIE = 6  # class index after the six faces
FACES_MODEL = "faces.onnx"


def crop_square(pixels: np.ndarray, box: np.ndarray, context: float, size: int) -> np.ndarray:
    """Return a *size* x *size* BGR crop of the square *context* times around *box*.

    *box* is x1, y1, x2, y2 in the pixels' coordinates; parts outside the image
    repeat its edge.
    """
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    half = max(box[2] - box[0], box[3] - box[1], 2.0) * context / 2
    x1, y1 = round(cx - half), round(cy - half)
    side = max(2, round(2 * half))
    h, w = pixels.shape[:2]
    pad = max(0, -x1, -y1, x1 + side - w, y1 + side - h)
    if pad:
        pixels = cv2.copyMakeBorder(pixels, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    region = pixels[y1 + pad : y1 + pad + side, x1 + pad : x1 + pad + side]
    interpolation = cv2.INTER_AREA if side > size else cv2.INTER_LINEAR
    return cv2.resize(region, (size, size), interpolation=interpolation)


def crops_for(pixels: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """Return the classifier input (N, 3, S, S) float32 for boxes in the pixels' coordinates."""
    if len(boxes) == 0:
        return np.zeros((0, 3, CROP_SIZE, CROP_SIZE), np.float32)
    crops = np.stack([crop_square(pixels, b, CONTEXT, CROP_SIZE) for b in boxes])
    return np.ascontiguousarray(crops.transpose(0, 3, 1, 2), dtype=np.float32)


class FaceReader:
    """The face classifier. Holds only its session; every call passes its own data."""

    def __init__(self, session: ort.InferenceSession) -> None:
        self.session = session

    def probabilities(self, pixels: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """Return (N, 7) probabilities: faces 1..6, then "not a die", one row per box.

        Each crop is read four times (as is, mirrored both ways, transposed) and the
        probabilities averaged: a face's pips mean the same value in every pose.
        """
        batch = crops_for(pixels, boxes)
        n = len(batch)
        if n == 0:
            return np.zeros((0, NOT_A_DIE + 1), np.float32)
        poses = np.concatenate([batch, batch[:, :, ::-1], batch[:, :, :, ::-1],
                                batch.transpose(0, 1, 3, 2)])
        feed = {self.session.get_inputs()[0].name: np.ascontiguousarray(poses)}
        (probs,) = self.session.run(None, feed)
        mean: np.ndarray = np.asarray(probs, np.float32).reshape(4, n, -1).mean(axis=0)
        return mean


@functools.cache
def default_reader() -> FaceReader:
    """Return the process-wide face reader (the model is loaded on first use only).

    Raises vision.onnx.ModelError when the model file is missing.
    """
    return FaceReader(open_session(FACES_MODEL))
