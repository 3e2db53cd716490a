"""Real dice cut out along their outline and laid on rendered tables among decoys."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from models.cutouts import Cutout, composite_photos, cut_out, cutout_bank, lay_die
from models.render import DieStyle, draw_face, paste
from models.samples import Photo, on_a_die


def plain(body: float, pip: float) -> DieStyle:
    """Return the looks of a plain die of grey levels *body* and *pip*."""
    return DieStyle(np.full(3, body), np.full(3, pip), 0.15, 0.085, 0.0)


def die_on_cloth(turn_seed: int, side: int = 60) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return a photo of one turned white die on dark cloth, its box and its true outline."""
    rng = np.random.default_rng(turn_seed)
    sprite, alpha = draw_face(plain(230.0, 20.0), 5, side)
    image = np.full((200, 240, 3), (60, 40, 30), np.uint8)
    image = np.clip(image + rng.normal(0, 4, image.shape), 0, 255).astype(np.uint8)
    shown = np.zeros((200, 240, 3), np.uint8)
    box = paste(image, np.random.default_rng(turn_seed), sprite, alpha, (120.0, 100.0))
    paste(shown, np.random.default_rng(turn_seed), np.full_like(sprite, 255), alpha,
          (120.0, 100.0))
    return image, np.array(box, np.float32), shown[:, :, 0] > 128


def test_a_turned_die_is_cut_along_its_outline_not_its_box() -> None:
    for seed in (1, 2, 3):
        image, box, truth = die_on_cloth(seed)
        cut = cut_out(image, box, 5)
        assert cut is not None and cut.value == 5
        x1, y1, x2, y2 = box.astype(int)
        assert cut.alpha.shape == (y2 - y1, x2 - x1) == cut.sprite.shape[:2]
        inside = truth[y1:y2, x1:x2]
        kept = cut.alpha > 128
        overlap = (kept & inside).sum() / (kept | inside).sum()
        assert overlap > 0.9, f"seed {seed}: outline IoU {overlap:.2f}"


def test_tiny_dice_and_dice_cut_by_the_border_are_left_out() -> None:
    image, box, _ = die_on_cloth(1)
    assert cut_out(image, np.array([100, 100, 108, 108], np.float32), 2) is None
    assert cut_out(image, np.array([0, 40, 60, 100], np.float32), 2) is None  # at the edge
    x1, y1, x2, y2 = box
    assert cut_out(image, np.array([x1, y1, x2 + 70, y2 + 60], np.float32), 5) is None


def test_a_bank_holds_no_more_than_asked_and_keeps_values() -> None:
    photos = []
    for seed, value in ((1, 5), (2, 5), (3, 5)):
        image, box, _ = die_on_cloth(seed)
        photos.append(Photo(image, box[None], np.array([value])))
    bank = cutout_bank(photos, 2, np.random.default_rng(0))
    assert len(bank) == 2 and {c.value for c in bank} == {5}


def bank_of_faces() -> list[Cutout]:
    """Return one clean die of each value as a cutout."""
    bank = []
    for value in range(1, 7):
        sprite, alpha = draw_face(plain(240.0, 10.0),
                                  value, 48)
        bank.append(Cutout(sprite, alpha, value))
    return bank


def test_a_laid_die_is_boxed_at_about_the_size_asked() -> None:
    canvas = np.full((300, 300, 3), 90, np.uint8)
    box = lay_die(canvas, np.random.default_rng(4), bank_of_faces()[1], 40, (150.0, 150.0))
    width, height = box[2] - box[0], box[3] - box[1]
    assert 38 <= width <= 58 and 38 <= height <= 58  # 40 px, turned by up to 45 degrees
    assert canvas[150, 150].max() > 200  # the white body of a two is drawn in place


def test_composite_tables_hold_real_dice_apart_from_their_decoys() -> None:
    bank = bank_of_faces()
    photos = composite_photos(6, 9, bank)
    assert len(photos) == 6
    for photo in photos:
        h, w = photo.image.shape[:2]
        assert 1 <= len(photo.boxes) <= 20 and len(photo.values) == len(photo.boxes)
        assert set(photo.values.tolist()) <= set(range(1, 7))
        assert (photo.boxes[:, :2] >= 0).all() and (photo.boxes[:, 2] <= w).all()
        assert (photo.boxes[:, 3] <= h).all()
    assert sum(len(p.hard) for p in photos) > 0  # decoys beside the dice
    assert composite_photos(3, 9, []) == []


def test_a_composite_die_looks_like_its_cutout() -> None:
    bank = [bank_of_faces()[5]]  # only sixes
    photo = composite_photos(1, 3, bank)[0]
    x1, y1, x2, y2 = photo.boxes[0].astype(int)
    die = cv2.cvtColor(photo.image[y1:y2, x1:x2], cv2.COLOR_BGR2GRAY)
    assert (photo.values == 6).all()
    assert die.max() > 150 and die.min() < 80  # a light body with dark pips


@pytest.mark.parametrize(("find", "on_die"), [
    ([100, 100, 160, 160], True),  # the whole cube around a label of its front face
    ([118, 130, 142, 158], True),  # the face itself
    ([150, 150, 200, 200], False),  # touching a corner: table and another die's edge
    ([300, 300, 360, 360], False),  # far away
])
def test_finds_on_a_die_of_any_box_convention_are_never_mined_as_table(
        find: list[float], on_die: bool) -> None:
    face = np.array([[115, 128, 145, 160]], np.float32)  # a face, as Rune55 boxes it
    assert bool(on_a_die(np.array([find], np.float32), face)[0]) is on_die
