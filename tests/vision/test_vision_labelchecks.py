"""Labels checked by eye (models.labelchecks): a plainly wrong label given the value shown."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from models.data import source_photos
from models.labelchecks import CHECKS, LabelCheck, checked, load_checks
from models.labels import LabelledPhoto


def _photo() -> LabelledPhoto:
    # two touching dice labelled 6 and one apart labelled 2
    boxes = np.array([[0.10, 0.10, 0.30, 0.30], [0.25, 0.12, 0.45, 0.32],
                      [0.60, 0.60, 0.80, 0.80]], np.float32)
    return LabelledPhoto(Path("tray.rf.1.jpg"), (6, 6, 2), boxes)


def test_the_die_around_the_point_takes_the_value_it_shows() -> None:
    photo = _photo()
    other = LabelledPhoto(Path("other.jpg"), (3,), photo.boxes[:1])
    fixed = checked([photo, other], (LabelCheck("tray.rf.1.jpg", 0.70, 0.70, 2, 5),))
    assert fixed[0].values == (6, 6, 5) and fixed[1] is other
    assert photo.values == (6, 6, 2)  # the published labels stay as they are


def test_of_touching_dice_the_one_centred_nearest_the_point_is_checked() -> None:
    checks = (LabelCheck("tray.rf.1.jpg", 0.27, 0.20, 6, 5),
              LabelCheck("tray.rf.1.jpg", 0.30, 0.22, 6, 4))
    assert checked([_photo()], checks)[0].values == (5, 4, 2)


@pytest.mark.parametrize("check, reason", [
    (LabelCheck("tray.rf.1.jpg", 0.50, 0.50, 6, 5), "no die labelled 6"),
    (LabelCheck("tray.rf.1.jpg", 0.70, 0.70, 3, 5), "no die labelled 3"),
])
def test_a_check_that_fits_no_label_is_refused(check: LabelCheck, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        checked([_photo()], (check,))


def test_two_checks_of_one_die_are_refused() -> None:
    twice = (LabelCheck("tray.rf.1.jpg", 0.70, 0.70, 2, 5),
             LabelCheck("tray.rf.1.jpg", 0.72, 0.71, 2, 4))
    with pytest.raises(ValueError, match="two checks of one die"):
        checked([_photo()], twice)


def test_the_shipped_checks_are_of_held_out_tray_dice_shown_otherwise() -> None:
    checks = load_checks(CHECKS)
    assert len(checks) == 25
    assert all(c.label != c.shows and 1 <= c.shows <= 6 for c in checks)
    assert all(c.file.startswith("PXL_") and 0 < c.x < 1 and 0 < c.y < 1 for c in checks)


def test_every_check_fits_one_die_of_the_held_out_trays(shared_data: Path) -> None:
    photos = source_photos("rune55-trays-quarter")
    fixed = checked(photos, load_checks())
    changed = [(a, b) for p, q in zip(photos, fixed, strict=True)
               for a, b in zip(p.values, q.values, strict=True) if a != b]
    assert len(changed) == 25
    names = {p.path.name for p in photos}
    assert {c.file for c in load_checks()} <= names
