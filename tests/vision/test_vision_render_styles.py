"""Rendered dice of other materials (models.finish) and felt tables (models.felt)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from models.felt import casino_felt, dice_tray, felt
from models.finish import Look, Traced, glass_die, random_look, traced_die
from models.render import lay_dice, look_sprite, paste, render_scene

SAMPLES = Path(__file__).parents[2] / "sample_images"
WHITE = np.full(3, 235.0)
RED_GLASS = Look("glass", np.array([45.0, 40, 215]), WHITE, WHITE)


def on(canvas: np.ndarray, die: Traced) -> np.ndarray:
    """Return *canvas* with *die* pasted unturned in its middle (a copy)."""
    out = canvas.copy()
    h, w = out.shape[:2]
    paste(out, np.random.default_rng(0), die.image, die.alpha, (w / 2, h / 2), turn=0.0,
          transmit=die.transmit)
    return out


def under(canvas: np.ndarray, die: Traced) -> tuple[slice, slice]:
    """Return the rows and columns of *canvas* that *die*, pasted by on(), covers."""
    h, w = canvas.shape[:2]
    sh, sw = die.alpha.shape
    top, left = (h - sh) // 2, (w - sw) // 2
    return slice(top, top + sh), slice(left, left + sw)


def inner(alpha: np.ndarray, edge: int = 5) -> np.ndarray:
    """Return where a die shows, *edge* pixels in from its outline."""
    result: np.ndarray = cv2.erode((alpha == 255).astype(np.uint8),
                                   np.ones((edge, edge), np.uint8)) > 0
    return result


def body(die: Traced) -> np.ndarray:
    """Return where the die's plain body (no pip, no edge) shows."""
    result: np.ndarray = inner(die.alpha) & (die.marks == 0)
    return result


def test_a_translucent_die_lets_the_table_through_tinted() -> None:
    die = glass_die(np.random.default_rng(1), 3, 80, 0.0, RED_GLASS)
    black = on(np.zeros((200, 200, 3), np.uint8), die)
    white = on(np.full((200, 200, 3), 255, np.uint8), die)
    rows, cols = under(black, die)
    seen = body(die)
    gained = white[rows, cols][seen].astype(float) - black[rows, cols][seen]
    assert gained[:, 2].mean() > 80  # red comes through the red body
    assert gained[:, 0].mean() < 0.5 * gained[:, 2].mean()  # blue mostly absorbed
    opaque = traced_die(np.random.default_rng(1), 3, 80, 0.0,
                        Look("marble", np.array([40.0, 160, 40]), WHITE, np.full(3, 200.0)))
    rows, cols = under(black, opaque)
    plain = (on(np.full((200, 200, 3), 255, np.uint8), opaque)[rows, cols].astype(float)
             - on(np.zeros((200, 200, 3), np.uint8), opaque)[rows, cols])[body(opaque)]
    assert np.abs(plain).max() <= 2


def test_what_shows_through_follows_the_table_behind() -> None:
    die = glass_die(np.random.default_rng(2), 5, 90, 0.0,
                    Look("glass", np.array([215.0, 215, 210]), WHITE, WHITE))
    ramp = np.tile(np.linspace(0, 255, 220)[None, :, None], (220, 1, 3)).astype(np.uint8)
    shown = on(ramp, die)
    rows, cols = under(ramp, die)
    seen = body(die)
    behind = ramp[rows, cols][seen].mean(axis=1)
    through = shown[rows, cols][seen].mean(axis=1)
    assert np.corrcoef(behind, through)[0, 1] > 0.7
    assert (through < behind + 40).mean() > 0.9  # darkened by the body, not lit


@pytest.mark.parametrize("value", [1, 2, 3, 4, 5, 6])
def test_the_hidden_faces_pips_show_fainter_than_the_top_ones(value: int) -> None:
    die = glass_die(np.random.default_rng(value), value, 80, 0.3, RED_GLASS)
    shown = on(np.zeros((200, 200, 3), np.uint8), die)
    rows, cols = under(shown, die)
    grey = shown[rows, cols].astype(float).mean(axis=2)
    solid = die.alpha == 255
    front, hidden = grey[solid & (die.marks == 1)], grey[solid & (die.marks == 2)]
    assert len(front) and len(hidden) > 50  # the bottom face always has pips to show
    assert front.mean() > hidden.mean() + 60
    assert hidden.mean() > grey[body(die)].mean() + 10  # yet they do show


# From straight above, the bottom's pips that the top's do not hide (top -> count).
SHOWING_BELOW = {1: 6, 2: 3, 3: 2, 4: 1, 5: 0, 6: 1}


@pytest.mark.parametrize("value", [1, 2, 3, 4, 5, 6])
def test_from_above_the_bottom_face_shows_through_under_the_top(value: int) -> None:
    die = glass_die(np.random.default_rng(3), value, 90, 0.0, RED_GLASS)
    assert blobs((die.marks == 2) & inner(die.alpha, 7)) == SHOWING_BELOW[value]


def test_seen_at_an_angle_the_hidden_pips_shift_out_from_behind() -> None:
    flat = glass_die(np.random.default_rng(3), 5, 90, 0.0, RED_GLASS)
    tilted = glass_die(np.random.default_rng(3), 5, 90, 0.4, RED_GLASS)
    hidden = [(die.marks == 2) & inner(die.alpha, 7) for die in (flat, tilted)]
    assert hidden[0].sum() < 10  # the bottom's two lie right behind the top's five
    assert hidden[1].sum() > 100


def blobs(mask: np.ndarray) -> int:
    """Return how many pip-sized blobs *mask* holds."""
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8))
    areas = stats[1:, cv2.CC_STAT_AREA]
    return int((areas >= max(20, 0.35 * areas.max())).sum()) if count > 1 else 0


PipTest = Callable[[np.ndarray], np.ndarray]
LOOKS: dict[str, tuple[Look, PipTest]] = {
    "glass": (RED_GLASS, lambda image: image.min(axis=2) > 140),
    "marble": (Look("marble", np.full(3, 225.0), np.full(3, 20.0), np.full(3, 160.0)),
               lambda image: image.mean(axis=2) < 100),
    "metal": (Look("metal", np.array([205.0, 205, 200]), np.array([40.0, 30, 170]), WHITE),
              lambda image: image[:, :, 2].astype(int) - image[:, :, 1] > 70),
    "dark": (Look("dark", np.full(3, 30.0), WHITE, np.full(3, 30.0)),
             lambda image: image.mean(axis=2) > 130),
}


@pytest.mark.parametrize("kind", sorted(LOOKS))
@pytest.mark.parametrize("value", [1, 2, 3, 4, 5, 6])
def test_a_die_of_each_look_seen_from_above_shows_its_value(kind: str, value: int) -> None:
    look, is_pip = LOOKS[kind]
    rng = np.random.default_rng(10 + value)
    if kind == "glass":  # look_sprite tilts glass a little; from straight above here
        die = glass_die(rng, value, 90, 0.0, look)
        image, alpha = die.image, die.alpha
    else:
        image, alpha, _ = look_sprite(rng, look, value, 90)
    assert blobs(is_pip(image) & inner(alpha, 7)) == value


def test_random_looks_are_of_every_kind_and_casinos_favour_glass() -> None:
    rng = np.random.default_rng(4)
    anywhere = [random_look(rng).kind for _ in range(200)]
    casino = [random_look(rng, casino=True).kind for _ in range(200)]
    assert set(anywhere) == {"glass", "marble", "metal", "dark"}
    assert casino.count("glass") > 2 * anywhere.count("glass")


def test_felt_is_the_colour_asked_with_a_fine_low_texture() -> None:
    image = felt(np.random.default_rng(5), 240, 320, (120, 40, 100), 4.0).astype(float)
    assert np.abs(image.reshape(-1, 3).mean(axis=0) - (120, 40, 100)).max() < 4
    fine = image - cv2.GaussianBlur(image, (0, 0), 3)
    assert 1.5 < fine.std() < 8
    smooth = cv2.GaussianBlur(image, (0, 0), 20)[40:-40, 40:-40]
    assert smooth.reshape(-1, 3).std(axis=0).max() < 4  # an even colour


def test_casino_baize_is_green_and_even() -> None:
    for seed in range(4):
        image = casino_felt(np.random.default_rng(seed), 240, 320).astype(float)
        b, g, r = np.median(image.reshape(-1, 3), axis=0)
        assert g > r + 40 and g > b + 20
        assert (image - cv2.GaussianBlur(image, (0, 0), 3)).std() < 8


def test_a_tray_keeps_its_dice_on_its_felt_inside_a_darker_rim() -> None:
    rims = 0
    for seed in range(4):
        table = dice_tray(np.random.default_rng(seed), 480, 640)
        assert table.inside is not None and not table.casino
        canvas = table.image.copy()
        values, boxes = lay_dice(canvas, np.random.default_rng(seed), 6, 40, [], looks=1.0,
                                 table=table)
        assert len(values) == len(boxes) > 0
        for x1, y1, x2, y2 in boxes:
            assert table.inside[(y1 + y2) // 2, (x1 + x2) // 2]
        grey = table.image.astype(float).mean(axis=2)
        inside = table.inside.astype(np.uint8)
        rim = (cv2.dilate(inside, np.ones((9, 9), np.uint8)) > 0) & ~table.inside
        rims += int(rim.sum() > 500)
        if rim.sum() > 500:  # some trays fill the frame
            middle = cv2.erode(inside, np.ones((41, 41), np.uint8)) > 0
            assert grey[rim].mean() < grey[middle].mean()
    assert rims >= 2


def test_scenes_of_the_new_looks_are_the_same_for_the_same_seed() -> None:
    first = render_scene(np.random.default_rng(6), 320, 240, 6, 40, looks=1.0)
    again = render_scene(np.random.default_rng(6), 320, 240, 6, 40, looks=1.0)
    other = render_scene(np.random.default_rng(7), 320, 240, 6, 40, looks=1.0)
    assert np.array_equal(first.image, again.image)
    assert first.values == again.values and first.boxes == again.boxes
    assert not np.array_equal(first.image, other.image)


def test_scenes_asked_for_plainly_render_as_the_committed_samples() -> None:
    scene = render_scene(np.random.default_rng(1), 1280, 960, 5, 110)
    photo = cv2.imread(str(SAMPLES / "sample_01.jpg"))
    assert photo is not None
    truth = json.loads((SAMPLES / "sample_01.json").read_text())
    assert scene.values == truth["values"] and scene.boxes == truth["boxes"]
    assert np.abs(photo.astype(float) - scene.image).mean() < 4  # JPEG's loss only


def test_training_scenes_get_the_new_looks_unless_told_not_to() -> None:
    mixed = render_scene(np.random.default_rng(8), 320, 240, 8, 40, boards=True, solid=0.5)
    plain = render_scene(np.random.default_rng(8), 320, 240, 8, 40, boards=True, solid=0.5,
                         looks=0.0)
    assert not np.array_equal(mixed.image, plain.image)
