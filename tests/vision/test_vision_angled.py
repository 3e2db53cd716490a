"""Dice rendered at an angle (top face and sides) and impulse noise for training."""

from __future__ import annotations

import numpy as np
import pytest

from models.augment import random_negative, speckle
from models.clutter import board_background, terrain, tile
from models.cube import rotation, side_values
from models.render import die_sprite, render_scene


@pytest.mark.parametrize("top", [1, 2, 3, 4, 5, 6])
def test_sides_are_the_faces_a_real_die_has_around_its_top(top: int) -> None:
    sides = side_values(np.random.default_rng(top), top)
    assert sorted(sides.values()) == sorted(v for v in range(1, 7) if v not in (top, 7 - top))
    assert sides["east"] + sides["west"] == 7 and sides["north"] + sides["south"] == 7


def test_the_rotation_keeps_lengths_and_tilts_the_top_away() -> None:
    turn = rotation(0.5, 1.2)
    assert np.allclose(turn @ turn.T, np.eye(3))
    up = turn @ np.array([0.0, 0.0, 1.0])
    assert up[2] == pytest.approx(np.cos(0.5))  # the top faces the camera less as it tilts


def test_an_angled_die_is_taller_than_its_top_face_alone() -> None:
    _, flat_alpha = die_sprite(np.random.default_rng(7), 5, 60)
    assert flat_alpha.shape == (60, 60)
    for pitch in (0.4, 0.9):
        image, alpha = die_sprite(np.random.default_rng(7), 5, 60, pitch)
        assert image.shape[:2] == alpha.shape
        height, width = alpha.shape
        assert height > 60 and width >= 60  # sides show below the top face
        assert (alpha > 128).mean() > 0.6  # a solid shape, not scattered faces


def test_an_angled_scene_boxes_every_die_including_its_sides() -> None:
    flat = render_scene(np.random.default_rng(3), 640, 480, 5, 60)
    angled = render_scene(np.random.default_rng(3), 640, 480, 5, 60, pitch=0.8)
    assert len(angled.values) == 5
    flat_h = np.median([b[3] - b[1] for b in flat.boxes])
    angled_h = np.median([b[3] - b[1] for b in angled.boxes])
    assert angled_h > 1.1 * flat_h


def test_speckle_sets_a_few_percent_of_pixels_and_keeps_the_rest() -> None:
    image = np.full((120, 160, 3), 128, np.uint8)
    rng = np.random.default_rng(11)
    shares = []
    for _ in range(20):
        out = speckle(image, rng)
        assert out.shape == image.shape and out.dtype == np.uint8
        shares.append(float((out != 128).any(axis=2).mean()))
    assert min(shares) > 0 and max(shares) <= 0.05
    assert (image == 128).all()  # the input is left as it was


def test_a_game_board_is_a_busy_table_of_die_sized_tiles() -> None:
    board = board_background(np.random.default_rng(5), 300, 400)
    assert board.shape == (300, 400, 3) and board.dtype == np.uint8
    assert board.std() > 20  # tiles of several colours, not a plain top
    scene = render_scene(np.random.default_rng(6), 400, 300, 3, 40, clutter=4, boards=True)
    assert len(scene.values) == 3 and len(scene.decoys) == 4


def test_a_printed_landscape_mottles_without_shifting_the_colour() -> None:
    mottle = terrain(np.random.default_rng(8), 120, 160)
    assert mottle.shape == (120, 160, 3) and mottle.dtype == np.float32
    assert abs(float(mottle.mean())) < 8 and float(mottle.std()) > 8


def test_a_board_tile_is_a_landscape_mostly_with_a_light_token_in_its_middle() -> None:
    ys, xs = np.mgrid[0:80, 0:80]
    middle = np.hypot(xs - 40, ys - 40) < 10
    papers, shares = [], []
    for seed in range(40):
        image, alpha = tile(np.random.default_rng(seed), 80)
        assert image.shape == (80, 80, 3) and alpha.shape == (80, 80)
        shares.append(float((alpha > 128).mean()))
        light = (image[middle] >= (165, 195, 215)).all(axis=1)  # the token's paper
        papers.append(float(light.mean()))
    assert min(shares) > 0.6 and max(shares) <= 1.0  # hexagons and squares
    assert 24 <= sum(p > 0.4 for p in papers) <= 39  # four in five hold a token


def test_some_not_a_die_boxes_span_much_of_the_photo() -> None:
    rng = np.random.default_rng(2)
    die = np.array([[300, 200, 330, 230]], np.float32)
    sides = []
    for _ in range(500):
        box = random_negative((480, 640, 3), die, rng)
        assert box is not None
        sides.append(float(box[2] - box[0]))
    big = sum(side >= 0.3 * 640 for side in sides)
    assert 5 <= big <= 50 and np.median(sides) < 60
