"""Which face is up: crops around detected dice, classified by a small ONNX network.

The same network refines each die's box: the detector sees a small view of the
photo, the crop sees the die at full detail.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import onnxruntime as ort

from vision.calibration import Calibration, load_calibration
from vision.onnx import open_session

CROP_SIZE = 40  # the shipped reader's input; a reader's own size is read from its model
# The crop is this many times the die's box: the whole die plus a little table,
# so that the crop is normalized to the die's own size, whatever the camera.
CONTEXT = 1.4
NOT_A_DIE = 6  # class index after the six faces
FACES_MODEL = "faces.onnx"


@dataclass(frozen=True, slots=True)
class Faces:
    """What the reader saw: (N, 7) probabilities (faces 1..6, not a die), (N, 4) x1y1x2y2 boxes."""

    probs: np.ndarray
    boxes: np.ndarray


Square = tuple[int, int, int]  # x1, y1 and side of a square of pixels


def square_around(box: np.ndarray, context: float) -> Square:
    """Return the pixel square *context* times around x1y1x2y2 *box*."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    half = max(box[2] - box[0], box[3] - box[1], 2.0) * context / 2
    return round(cx - half), round(cy - half), max(2, round(2 * half))


def cut(pixels: np.ndarray, square: Square, size: int) -> np.ndarray:
    """Return a *size* x *size* BGR crop of *square*; parts outside the image repeat its edge."""
    x1, y1, side = square
    h, w = pixels.shape[:2]
    pad = max(0, -x1, -y1, x1 + side - w, y1 + side - h)
    if pad:
        pixels = cv2.copyMakeBorder(pixels, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    region = pixels[y1 + pad : y1 + pad + side, x1 + pad : x1 + pad + side]
    interpolation = cv2.INTER_AREA if side > size else cv2.INTER_LINEAR
    return cv2.resize(region, (size, size), interpolation=interpolation)


def crops_for(pixels: np.ndarray, squares: Sequence[Square],
              size: int = CROP_SIZE) -> np.ndarray:
    """Return the classifier input (N, 3, size, size) float32 for squares of the pixels."""
    if len(squares) == 0:
        return np.zeros((0, 3, size, size), np.float32)
    crops = np.stack([cut(pixels, square, size) for square in squares])
    return np.ascontiguousarray(crops.transpose(0, 3, 1, 2), dtype=np.float32)


def box_in_crop(box: np.ndarray, square: Square) -> np.ndarray:
    """Return the network's box code of x1y1x2y2 *box* in a crop *square*.

    The code is the centre's offset from the crop's centre and the log of the
    width and height, all in units of the crop's side.
    """
    x1, y1, side = square
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return np.array([(cx - x1) / side - 0.5, (cy - y1) / side - 0.5,
                     np.log(max(box[2] - box[0], 1e-3) / side),
                     np.log(max(box[3] - box[1], 1e-3) / side)], np.float32)


def box_from_crop(code: np.ndarray, square: Square) -> np.ndarray:
    """Return the x1y1x2y2 box that *code* (see box_in_crop) stands for in a crop *square*."""
    x1, y1, side = square
    cx, cy = x1 + side * (0.5 + code[0]), y1 + side * (0.5 + code[1])
    w, h = side * np.exp(code[2]), side * np.exp(code[3])
    return np.array([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], np.float32)


def posed(batch: np.ndarray, poses: int) -> np.ndarray:
    """Return the first *poses* of POSES of a crop batch (N, 3, S, S), one after another."""
    turns = [batch, batch[:, :, :, ::-1], batch[:, :, ::-1], batch.transpose(0, 1, 3, 2)]
    return np.ascontiguousarray(np.concatenate(turns[:poses]))


def unpose(codes: np.ndarray) -> np.ndarray:
    """Return the mean box code of the poses (P, N, 4), each turned back upright (see
    posed)."""
    upright = codes.copy()
    if len(codes) > 1:
        upright[1, :, 0] *= -1  # flipped left to right
    if len(codes) > 2:
        upright[2, :, 1] *= -1  # flipped top to bottom
    if len(codes) > 3:
        upright[3] = codes[3][:, [1, 0, 3, 2]]  # transposed
    mean: np.ndarray = upright.mean(axis=0)
    return mean


class FaceReader:
    """The face classifier. Holds only its session and calibration; calls pass their data.

    ``calibration`` turns a die's raw score into the probability that it is a die
    showing the value read (see vision.calibration).
    """

    def __init__(self, session: ort.InferenceSession,
                 calibration: Calibration | None = None) -> None:
        self.session = session
        self.calibration = calibration or Calibration()

    def crop_size(self) -> int:
        """Return the side of the crops the model reads (its input's fixed size)."""
        side = self.session.get_inputs()[0].shape[2]
        return side if isinstance(side, int) else CROP_SIZE

    def poses(self) -> int:
        """Return in how many poses the model reads a crop (its metadata ``poses``, else
        four): a small reader gains from reading a die four times, a big one costs more
        per pose and gains less."""
        meta = self.session.get_modelmeta().custom_metadata_map
        return max(1, min(4, int(meta.get("poses", "4"))))

    def read(self, pixels: np.ndarray, boxes: np.ndarray) -> Faces:
        """Return probabilities and refined boxes, one row per detected box.

        Each crop is read in the model's poses (as is, mirrored left to right, top to
        bottom, transposed: see posed) and the results averaged: a face's pips mean the
        same value in every pose. Two poses keep the photo's up.
        """
        squares = [square_around(b, CONTEXT) for b in boxes]
        batch = crops_for(pixels, squares, self.crop_size())
        n = len(batch)
        if n == 0:
            return Faces(np.zeros((0, NOT_A_DIE + 1), np.float32), np.zeros((0, 4), np.float32))
        poses = self.poses()
        feed = {self.session.get_inputs()[0].name: posed(batch, poses)}
        probs, codes = self.session.run(None, feed)
        mean = np.asarray(probs, np.float32).reshape(poses, n, -1).mean(axis=0)
        code = unpose(np.asarray(codes, np.float32).reshape(poses, n, 4))
        refined = np.stack([box_from_crop(c, square) for c, square in zip(code, squares,
                                                                          strict=True)])
        return Faces(mean, refined)


@functools.cache
def default_reader() -> FaceReader:
    """Return the process-wide face reader (the model is loaded on first use only).

    Raises vision.onnx.ModelError when the model file is missing.
    """
    return FaceReader(open_session(FACES_MODEL), load_calibration())
