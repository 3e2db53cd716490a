"""A die drawn as a solid: a cube with rounded edges, lit from one side, with a glint.

Flat-shaded cubes (models.cube) have sharp edges and evenly lit faces; a real die's
edges are rounded and catch the light, its faces shade from one side to the other
and its pips are dark hollows. Each pixel's ray is traced to the rounded cube
(sphere tracing of its signed distance), lit with a diffuse and a specular term,
and coloured by the face it hits.
"""

from __future__ import annotations

import cv2
import numpy as np

from models.cube import rotation, side_values

TRACE_SIDE = 72  # the die is traced at most this many pixels wide, then resized
STEPS = 40
PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
        4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
        5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
        6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)]}


def rounded_cube(points: np.ndarray, rounding: float) -> np.ndarray:
    """Return the signed distance of (N,3) *points* to a cube of half-side 1 whose
    edges are rounded with radius *rounding*."""
    q = np.abs(points) - (1 - rounding)
    outside = np.linalg.norm(np.maximum(q, 0), axis=1)
    result: np.ndarray = outside + np.minimum(q.max(axis=1), 0) - rounding
    return result


def trace(origins: np.ndarray, direction: np.ndarray, rounding: float) -> np.ndarray:
    """Return where each ray from *origins* along *direction* meets the cube (NaN: misses)."""
    t = np.zeros(len(origins))
    alive = np.ones(len(origins), bool)
    for _ in range(STEPS):
        d = rounded_cube(origins[alive] + t[alive, None] * direction, rounding)
        t[alive] += d
        done = np.abs(d) < 1e-3
        far = t[alive] > 8
        index = np.flatnonzero(alive)
        alive[index[done | far]] = False
        t[index[far]] = np.nan
        if not alive.any():
            break
    t[alive] = np.nan
    result: np.ndarray = origins + t[:, None] * direction
    return result


def normals(points: np.ndarray, rounding: float) -> np.ndarray:
    """Return unit surface normals at *points* by central differences."""
    eps = 1e-3
    grad = np.stack([rounded_cube(points + e, rounding) - rounded_cube(points - e, rounding)
                     for e in np.eye(3) * eps], axis=1)
    result: np.ndarray = grad / np.linalg.norm(grad, axis=1, keepdims=True).clip(1e-9)
    return result


def face_marks(points: np.ndarray, values: dict[int, int], pip_radius: float) -> np.ndarray:
    """Return how deep in a pip each surface point lies (0 outside, 1 at its middle).

    *values* maps a face (axis * 2 + (1 if positive)) to the number it shows.
    """
    axis = np.abs(points).argmax(axis=1)
    face = axis * 2 + (points[np.arange(len(points)), axis] > 0)
    depth = np.zeros(len(points))
    for key, value in values.items():
        on = face == key
        uv = np.delete(points[on], key // 2, axis=1)
        for u, v in PIPS[value]:
            distance = np.hypot(uv[:, 0] - 0.5 * u, uv[:, 1] - 0.5 * v)
            depth[on] = np.maximum(depth[on], 1 - distance / pip_radius)
    return depth.clip(0, 1)


def face_values(rng: np.random.Generator, value: int) -> dict[int, int]:
    """Return the number on each face (see face_marks) of a die showing *value* on top."""
    sides = side_values(rng, value)
    return {5: value, 4: 7 - value, 1: sides["east"], 0: sides["west"],
            3: sides["north"], 2: sides["south"]}


def view_rays(turn: np.ndarray, size: int) -> tuple[np.ndarray, int, int]:
    """Return the camera's ray origins (one a pixel, in the camera's frame), the traced
    image's side and the die's traced edge in pixels, for a die turned by *turn*."""
    px = min(size, TRACE_SIDE)
    reach = float(np.abs(turn @ np.array([[1, 1, 1], [1, 1, -1], [1, -1, 1], [-1, 1, 1]]).T)
                  [:2].max(axis=1).max())
    side = int(np.ceil(reach * px)) + 2
    grid = (np.arange(side) + 0.5 - side / 2) / (px / 2)
    xs, ys = np.meshgrid(grid, grid)  # image rows run along y: the near side is below
    view = np.stack([xs.ravel(), ys.ravel(), np.full(xs.size, 4.0)], axis=1)
    return view, side, px


def scaled(image: np.ndarray, size: int, px: int) -> np.ndarray:
    """Return a traced *image* (a die *px* wide) resized so the die is *size* wide."""
    out = max(4, round(image.shape[0] * size / px))
    interpolation = cv2.INTER_LINEAR if out > image.shape[0] else cv2.INTER_AREA
    result: np.ndarray = cv2.resize(image, (out, out), interpolation=interpolation)
    return result


def lighting(rng: np.random.Generator, normal: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return the diffuse term and the cosine to the glint direction at camera-frame
    *normal*s, for a light drawn at random above the table."""
    light = np.array([*rng.uniform(-0.7, 0.7, 2), 1.0])
    light /= np.linalg.norm(light)
    diffuse = np.clip(normal @ light, 0, 1)
    halfway = light + np.array([0.0, 0.0, 1.0])  # between the light and the camera
    glint = np.clip(normal @ (halfway / np.linalg.norm(halfway)), 0, 1)
    return diffuse, glint


def shaded_die(rng: np.random.Generator, value: int, size: int, pitch: float,
               body: np.ndarray, pip: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return (BGR, alpha) of a die of edge *size* px showing *value* on top, seen *pitch*
    radians off vertical, its body and pips of the given BGR colours."""
    turn = rotation(pitch, float(rng.uniform(0, 2 * np.pi)))
    rounding = float(rng.uniform(0.12, 0.35))
    values = face_values(rng, value)
    view, side, px = view_rays(turn, size)
    hits = trace(view @ turn, turn.T @ np.array([0.0, 0.0, -1.0]), rounding)
    hit = ~np.isnan(hits[:, 0])
    colour = np.zeros((len(view), 3))
    where = hits[hit]
    diffuse, glint = lighting(rng, normals(where, rounding) @ turn.T)  # in the camera's frame
    depth = face_marks(where, values, float(rng.uniform(0.17, 0.24)))
    base = body[None] * (1 - (depth > 0)[:, None]) + pip[None] * (depth > 0)[:, None]
    hollow = 1 - 0.35 * (depth > 0) * (1 - depth)  # a pip's rim lies in its own shadow
    ambient = float(rng.uniform(0.35, 0.6))
    lit = base * ((ambient + (1 - ambient) * diffuse) * hollow)[:, None]
    shine = float(rng.uniform(0.2, 0.9)) * glint ** float(rng.uniform(10, 60)) * 255
    colour[hit] = lit + shine[:, None]
    image = np.clip(colour.reshape(side, side, 3), 0, 255).astype(np.uint8)
    alpha = (hit.reshape(side, side) * 255).astype(np.uint8)
    return scaled(image, size, px), scaled(alpha, size, px)
