"""Doubtful dice: the default confidence line and the expected-count hint."""

from __future__ import annotations

import json

import numpy as np
import pytest
from vision_samples import SAMPLES, SHARED, sample_truth

from pipkeeper.cli import main
from scorekeeper.dice import Dice
from vision import DOUBTFUL_BELOW, DiceCountReadError, DiceReading, Die, read_dice
from vision.pipeline import around_sure_dice, crowded, on_sure_dice
from vision.reading import judge

CONFIDENCES = (0.95, 0.3, 0.8, 0.55, 0.1, 0.9)


def dice_with(confidences: tuple[float, ...]) -> tuple[Die, ...]:
    """Return dice valued 1, 2, ... left to right with the given confidences."""
    return tuple(Die(v, (10 * v, 0, 10 * v + 8, 8), c) for v, c in enumerate(confidences, 1))


def test_dice_below_the_default_line_are_doubtful_but_returned() -> None:
    reading = DiceReading(80, 10, judge(dice_with(CONFIDENCES)))
    assert DOUBTFUL_BELOW == 0.5
    assert [d.doubtful for d in reading.found] == [False, True, False, False, True, False]
    assert reading.values == (1, 3, 4, 6)
    assert [d.value for d in reading.doubtful] == [2, 5]
    assert reading.to_dict()["dice"][1]["doubtful"] is True
    with pytest.raises(DiceCountReadError, match=r"read 4 dice \(and 2 doubtful\), need 5"):
        reading.dice()


def test_expect_counts_the_n_most_likely_and_keeps_left_to_right_order() -> None:
    reading = DiceReading(80, 10, judge(dice_with(CONFIDENCES), expect=5))
    assert [d.value for d in reading.found] == [1, 2, 3, 4, 5, 6]
    assert reading.values == (1, 2, 3, 4, 6)  # the 0.3 die counts, the 0.1 one does not
    assert reading.dice() == Dice.parse("1 2 3 4 6")
    assert [d.value for d in DiceReading(80, 10, judge(dice_with(CONFIDENCES), expect=2)
                                         ).certain] == [1, 6]


@pytest.mark.parametrize(("expect", "counted"), [(0, 0), (6, 6), (9, 6)])
def test_expect_at_the_ends(expect: int, counted: int) -> None:
    reading = DiceReading(80, 10, judge(dice_with(CONFIDENCES), expect=expect))
    assert len(reading.certain) == counted and len(reading.found) == 6


def test_negative_expect_is_refused() -> None:
    with pytest.raises(ValueError, match="expect must be 0 or more dice, not -1"):
        judge(dice_with(CONFIDENCES), expect=-1)
    with pytest.raises(ValueError, match="not -2"):
        read_dice(SAMPLES / "sample_01.jpg", expect=-2)


def test_read_dice_with_expect_on_a_photo() -> None:
    plain = read_dice(SAMPLES / "sample_04.jpg")
    assert len(plain.certain) == 5
    fewer = read_dice(SAMPLES / "sample_04.jpg", expect=3)
    assert len(fewer.certain) == 3 and len(fewer.doubtful) == 2
    assert [d.box for d in fewer.found] == [d.box for d in plain.found]
    lowest_counted = min(d.confidence for d in fewer.certain)
    assert all(d.confidence <= lowest_counted for d in fewer.doubtful)


def test_cli_expect_marks_doubtful_dice(capsys: pytest.CaptureFixture[str]) -> None:
    good = str(SAMPLES / "sample_02.jpg")
    assert main(["read", "--json", "--expect", "2", good]) == 0
    record = json.loads(capsys.readouterr().out)
    assert [d["doubtful"] for d in record["dice"]].count(False) == 2
    assert len(record["dice"]) == len(sample_truth(good)["values"])
    assert main(["read", "--expect", "2", good]) == 0
    assert "(2 dice); doubtful: " in capsys.readouterr().out


def test_cli_refuses_a_negative_expect(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["read", "--expect", "-1", str(SAMPLES / "sample_02.jpg")])
    assert exit_info.value.code == 2
    assert "expected a number of dice (0 or more), not '-1'" in capsys.readouterr().err


def test_finds_on_a_sure_die_are_its_pips_and_dropped() -> None:
    boxes = np.array([[0, 0, 60, 60],      # a sure die
                      [10, 10, 22, 22],    # a pip on it, unsure
                      [54, 54, 66, 66],    # a quarter on its corner: kept
                      [100, 0, 160, 60],   # an unsure die of its own: kept
                      [110, 10, 122, 22],  # unsure, inside an unsure find: kept
                      [5, 30, 20, 45],     # sure itself, but a quarter the die's size: a pip
                      [20, 20, 55, 55]], np.float32)  # sure, over half its size: kept
    is_die = np.array([0.98, 0.3, 0.3, 0.4, 0.2, 0.95, 0.95])
    assert on_sure_dice(boxes, is_die).tolist() == [False, True, False, False, False, True,
                                                    False]
    assert on_sure_dice(np.zeros((0, 4), np.float32), np.zeros(0)).tolist() == []


def test_a_find_around_sure_dice_that_is_not_read_surely_is_a_group_and_dropped() -> None:
    boxes = np.array([[0, 0, 200, 100],     # around the two dice below, read unsurely
                      [10, 10, 60, 60],     # a sure die
                      [120, 20, 170, 70],   # a sure die
                      [300, 0, 500, 100],   # around one sure die only: kept
                      [320, 10, 370, 60],   # a sure die
                      [600, 0, 800, 100],   # around two sure dice, read surely: kept
                      [610, 10, 660, 60],
                      [720, 20, 770, 70]], np.float32)
    is_die = np.array([0.6, 0.99, 0.97, 0.6, 0.99, 0.7, 0.99, 0.99])
    face = np.array([0.2, 0.95, 0.9, 0.2, 0.95, 0.8, 0.95, 0.95])
    assert around_sure_dice(boxes, is_die, face).tolist() == [
        True, False, False, False, False, False, False, False]


def test_a_find_holding_more_sure_dice_than_its_face_has_pips_is_a_group() -> None:
    boxes = np.array([[0, 0, 400, 400],     # a tray read surely as a two, six dice in it
                      *[[20 + 60 * i, 100, 60 + 60 * i, 140] for i in range(6)],
                      [500, 0, 600, 100],   # a die read as a two: its two pips
                      [510, 10, 530, 30], [570, 70, 590, 90],
                      [700, 0, 800, 100],   # a die read as a one: a pip found twice
                      [740, 40, 760, 60], [741, 41, 761, 61]], np.float32)
    is_die = np.array([0.99] * 7 + [0.99, 0.95, 0.95] + [0.99, 0.95, 0.95])
    values = np.array([2] + [4] * 6 + [2, 1, 1] + [1, 1, 1])
    assert crowded(boxes, is_die, values).tolist() == [True] + [False] * 12
    assert crowded(boxes[:7], np.where(np.arange(7) < 4, 0.99, 0.5), values[:7]).tolist() == [
        False] * 7  # three sure dice in it: a two with a pip found twice, say


# A held-out Rune55 photo: six dice in a green felt tray, which the reader reads as a die.
TRAY_OF_SIX = ("rune55-v3/train/images/"
               "PXL_20240219_191514108_jpg.rf.6acbbde53cf2848e388100178af99818.jpg")


def test_a_felt_tray_of_six_dice_read_as_a_die_does_not_swallow_them() -> None:
    photo = SHARED / TRAY_OF_SIX
    if not photo.is_file():
        pytest.skip(f"shared dice photos not found at {SHARED}")
    reading = read_dice(photo, expect=6)
    assert sorted(reading.values) == [2, 2, 3, 4, 4, 6]  # as labelled
    assert max(d.box[2] - d.box[0] for d in reading.certain) < 60  # dice of 640 px, no tray
