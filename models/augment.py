"""Random photometric and geometric changes for training samples (numpy + OpenCV)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.detect import iou
from vision.faces import CONTEXT, CROP_SIZE, box_in_crop, cut, square_around

ROOM = 1.45  # extra crop margin so any rotation still fills the final crop


def photometric(image: np.ndarray, rng: np.random.Generator, invert: float = 0.0) -> np.ndarray:
    """Return *image* (uint8 BGR) with random colour, light, shadow, blur, noise, specks
    and JPEG."""
    out: np.ndarray = image.astype(np.float32)
    if rng.random() < 0.5:
        out = out[:, :, rng.permutation(3)]
    if rng.random() < 0.15:
        out = np.repeat(out.mean(axis=2, keepdims=True), 3, axis=2)
    if rng.random() < invert:
        out = 255 - out
    out = out * rng.uniform(0.6, 1.35) + rng.uniform(-40, 40)
    out = out * rng.uniform(0.85, 1.15, 3)[None, None, :]
    if rng.random() < 0.3:  # a soft shadow or light gradient across the view
        h, w = out.shape[:2]
        ramp = np.linspace(rng.uniform(0.5, 1.0), rng.uniform(0.9, 1.2), w, dtype=np.float32)
        out = out * (ramp[None, :, None] if rng.random() < 0.5 else
                     cv2.resize(ramp[None, :], (h, 1)).reshape(h, 1, 1))
    out = np.clip(out, 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.3, 1.2))
    if rng.random() < 0.3:
        noise = rng.normal(0, rng.uniform(2, 10), out.shape)
        out = np.clip(out + noise, 0, 255).astype(np.uint8)
    if rng.random() < 0.15:
        out = speckle(out, rng)
    if rng.random() < 0.3:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(45, 95))])
        decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
        out = out if decoded is None else decoded
    return out


def speckle(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Return *image* with impulse noise: up to 4 % of its pixels (in specks of 1-2 px) set
    to random colours, as in photos exported with added noise or taken in poor light."""
    h, w = image.shape[:2]
    grain = int(rng.integers(1, 3))
    small = (max(1, h // grain), max(1, w // grain))
    hit = rng.random(small) < rng.uniform(0.002, 0.04)
    if rng.random() < 0.5:  # black and white specks only
        specks = np.repeat(np.where(rng.random((*small, 1)) < 0.5, 0, 255), 3, axis=2)
    else:
        specks = rng.integers(0, 256, (*small, 3))
    hit = cv2.resize(hit.astype(np.uint8), (w, h), interpolation=cv2.INTER_NEAREST) > 0
    colours = cv2.resize(specks.astype(np.uint8), (w, h), interpolation=cv2.INTER_NEAREST)
    out = image.copy()
    out[hit] = colours[hit]
    return out


def die_crop(image: np.ndarray, box: np.ndarray, rng: np.random.Generator,
             size: int = CROP_SIZE,
             turn: float = 180.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return a *size* crop around *box* as the reader would cut it, randomly moved.

    Also returns the box's code in the crop (see vision.faces.box_in_crop) and a mask
    of which code parts hold: the centre always, the size only when the die was
    turned by a multiple of 90 degrees (an axis-aligned box stays one).
    Rotation, scale and shift mimic both a turned die and a detector's imperfect box;
    a random down-and-up resize mimics a die only a few pixels wide. The crop is turned
    any way, or with *turn* below 180 by at most that many degrees, half the time not
    at all: the photo's up is kept, and with it which face of a die seen at an angle is
    its top.
    """
    big = round(size * ROOM)
    square = square_around(box, CONTEXT * ROOM)
    patch = cut(image, square, big)
    upright = rng.random() < 0.5
    if turn >= 180:
        angle = 90.0 * int(rng.integers(4)) if upright else rng.uniform(0, 360)
    else:
        angle = 0.0 if upright else rng.uniform(-turn, turn)
    scale = float(np.exp(rng.uniform(np.log(0.85), np.log(1.3))))
    shift = rng.uniform(-0.08, 0.08, 2) * size
    m: np.ndarray = cv2.getRotationMatrix2D((big / 2, big / 2), angle, scale)
    m[:, 2] += shift + (size - big) / 2
    crop = cv2.warpAffine(patch, m, (size, size), borderMode=cv2.BORDER_REPLICATE)
    if rng.random() < 0.25:  # as small as 22 px across the crop
        small = int(rng.integers(22, size))
        crop = cv2.resize(cv2.resize(crop, (small, small), interpolation=cv2.INTER_AREA),
                          (size, size))
    corners = np.array([[box[0], box[1]], [box[2], box[1]], [box[0], box[3]], [box[2], box[3]]])
    moved = (corners - square[:2]) * big / square[2] @ m[:, :2].T + m[:, 2]
    code = box_in_crop(np.concatenate([moved.min(axis=0), moved.max(axis=0)]),
                       (0, 0, size))
    if rng.random() < 0.5:
        crop, code[0] = np.ascontiguousarray(crop[:, ::-1]), -code[0]
    mask = np.array([1, 1, upright, upright], np.float32)
    return crop, code, mask


def random_negative(shape: tuple[int, ...], boxes: np.ndarray, rng: np.random.Generator,
                    tries: int = 20) -> np.ndarray | None:
    """Return a box overlapping no die much (IoU < 0.3), or None: mostly of a die's size,
    sometimes spanning much of the photo."""
    h, w = shape[:2]
    sizes = np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]) if len(boxes) else \
        np.array([min(h, w) * 0.08])
    for _ in range(tries):
        side = float(rng.choice(sizes)) * rng.uniform(0.5, 1.6)
        if rng.random() < 0.04:  # much of the photo: a board or a box around many dice
            side = max(h, w) * rng.uniform(0.3, 1.0)
            cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        elif rng.random() < 0.5 and len(boxes):  # near a die: part of it, or two halves
            b = boxes[rng.integers(len(boxes))]
            cx = (b[0] + b[2]) / 2 + rng.uniform(-1, 1) * side
            cy = (b[1] + b[3]) / 2 + rng.uniform(-1, 1) * side
        elif rng.random() < 0.25:  # on the photo's edge, where close-ups made false dice
            cx, cy = (rng.choice([0, w]), rng.uniform(0, h)) if rng.random() < 0.5 else \
                (rng.uniform(0, w), rng.choice([0, h]))
        else:
            cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        cand = np.array([cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2], np.float32)
        if len(boxes) == 0 or iou(cand[None], boxes).max() < 0.3:
            return cand
    return None

