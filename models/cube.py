"""A die seen at an angle: a cube whose top face and up to two sides show, as a phone
held over a table sees it (sides darker, their pips foreshortened)."""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

# Corners of the unit cube's faces, counter-clockwise seen from outside, and their normals.
FACES = {
    "top": ((0, 0, 1), [(-1, -1, 1), (1, -1, 1), (1, 1, 1), (-1, 1, 1)]),
    "east": ((1, 0, 0), [(1, -1, 1), (1, -1, -1), (1, 1, -1), (1, 1, 1)]),
    "west": ((-1, 0, 0), [(-1, 1, 1), (-1, 1, -1), (-1, -1, -1), (-1, -1, 1)]),
    "north": ((0, 1, 0), [(1, 1, 1), (1, 1, -1), (-1, 1, -1), (-1, 1, 1)]),
    "south": ((0, -1, 0), [(-1, -1, 1), (-1, -1, -1), (1, -1, -1), (1, -1, 1)]),
}

FaceDrawer = Callable[[int, int], tuple[np.ndarray, np.ndarray]]


def side_values(rng: np.random.Generator, top: int) -> dict[str, int]:
    """Return values for the four sides of a die showing *top* (opposite faces sum to 7)."""
    ring = [v for v in (1, 2, 3, 4, 5, 6) if v not in (top, 7 - top)]
    first = int(rng.choice(ring))
    second = next(v for v in ring if v not in (first, 7 - first))
    return {"east": first, "north": second, "west": 7 - first, "south": 7 - second}


def rotation(pitch: float, yaw: float) -> np.ndarray:
    """Return the rotation that turns the die by *yaw* and tilts the view by *pitch* (radians)."""
    cz, sz, cx, sx = np.cos(yaw), np.sin(yaw), np.cos(pitch), np.sin(pitch)
    turn = np.array([[cz, -sz, 0], [sz, cz, 0], [0, 0, 1]])
    tilt = np.array([[1, 0, 0], [0, cx, -sx], [0, sx, cx]])
    turned: np.ndarray = tilt @ turn
    return turned


def cube_sprite(rng: np.random.Generator, value: int, size: int, pitch: float,
                draw_face: FaceDrawer) -> tuple[np.ndarray, np.ndarray]:
    """Return (BGR, alpha) of a die showing *value* on top, seen *pitch* radians off vertical.

    *size* is the die's edge in pixels; *draw_face(value, pixels)* draws one face
    (BGR, alpha) the way models.render does for a die seen from above, so all faces
    share one die's colours. The image's top is the far side of the table.
    """
    turn = rotation(pitch, float(rng.uniform(0, 2 * np.pi)))
    values = {"top": value, **side_values(rng, value)}
    light = rng.uniform(0.45, 0.85, 2)
    projected, shown = [], []
    for name, (normal, corners) in FACES.items():
        facing = turn @ np.array(normal, float)
        if facing[2] <= 0.08:  # turned away or seen edge-on
            continue
        points = (turn @ np.array(corners, float).T).T[:, :2] * size / 2
        projected.append(points)
        shade = 1.0 if name == "top" else float(light[0] + (light[1] - light[0]) * facing[2])
        shown.append((values[name], points, shade))
    everything = np.concatenate(projected)
    low = everything.min(axis=0)
    width, height = np.ceil(everything.max(axis=0) - low).astype(int) + 1
    image = np.zeros((height, width, 3), np.float32)
    alpha = np.zeros((height, width), np.float32)
    face_px = max(8, size)
    square = np.array([[0, 0], [face_px, 0], [face_px, face_px], [0, face_px]], np.float32)
    for face_value, points, shade in shown:
        face, face_alpha = draw_face(face_value, face_px)
        m = cv2.getPerspectiveTransform(square, (points - low).astype(np.float32))
        warped = cv2.warpPerspective(face.astype(np.float32) * shade, m, (width, height))
        mask = cv2.warpPerspective(face_alpha.astype(np.float32) / 255, m, (width, height))
        image = image * (1 - mask[:, :, None]) + warped * mask[:, :, None]
        alpha = np.maximum(alpha, mask)
    return np.clip(image, 0, 255).astype(np.uint8), (alpha * 255).astype(np.uint8)
