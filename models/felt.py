"""Felt tables: casino baize, and felt dice trays lying on carpet, grass or wood.

Felt is an even colour with a fine, low texture of fibres; a dice tray is a hexagon or
a rounded rectangle of felt inside a darker, leather-look rim with a stitched seam.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

CASINO = ((55, 120, 25), (70, 135, 40), (45, 100, 20), (80, 110, 30))  # BGR greens
TRAY = {"purple": (115, 40, 95), "red": (40, 35, 150), "black": (38, 36, 36),
        "blue": (125, 60, 25), "green": (45, 105, 30), "wine": (55, 30, 105)}
LEATHER = ((28, 28, 30), (30, 48, 78), (25, 35, 60), (60, 60, 62))


@dataclass(frozen=True, slots=True)
class Table:
    """A felt table: the image, where dice may lie (None: anywhere) and whether it is a
    casino's green baize."""

    image: np.ndarray
    inside: np.ndarray | None
    casino: bool


def _bytes(image: np.ndarray) -> np.ndarray:
    """Return *image* clipped to 0..255 as bytes."""
    result: np.ndarray = np.clip(image, 0, 255).astype(np.uint8)
    return result


def _smooth(rng: np.random.Generator, height: int, width: int, cell: int) -> np.ndarray:
    """Return unit noise that varies over about *cell* pixels."""
    small = rng.normal(0, 1, (height // cell + 2, width // cell + 2)).astype(np.float32)
    result: np.ndarray = cv2.resize(small, (width, height), interpolation=cv2.INTER_CUBIC)
    return result


def fibres(rng: np.random.Generator, height: int, width: int) -> np.ndarray:
    """Return felt's texture, of unit spread: short fibres lying every way, a little matted."""
    grain = cv2.GaussianBlur(rng.normal(0, 1, (height, width)).astype(np.float32), (0, 0), 0.7)
    length = int(rng.integers(3, 7))
    kernel = np.zeros((length, length), np.float32)
    cv2.line(kernel, (0, int(rng.integers(length))), (length - 1, int(rng.integers(length))),
             1.0, 1)
    streaks = cv2.filter2D(rng.normal(0, 1, (height, width)).astype(np.float32), -1,
                           kernel / kernel.sum())
    texture = grain + 1.5 * streaks + 0.5 * _smooth(rng, height, width, 6)
    result: np.ndarray = texture / max(float(texture.std()), 1e-6)
    return result


def light_falloff(rng: np.random.Generator, height: int, width: int) -> np.ndarray:
    """Return a gentle (H,W,1) brightening toward a random spot, as a lamp over a table."""
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    cx, cy = rng.uniform(0, width), rng.uniform(0, height)
    reach = float(max(height, width)) * rng.uniform(0.8, 1.6)
    falloff = 1.05 - rng.uniform(0.1, 0.25) * ((xs - cx) ** 2 + (ys - cy) ** 2) / reach**2
    result: np.ndarray = falloff[:, :, None]
    return result


def felt(rng: np.random.Generator, height: int, width: int,
         colour: tuple[float, float, float] | np.ndarray, texture: float = 4.0) -> np.ndarray:
    """Return an even felt of BGR *colour*: fibres of spread *texture* grey levels and a
    faint mottling, without light falloff."""
    tone = np.asarray(colour, np.float32)
    mottle = _smooth(rng, height, width, 40) * float(rng.uniform(1, 3))
    image = tone + (fibres(rng, height, width) * texture + mottle)[:, :, None] * (
        0.6 + 0.4 * tone / max(float(tone.max()), 1.0))
    result: np.ndarray = np.clip(image, 0, 255).astype(np.uint8)
    return result


def casino_felt(rng: np.random.Generator, height: int, width: int) -> np.ndarray:
    """Return a casino table's green baize, sometimes with a printed line across it."""
    colour = np.array(CASINO[int(rng.integers(len(CASINO)))], float) + rng.normal(0, 6, 3)
    image = felt(rng, height, width, colour, float(rng.uniform(2.5, 5)))
    if rng.random() < 0.4:
        ink = (150, 220, 235) if rng.random() < 0.5 else (225, 230, 230)
        centre = (int(rng.uniform(-width, 2 * width)), int(rng.uniform(-height, 2 * height)))
        radius = int(rng.uniform(0.5, 2.0) * max(height, width))
        line = np.zeros((height, width), np.uint8)
        cv2.circle(line, centre, radius, 255, max(2, int(rng.uniform(0.005, 0.015) * width)),
                   cv2.LINE_AA)
        share = (line.astype(np.float32) / 255 * rng.uniform(0.6, 0.9))[:, :, None]
        image = (image * (1 - share) + np.array(ink, np.float32) * share).astype(np.uint8)
    return _bytes(image * light_falloff(rng, height, width))


def carpet(rng: np.random.Generator, height: int, width: int) -> np.ndarray:
    """Return a carpet: a coloured loop pile, coarser and louder than felt."""
    colour = rng.uniform(40, 190, 3)
    pile = cv2.GaussianBlur(rng.normal(0, 1, (height, width)).astype(np.float32), (0, 0), 1.0)
    loud = float(rng.uniform(14, 30))
    image = colour + (pile * loud / float(pile.std()) + _smooth(rng, height, width, 30) * 8)[
        :, :, None]
    return _bytes(image)


def grass(rng: np.random.Generator, height: int, width: int) -> np.ndarray:
    """Return grass (artificial or a lawn): green blades, mostly upright, light and dark."""
    blades = cv2.filter2D(rng.normal(0, 1, (height, width)).astype(np.float32), -1,
                          np.full((9, 1), 1 / 9, np.float32))
    tone = np.array([35, 105, 55], np.float32) + rng.normal(0, 10, 3)
    patches = _smooth(rng, height, width, 50)
    image = tone * (1 + 0.15 * patches[:, :, None]) + (blades * 35)[:, :, None] * np.array(
        [0.4, 1.0, 0.6], np.float32)
    return _bytes(image)


def wood(rng: np.random.Generator, height: int, width: int) -> np.ndarray:
    """Return a wooden table: planks with wavy grain."""
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    warp = _smooth(rng, height, width, 60) * rng.uniform(8, 25)
    period = float(rng.uniform(6, 18))
    grain = np.sin(2 * np.pi * (ys + warp) / period + 0.3 * _smooth(rng, height, width, 8))
    plank = float(rng.uniform(0.15, 0.4)) * max(height, width)
    seams = np.abs(((xs + rng.uniform(0, plank)) % plank) - 1.5) < 1.5
    tone = np.array([40, 80, 140], np.float32) * rng.uniform(0.5, 1.3)
    image = tone * (1 + 0.12 * grain[:, :, None]) + rng.normal(0, 3, (height, width, 1))
    image[seams] *= 0.55
    return _bytes(image)


def tray_outline(rng: np.random.Generator, height: int, width: int) -> tuple[np.ndarray, float]:
    """Return the (N,2) outline of a tray (a hexagon or a rounded rectangle) about the
    frame's middle, and its rim's width in pixels."""
    cx = width * rng.uniform(0.4, 0.6)
    cy = height * rng.uniform(0.4, 0.6)
    reach = min(height, width) * rng.uniform(0.45, 0.75)
    if rng.random() < 0.55:
        angles = np.arange(6) * np.pi / 3 + rng.uniform(0, np.pi / 3)
        outline = np.stack([np.cos(angles), np.sin(angles)], axis=1) * reach
    else:
        half = np.array([reach * rng.uniform(1.0, 1.5), reach * rng.uniform(0.7, 1.0)])
        corner = float(min(half) * rng.uniform(0.15, 0.5))
        angles = np.linspace(0, np.pi / 2, 8)
        arc = np.stack([np.cos(angles), np.sin(angles)], axis=1) * corner
        quarters = [arc * sign + (half - corner) * sign
                    for sign in (np.array([1, 1]), np.array([-1, 1]), np.array([-1, -1]),
                                 np.array([1, -1]))]
        outline = np.concatenate(quarters)
        outline = outline[np.argsort(np.arctan2(outline[:, 1], outline[:, 0]))]
    return outline + np.array([cx, cy]), reach * rng.uniform(0.08, 0.15)


def _fill(outline: np.ndarray, height: int, width: int, shrink: float) -> np.ndarray:
    """Return the float mask of *outline* pulled *shrink* pixels in toward its middle."""
    middle = outline.mean(axis=0)
    spread = np.linalg.norm(outline - middle, axis=1).mean()
    points = middle + (outline - middle) * max(0.0, 1 - shrink / spread)
    mask = np.zeros((height, width), np.uint8)
    cv2.fillPoly(mask, [np.round(points * 4).astype(np.int32)], 255, cv2.LINE_AA, shift=2)
    result: np.ndarray = mask.astype(np.float32) / 255
    return result


def dice_tray(rng: np.random.Generator, height: int, width: int) -> Table:
    """Return a felt dice tray on carpet, grass or wood; dice may lie only on its felt."""
    under = [carpet, grass, wood][int(rng.integers(3))](rng, height, width)
    outline, rim = tray_outline(rng, height, width)
    outer, inner = _fill(outline, height, width, 0), _fill(outline, height, width, rim)
    colour = np.array(list(TRAY.values())[int(rng.integers(len(TRAY)))], float)
    cloth = felt(rng, height, width, colour + rng.normal(0, 8, 3), float(rng.uniform(2.5, 5)))
    leather = np.array(LEATHER[int(rng.integers(len(LEATHER)))], float)
    if rng.random() < 0.35:
        leather = colour * rng.uniform(0.35, 0.6)
    leather = np.minimum(leather, colour * 0.7)  # the rim is darker than the felt
    band = (outer - inner).clip(0, 1)
    bevel = cv2.GaussianBlur(band, (0, 0), max(1.0, rim / 4))  # rounded: lighter mid-rim
    hide = felt(rng, height, width, leather, 3.0).astype(np.float32) * (
        0.75 + 0.6 * bevel[:, :, None])
    wall = cv2.GaussianBlur(1 - inner, (0, 0), max(1.0, rim / 3))  # the rim's shadow on felt
    cloth_shaded = cloth.astype(np.float32) * (1 - 0.45 * wall[:, :, None] * inner[:, :, None])
    ground = under.astype(np.float32) * (1 - 0.4 * cv2.GaussianBlur(outer, (0, 0), rim / 2)[
        :, :, None])
    image = ground * (1 - outer[:, :, None]) + hide * band[:, :, None] + cloth_shaded * inner[
        :, :, None]
    stitch(image, rng, outline, rim)
    inside = cv2.erode((inner > 0.5).astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    image = np.clip(image * light_falloff(rng, height, width), 0, 255).astype(np.uint8)
    return Table(image, inside, False)


def stitch(image: np.ndarray, rng: np.random.Generator, outline: np.ndarray,
           rim: float) -> None:
    """Draw a dashed seam of light thread along the middle of the rim, in place."""
    height, width = image.shape[:2]
    seam = (_fill(outline, height, width, rim * rng.uniform(0.3, 0.7)) > 0.5).astype(np.uint8)
    contours, _ = cv2.findContours(seam, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    thread = (rng.uniform(150, 230, 3) if rng.random() < 0.7
              else np.array([70.0, 170, 210])).tolist()
    dash = max(2, int(rim * rng.uniform(0.15, 0.3)))
    thick = max(1, int(rim / 14))
    for contour in contours:
        points = contour[:, 0]
        for i in range(0, len(points) - dash, 2 * dash):
            cv2.line(image, tuple(int(v) for v in points[i]),
                     tuple(int(v) for v in points[i + dash]), thread, thick, cv2.LINE_AA)


def felt_table(rng: np.random.Generator, height: int, width: int) -> Table:
    """Return a casino's green baize or a felt dice tray, at random."""
    if rng.random() < 0.45:
        return Table(casino_felt(rng, height, width), None, True)
    return dice_tray(rng, height, width)
