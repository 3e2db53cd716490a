"""Render photos of pip dice with OpenCV: training variety and the project's sample images.

``python -m models.render`` rewrites ``sample_images/`` (photos plus JSON sidecars
with the true values and boxes) from fixed seeds, and its annotated example
with the trained models.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from models.clutter import BOARD_DECOYS, DECOYS, board_background, cluttered_background, decoy
from models.cube import cube_sprite
from models.felt import Table, felt_table
from models.finish import Look, random_look, traced_die
from models.shaded import shaded_die

PIPS: dict[int, list[tuple[float, float]]] = {
    1: [(0.5, 0.5)],
    2: [(0.25, 0.25), (0.75, 0.75)],
    3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
    4: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)],
    5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
    6: [(0.25, 0.22), (0.25, 0.5), (0.25, 0.78), (0.75, 0.22), (0.75, 0.5), (0.75, 0.78)],
}
SAMPLES = Path(__file__).resolve().parent.parent / "sample_images"
LOOK_SHARE = 0.3  # of the dice in the newer looks (models.finish) when variety is asked for
FELT_SHARE = 0.3  # of such scenes on felt: a casino's baize or a dice tray (models.felt)


@dataclass(frozen=True, slots=True)
class Scene:
    """A rendered photo with its dice: values and absolute x1y1x2y2 boxes.

    ``decoys`` are the boxes of things that are not dice (see models.clutter).
    """

    image: np.ndarray
    values: list[int]
    boxes: list[list[int]]
    decoys: list[list[int]] = field(default_factory=list)


def background(rng: np.random.Generator, height: int, width: int) -> np.ndarray:
    """Return a table-like background: a colour gradient with texture and noise."""
    base = rng.uniform(40, 235, 3)
    tilt = rng.uniform(-50, 50, 3)
    ramp = np.linspace(0, 1, width, dtype=np.float32)[None, :, None]
    image = base[None, None, :] + tilt[None, None, :] * ramp
    texture = cv2.resize(rng.normal(0, 1, (height // 8 + 1, width // 8 + 1)).astype(np.float32),
                         (width, height))
    image = image + texture[:, :, None] * rng.uniform(2, 15)
    image = image + rng.normal(0, rng.uniform(1, 6), (height, width, 1))
    return np.clip(image, 0, 255).astype(np.uint8)


@dataclass(frozen=True, slots=True)
class DieStyle:
    """How one die looks: body and pip colours, corner radius, pip size and spread."""

    body: np.ndarray
    pip: np.ndarray
    radius: float  # share of the side
    pip_radius: float  # share of the side
    margin: float  # pips pushed out (+) or in (-) from the standard spots


def die_style(rng: np.random.Generator) -> DieStyle:
    """Return a random die's looks: most dice are white or coloured with contrasting pips."""
    body = rng.uniform(0, 255, 3)
    if rng.random() < 0.4:
        body = np.full(3, rng.uniform(200, 250))  # many dice are white
    lum = float(body.mean())
    pip = np.full(3, 20.0) if lum > 110 else np.full(3, 235.0)
    if rng.random() < 0.2:
        pip = rng.uniform(0, 255, 3)
        if abs(pip.mean() - lum) < 80:
            pip = 255 - body
    return DieStyle(body, pip, float(rng.uniform(0.08, 0.2)), float(rng.uniform(0.07, 0.1)),
                    float(rng.uniform(-0.04, 0.04)))


def draw_face(style: DieStyle, value: int, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Return (BGR, alpha) of one face showing *value*, *size* pixels square, upright."""
    scale = 4  # draw large, then shrink: smooth edges
    s = size * scale
    image: np.ndarray = np.zeros((s, s, 3), np.float32)
    alpha: np.ndarray = np.zeros((s, s), np.uint8)
    radius = int(s * style.radius)
    cv2.rectangle(alpha, (radius, 0), (s - radius, s), 255, -1)
    cv2.rectangle(alpha, (0, radius), (s, s - radius), 255, -1)
    for cx, cy in ((radius, radius), (s - radius, radius), (radius, s - radius),
                   (s - radius, s - radius)):
        cv2.circle(alpha, (cx, cy), radius, 255, -1)
    image[:] = style.body
    shade = np.linspace(1.1, 0.85, s, dtype=np.float32)[:, None, None]
    image = image * shade
    pip_r = int(s * style.pip_radius)
    for px, py in PIPS[value]:
        x = int(s * (px + style.margin * (px - 0.5) * 2))
        y = int(s * (py + style.margin * (py - 0.5) * 2))
        cv2.circle(image, (x, y), pip_r, style.pip.tolist(), -1, cv2.LINE_AA)
    image = cv2.resize(np.clip(image, 0, 255).astype(np.uint8), (size, size),
                       interpolation=cv2.INTER_AREA)
    alpha = cv2.resize(alpha, (size, size), interpolation=cv2.INTER_AREA)
    return image, alpha


def die_sprite(rng: np.random.Generator, value: int, size: int, pitch: float = 0.0,
               solid: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Return (BGR, alpha) of one die, from above or, with *pitch* (radians), at an angle;
    with chance *solid* traced as a lit solid with rounded edges (models.shaded)."""
    return style_sprite(rng, die_style(rng), value, size, pitch, solid)


def style_sprite(rng: np.random.Generator, style: DieStyle, value: int, size: int,
                 pitch: float = 0.0, solid: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Return (BGR, alpha) of one die of *style*, drawn as die_sprite does."""
    if solid and rng.random() < solid:
        return shaded_die(rng, value, size, pitch, style.body, style.pip)
    if pitch:
        return cube_sprite(rng, value, size, pitch, lambda v, px: draw_face(style, v, px))
    return draw_face(style, value, size)


def look_sprite(rng: np.random.Generator, look: Look, value: int, size: int,
                pitch: float = 0.0, solid: float = 0.0
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Return (BGR, alpha, share of the table let through or None) of one die of *look*.

    Translucent, marbled and metal dice are traced (a translucent one seen from above
    is tilted a little, as off the photo's middle); dark ones are drawn as die_sprite
    draws any die.
    """
    if look.kind == "dark":
        style = DieStyle(look.body, look.pip, float(rng.uniform(0.08, 0.2)),
                         float(rng.uniform(0.07, 0.1)), float(rng.uniform(-0.04, 0.04)))
        return (*style_sprite(rng, style, value, size, pitch, solid), None)
    if look.kind == "glass" and not pitch:
        pitch = float(rng.uniform(0.0, 0.3))
    traced = traced_die(rng, value, size, pitch, look)
    return traced.image, traced.alpha, traced.transmit if look.kind == "glass" else None


def paste_die(canvas: np.ndarray, rng: np.random.Generator, value: int, size: int,
              center: tuple[float, float], pitch: float = 0.0, solid: float = 0.0,
              look: Look | None = None) -> list[int]:
    """Draw a rotated die with a soft shadow on *canvas* in place; return its box.

    A die seen at an angle (*pitch*) is turned only a little: the camera is held about
    upright, so its top face stays above its sides. With *look*, the die is of that
    material (see look_sprite).
    """
    transmit = None
    if look is None:
        sprite, alpha = die_sprite(rng, value, size, pitch, solid)
    else:
        sprite, alpha, transmit = look_sprite(rng, look, value, size, pitch, solid)
    return paste(canvas, rng, sprite, alpha, center, turn=30.0 if pitch else 180.0,
                 transmit=transmit)


def paste(canvas: np.ndarray, rng: np.random.Generator, sprite: np.ndarray, alpha: np.ndarray,
          center: tuple[float, float], turn: float = 180.0,
          transmit: np.ndarray | None = None) -> list[int]:
    """Draw a sprite turned by a random angle (up to +-*turn* degrees), with a soft shadow,
    in place; return its box.

    With *transmit* (per pixel and channel, 0..1) the sprite is translucent: that share
    of the table behind it, a little blurred, is added to its own light, and its shadow
    is lighter.
    """
    sh, sw = alpha.shape
    size = max(sh, sw)
    pad = size
    big = np.zeros((size + 2 * pad, size + 2 * pad, 3), np.uint8)
    big_alpha = np.zeros(big.shape[:2], np.uint8)
    top, left = pad + (size - sh) // 2, pad + (size - sw) // 2
    big[top:top + sh, left:left + sw] = sprite
    big_alpha[top:top + sh, left:left + sw] = alpha
    angle = rng.uniform(0, 360) if turn >= 180 else rng.uniform(-turn, turn)
    mid = (size + 2 * pad) / 2
    m: np.ndarray = cv2.getRotationMatrix2D((mid, mid), angle, 1.0)
    m[:, 2] += np.array([center[0] - mid, center[1] - mid])
    h, w = canvas.shape[:2]
    reach = 1.5 * size  # the turned sprite and its shadow lie within this of the centre
    x0, y0 = max(0, int(center[0] - reach)), max(0, int(center[1] - reach))
    x1, y1 = min(w, int(center[0] + reach) + 1), min(h, int(center[1] + reach) + 1)
    if x1 <= x0 or y1 <= y0:
        return [int(center[0]), int(center[1]), int(center[0]) + 1, int(center[1]) + 1]
    m[:, 2] -= np.array([x0, y0])
    region = canvas[y0:y1, x0:x1]
    warped = cv2.warpAffine(big, m, (x1 - x0, y1 - y0))
    mask = cv2.warpAffine(big_alpha, m, (x1 - x0, y1 - y0)).astype(np.float32) / 255
    shadow = cv2.GaussianBlur(np.roll(mask, (size // 8, size // 10), (0, 1)), (0, 0), size / 8)
    dark = 0.5 if transmit is None else 0.5 * (1 - float(transmit[alpha > 128].mean()))
    out = region.astype(np.float32) * (1 - dark * shadow[:, :, None])
    light = warped.astype(np.float32)
    if transmit is not None:
        through = np.zeros(big.shape, np.float32)
        through[top:top + sh, left:left + sw] = transmit
        behind = cv2.GaussianBlur(out, (0, 0), max(0.8, size / 40))
        light += cv2.warpAffine(through, m, (x1 - x0, y1 - y0)) * behind
    out = out * (1 - mask[:, :, None]) + light * mask[:, :, None]
    region[:] = np.clip(out, 0, 255).astype(np.uint8)
    ys, xs = np.nonzero(mask > 0.5)
    if len(xs) == 0:
        return [int(center[0]), int(center[1]), int(center[0]) + 1, int(center[1]) + 1]
    return [int(xs.min()) + x0, int(ys.min()) + y0, int(xs.max()) + 1 + x0,
            int(ys.max()) + 1 + y0]


def place_decoys(canvas: np.ndarray, rng: np.random.Generator, count: int, size: int,
                 boards: bool = False) -> tuple[list[list[int]], list[tuple[float, float]]]:
    """Draw *count* decoys of about die size on *canvas* in place (board tiles among them
    with *boards*); return boxes and centres."""
    height, width = canvas.shape[:2]
    boxes, centers = [], []
    for _ in range(count):
        side = max(6, int(size * rng.uniform(0.6, 1.8)))
        c = (float(rng.uniform(0, width)), float(rng.uniform(0, height)))
        sprite, alpha = decoy(rng, side, kinds=BOARD_DECOYS if boards else DECOYS)
        boxes.append(paste(canvas, rng, sprite, alpha, c))
        centers.append(c)
    return boxes, centers


def render_scene(rng: np.random.Generator, width: int, height: int, count: int,
                 size: int, clutter: int = 0, pitch: float = 0.0,
                 boards: bool = False, solid: float = 0.0, looks: float | None = None) -> Scene:
    """Return a photo of *count* non-overlapping dice about *size* pixels wide.

    With *clutter*, that many decoys (keys, coins, tokens, ...) lie between the dice,
    often on a busy background. With *pitch* (radians off vertical) the camera looks
    at the table at an angle: each die shows its top face and one or two sides. With
    *boards*, a third of the busy tables are game boards (see models.clutter) and board
    tiles lie among the decoys. With *solid*, that share of the dice are traced solids.
    With *looks*, that share of the dice are translucent, marbled, metal or dark
    (models.finish) and FELT_SHARE of the tables are felt (models.felt); by default
    LOOK_SHARE when *boards* or *solid* ask for variety, else none, so that scenes
    asked for plainly stay as they were.
    """
    share = (LOOK_SHARE if boards or solid else 0.0) if looks is None else looks
    busy = clutter > 0 and rng.random() < 0.6
    table = felt_table(rng, height, width) if share and rng.random() < FELT_SHARE else None
    if table is not None:
        canvas = table.image
    elif busy and boards and rng.random() < 0.35:
        canvas = board_background(rng, height, width)
    else:
        canvas = cluttered_background(rng, height, width) if busy else background(rng, height,
                                                                                    width)
    decoys, centers = place_decoys(canvas, rng, clutter, size, boards) if clutter else ([], [])
    values, boxes = lay_dice(canvas, rng, count, size, centers, pitch, solid, share, table)
    canvas = cv2.GaussianBlur(canvas, (0, 0), rng.uniform(0.3, 1.0))
    return Scene(canvas, values, boxes, decoys)


def lay_dice(canvas: np.ndarray, rng: np.random.Generator, count: int, size: int,
             centers: list[tuple[float, float]], pitch: float = 0.0, solid: float = 0.0,
             looks: float = 0.0, table: Table | None = None) -> tuple[list[int], list[list[int]]]:
    """Draw up to *count* dice on *canvas* in place, apart from each other and from
    *centers* (which grows); return their values and boxes.

    A share *looks* of them are of a newer material, most of those of one set drawn for
    the scene (the kind *table* suits); on a tray (*table*.inside) they lie on its felt.
    """
    height, width = canvas.shape[:2]
    room = None
    if table is not None and table.inside is not None:
        room = cv2.distanceTransform(table.inside.astype(np.uint8), cv2.DIST_L2, 3)
    kit = random_look(rng, table is not None and table.casino) if looks else None
    values: list[int] = []
    boxes: list[list[int]] = []
    for _ in range(count * 50):
        if len(values) == count:
            break
        die = float(size * rng.uniform(0.85, 1.15))
        c = (rng.uniform(die, width - die), rng.uniform(die, height - die))
        if any(np.hypot(c[0] - x, c[1] - y) < 1.6 * die for x, y in centers):
            continue
        if room is not None and room[int(c[1]), int(c[0])] < 0.9 * die:
            continue
        value = int(rng.integers(1, 7))
        look = None
        if kit is not None and rng.random() < looks:
            look = kit if rng.random() < 0.6 else random_look(rng, kit.kind == "glass")
        boxes.append(paste_die(canvas, rng, value, int(die), c, pitch, solid, look))
        values.append(value)
        centers.append(c)
    return values, boxes


# (folder, seed, width, height, dice, die size) of each committed sample photo. Photos
# of a five-dice roll sit at the top (the web app uploads those); other counts in more/.
SAMPLE_SPECS = [("", 1, 1280, 960, 5, 110), ("", 2, 640, 480, 5, 60),
                ("", 3, 1600, 1200, 5, 150), ("", 4, 1024, 768, 5, 90),
                ("more", 5, 1280, 720, 12, 80), ("more", 6, 1024, 768, 1, 120),
                ("more", 7, 1280, 960, 0, 100)]


def write_samples(folder: Path = SAMPLES) -> list[Path]:
    """Render the sample photos with JSON sidecars into *folder*; return the photo paths."""
    paths = []
    for i, (sub, seed, width, height, count, size) in enumerate(SAMPLE_SPECS, start=1):
        scene = render_scene(np.random.default_rng(seed), width, height, count, size)
        path = folder / sub / f"sample_{i:02d}.jpg"
        path.parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(path), scene.image, [cv2.IMWRITE_JPEG_QUALITY, 88])
        truth = {"values": scene.values, "boxes": scene.boxes}
        path.with_suffix(".json").write_text(json.dumps(truth) + "\n")
        paths.append(path)
    return paths


def write_annotated_example(folder: Path = SAMPLES) -> Path:
    """Read the first sample with the trained models and save it annotated; return the path.

    Raises vision.onnx.ModelError when the models are not trained yet.
    """
    from vision.annotate import write_annotated
    from vision.detect import default_detector
    from vision.faces import default_reader
    from vision.image import load
    from vision.pipeline import read_image

    image = load(folder / "sample_01.jpg")
    reading = read_image(image, default_detector(), default_reader())
    return write_annotated(image, reading, folder / "annotated_example.jpg")


if __name__ == "__main__":
    for written in write_samples():
        print(written)
    print(write_annotated_example())
