"""Real dice cut out of the training photos and laid on rendered tables among decoys.

A real die keeps what rendering lacks (rounded edges, glare, translucent bodies,
engraved or painted pips, the camera's own blur and noise); a rendered table gives it
settings its own photo never had (cloth, wood, game boards, keys and tokens beside
it, other dice from other photos). The cut follows the die's outline: GrabCut inside
its labelled box, then the convex hull of what it keeps (a die seen from anywhere is
convex); dice it cannot cut cleanly are left out.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from models.render import Scene, paste, render_scene
from models.samples import Photo, scene_photo

WORK_SIDE = 96  # GrabCut runs on dice scaled down to at most this many pixels
MARGIN = 0.2  # of the die's side: table around the box, GrabCut's "surely background"


@dataclass(frozen=True, slots=True)
class Cutout:
    """One real die: its pixels, its outline as alpha (0..255) and its value."""

    sprite: np.ndarray
    alpha: np.ndarray
    value: int


def outline(patch: np.ndarray, rect: tuple[int, int, int, int]) -> np.ndarray | None:
    """Return the die's convex outline (uint8 0/1) in *patch*, or None when GrabCut's
    result does not look like one die filling its box *rect* (x, y, w, h)."""
    mask = np.zeros(patch.shape[:2], np.uint8)
    models = (np.zeros((1, 65), np.float64), np.zeros((1, 65), np.float64))
    try:
        cv2.grabCut(patch, mask, rect, *models, 3, cv2.GC_INIT_WITH_RECT)
    except cv2.error:
        return None
    kept = np.isin(mask, (cv2.GC_FGD, cv2.GC_PR_FGD)).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(kept)
    if count < 2:
        return None
    largest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    points = cv2.findNonZero((labels == largest).astype(np.uint8))
    hull = cv2.convexHull(points)
    filled = np.zeros_like(kept)
    cv2.fillConvexPoly(filled, hull, 1)
    hx, hy, hw, hh = cv2.boundingRect(hull)
    x, y, w, h = rect
    fills = filled[y:y + h, x:x + w].sum() / float(w * h)
    spans = hw >= 0.85 * w and hh >= 0.85 * h and hw <= 1.1 * w and hh <= 1.1 * h
    return filled if spans and 0.5 <= fills <= 1.0 and abs(hx - x) <= 0.1 * w \
        and abs(hy - y) <= 0.1 * h else None


def cut_out(image: np.ndarray, box: np.ndarray, value: int) -> Cutout | None:
    """Return the die in *box* (x1y1x2y2) of *image* cut along its outline, or None for
    dice too small, cut by the photo's border or not cleanly separable."""
    x1, y1, x2, y2 = (float(v) for v in box)
    side = max(x2 - x1, y2 - y1)
    height, width = image.shape[:2]
    reach = MARGIN * side
    if min(x2 - x1, y2 - y1) < 10 or x1 < reach or y1 < reach or x2 > width - reach \
            or y2 > height - reach:
        return None
    px, py = int(x1 - reach), int(y1 - reach)
    patch = image[py:int(y2 + reach) + 1, px:int(x2 + reach) + 1]
    scale = min(1.0, WORK_SIDE / side)
    patch = cv2.resize(patch, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    rect = (int((x1 - px) * scale), int((y1 - py) * scale), max(1, int((x2 - x1) * scale)),
            max(1, int((y2 - y1) * scale)))
    filled = outline(np.ascontiguousarray(patch), rect)
    if filled is None:
        return None
    x, y, w, h = rect
    alpha = cv2.GaussianBlur(filled.astype(np.float32), (0, 0), 0.7)[y:y + h, x:x + w]
    return Cutout(patch[y:y + h, x:x + w].copy(), (alpha * 255).astype(np.uint8), value)


def cutout_bank(photos: list[Photo], limit: int, rng: np.random.Generator) -> list[Cutout]:
    """Return up to *limit* dice cut out of *photos*, drawn at random."""
    dice = [(p, i) for p in photos for i in range(len(p.boxes))]
    bank: list[Cutout] = []
    for k in rng.permutation(len(dice)):
        photo, i = dice[int(k)]
        cut = cut_out(photo.image, photo.boxes[i], int(photo.values[i]))
        if cut is not None:
            bank.append(cut)
        if len(bank) == limit:
            break
    return bank


def lay_die(canvas: np.ndarray, rng: np.random.Generator, cut: Cutout, side: int,
            centre: tuple[float, float]) -> list[int]:
    """Draw *cut* about *side* pixels wide on *canvas* in place, mirrored and turned at
    random, its light changed a little; return its box."""
    factor = side / max(cut.alpha.shape)
    sprite = cv2.resize(cut.sprite, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    alpha = cv2.resize(cut.alpha, None, fx=factor, fy=factor, interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.5:
        sprite, alpha = sprite[:, ::-1], alpha[:, ::-1]
    gain = rng.uniform(0.75, 1.25) * rng.uniform(0.92, 1.08, 3)
    sprite = np.clip(sprite.astype(np.float32) * gain, 0, 255).astype(np.uint8)
    turn = 180.0 if rng.random() < 0.5 else 20.0  # dice seen at an angle mostly stay upright
    return paste(canvas, rng, np.ascontiguousarray(sprite), np.ascontiguousarray(alpha),
                 centre, turn=turn)


def composite_photos(count: int, seed: int, bank: list[Cutout]) -> list[Photo]:
    """Return *count* rendered tables (decoys, busy cloths, game boards) holding 1..20
    real dice from *bank*, sometimes in a heap; none when the bank is empty."""
    rng = np.random.default_rng(seed)
    photos = []
    for _ in range(count if bank else 0):
        w, h = int(rng.integers(480, 1024)), int(rng.integers(400, 800))
        size = int(min(w, h) * rng.uniform(0.03, 0.2))
        decoys = int(rng.integers(0, 16)) if rng.random() < 0.8 else 0
        scene = render_scene(rng, w, h, 0, size, decoys, boards=True)
        canvas = scene.image.copy()
        taken = [((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for b in scene.decoys]
        spacing = 1.6 if rng.random() < 0.7 else 1.05  # else a heap of touching dice
        values: list[int] = []
        boxes: list[list[int]] = []
        wanted = int(rng.integers(1, 21))
        for _ in range(wanted * 50):
            if len(values) == wanted:
                break
            side = float(size * rng.uniform(0.85, 1.15))
            c = (float(rng.uniform(side, w - side)), float(rng.uniform(side, h - side)))
            if any(np.hypot(c[0] - x, c[1] - y) < spacing * side for x, y in taken):
                continue
            cut = bank[int(rng.integers(len(bank)))]
            boxes.append(lay_die(canvas, rng, cut, int(side), c))
            values.append(cut.value)
            taken.append(c)
        canvas = cv2.GaussianBlur(canvas, (0, 0), rng.uniform(0.3, 0.8))
        photos.append(scene_photo(Scene(canvas, values, boxes, scene.decoys)))
    return photos
