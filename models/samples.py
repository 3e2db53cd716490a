"""Training samples: photos in memory, detector views with heatmap targets, die crops."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from models.augment import die_crop, photometric, random_negative
from models.data import source_photos
from models.render import Scene, render_scene
from vision.detect import STRIDE, DiceDetector, areas, intersection, iou
from vision.faces import CROP_SIZE, NOT_A_DIE
from vision.image import decode_bytes

MINING_THRESHOLD = 0.15  # detector score above which a find away from dice is mined
SOLID_SHARE = 0.5  # of the rendered training dice traced as lit solids (models.shaded)


@dataclass(frozen=True, slots=True)
class Photo:
    """Pixels as the reader sees them, with absolute x1y1x2y2 boxes and values 1..6.

    ``hard`` holds boxes of things that are not dice: rendered decoys and what a
    detector found where there is no die (mined negatives). ``turn``: the most the
    reader's crops of it are turned, in degrees (180: any way; less keeps the photo's
    up, which tells a die seen at an angle's top face from its sides).
    """

    image: np.ndarray
    boxes: np.ndarray
    values: np.ndarray
    hard: np.ndarray = field(default_factory=lambda: np.zeros((0, 4), np.float32))
    turn: float = 180.0


@dataclass(frozen=True, slots=True)
class Pool:
    """Photos to draw training samples from, each with its chance of being drawn."""

    photos: list[Photo]
    chances: np.ndarray

    @staticmethod
    def of(groups: list[list[Photo]], shares: list[float]) -> Pool:
        """Return a pool drawing each group's photos, evenly, with the group's share."""
        chances = [np.full(len(g), share / len(g)) for g, share in zip(groups, shares,
                                                                      strict=True) if g]
        weights = np.concatenate(chances)
        return Pool([p for g in groups for p in g], weights / weights.sum())

    def pick(self, rng: np.random.Generator) -> Photo:
        """Return a random photo."""
        return self.photos[int(rng.choice(len(self.photos), p=self.chances))]

    def map(self, change: Callable[[Photo], Photo]) -> Pool:
        """Return the pool with every photo changed, at the same chances."""
        return Pool([change(p) for p in self.photos], self.chances)


def load_photos(source: str) -> list[Photo]:
    """Return the photos of a named source decoded like vision.image does for reading."""
    photos = []
    for labelled in source_photos(source):
        image = decode_bytes(labelled.path.read_bytes()).pixels
        h, w = image.shape[:2]
        boxes = labelled.boxes * np.array([w, h, w, h], np.float32)
        photos.append(Photo(image, boxes, np.array(labelled.values, np.int64)))
    return photos


def rendered_photos(count: int, seed: int, clutter: bool = True) -> list[Photo]:
    """Return *count* rendered scenes of 0..25 dice of varied sizes.

    With *clutter*, most scenes also hold decoys (see models.clutter), kept as the
    photo's hard "not a die" boxes (some tables are game boards), half are seen at an
    angle (dice show their sides)
    and one scene in ten is a close-up of one die.
    """
    rng = np.random.default_rng(seed)
    photos = []
    for _ in range(count):
        w, h = int(rng.integers(480, 1024)), int(rng.integers(400, 800))
        size = int(min(w, h) * rng.uniform(0.02 if clutter else 0.04, 0.2))
        decoys = int(rng.integers(0, 16)) if clutter and rng.random() < 0.8 else 0
        pitch = float(rng.uniform(0.25, 1.0)) if clutter and rng.random() < 0.5 else 0.0
        scene = render_scene(rng, w, h, int(rng.integers(0, 26)), size, decoys, pitch,
                             boards=clutter, solid=SOLID_SHARE if clutter else 0.0)
        photo = scene_photo(scene)
        if clutter and rng.random() < 0.1 and len(photo.boxes):
            photo = close_up(photo, rng)
        photos.append(photo)
    return photos


def scene_photo(scene: Scene) -> Photo:
    """Return a rendered scene as a training photo, its decoys as hard negatives."""
    boxes = np.array(scene.boxes, np.float32).reshape(-1, 4)
    decoys = np.array(scene.decoys, np.float32).reshape(-1, 4)
    if len(decoys) and len(boxes):  # a decoy mostly covered by a die is no example
        decoys = decoys[iou(decoys, boxes).max(axis=1) < 0.3]
    return Photo(scene.image, boxes, np.array(scene.values, np.int64), decoys)


def close_up(photo: Photo, rng: np.random.Generator) -> Photo:
    """Return a small photo cut close around one die (the die fills most of it)."""
    box = photo.boxes[int(rng.integers(len(photo.boxes)))]
    side = float(max(box[2] - box[0], box[3] - box[1])) * rng.uniform(1.1, 2.0)
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    x1, y1 = int(cx - side / 2 + rng.uniform(-0.1, 0.1) * side), int(cy - side / 2)
    h, w = photo.image.shape[:2]
    x1, y1 = max(0, min(x1, w - 2)), max(0, min(y1, h - 2))
    x2, y2 = min(w, x1 + int(side)), min(h, y1 + int(side))
    out = int(rng.integers(160, 640))
    factor = out / max(x2 - x1, y2 - y1)
    image = cv2.resize(photo.image[y1:y2, x1:x2], None, fx=factor, fy=factor,
                       interpolation=cv2.INTER_LINEAR)
    boxes = (photo.boxes - np.array([x1, y1, x1, y1], np.float32)) * factor
    inside = boxes.clip(0, [[image.shape[1], image.shape[0]] * 2])
    area = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    shown = (inside[:, 2] - inside[:, 0]).clip(0) * (inside[:, 3] - inside[:, 1]).clip(0)
    keep = shown >= 0.7 * area  # dice mostly cut away are neither dice nor negatives
    return Photo(image, boxes[keep], photo.values[keep])


def shrink(photo: Photo, longest: int) -> Photo:
    """Return *photo* downscaled so its longest side is at most *longest* (faster sampling)."""
    factor = longest / max(photo.image.shape[:2])
    if factor >= 1:
        return photo
    image = cv2.resize(photo.image, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    return Photo(image, photo.boxes * factor, photo.values)


def detector_sample(photo: Photo, rng: np.random.Generator,
                    size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Return (image CHW float32, heatmap, regression, mask) for one random view of *photo*.

    The view is rescaled so its dice are 10..120 pixels wide (any camera distance),
    cropped to size x size, flipped, turned and recoloured.
    """
    h, w = photo.image.shape[:2]
    dice = np.maximum(photo.boxes[:, 2] - photo.boxes[:, 0], photo.boxes[:, 3] - photo.boxes[:, 1])
    typical = float(np.median(dice)) if len(dice) else min(h, w) * 0.08
    factor = float(np.exp(rng.uniform(np.log(10), np.log(120)))) / typical
    factor = float(np.clip(factor, 128 / max(h, w), 1400 / max(h, w)))
    view = cv2.resize(photo.image, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    boxes = photo.boxes * factor
    vh, vw = view.shape[:2]
    if vh < size or vw < size:
        view = cv2.copyMakeBorder(view, 0, max(0, size - vh), 0, max(0, size - vw),
                                  cv2.BORDER_REFLECT)
    x0 = int(rng.integers(0, view.shape[1] - size + 1))
    y0 = int(rng.integers(0, view.shape[0] - size + 1))
    view = view[y0 : y0 + size, x0 : x0 + size]
    boxes = boxes - np.array([x0, y0, x0, y0], np.float32)
    view, boxes = _flip_turn(view, boxes, rng)
    view = photometric(view, rng)
    heat, reg, mask = targets(boxes, size // STRIDE)
    return view.transpose(2, 0, 1).astype(np.float32), heat, reg, mask


def _flip_turn(view: np.ndarray, boxes: np.ndarray,
               rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Return a square view and its boxes, randomly mirrored and turned by 90 degrees."""
    size = view.shape[1]
    if rng.random() < 0.5:
        view = view[:, ::-1]
        boxes = np.stack([size - boxes[:, 2], boxes[:, 1], size - boxes[:, 0], boxes[:, 3]], 1)
    if rng.random() < 0.5:  # transpose: swap x and y
        view = view.transpose(1, 0, 2)
        boxes = boxes[:, [1, 0, 3, 2]]
    return np.ascontiguousarray(view), boxes.reshape(-1, 4)


def targets(boxes: np.ndarray, cells: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return heatmap (1,C,C), regression (4,C,C) and mask (1,C,C) for boxes in view pixels."""
    heat = np.zeros((cells, cells), np.float32)
    reg = np.zeros((4, cells, cells), np.float32)
    mask = np.zeros((cells, cells), np.float32)
    grid = np.arange(cells, dtype=np.float32)
    centres = []
    for x1, y1, x2, y2 in boxes:
        cx, cy = (x1 + x2) / 2 / STRIDE, (y1 + y2) / 2 / STRIDE
        if not (0 <= cx < cells and 0 <= cy < cells) or x2 - x1 < 2 or y2 - y1 < 2:
            continue
        ix, iy = int(cx), int(cy)
        sigma = max(0.6, 0.1 * float(np.sqrt((x2 - x1) * (y2 - y1))) / STRIDE)
        blob = np.exp(-((grid[None, :] - ix) ** 2 + (grid[:, None] - iy) ** 2) / (2 * sigma**2))
        heat = np.maximum(heat, blob)
        centres.append((ix, iy, cx, cy, np.log((x2 - x1) / STRIDE), np.log((y2 - y1) / STRIDE)))
    # The 3x3 cells around each centre learn the box too (half weight): more examples
    # for the regression; the centre cells are written last so they win.
    for ring, weight in ((1, 0.5), (0, 1.0)):
        for ix, iy, cx, cy, lw, lh in centres:
            for y in range(max(0, iy - ring), min(cells, iy + ring + 1)):
                for x in range(max(0, ix - ring), min(cells, ix + ring + 1)):
                    reg[:, y, x] = [lw, lh, cx - x, cy - y]
                    mask[y, x] = weight
    return heat[None], reg, mask[None]


def on_a_die(found: np.ndarray, dice: np.ndarray) -> np.ndarray:
    """Return which finds are (on) a labelled die: IoU 0.3 or more, or a third of the
    find or of the die's box shared. Sources box dice differently (the whole cube, the
    top face, the face turned to the camera), so a find around a whole die can miss a
    face's box by IoU and still be that die, never an example of table."""
    shared = intersection(found, dice)
    share = np.maximum(shared / np.maximum(areas(found)[:, None], 1e-6),
                       shared / np.maximum(areas(dice)[None, :], 1e-6))
    return np.asarray((iou(found, dice) >= 0.3).any(axis=1) | (share >= 1 / 3).any(axis=1))


def with_hard_negatives(photo: Photo, detector: DiceDetector) -> Photo:
    """Return *photo* with the detector's false detections (finds on no die, see on_a_die)
    added.

    The detector runs at a low score threshold, so near-misses are mined too.
    """
    found = detector.detect(photo.image, MINING_THRESHOLD).boxes
    if len(found) and len(photo.boxes):
        found = found[~on_a_die(found, photo.boxes)]
    hard = np.concatenate([photo.hard, found.astype(np.float32)]).reshape(-1, 4)
    return replace(photo, hard=hard)


def turned(photos: list[Photo], turn: float) -> list[Photo]:
    """Return *photos* whose reader's crops are turned by at most *turn* degrees."""
    return [replace(p, turn=turn) for p in photos]


def crop_sample(pool: Pool, rng: np.random.Generator, negative_share: float = 0.3,
                size: int = CROP_SIZE) -> tuple[np.ndarray, int, np.ndarray, np.ndarray]:
    """Return (crop CHW float32, class, box code, code mask) for one random *size* crop,
    turned by at most its photo's ``turn`` (see models.augment.die_crop).

    The class is 0..5 for faces 1..6 or NOT_A_DIE; a "not a die" crop has no box.
    """
    while True:
        photo = pool.pick(rng)
        if rng.random() < negative_share or len(photo.boxes) == 0:
            box = random_negative(photo.image.shape, photo.boxes, rng)
            if len(photo.hard) and rng.random() < 0.5:
                box = photo.hard[int(rng.integers(len(photo.hard)))]
            label = NOT_A_DIE
        else:
            i = int(rng.integers(len(photo.boxes)))
            box, label = photo.boxes[i], int(photo.values[i]) - 1
        if box is not None:
            crop, code, mask = die_crop(photo.image, box, rng, size, photo.turn)
            crop = photometric(crop, rng, invert=0.1)
            if label == NOT_A_DIE:
                mask = np.zeros_like(mask)
            return crop.transpose(2, 0, 1).astype(np.float32), label, code, mask
