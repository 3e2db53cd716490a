"""The bank of training dice (models.cropbank): patches that give the trainer's crops."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from models import cropbank
from models.augment import ROOM, die_crop
from models.data import ANGLED
from models.samples import Photo, Pool, crop_sample, rendered_photos, turned
from vision.faces import CONTEXT


@pytest.fixture(scope="module")
def photos() -> list[Photo]:
    return [p for p in rendered_photos(4, 11, clutter=False) if len(p.boxes)]


def test_a_patch_holds_its_die_in_the_middle(photos: list[Photo]) -> None:
    photo = photos[0]
    box = photo.boxes[0]
    jpeg, inside = cropbank.patch_of(photo.image, box)
    assert jpeg[:2] == b"\xff\xd8"
    centre = (inside[:2] + inside[2:]) / 2
    assert centre == pytest.approx([cropbank.PATCH / 2] * 2, abs=1.0)
    longest = max(inside[2] - inside[0], inside[3] - inside[1])
    assert longest == pytest.approx(cropbank.PATCH / (CONTEXT * ROOM), rel=0.05)


def test_crops_of_a_banked_die_are_the_crops_of_the_photo(photos: list[Photo]) -> None:
    banked = cropbank.unbank(cropbank.bank_source(photos))
    assert sum(len(p.boxes) for p in photos) == len(banked)
    i = 0
    for photo in photos:
        for box in photo.boxes:
            seed = [5, i]
            original, code, mask = die_crop(photo.image, box, np.random.default_rng(seed), 40)
            again, code_again, mask_again = die_crop(banked[i].image, banked[i].boxes[0],
                                                     np.random.default_rng(seed), 40)
            assert code_again == pytest.approx(code, abs=0.03)
            assert mask_again.tolist() == mask.tolist()
            difference = np.abs(original.astype(int) - again.astype(int)).mean()
            assert difference < 12, f"die {i}: crops differ by {difference:.1f} on average"
            i += 1


def test_a_larger_bank_gives_a_larger_reader_crops_as_sharp_as_the_photo(
        photos: list[Photo]) -> None:
    photo = photos[0]
    box = photo.boxes[0]
    jpeg, inside = cropbank.patch_of(photo.image, box, 96)
    banked = cropbank.unbank([(jpeg, inside, 3)])[0]
    assert banked.image.shape == (96, 96, 3)
    longest = max(inside[2] - inside[0], inside[3] - inside[1])
    assert longest == pytest.approx(96 / (CONTEXT * ROOM), rel=0.05)
    differences = []
    for side in (40, 56):
        original, _, _ = die_crop(photo.image, box, np.random.default_rng(2), side)
        again, _, _ = die_crop(banked.image, banked.boxes[0], np.random.default_rng(2), side)
        differences.append(np.abs(original.astype(int) - again.astype(int)).mean())
    assert max(differences) < 12, differences


def test_the_bank_keeps_every_source_and_value(photos: list[Photo], tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cropbank, "load_photos", lambda source: photos[:2] if source == "a"
                        else photos[2:])
    path = tmp_path / "bank.pkl"
    counts = cropbank.build_bank(["a", "b"], path)
    bank = cropbank.load_bank(path)
    assert counts == {"a": sum(len(p.boxes) for p in photos[:2]),
                      "b": sum(len(p.boxes) for p in photos[2:])}
    values = [v for p in cropbank.unbank(bank["a"]) for v in p.values]
    assert values == [int(v) for p in photos[:2] for v in p.values]


def test_a_source_left_out_of_the_bank_is_all_of_its_kinds(
        photos: list[Photo], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cropbank, "load_photos", lambda source: photos[:1])
    path = tmp_path / "bank.pkl"
    cropbank.build_bank(["byler-train", "rune55-trays-rest", "rune55-tables-rest"], path)
    assert list(cropbank.load_bank(path, ("rune55",))) == ["byler-train"]
    assert list(cropbank.load_bank(path, ("byler", "rune55-tables"))) == ["rune55-trays-rest"]
    assert len(cropbank.load_bank(path)) == 3


def test_a_patch_that_is_no_jpeg_is_refused() -> None:
    with pytest.raises(ValueError, match="not a JPEG"):
        cropbank.unbank([(b"not a jpeg", np.zeros(4, np.float32), 1)])


def bright_topped_die() -> Photo:
    """A photo of one die (60..140) with a bright bar in its upper half."""
    image = np.zeros((200, 200, 3), np.uint8)
    image[70:90, 70:130] = 255
    return Photo(image, np.array([[60, 60, 140, 140]], np.float32), np.array([3]))


@pytest.mark.parametrize("turn", [25.0, 180.0])
def test_crops_turned_a_little_keep_the_photos_up(turn: float) -> None:
    # with turns of at most 25 degrees every crop keeps the bright half on top; turned any
    # way, about half of them do
    photo = bright_topped_die()
    rng = np.random.default_rng(3)
    upper = 0
    for _ in range(200):
        crop, _, mask = die_crop(photo.image, photo.boxes[0], rng, 40, turn)
        upper += int(crop[:20].mean() > crop[20:].mean())
        assert mask[0] == mask[1] == 1
    assert (upper == 200) if turn < 180 else 60 < upper < 140


@pytest.mark.parametrize("turn", [25.0, 180.0])
def test_training_crops_turn_as_far_as_their_photo_allows(turn: float) -> None:
    photo = replace(bright_topped_die(), turn=turn)
    pool = Pool.of([[photo]], [1.0])
    rng = np.random.default_rng(4)
    upper = 0
    for _ in range(100):  # recoloured, maybe inverted: the bright half differs most
        crop, label, _, _ = crop_sample(pool, rng, negative_share=0.0, size=40)
        upper += int(crop[:, :20].std() > crop[:, 20:].std())
        assert label == 2
    assert (upper == 100) if turn < 180 else 25 < upper < 75
    assert turned([photo], 10.0)[0].turn == 10.0
    assert "roboflow-rest" in ANGLED and "byler-train" not in ANGLED
