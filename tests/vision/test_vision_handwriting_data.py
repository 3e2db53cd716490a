"""Training glyphs written again otherwise: varied ink stays a glyph of the same digit."""

from __future__ import annotations

from itertools import pairwise

import cv2
import numpy as np

from models.handwriting_data import LOW_RES, Glyphs, varied


def _seven() -> np.ndarray:
    """A 20 x 14 seven drawn with a 2 px pen, ink 0..1."""
    ink = np.zeros((20, 14), np.float32)
    cv2.line(ink, (1, 1), (12, 1), 1.0, 2)
    cv2.line(ink, (12, 1), (4, 18), 1.0, 2)
    return ink


def test_varied_glyph_keeps_its_ink_and_size() -> None:
    rng = np.random.default_rng(3)
    glyph = _seven()
    for _ in range(50):
        out = varied(glyph, rng)
        assert out.dtype == np.float32
        assert float(out.min()) >= 0.0 and float(out.max()) <= 1.0
        # cropped to its strokes: ink on every edge, about the glyph's size
        assert out[0].max() > 0 and out[-1].max() > 0
        assert out[:, 0].max() > 0 and out[:, -1].max() > 0
        assert 14 <= out.shape[0] <= 28 and 8 <= out.shape[1] <= 24
        assert 0.5 < float(out.sum()) / float(glyph.sum()) < 1.8


def test_varied_glyphs_differ_from_each_other() -> None:
    rng = np.random.default_rng(4)
    outs = [cv2.resize(varied(_seven(), rng), (14, 20)) for _ in range(8)]
    gaps = [float(np.abs(a - b).mean()) for a, b in pairwise(outs)]
    assert min(gaps) > 0.01


def test_only_glyphs_that_vary_are_redrawn() -> None:
    pool = tuple((_seven(),) for _ in range(10))
    same = Glyphs(pool).pick(7, np.random.default_rng(5))
    assert same is pool[7][0]
    again = Glyphs(pool, vary=True).pick(7, np.random.default_rng(5))
    assert again is not pool[7][0] and again.shape != (0, 0)


def test_glyphs_seen_at_low_resolution_lose_their_fine_detail() -> None:
    sevens = tuple((cv2.resize(_seven(), (56, 80)),) for _ in range(10))
    sharp, coarse = (Glyphs(sevens, vary=True, low_res=share) for share in (0.0, 1.0))

    def detail(glyphs: Glyphs) -> float:
        rng = np.random.default_rng(3)
        draws = [cv2.resize(glyphs.pick(7, rng), (56, 80)) for _ in range(40)]
        return float(np.mean([np.abs(cv2.Laplacian(g, cv2.CV_32F)).mean() for g in draws]))

    assert LOW_RES == 0.2
    assert detail(coarse) < 0.8 * detail(sharp)
