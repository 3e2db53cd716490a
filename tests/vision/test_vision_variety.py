"""Training variety: stretched views and crops, and dice as sold (big or red ones, glare)."""

from __future__ import annotations

import numpy as np
import pytest

from models import augment
from models.augment import die_crop, stretch
from models.render import DieStyle, die_sprite, die_style, draw_face, render_scene
from models.samples import Photo, detector_sample
from vision.detect import STRIDE
from vision.faces import CROP_SIZE


def test_stretch_keeps_the_area_and_stays_within_its_ratio() -> None:
    rng = np.random.default_rng(1)
    pairs = [stretch(rng) for _ in range(400)]
    ratios = np.array([x / y for x, y in pairs])
    assert np.allclose([x * y for x, y in pairs], 1.0)
    assert ratios.max() <= augment.STRETCH + 1e-9 and ratios.min() >= 1 / augment.STRETCH - 1e-9
    unchanged = np.isclose(ratios, 1.0).mean()
    assert 0.4 < unchanged < 0.6  # about half the samples are left as they are
    assert ratios.max() > 1.4 and ratios.min() < 1 / 1.4


def white_box_error(crop: np.ndarray, code: np.ndarray) -> float:
    """Return how far (pixels) the crop's box code is from the white block it shows."""
    ys, xs = np.nonzero(crop.mean(axis=2) > 128)
    cx, cy = (code[0] + 0.5) * CROP_SIZE, (code[1] + 0.5) * CROP_SIZE
    w, h = np.exp(code[2]) * CROP_SIZE, np.exp(code[3]) * CROP_SIZE
    truth = np.array([xs.min(), ys.min(), xs.max() + 1, ys.max() + 1])
    return float(np.abs(truth - [cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2]).max())


def test_a_stretched_crop_still_knows_where_the_die_is(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(augment, "STRETCHED_SHARE", 1.0)
    image = np.zeros((400, 400, 3), np.uint8)
    image[150:250, 170:230] = 255
    box = np.array([170, 150, 230, 250], np.float32)
    rng = np.random.default_rng(3)
    errors, aspects = [], []
    for _ in range(200):
        crop, code, mask = die_crop(image, box, rng)
        white = crop.mean(axis=2) > 128
        cut_off = white[0].any() or white[-1].any() or white[:, 0].any() or white[:, -1].any()
        if mask[2] and not cut_off:  # upright, whole: the box code holds its size too
            errors.append(white_box_error(crop, code))
            aspects.append(float(np.exp(code[3] - code[2])))
    assert len(errors) > 60
    assert np.median(errors) < 1.5 and max(errors) < 4
    assert max(aspects) > 2.0 and min(aspects) < 0.8  # the 60x100 block, stretched both ways


def test_a_stretched_detector_view_moves_its_targets_with_the_dice(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(augment, "STRETCHED_SHARE", 1.0)
    scene = render_scene(np.random.default_rng(5), 640, 480, 6, 50)
    photo = Photo(scene.image, np.array(scene.boxes, np.float32), np.array(scene.values))
    rng = np.random.default_rng(6)
    found = 0
    for _ in range(10):
        image, heat, reg, mask = detector_sample(photo, rng, 192)
        assert image.shape == (3, 192, 192) and heat.shape == (1, 48, 48)
        for y, x in zip(*np.nonzero(heat[0] == 1), strict=True):
            w, h = np.exp(reg[:2, y, x]) * STRIDE
            assert 0.5 < h / w < 2.5 and mask[0, y, x] == 1
            found += 1
    assert found >= 5


def pip_share(style: DieStyle, value: int) -> float:
    """Return the share of a 96 px face's pixels that are far from the body colour."""
    face, alpha = draw_face(style, value, 96)
    inside = alpha > 250
    return float((np.abs(face.astype(float) - style.body).max(axis=2)[inside] > 60).mean())


def test_a_sold_die_may_have_a_big_red_one() -> None:
    plain = DieStyle(np.full(3, 230.0), np.full(3, 20.0), 0.1, 0.08, 0.0)
    big = DieStyle(plain.body, plain.pip, 0.1, 0.08, 0.0, one_pip=1.8,
                   ones=np.array([30.0, 30.0, 200.0]))
    assert pip_share(big, 1) > 2.5 * pip_share(plain, 1)
    assert pip_share(big, 6) == pytest.approx(pip_share(plain, 6))
    red, _ = draw_face(big, 1, 96)
    centre = red[40:56, 40:56].reshape(-1, 3).mean(axis=0)
    assert centre[2] > 150 and centre[0] < 80  # BGR: the one's pip is red
    assert big.pip_look(4)[0] == plain.pip.tolist()  # fours red only with red_four


def test_sold_variety_only_where_asked_and_photos_unchanged_without_it() -> None:
    styles = [die_style(np.random.default_rng(seed), sold=True) for seed in range(300)]
    assert 0.2 < np.mean([s.one_pip > 1 for s in styles]) < 0.4
    assert 0.03 < np.mean([s.ones is not None for s in styles]) < 0.3
    assert 0.2 < np.mean([s.glare > 0 for s in styles]) < 0.4
    assert all(die_style(np.random.default_rng(seed)).one_pip == 1.0 for seed in range(50))
    first = render_scene(np.random.default_rng(3), 320, 240, 3, 50)
    again = render_scene(np.random.default_rng(3), 320, 240, 3, 50)
    assert np.array_equal(first.image, again.image)


def test_glare_brightens_the_die_and_nothing_outside_it() -> None:
    rng_seed = next(s for s in range(200)
                    if die_style(np.random.default_rng(s), sold=True).glare > 0.4)
    lit, alpha = die_sprite(np.random.default_rng(rng_seed), 3, 80, sold=True)
    style = die_style(np.random.default_rng(rng_seed), sold=True)
    flat, _ = draw_face(style, 3, 80)
    assert lit.shape == flat.shape
    brighter = lit.astype(int) - flat.astype(int)
    assert brighter.max() > 40 and brighter.min() >= -1
    assert (brighter[alpha == 0] == 0).all()
