"""Things on a table that look like dice but are not: rendered "not a die" examples.

Keyboard keys (rounded squares with a glyph), buttons, printed labels, coins,
numbered tokens, playing-card pips, cable ends, hands and game-board tiles, drawn with OpenCV onto
cluttered backgrounds (wood grain, cloth weave, desk clutter). models.render puts
them into scenes; training reads their boxes as hard "not a die" examples.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

Sprite = tuple[np.ndarray, np.ndarray]  # BGR uint8 and alpha uint8 of the same size
GLYPHS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789#%&?+-=<>*@"
FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_PLAIN,
         cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_COMPLEX)
SKIN = ((60, 90, 160), (90, 130, 200), (120, 160, 225), (40, 60, 110))  # BGR


def _colour(rng: np.random.Generator) -> tuple[float, float, float]:
    """Return a random BGR colour."""
    b, g, r = rng.uniform(0, 255, 3)
    return float(b), float(g), float(r)


def _ink(rng: np.random.Generator, paper: tuple[float, ...]) -> tuple[float, float, float]:
    """Return a colour that stands out from *paper* (dark on light, light on dark)."""
    level = 25.0 if float(np.mean(paper)) > 110 else 230.0
    return level, level * rng.uniform(0.8, 1.0), level


def _text(image: np.ndarray, text: str, centre: tuple[float, float], height: float,
          colour: tuple[float, ...], rng: np.random.Generator) -> None:
    """Draw *text* about *height* pixels tall, centred, in place."""
    font = FONTS[int(rng.integers(len(FONTS)))]
    thickness = max(1, round(height / 8))
    (tw, th), _ = cv2.getTextSize(text, font, 1.0, thickness)
    scale = height / max(th, 1)
    (tw, th), _ = cv2.getTextSize(text, font, scale, thickness)
    origin = (round(centre[0] - tw / 2), round(centre[1] + th / 2))
    cv2.putText(image, text, origin, font, scale, colour, thickness, cv2.LINE_AA)


def _rounded(alpha: np.ndarray, x1: int, y1: int, x2: int, y2: int, radius: int) -> None:
    """Fill a rounded rectangle into *alpha* in place."""
    radius = max(1, min(radius, (x2 - x1) // 2, (y2 - y1) // 2))
    cv2.rectangle(alpha, (x1 + radius, y1), (x2 - radius, y2), 255, -1)
    cv2.rectangle(alpha, (x1, y1 + radius), (x2, y2 - radius), 255, -1)
    for cx, cy in ((x1 + radius, y1 + radius), (x2 - radius, y1 + radius),
                   (x1 + radius, y2 - radius), (x2 - radius, y2 - radius)):
        cv2.circle(alpha, (cx, cy), radius, 255, -1)


def key(rng: np.random.Generator, s: int) -> Sprite:
    """A keyboard key from above: a rounded square, a lighter top, one or two glyphs."""
    alpha = np.zeros((s, s), np.uint8)
    _rounded(alpha, 0, 0, s - 1, s - 1, int(s * rng.uniform(0.08, 0.25)))
    body = (30.0, 30.0, 32.0) if rng.random() < 0.5 else (225.0, 225.0, 220.0)
    body = body if rng.random() < 0.8 else _colour(rng)
    image = np.zeros((s, s, 3), np.uint8)
    image[:] = body
    inset = int(s * rng.uniform(0.06, 0.14))
    top = tuple(min(255.0, c * 1.12 + 8) for c in body)
    cv2.rectangle(image, (inset, inset), (s - inset, s - inset), top, -1)
    glyph = "".join(rng.choice(list(GLYPHS), int(rng.integers(1, 3))))
    place = (s * rng.uniform(0.3, 0.5), s * rng.uniform(0.3, 0.5)) if rng.random() < 0.5 \
        else (s / 2, s / 2)
    _text(image, glyph, place, s * rng.uniform(0.2, 0.4), _ink(rng, body), rng)
    return image, alpha


def button(rng: np.random.Generator, s: int) -> Sprite:
    """A round button: a disc with a rim and two or four thread holes, or a symbol."""
    alpha = np.zeros((s, s), np.uint8)
    cv2.circle(alpha, (s // 2, s // 2), s // 2 - 1, 255, -1, cv2.LINE_AA)
    body = _colour(rng)
    image = np.zeros((s, s, 3), np.uint8)
    image[:] = body
    dark = tuple(c * 0.7 for c in body)
    cv2.circle(image, (s // 2, s // 2), int(s * 0.38), dark, max(1, s // 16), cv2.LINE_AA)
    if rng.random() < 0.6:
        holes = 2 if rng.random() < 0.4 else 4
        for i in range(holes):
            angle = np.pi * (2 * i / holes + 0.25)
            centre = (round(s / 2 + s * 0.13 * np.cos(angle)),
                      round(s / 2 + s * 0.13 * np.sin(angle)))
            cv2.circle(image, centre, max(1, s // 14), dark, -1, cv2.LINE_AA)
    else:
        _text(image, str(rng.choice(list("0123456789+-IO"))), (s / 2, s / 2), s * 0.35,
              _ink(rng, body), rng)
    return image, alpha


def label(rng: np.random.Generator, s: int) -> Sprite:
    """A printed label or a piece of printed page: lines of small text on paper."""
    h = s
    w = int(s * rng.uniform(1.0, 2.5))
    alpha = np.full((h, w), 255, np.uint8)
    paper = (float(rng.uniform(200, 255)),) * 3 if rng.random() < 0.7 else _colour(rng)
    image = np.zeros((h, w, 3), np.uint8)
    image[:] = paper
    lines = int(rng.integers(1, 5))
    for i in range(lines):
        words = "".join(rng.choice(list(GLYPHS + "     "), int(rng.integers(2, 10))))
        y = h * (i + 1) / (lines + 1)
        _text(image, words.strip() or "A", (w / 2, y), h / (lines + 2) * 0.8, _ink(rng, paper), rng)
    return image, alpha


def coin(rng: np.random.Generator, s: int) -> Sprite:
    """A coin: a metallic disc with a raised rim and an embossed number or head."""
    alpha = np.zeros((s, s), np.uint8)
    cv2.circle(alpha, (s // 2, s // 2), s // 2 - 1, 255, -1, cv2.LINE_AA)
    metal = ((60, 150, 200), (180, 180, 180), (70, 110, 170))[int(rng.integers(3))]
    shade = np.linspace(1.2, 0.7, s, dtype=np.float32)[:, None, None]
    image = np.clip(np.full((s, s, 3), metal, np.float32) * shade, 0, 255).astype(np.uint8)
    rim = tuple(c * 0.75 for c in metal)
    cv2.circle(image, (s // 2, s // 2), int(s * 0.42), rim, max(1, s // 20), cv2.LINE_AA)
    if rng.random() < 0.5:
        _text(image, str(int(rng.integers(1, 100))), (s / 2, s / 2), s * 0.3, rim, rng)
    else:
        cv2.ellipse(image, (s // 2, s // 2), (s // 6, s // 4), 0, 0, 360, rim, -1, cv2.LINE_AA)
    return image, alpha


def _numbered(image: np.ndarray, centre: tuple[float, float], r: float,
              rng: np.random.Generator) -> None:
    """Draw a number token of radius *r* in place: a light disc, a number 2..12 and
    under it as many dots as the number's chance on two dice (red 6 and 8)."""
    paper = tuple(float(c) for c in rng.uniform((170, 200, 220), (240, 245, 250)))
    cv2.circle(image, (round(centre[0]), round(centre[1])), max(1, round(r)), paper, -1,
               cv2.LINE_AA)
    number = int(rng.choice([2, 3, 4, 5, 6, 8, 9, 10, 11, 12]))
    ink = (20.0, 20.0, 180.0) if number in (6, 8) else (20.0, 20.0, 20.0)
    _text(image, str(number), (centre[0], centre[1] - 0.1 * r), 0.64 * r, ink, rng)
    dots = 6 - abs(7 - number)
    for i in range(dots):
        x = round(centre[0] + (i - (dots - 1) / 2) * r * 0.16)
        cv2.circle(image, (x, round(centre[1] + 0.44 * r)), max(1, round(r / 14)), ink, -1,
                   cv2.LINE_AA)


def _hexagon(s: int, pointy: bool = False) -> np.ndarray:
    """Return the corners of a hexagon filling an s x s square."""
    angles = np.pi / 3 * np.arange(6) + (np.pi / 6 if pointy else 0)
    return np.stack([s / 2 + (s / 2 - 1) * np.cos(angles),
                     s / 2 + (s / 2 - 1) * np.sin(angles)], 1).astype(np.int32)


def token(rng: np.random.Generator, s: int) -> Sprite:
    """A board-game number token: a disc (or hexagon) with a number and dots under it."""
    alpha = np.zeros((s, s), np.uint8)
    if rng.random() < 0.7:
        cv2.circle(alpha, (s // 2, s // 2), s // 2 - 1, 255, -1, cv2.LINE_AA)
    else:
        cv2.fillConvexPoly(alpha, _hexagon(s), 255, cv2.LINE_AA)
    image = np.zeros((s, s, 3), np.uint8)
    _numbered(image, (s / 2, s / 2), s / 2 + 1, rng)
    return image, alpha


def terrain(rng: np.random.Generator, height: int, width: int) -> np.ndarray:
    """Return a printed landscape's mottling (float32, about zero mean): colour patches
    at a coarse scale, grain at a fine one and dark or light specks (trees, rocks)."""
    def field(cells: int, channels: int) -> np.ndarray:
        noise = rng.normal(0, 1, (height // cells + 2, width // cells + 2, channels))
        return cv2.resize(noise, (width, height)).reshape(height, width, channels)

    fine = field(2, 1)
    specks = np.where(np.abs(fine) > 1.8, np.sign(fine) * rng.uniform(30, 70), 0.0)
    light = field(12, 1) * rng.uniform(10, 35) + fine * rng.uniform(5, 20) + specks
    return (light + field(12, 3) * rng.uniform(3, 12)).astype(np.float32)


def tile(rng: np.random.Generator, s: int) -> Sprite:
    """A game-board tile: a printed landscape hexagon (or square) with a light rim and,
    mostly, a number token in its middle (a tile with a disc in it looks like a one)."""
    alpha = np.zeros((s, s), np.uint8)
    corners = _hexagon(s, pointy=rng.random() < 0.5)
    if rng.random() < 0.3:
        corners = np.array([[0, 0], [s - 1, 0], [s - 1, s - 1], [0, s - 1]], np.int32)
    cv2.fillConvexPoly(alpha, corners, 255, cv2.LINE_AA)
    land = np.array(_colour(rng), np.float32) + terrain(rng, s, s)
    image = np.clip(land, 0, 255).astype(np.uint8)
    rim = tuple(float(c) for c in rng.uniform((150, 190, 200), (220, 235, 245)))
    cv2.polylines(image, [corners], True, rim, max(1, s // 20), cv2.LINE_AA)
    if rng.random() < 0.8:
        _numbered(image, (s / 2, s / 2), s * rng.uniform(0.14, 0.24), rng)
    return image, alpha


def _suit(image: np.ndarray, centre: tuple[float, float], size: float, suit: int,
          colour: tuple[float, ...]) -> None:
    """Draw a heart, diamond, club or spade of *size* pixels in place."""
    x, y, r = centre[0], centre[1], size / 2
    if suit == 1:  # diamond
        points = np.array([[x, y - r], [x + 0.7 * r, y], [x, y + r], [x - 0.7 * r, y]], np.int32)
        cv2.fillConvexPoly(image, points, colour, cv2.LINE_AA)
        return
    lobe = max(1, round(r * 0.5))
    down = suit == 0  # a heart's point is at the bottom, a spade's at the top
    sign = 1 if down else -1
    for dx in (-0.45, 0.45):
        cv2.circle(image, (round(x + dx * r), round(y - sign * 0.2 * r)), lobe, colour, -1,
                   cv2.LINE_AA)
    if suit == 2:  # club: a third lobe on top and a stem
        cv2.circle(image, (round(x), round(y - 0.6 * r)), lobe, colour, -1, cv2.LINE_AA)
    points = np.array([[x - r, y - sign * 0.05 * r], [x + r, y - sign * 0.05 * r],
                       [x, y + sign * r]], np.int32)
    cv2.fillConvexPoly(image, points, colour, cv2.LINE_AA)


def card(rng: np.random.Generator, s: int) -> Sprite:
    """Part of a playing card: suit pips in rows on white, with a corner index."""
    h, w = s, int(s * rng.uniform(0.7, 1.0))
    alpha = np.zeros((h, w), np.uint8)
    _rounded(alpha, 0, 0, w - 1, h - 1, max(1, s // 12))
    image = np.full((h, w, 3), rng.uniform(225, 255), np.uint8)
    suit = int(rng.integers(4))
    colour = (30.0, 30.0, 200.0) if suit < 2 else (25.0, 25.0, 25.0)
    rows, cols = int(rng.integers(1, 4)), int(rng.integers(1, 3))
    if rows * cols == 1:  # one pip in the middle of a white square would be a one
        rows = 2
    for i in range(rows):
        for j in range(cols):
            centre = (w * (j + 1) / (cols + 1), h * (i + 1) / (rows + 1))
            _suit(image, centre, min(w / (cols + 1), h / (rows + 1)) * 0.7, suit, colour)
    _text(image, str(rng.choice(list("A23456789JQK"))), (w * 0.12, h * 0.1), h * 0.1, colour, rng)
    return image, alpha


def cable(rng: np.random.Generator, s: int) -> Sprite:
    """A cable end: a plug body with a metal tip, and the cable leaving it."""
    alpha = np.zeros((s, s), np.uint8)
    image = np.zeros((s, s, 3), np.uint8)
    body = (30.0, 30.0, 30.0) if rng.random() < 0.6 else (230.0, 230.0, 230.0)
    x1, x2 = int(s * 0.3), int(s * 0.7)
    _rounded(alpha, x1, int(s * 0.25), x2, int(s * 0.75), s // 10)
    cv2.rectangle(alpha, (int(s * 0.45), int(s * 0.75)), (int(s * 0.55), s - 1), 255, -1)
    cv2.rectangle(alpha, (int(s * 0.35), 0), (int(s * 0.65), int(s * 0.25)), 255, -1)
    image[:] = body
    cv2.rectangle(image, (int(s * 0.35), 0), (int(s * 0.65), int(s * 0.25)), (170, 170, 175), -1)
    for i in range(int(rng.integers(0, 3))):
        cv2.rectangle(image, (int(s * (0.4 + 0.1 * i)), int(s * 0.05)),
                      (int(s * (0.45 + 0.1 * i)), int(s * 0.12)), (60, 60, 60), -1)
    return image, alpha


def hand(rng: np.random.Generator, s: int) -> Sprite:
    """A hand or fingertips: skin-coloured ellipses with nails and creases."""
    alpha = np.zeros((s, s), np.uint8)
    skin = SKIN[int(rng.integers(len(SKIN)))]
    image = np.zeros((s, s, 3), np.uint8)
    image[:] = skin
    fingers = int(rng.integers(1, 5))
    for i in range(fingers):
        x = round(s * (0.2 + 0.6 * (i + 0.5) / fingers))
        cv2.ellipse(alpha, (x, s // 2), (max(2, s // (2 * fingers + 1)), int(s * 0.45)), 0, 0,
                    360, 255, -1, cv2.LINE_AA)
        nail = tuple(min(255.0, c + 40) for c in skin)
        cv2.ellipse(image, (x, int(s * 0.18)), (max(1, s // (4 * fingers + 2)), s // 10), 0, 0,
                    360, nail, -1, cv2.LINE_AA)
        crease = tuple(c * 0.75 for c in skin)
        cv2.line(image, (x - s // 12, int(s * 0.55)), (x + s // 12, int(s * 0.55)), crease, 1,
                 cv2.LINE_AA)
    return image, alpha


DECOYS: dict[str, Callable[[np.random.Generator, int], Sprite]] = {
    "key": key, "button": button, "label": label, "coin": coin, "token": token,
    "card": card, "cable": cable, "hand": hand}
BOARD_DECOYS = {**DECOYS, "tile": tile}  # at a game table, board tiles lie about too


def decoy(rng: np.random.Generator, size: int, kind: str | None = None,
          kinds: dict[str, Callable[[np.random.Generator, int], Sprite]] = DECOYS) -> Sprite:
    """Return a random one of *kinds* (or the named) decoy about *size* pixels, shaded
    like a die."""
    draw = BOARD_DECOYS[kind] if kind else kinds[str(rng.choice(sorted(kinds)))]
    scale = 4  # draw large, then shrink: smooth edges
    image, alpha = draw(rng, max(8, size) * scale)
    shade = np.linspace(1.08, 0.88, image.shape[0], dtype=np.float32)[:, None, None]
    image = np.clip(image.astype(np.float32) * shade, 0, 255).astype(np.uint8)
    out = (max(1, image.shape[1] // scale), max(1, image.shape[0] // scale))
    return (cv2.resize(image, out, interpolation=cv2.INTER_AREA),
            cv2.resize(alpha, out, interpolation=cv2.INTER_AREA))


def cluttered_background(rng: np.random.Generator, height: int, width: int) -> np.ndarray:
    """Return a busy table: wood grain, a woven cloth or a desk with lines and patches."""
    kind = int(rng.integers(3))
    base = rng.uniform(30, 220, 3).astype(np.float32)
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    if kind == 0:  # wood: wavy stripes along one direction
        period = rng.uniform(6, 30)
        wave = np.sin((ys + 8 * np.sin(xs / rng.uniform(40, 200))) / period * 2 * np.pi)
        image = base[None, None] * (1 + 0.18 * wave[:, :, None])
    elif kind == 1:  # cloth: a fine weave
        period = rng.uniform(2.5, 8)
        weave = np.sin(xs / period * np.pi) * np.sin(ys / period * np.pi)
        image = base[None, None] * (1 + 0.12 * weave[:, :, None])
    else:  # desk: a plain top with lines, edges and patches of other colours
        image = np.broadcast_to(base, (height, width, 3)).copy()
        for _ in range(int(rng.integers(3, 12))):
            p1 = (int(rng.integers(width)), int(rng.integers(height)))
            if rng.random() < 0.5:
                p2 = (int(rng.integers(width)), int(rng.integers(height)))
                cv2.line(image, p1, p2, _colour(rng), int(rng.integers(1, 6)), cv2.LINE_AA)
            else:
                p2 = (p1[0] + int(rng.integers(20, width // 2 + 21)),
                      p1[1] + int(rng.integers(20, height // 2 + 21)))
                cv2.rectangle(image, p1, p2, _colour(rng), -1)
    image = image + rng.normal(0, rng.uniform(1, 6), (height, width, 1))
    out: np.ndarray = np.clip(image, 0, 255).astype(np.uint8)
    return out


def board_background(rng: np.random.Generator, height: int, width: int) -> np.ndarray:
    """Return a game board: coloured squares or hexagons with rings and number tokens
    (a race track, a map of tiles), patterns of die size that dice lie on."""
    image = np.empty((height, width, 3), np.uint8)
    image[:] = rng.uniform(20, 235, 3).astype(np.uint8)
    cell = float(rng.uniform(25, 90))
    hexes = rng.random() < 0.5
    pitch = cell * (0.87 if hexes else 1.0)
    palette = [_colour(rng) for _ in range(int(rng.integers(3, 7)))]
    for row in range(int(height / pitch) + 2):
        for col in range(int(width / cell) + 2):
            cx = col * cell + (cell / 2 if hexes and row % 2 else 0)
            cy = row * pitch
            r = cell * rng.uniform(0.4, 0.48)
            colour = palette[int(rng.integers(len(palette)))]
            if hexes:
                corners = [(cx + r * np.cos(a), cy + r * np.sin(a))
                           for a in np.pi / 6 + np.arange(6) * np.pi / 3]
                cv2.fillPoly(image, [np.array(corners, np.int32)], colour, cv2.LINE_AA)
            else:
                mask = np.zeros((height, width), np.uint8)
                _rounded(mask, int(cx - r), int(cy - r), int(cx + r), int(cy + r),
                         int(r * rng.uniform(0, 0.5)))
                image[mask > 0] = colour
            _tile_mark(image, rng, (cx, cy), r)
    noisy = image + rng.normal(0, rng.uniform(1, 5), (height, width, 1))
    if rng.random() < 0.5:  # tiles printed with landscapes, not flat colours
        noisy = noisy + terrain(rng, height, width)
    out: np.ndarray = np.clip(noisy, 0, 255).astype(np.uint8)
    return out


def _tile_mark(image: np.ndarray, rng: np.random.Generator, centre: tuple[float, float],
               r: float) -> None:
    """Draw what a board tile may hold in place: a ring, a number token or nothing.

    A tile gets no single dot in its middle: on a square or a hexagon that is a one.
    """
    kind = int(rng.integers(3))
    c = (int(centre[0]), int(centre[1]))
    if kind == 0:
        cv2.circle(image, c, int(r * 0.6), _colour(rng), max(1, int(r / 8)), cv2.LINE_AA)
    elif kind == 1 and rng.random() < 0.5:
        _numbered(image, centre, r * rng.uniform(0.35, 0.5), rng)
    elif kind == 1:
        paper = _colour(rng)
        cv2.circle(image, c, int(r * 0.45), paper, -1, cv2.LINE_AA)
        _text(image, str(int(rng.integers(2, 13))), centre, r * 0.4, _ink(rng, paper), rng)
