"""The detect, crop and combine stages on data whose answer is known by construction."""

from __future__ import annotations

import numpy as np
import pytest

from scorekeeper.dice import Dice
from vision.detect import STRIDE, decode, detector_input, iou
from vision.faces import (
    CROP_SIZE,
    Faces,
    box_from_crop,
    box_in_crop,
    crops_for,
    cut,
    posed,
    square_around,
    unpose,
)
from vision.image import DecodedImage
from vision.pipeline import combine, visible_share
from vision.reading import DiceCountReadError, DiceReading, Die


@pytest.mark.parametrize(("shape", "expected", "factor"), [
    ((480, 640), (1, 3, 384, 512), 0.8),
    ((3000, 4000), (1, 3, 384, 512), 0.128),
    ((500, 300), (1, 3, 512, 320), 1.024),
])
def test_detector_input_is_padded_to_a_multiple_of_16(shape: tuple[int, int],
                                                      expected: tuple[int, ...],
                                                      factor: float) -> None:
    tensor, got = detector_input(np.zeros((*shape, 3), np.uint8))
    assert tensor.shape == expected
    assert got == pytest.approx(factor)


def test_decode_finds_peaks_and_their_boxes() -> None:
    heat = np.zeros((32, 32), np.float32)
    reg = np.zeros((4, 32, 32), np.float32)
    heat[10, 5], heat[20, 20], heat[20, 21] = 0.9, 0.8, 0.6  # (20, 21) is not a peak
    reg[:, 10, 5] = [np.log(4.0), np.log(2.0), 0.5, 0.25]
    found = decode(heat, reg, threshold=0.3)
    assert found.scores.tolist() == pytest.approx([0.9, 0.8])
    cx, cy = (5 + 0.5) * STRIDE, (10 + 0.25) * STRIDE
    assert found.boxes[0].tolist() == pytest.approx([cx - 8, cy - 4, cx + 8, cy + 4])
    assert len(decode(heat * 0.1, reg).boxes) == 0


@pytest.mark.parametrize(("a", "b", "expected"), [
    ([0, 0, 10, 10], [0, 0, 10, 10], 1.0),
    ([0, 0, 10, 10], [5, 0, 15, 10], 1 / 3),
    ([0, 0, 10, 10], [20, 20, 30, 30], 0.0),
])
def test_iou(a: list[float], b: list[float], expected: float) -> None:
    assert iou(np.array([a], float), np.array([b], float))[0, 0] == pytest.approx(expected)


def test_crop_is_square_around_the_box_and_pads_at_the_edge() -> None:
    pixels = np.zeros((100, 100, 3), np.uint8)
    pixels[40:60, 40:60] = 255
    crop = cut(pixels, square_around(np.array([40, 40, 60, 60], float), 2.0), 20)
    assert crop.shape == (20, 20, 3)
    assert crop[10, 10, 0] == 255 and crop[1, 1, 0] == 0
    edge = cut(pixels, square_around(np.array([-10, -10, 10, 10], float), 1.4), CROP_SIZE)
    assert edge.shape == (CROP_SIZE, CROP_SIZE, 3)
    assert crops_for(pixels, []).shape == (0, 3, CROP_SIZE, CROP_SIZE)


def test_visible_share() -> None:
    boxes = np.array([[10, 10, 20, 20], [-5, 0, 5, 10], [95, 95, 105, 105]], float)
    assert visible_share(boxes, 100, 100).tolist() == pytest.approx([1.0, 0.5, 0.25])


def probs_for(faces: list[int], not_a_die: float = 0.0) -> np.ndarray:
    """Return probability rows choosing each face with 0.9 (or less when not_a_die)."""
    rows = np.full((len(faces), 7), 0.01, np.float32)
    for row, face in zip(rows, faces, strict=True):
        row[face - 1] = 0.9 - not_a_die
        row[6] = not_a_die
    return rows


def test_combine_scales_boxes_sorts_left_to_right_and_drops_non_dice() -> None:
    image = DecodedImage(np.zeros((100, 200, 3), np.uint8), 800, 400, 4.0)
    boxes = np.array([[150, 10, 170, 30], [10, 10, 30, 30], [60, 60, 80, 80]], np.float32)
    probs = np.concatenate([probs_for([6, 2]), probs_for([4], not_a_die=0.6)])
    reading = combine(image, Faces(probs, boxes))
    assert reading.values == (2, 6)
    assert reading.boxes == ((40, 40, 120, 120), (600, 40, 680, 120))
    assert reading.confidences == pytest.approx((0.9, 0.9))
    assert [(d.value, d.doubtful) for d in reading.found] == [(2, False), (4, True), (6, False)]
    unlikely = np.concatenate([probs_for([6, 2]), probs_for([4], not_a_die=0.85)])
    assert len(combine(image, Faces(unlikely, boxes)).found) == 2


def test_a_die_cut_by_the_border_has_low_confidence() -> None:
    image = DecodedImage(np.zeros((100, 100, 3), np.uint8), 100, 100, 1.0)
    reading = combine(image, Faces(probs_for([3]), np.array([[90, 40, 110, 60]], np.float32)))
    assert reading.found[0].box == (90, 40, 100, 60)
    assert reading.found[0].confidence == pytest.approx(0.9 * 0.25)


def test_two_boxes_refined_onto_one_die_read_as_one() -> None:
    image = DecodedImage(np.zeros((100, 100, 3), np.uint8), 100, 100, 1.0)
    boxes = np.array([[10, 10, 30, 30], [11, 10, 31, 30], [50, 50, 70, 70]], np.float32)
    probs = probs_for([5, 5, 1], not_a_die=0.1)
    probs[1, 6] = 0.05  # the second box is the likelier die
    reading = combine(image, Faces(probs, boxes))
    assert reading.values == (5, 1)
    assert reading.boxes[0] == (11, 10, 31, 30)


def test_box_code_round_trip_in_a_crop() -> None:
    box = np.array([30.0, 42.0, 70.0, 90.0], np.float32)
    square = square_around(box, 1.4)
    assert square == (16, 32, 67)
    code = box_in_crop(box, square)
    assert code[:2].tolist() == pytest.approx([(50 - 16) / 67 - 0.5, (66 - 32) / 67 - 0.5])
    assert box_from_crop(code, square).tolist() == pytest.approx(box.tolist(), abs=1e-4)


def test_box_codes_of_the_four_poses_are_turned_back_upright() -> None:
    upright = np.array([[0.1, -0.05, np.log(0.6), np.log(0.7)]], np.float32)
    flipped_y = upright * [1, -1, 1, 1]
    flipped_x = upright * [-1, 1, 1, 1]
    transposed = upright[:, [1, 0, 3, 2]]
    codes = np.stack([upright, flipped_x, flipped_y, transposed])
    assert unpose(codes)[0].tolist() == pytest.approx(upright[0].tolist())


@pytest.mark.parametrize("poses", [1, 2, 3])
def test_fewer_poses_are_the_first_of_the_four(poses: int) -> None:
    batch = np.arange(2 * 3 * 4 * 4, dtype=np.float32).reshape(2, 3, 4, 4)
    assert posed(batch, poses).tolist() == posed(batch, 4)[: 2 * poses].tolist()
    assert posed(batch, 4)[6:].tolist() == batch.transpose(0, 1, 3, 2).tolist()
    upright = np.array([[0.1, -0.05, np.log(0.6), np.log(0.7)]], np.float32)
    codes = np.stack([upright, upright * [-1, 1, 1, 1], upright * [1, -1, 1, 1]])[:poses]
    assert unpose(codes)[0].tolist() == pytest.approx(upright[0].tolist())


def test_two_poses_keep_the_photos_up() -> None:
    # a crop whose top row is bright: as is and mirrored left to right, it stays on top
    batch = np.zeros((1, 3, 4, 4), np.float32)
    batch[:, :, 0] = 255
    for pose in posed(batch, 2):
        assert pose[:, 0].min() == 255 and pose[:, 1:].max() == 0
    assert posed(batch, 3)[2][:, -1].min() == 255  # the third pose turns it over


@pytest.mark.parametrize("count", [0, 4, 6])
def test_dice_adapter_needs_exactly_five(count: int) -> None:
    reading = DiceReading(10, 10, tuple(Die(3, (0, 0, 1, 1), 1.0) for _ in range(count)))
    with pytest.raises(DiceCountReadError, match=f"read {count} dice, need 5"):
        reading.dice()


def test_dice_adapter_and_json() -> None:
    reading = DiceReading(10, 10, tuple(Die(v, (v, 0, v + 1, 1), 0.5) for v in (1, 2, 6, 6, 3)))
    assert reading.dice() == Dice.parse("1 2 6 6 3")
    assert reading.to_dict()["dice"][2] == {"value": 6, "box": [6, 0, 7, 1], "confidence": 0.5,
                                            "doubtful": False, "check": True}
