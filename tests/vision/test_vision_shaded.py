"""Dice traced as lit solids with rounded edges (models.shaded)."""

from __future__ import annotations

import numpy as np
import pytest

from models.render import die_sprite
from models.shaded import face_marks, rounded_cube, shaded_die

WHITE, BLACK = np.full(3, 235.0), np.full(3, 20.0)


def test_the_distance_to_a_rounded_cube_is_signed() -> None:
    points = np.array([[0, 0, 0], [2, 0, 0], [0, 0, 1], [1, 1, 1]], float)
    distance = rounded_cube(points, 0.2)
    assert distance[0] == pytest.approx(-1.0)  # the middle, one half-side inside
    assert distance[1] == pytest.approx(1.0)
    assert distance[2] == pytest.approx(0.0)  # on a face
    assert distance[3] == pytest.approx(0.2 * np.sqrt(3) - 0.2)  # the corner is rounded off


def test_pips_sit_where_the_face_shows_its_number() -> None:
    top = np.array([[0, 0, 1], [0.5, 0.5, 1], [0.5, -0.5, 1]], float)
    assert face_marks(top, {5: 1}, 0.2).tolist() == [1.0, 0.0, 0.0]
    assert (face_marks(top, {5: 4}, 0.2) > 0.9).tolist() == [False, True, True]


@pytest.mark.parametrize(("value", "centre_is_pip"), [(1, True), (2, False), (5, True)])
def test_a_die_from_above_shows_its_value(value: int, centre_is_pip: bool) -> None:
    image, alpha = shaded_die(np.random.default_rng(value), value, 60, 0.0, WHITE, BLACK)
    assert image.shape[:2] == alpha.shape
    middle = image[image.shape[0] // 2 - 1:image.shape[0] // 2 + 2,
                   image.shape[1] // 2 - 1:image.shape[1] // 2 + 2].mean()
    assert (middle < 90) == centre_is_pip
    area = int((alpha > 128).sum())  # a square of 60 px, turned, its corners rounded
    assert 0.85 * 60**2 < area < 1.05 * 60**2


def test_a_tilted_die_shows_its_sides_too() -> None:
    areas = []
    for pitch in (0.0, 0.8):
        _, alpha = shaded_die(np.random.default_rng(3), 6, 60, pitch, WHITE, BLACK)
        areas.append(int((alpha > 128).sum()))
    assert areas[1] > 1.15 * areas[0]


def test_big_dice_are_traced_small_and_scaled() -> None:
    image, alpha = shaded_die(np.random.default_rng(4), 3, 300, 0.5, WHITE, BLACK)
    assert image.shape[0] >= 300 and alpha.max() == 255


def test_solid_dice_are_drawn_only_when_asked() -> None:
    plain = die_sprite(np.random.default_rng(5), 4, 50)[1]
    assert plain.shape == (50, 50)  # a flat face, exactly the size asked
    solid = [die_sprite(np.random.default_rng(s), 4, 50, solid=1.0)[1].shape for s in range(3)]
    assert all(shape != (50, 50) for shape in solid)  # traced: a margin around the die
