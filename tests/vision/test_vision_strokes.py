"""Digits drawn from stroke forms: glyphs like MNIST's, each digit told from the others."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from models.handwriting_data import Blend
from models.strokes import FORMS, GLYPH_H, StrokeGlyphs, draw, smooth


def _tile(glyph: np.ndarray) -> np.ndarray:
    return np.asarray(cv2.resize(glyph, (14, 20), interpolation=cv2.INTER_AREA))


def test_every_form_draws_a_cropped_glyph() -> None:
    rng = np.random.default_rng(1)
    for forms in FORMS:
        for form in forms:
            for _ in range(5):
                glyph = draw(form, rng)
                assert glyph.dtype == np.float32
                assert float(glyph.min()) >= 0.0 and float(glyph.max()) <= 1.0
                assert GLYPH_H - 2 <= glyph.shape[0] <= GLYPH_H
                assert 2 <= glyph.shape[1] <= 2 * GLYPH_H
                assert glyph[0].max() > 0.1 and glyph[-1].max() > 0.1
                assert glyph[:, 0].max() > 0.1 and glyph[:, -1].max() > 0.1


def test_digits_are_told_apart_by_their_mean_glyph() -> None:
    rng = np.random.default_rng(2)
    pen = StrokeGlyphs()
    means = [np.mean([_tile(pen.pick(d, rng)) for _ in range(40)], axis=0) for d in range(10)]
    right = 0
    for _ in range(20):
        for digit in range(10):
            tile = _tile(pen.pick(digit, rng))
            right += int(np.argmin([np.abs(tile - m).sum() for m in means]) == digit)
    assert right >= 150  # of 200; a random guess would be about 20


def test_a_ones_glyph_is_narrow_and_a_zeros_wide() -> None:
    rng = np.random.default_rng(3)
    pen = StrokeGlyphs()
    ones = [pen.pick(1, rng).shape[1] for _ in range(30)]
    zeros = [pen.pick(0, rng).shape[1] for _ in range(30)]
    assert np.median(ones) < 0.7 * np.median(zeros)


def test_smooth_passes_through_its_points() -> None:
    points = np.array([[0.0, 0.0], [1.0, 0.5], [0.5, 1.0], [0.0, 0.2]])
    curve = smooth(points, per_span=4)
    assert len(curve) == 13
    np.testing.assert_allclose(curve[::4], points, atol=1e-9)


@dataclass(frozen=True)
class _Constant:
    value: float

    def pick(self, digit: int, rng: np.random.Generator) -> np.ndarray:
        return np.full((2, 2), self.value, np.float32)


def test_blend_takes_the_second_source_at_its_share() -> None:
    rng = np.random.default_rng(4)
    for share, low, high in ((0.0, 0, 0), (1.0, 1000, 1000), (0.3, 250, 350)):
        blend = Blend(_Constant(0.0), _Constant(1.0), share)
        taken = sum(int(blend.pick(3, rng)[0, 0]) for _ in range(1000))
        assert low <= taken <= high
