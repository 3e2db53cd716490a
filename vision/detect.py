"""Where are the dice: a centre-heatmap detector run on a downscaled view of the photo."""

from __future__ import annotations

import functools
from dataclasses import dataclass

import cv2
import numpy as np
import onnxruntime as ort

from vision.onnx import open_session

DETECT_SIDE = 512  # longest side of the view the detector sees
# A second, smaller view catches dice close to the camera, which in the 512 view are
# bigger than most training dice (the detector then finds their pips instead).
COARSE_SIDE = 320
# A finer view, run only when the first finds no dice or small ones: dice of 12 px in a
# 640 px photo are 10 px in the 512 view, at the edge of what the detector learned, and
# 14 px in this one (1024 finds a few more but costs twice as much). Only its small
# finds are kept (bigger dice are found already, and in this view the pips of big dice
# can look like dice).
FINE_SIDE = 768
SMALL = 20  # pixels in the DETECT_SIDE view: a die below this asks for the finer view
FINE_TRIGGER = 0.6  # detector score of the finds whose size decides
# A close view for a die that fills much of the photo (a close-up of one die): in the
# 320 view it is far bigger than any training die, and the detector finds its pips.
# Only finds of at least CLOSE_SHARE of the photo's longest side are kept from it. At
# 96 px a die filling 70-90 % of the photo is 67-86 px, well inside what the detector
# learned (at 128 px it was found in 33 of 40 rendered close-ups, at 96 px in 39).
CLOSE_SIDE = 96
CLOSE_SHARE = 0.3
STRIDE = 4
MULTIPLE = 16
SCORE_THRESHOLD = 0.25
NMS_IOU = 0.3
DETECTOR_MODEL = "detector.onnx"


@dataclass(frozen=True, slots=True)
class Detections:
    """Dice found in one image: boxes (N, 4) x1y1x2y2 in the given pixels, scores (N,)."""

    boxes: np.ndarray
    scores: np.ndarray

    def sized(self, min_side: float = 0.0, max_side: float = np.inf) -> Detections:
        """Return only the boxes whose longer side is in min_side..max_side."""
        keep = (sides(self.boxes) >= min_side) & (sides(self.boxes) < max_side)
        return Detections(self.boxes[keep], self.scores[keep])


def scaled(pixels: np.ndarray, side: int) -> tuple[np.ndarray, float]:
    """Return *pixels* scaled to *side* on their longest side, and the factor view/pixels."""
    h, w = pixels.shape[:2]
    factor = side / max(h, w)
    vw, vh = max(1, round(w * factor)), max(1, round(h * factor))
    return cv2.resize(pixels, (vw, vh), interpolation=cv2.INTER_AREA if factor < 1 else
                      cv2.INTER_LINEAR), factor


def detector_input(pixels: np.ndarray, side: int = DETECT_SIDE) -> tuple[np.ndarray, float]:
    """Return the (1, 3, H, W) float32 network input and the factor view/pixels."""
    view, factor = scaled(pixels, side)
    return network_input(view), factor


def network_input(view: np.ndarray) -> np.ndarray:
    """Return the (1, 3, H, W) float32 network input of a scaled *view*, padded to a
    multiple of MULTIPLE."""
    vh, vw = view.shape[:2]
    ph, pw = -vh % MULTIPLE, -vw % MULTIPLE
    if ph or pw:
        view = cv2.copyMakeBorder(view, 0, ph, 0, pw, cv2.BORDER_REPLICATE)
    # cv2.split lays the channels out one after another far faster than numpy's transpose
    # of interleaved bytes (0.1 ms against 2 ms for the 512 px view).
    return np.stack(cv2.split(view))[None].astype(np.float32)


def decode(heat: np.ndarray, reg: np.ndarray, threshold: float = SCORE_THRESHOLD,
           nms_iou: float = NMS_IOU) -> Detections:
    """Return boxes (in network-input pixels) from heatmap (H, W) and regression (4, H, W)."""
    peaks = (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat >= threshold)
    ys, xs = np.nonzero(peaks)
    scores = heat[ys, xs]
    w = np.exp(reg[0, ys, xs]) * STRIDE
    h = np.exp(reg[1, ys, xs]) * STRIDE
    cx = (xs + reg[2, ys, xs]) * STRIDE
    cy = (ys + reg[3, ys, xs]) * STRIDE
    boxes = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], axis=1)
    return merge(boxes, scores, threshold, nms_iou)


def merge(boxes: np.ndarray, scores: np.ndarray, threshold: float = SCORE_THRESHOLD,
          nms_iou: float = NMS_IOU) -> Detections:
    """Return the boxes left by OpenCV's non-maximum suppression, best score first."""
    order = suppress(boxes, scores, threshold, nms_iou)
    return Detections(boxes[order].astype(np.float32).reshape(-1, 4),
                      scores[order].astype(np.float32))


def suppress(boxes: np.ndarray, scores: np.ndarray, threshold: float,
             nms_iou: float = NMS_IOU) -> np.ndarray:
    """Return the indices of the boxes OpenCV's non-maximum suppression keeps, best first."""
    if len(boxes) == 0:
        return np.zeros(0, np.int64)
    xywh = [[float(b[0]), float(b[1]), float(b[2] - b[0]), float(b[3] - b[1])] for b in boxes]
    keep = np.asarray(cv2.dnn.NMSBoxes(xywh, scores.tolist(), threshold, nms_iou),
                      np.int64).reshape(-1)
    order: np.ndarray = keep[np.argsort(-scores[keep])]
    return order


def intersection(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Return the (len(a), len(b)) areas shared by x1y1x2y2 boxes."""
    x1 = np.maximum(a[:, None, 0], b[None, :, 0])
    y1 = np.maximum(a[:, None, 1], b[None, :, 1])
    x2 = np.minimum(a[:, None, 2], b[None, :, 2])
    y2 = np.minimum(a[:, None, 3], b[None, :, 3])
    return np.asarray(np.clip(x2 - x1, 0, None) * np.clip(y2 - y1, 0, None))


def areas(boxes: np.ndarray) -> np.ndarray:
    """Return the area of each x1y1x2y2 box."""
    return np.asarray((boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1]))


def iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Return the (len(a), len(b)) intersection-over-union of x1y1x2y2 boxes."""
    inter = intersection(a, b)
    return np.asarray(inter / np.maximum(areas(a)[:, None] + areas(b)[None, :] - inter, 1e-9))


class DiceDetector:
    """The dice detector. Holds its session and one setting; every call passes its own data."""

    def __init__(self, session: ort.InferenceSession, fine_view: bool = True) -> None:
        self.session = session
        self.fine_view = fine_view  # whether small dice ask for the finer view

    def detect(self, pixels: np.ndarray, threshold: float = SCORE_THRESHOLD) -> Detections:
        """Return the dice in BGR *pixels*, boxes in those pixels' coordinates.

        A box may reach past the image edge: it covers the whole die as far as
        the detector can tell, even when the photo cuts it.
        """
        first = self.view(pixels, DETECT_SIDE, threshold)
        scale = DETECT_SIDE / max(pixels.shape[:2])  # pixels -> DETECT_SIDE view
        fine = self.fine_view and wants_fine_view(first, scale)
        found = [first]
        if fine:
            found.append(self.view(pixels, FINE_SIDE, threshold).sized(
                max_side=2 * SMALL / scale))
        if not fine or len(first.boxes) == 0:  # small dice found: none is close to the camera
            # The close view is scaled from the coarse one: a fifth of a millisecond
            # instead of a whole one from a 640x480 frame.
            coarse, factor = scaled(pixels, COARSE_SIDE)
            close, close_factor = scaled(coarse, CLOSE_SIDE)
            found += [self.found_in(coarse, factor, threshold),
                      self.found_in(close, factor * close_factor, threshold).sized(
                          min_side=CLOSE_SHARE * max(pixels.shape[:2]))]
        return merge(np.concatenate([f.boxes for f in found]),
                     np.concatenate([f.scores for f in found]), threshold)

    def view(self, pixels: np.ndarray, side: int, threshold: float) -> Detections:
        """Return the detections in the *side* view, boxes in the coordinates of *pixels*."""
        return self.found_in(*scaled(pixels, side), threshold)

    def found_in(self, view: np.ndarray, factor: float, threshold: float) -> Detections:
        """Return the detections in a *view* already scaled by *factor* from the photo's
        pixels, boxes in the photo's pixels."""
        tensor = network_input(view)
        heat, reg = self.session.run(None, {self.session.get_inputs()[0].name: tensor})
        found = decode(heat[0, 0], reg[0], threshold)
        return Detections(found.boxes / factor, found.scores)


def sides(boxes: np.ndarray) -> np.ndarray:
    """Return the longer side of each x1y1x2y2 box."""
    return np.asarray(np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]))


def wants_fine_view(found: Detections, scale: float = 1.0) -> bool:
    """Return whether the first view found nothing, or sure dice so small the finer view helps.

    Only finds scored at least FINE_TRIGGER count: on cloth and board textures a
    detector can fire often and weakly, and the finer view would add more of that.
    *scale* turns the boxes' coordinates into pixels of the DETECT_SIDE view.
    """
    if len(found.boxes) == 0:
        return True
    sure = found.scores >= FINE_TRIGGER
    return bool(sure.any()) and float(np.median(sides(found.boxes[sure]))) * scale < SMALL


@functools.cache
def default_detector() -> DiceDetector:
    """Return the process-wide detector (the model is loaded on first use only).

    Raises vision.onnx.ModelError when the model file is missing.
    """
    return DiceDetector(open_session(DETECTOR_MODEL))
