"""Dice of other materials, traced like models.shaded: translucent casino dice, marbled
and metal ones, and dark dice with light pips.

A translucent die lets the table through, tinted by its body the longer a ray runs
inside it; its pips are paint on the surface, so the pips of the faces behind (the
bottom, 7 - top, and the far sides) show through the body, fainter and shifted by
refraction. A marbled die swirls two colours through its volume; a metal die mirrors
a room in its faces, tinted by its metal.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from models.cube import rotation
from models.shaded import (
    face_marks,
    face_values,
    normals,
    rounded_cube,
    scaled,
    trace,
    view_rays,
)

KINDS = ("glass", "marble", "metal", "dark")
GLASS = {"red": (45, 40, 215), "blue": (215, 110, 35), "green": (80, 185, 40),
         "purple": (170, 45, 125), "amber": (30, 150, 235), "clear": (225, 220, 215)}
METALS = {"gold": (60, 165, 215), "silver": (205, 205, 200), "copper": (80, 120, 195),
          "gunmetal": (100, 96, 92)}
INDEX = 1.5  # of refraction of a casino die's acetate
INNER_STEPS = 28


@dataclass(frozen=True, slots=True)
class Look:
    """One die's material: *kind* (one of KINDS), BGR body and pip colours, and the
    second colour of a marbled body's swirls."""

    kind: str
    body: np.ndarray
    pip: np.ndarray
    vein: np.ndarray


@dataclass(frozen=True, slots=True)
class Traced:
    """A traced die: BGR light it sends (reflected, scattered, its pips), alpha, how much
    of the table behind passes through it per channel (0..1), and per pixel which marks
    show (0 body, 1 a pip on a face turned to the camera, 2 a pip seen through the body)."""

    image: np.ndarray
    alpha: np.ndarray
    transmit: np.ndarray
    marks: np.ndarray


def _pick(rng: np.random.Generator, table: dict[str, tuple[int, int, int]]) -> np.ndarray:
    """Return one of *table*'s colours, varied a little."""
    colour = np.array(list(table.values())[int(rng.integers(len(table)))], float)
    return np.clip(colour + rng.normal(0, 10, 3), 0, 255)


def random_look(rng: np.random.Generator, casino: bool = False) -> Look:
    """Return a random material; on a *casino* table most dice are translucent."""
    casino_glass = casino and rng.random() < 0.7
    kind = "glass" if casino_glass else KINDS[int(rng.integers(len(KINDS)))]
    light = np.clip(np.array([235.0, 238, 240]) - rng.uniform(0, 25), 0, 255)
    if kind == "glass":
        body = _pick(rng, GLASS)
        pip = light if rng.random() < 0.8 else _pick(rng, GLASS)
        return Look(kind, body, pip, body)
    if kind == "metal":
        body = _pick(rng, METALS)
        pip = [np.full(3, 20.0), np.array([40.0, 30, 170]), light][int(rng.integers(3))]
        return Look(kind, body, pip, body)
    if kind == "marble":
        body, vein = rng.uniform(20, 240, 3), rng.uniform(20, 240, 3)
        if rng.random() < 0.4:
            vein = np.clip(body * rng.uniform(0.2, 0.5) + rng.uniform(130, 220), 0, 255)
        lum = float((body + vein).mean() / 2)
        pip = np.full(3, 25.0) if lum > 140 else light
        if rng.random() < 0.3:
            pip = np.array([60.0, 180, 220])  # gold paint
        return Look(kind, body, pip, vein)
    body = np.array([rng.uniform(10, 55), rng.uniform(10, 55), rng.uniform(10, 55)])
    pip = light if rng.random() < 0.7 else _pick(rng, {"gold": (60, 180, 220),
                                                       "red": (50, 50, 200),
                                                       "silver": (190, 190, 190)})
    return Look("dark", body, pip, body)


def swirl(rng: np.random.Generator, points: np.ndarray) -> np.ndarray:
    """Return how much of the second colour each of (N,3) *points* takes (0..1): bands
    along a random direction, bent by two octaves of random waves, as in marbled plastic."""
    warp = np.zeros(len(points))
    for scale, strength in ((rng.uniform(1.0, 2.0), 1.0), (rng.uniform(3.0, 5.0), 0.4)):
        waves = rng.normal(0, 1, (4, 3)) * scale
        warp += strength * np.sin(points @ waves.T + rng.uniform(0, 2 * np.pi, 4)).sum(axis=1)
    axis = rng.normal(0, 1, 3)
    axis *= rng.uniform(2.0, 5.0) / np.linalg.norm(axis)
    bands = np.sin(points @ axis + rng.uniform(1.0, 2.0) * warp)
    result: np.ndarray = 0.5 + 0.5 * np.tanh(rng.uniform(2.0, 5.0) * bands)
    return result


def environment(rng: np.random.Generator, reflected: np.ndarray) -> np.ndarray:
    """Return a room's brightness (0..1.4) seen along camera-frame *reflected* directions:
    a bright ceiling above, dark walls below a horizon, a window or two, and the dark
    shape of whoever holds the camera straight above."""
    up = np.clip(reflected[:, 2], -1, 1)
    horizon = float(rng.uniform(0.2, 0.6))
    room = 0.08 + 0.7 / (1 + np.exp(-(up - horizon) * 12)) + 0.35 * np.tanh(
        reflected @ rng.normal(0, 1.5, 3))
    for _ in range(int(rng.integers(1, 4))):
        window = rng.normal(0, 1, 3)
        window[2] = abs(window[2]) + 0.2
        window /= np.linalg.norm(window)
        room += rng.uniform(0.4, 1.0) * np.exp(-np.sum((reflected - window) ** 2, axis=1)
                                               / rng.uniform(0.02, 0.1))
    holder = np.array([*rng.normal(0, 0.15, 2), 1.0])
    holder /= np.linalg.norm(holder)
    room *= 1 - rng.uniform(0.5, 0.85) * np.exp(-np.sum((reflected - holder) ** 2, axis=1)
                                                / rng.uniform(0.03, 0.12))
    result: np.ndarray = np.clip(room, 0.03, 1.4)
    return result


def refract(direction: np.ndarray, normal: np.ndarray, ratio: float) -> np.ndarray:
    """Return unit rays bent by Snell's law where (N,3) *direction*s meet surfaces of
    outward *normal*s, *ratio* = n outside / n inside (rays that would reflect keep on)."""
    cos_in = -np.sum(direction * normal, axis=1, keepdims=True)
    k = 1 - ratio**2 * (1 - cos_in**2)
    bent = ratio * direction + (ratio * cos_in - np.sqrt(np.clip(k, 0, None))) * normal
    bent = np.where(k > 0, bent, direction)
    result: np.ndarray = bent / np.linalg.norm(bent, axis=1, keepdims=True)
    return result


def exits(starts: np.ndarray, directions: np.ndarray, rounding: float) -> np.ndarray:
    """Return where rays from *starts* just inside the die along *directions* leave it.

    Inside, the signed distance is minus the distance to the nearest surface, never more
    than the way out along the ray, so stepping by it never passes the surface.
    """
    points = starts + 0.05 * directions
    for _ in range(INNER_STEPS):
        points = points - rounded_cube(points, rounding)[:, None] * directions
    return points


@dataclass(frozen=True, slots=True)
class _Hits:
    """Where a die's rays meet it: die-frame points and normals, camera-frame normals."""

    turn: np.ndarray
    ray: np.ndarray  # the view direction in the die's frame
    hit: np.ndarray  # which pixels of the side x side image see the die
    points: np.ndarray
    normal: np.ndarray
    seen: np.ndarray
    side: int
    px: int


def _hits(rng: np.random.Generator, size: int, pitch: float, rounding: float) -> _Hits:
    turn = rotation(pitch, float(rng.uniform(0, 2 * np.pi)))
    view, side, px = view_rays(turn, size)
    ray = turn.T @ np.array([0.0, 0.0, -1.0])
    points = trace(view @ turn, ray, rounding)
    hit = ~np.isnan(points[:, 0])
    normal = normals(points[hit], rounding)
    return _Hits(turn, ray, hit, points[hit], normal, normal @ turn.T, side, px)


def _sprite(h: _Hits, size: int, colour: np.ndarray, transmit: np.ndarray,
            marks: np.ndarray) -> Traced:
    """Return the traced die's images, resized so the die is *size* pixels wide."""
    image = np.zeros((h.hit.size, 3))
    image[h.hit] = colour
    through = np.zeros((h.hit.size, 3), np.float32)
    through[h.hit] = transmit
    shown = np.zeros(h.hit.size, np.uint8)
    shown[h.hit] = marks
    flat = (h.side, h.side)
    big = scaled(np.clip(image.reshape(*flat, 3), 0, 255).astype(np.uint8), size, h.px)
    alpha = scaled((h.hit.reshape(flat) * 255).astype(np.uint8), size, h.px)
    return Traced(big, alpha, scaled(through.reshape(*flat, 3), size, h.px),
                  cv2.resize(shown.reshape(flat), alpha.shape[::-1],
                             interpolation=cv2.INTER_NEAREST))


def glass_die(rng: np.random.Generator, value: int, size: int, pitch: float,
              look: Look) -> Traced:
    """Return a translucent die of edge *size* px showing *value*, seen *pitch* radians
    off vertical: sharp edges, painted pips, the table and the far pips seen through."""
    rounding = float(rng.uniform(0.03, 0.08))
    values = face_values(rng, value)
    h = _hits(rng, size, pitch, rounding)
    diffuse, glint = _lights(rng, h)
    pip_radius = float(rng.uniform(0.14, 0.19))
    front = face_marks(h.points, values, pip_radius) > 0
    cos_in = np.clip(-(h.normal @ h.ray), 0, 1)
    fresnel = (0.04 + 0.96 * (1 - cos_in) ** 5)[:, None]
    inner = refract(np.broadcast_to(h.ray, h.points.shape), h.normal, 1 / INDEX)
    out = exits(h.points, inner, rounding)
    back = (face_marks(out, values, pip_radius) > 0) & ~front
    tint = np.clip(look.body / 255, 0.03, 1.0)
    absorbed = tint[None] ** (np.linalg.norm(out - h.points, axis=1) * rng.uniform(0.5, 1.0)
                              )[:, None]
    ambient = float(rng.uniform(0.4, 0.7))
    light = (ambient + (1 - ambient) * diffuse)[:, None]
    glow = look.body[None] * float(rng.uniform(0.18, 0.4)) * light  # light scattered inside
    faint = float(rng.uniform(0.35, 0.6))
    colour = (1 - fresnel) * (glow + back[:, None] * look.pip[None] * absorbed * faint)
    colour += fresnel * 255 * environment(rng, _reflect(h))[:, None] * 0.6
    colour += float(rng.uniform(0.6, 1.0)) * glint[:, None] ** rng.uniform(800, 2500) * 255
    clear = float(rng.uniform(0.7, 0.95))
    transmit = (1 - fresnel) * absorbed * clear * ~back[:, None]
    colour = np.where(front[:, None], look.pip[None] * light, colour)
    transmit = np.where(front[:, None], 0.0, transmit)
    marks = np.where(front, 1, np.where(back, 2, 0)).astype(np.uint8)
    return _sprite(h, size, colour, transmit, marks)


def _lights(rng: np.random.Generator, h: _Hits) -> tuple[np.ndarray, np.ndarray]:
    """Return the diffuse term and how near each mirrored ray comes to a light drawn at
    random above the table (a cosine: raised to a power, a glint that is a spot)."""
    light = np.array([*rng.uniform(-0.7, 0.7, 2), 1.0])
    light /= np.linalg.norm(light)
    return np.clip(h.seen @ light, 0, 1), np.clip(_reflect(h) @ light, 0, 1)


def _reflect(h: _Hits) -> np.ndarray:
    """Return the camera-frame directions the camera's rays leave in after a mirror bounce.

    The rays are spread a little, as from a camera a few die widths away, so that a
    flat face mirrors a stretch of the room rather than one point of it.
    """
    grid = (np.arange(h.side) + 0.5 - h.side / 2) / h.side
    xs, ys = np.meshgrid(grid, grid)
    view = np.stack([xs.ravel(), ys.ravel(), np.full(xs.size, -1.2)], axis=1)[h.hit]
    view /= np.linalg.norm(view, axis=1, keepdims=True)
    result: np.ndarray = view - 2 * np.sum(view * h.seen, axis=1, keepdims=True) * h.seen
    return result


def solid_die(rng: np.random.Generator, value: int, size: int, pitch: float,
              look: Look) -> Traced:
    """Return an opaque die of edge *size* px showing *value*, seen *pitch* radians off
    vertical: marbled (two colours swirled), metal (mirrors a room) or plain."""
    rounding = float(rng.uniform(0.1, 0.3))
    values = face_values(rng, value)
    h = _hits(rng, size, pitch, rounding)
    diffuse, glint = _lights(rng, h)
    depth = face_marks(h.points, values, float(rng.uniform(0.15, 0.21)))
    pip = (depth > 0)[:, None]
    body = np.broadcast_to(look.body, h.points.shape)
    if look.kind == "marble":
        mix = swirl(rng, h.points)[:, None]
        body = look.body[None] * (1 - mix) + look.vein[None] * mix
    ambient = float(rng.uniform(0.35, 0.6))
    hollow = (1 - 0.35 * (depth > 0) * (1 - depth))[:, None]
    lit = (ambient + (1 - ambient) * diffuse)[:, None] * hollow
    if look.kind == "metal":
        room = environment(rng, _reflect(h))[:, None]
        body = body * (0.15 * lit + 0.95 * room) + float(rng.uniform(0.5, 0.9)) * (
            glint[:, None] ** rng.uniform(20, 60)) * (look.body[None] * 0.5 + 128)
        colour = np.where(pip, look.pip[None] * lit, body)
    else:
        shine = float(rng.uniform(0.15, 0.5)) * glint ** float(rng.uniform(20, 80)) * 255
        colour = np.where(pip, look.pip[None], body) * lit + shine[:, None]
    marks = np.where(depth > 0, 1, 0).astype(np.uint8)
    return _sprite(h, size, colour, np.zeros_like(colour), marks)


def traced_die(rng: np.random.Generator, value: int, size: int, pitch: float,
               look: Look) -> Traced:
    """Return a die of *look*'s material (glass, or any opaque one) traced as a solid."""
    if look.kind == "glass":
        return glass_die(rng, value, size, pitch, look)
    return solid_die(rng, value, size, pitch, look)
