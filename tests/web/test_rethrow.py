"""A photo of a throw made into a roll: the found dice merged with the kept ones."""

from __future__ import annotations

import pytest

from scorekeeper import Dice
from vision import Die
from vision.reading import judge
from web.rethrow import TooFewDiceError, kept_values, merge


def found(*finds: tuple[int, float]) -> tuple[Die, ...]:
    """Return dice as vision returns them (left to right, its own doubtful flags) from
    (value, confidence) pairs."""
    return judge([Die(value, (40 * i, 0, 40 * i + 30, 30), confidence)
                  for i, (value, confidence) in enumerate(finds)])


@pytest.mark.parametrize(
    ("finds", "kept", "dice", "roles", "positions"),
    [
        pytest.param(
            [(1, .9), (3, .9), (3, .9), (5, .9), (6, .9)], {}, "1 3 3 5 6",
            "ttttt", [0, 1, 2, 3, 4], id="first roll: five dice"),
        pytest.param(
            [(2, .9), (6, .9), (4, .9)], {0: 6, 1: 6}, "6 6 2 6 4",
            "ttt", [2, 3, 4], id="photo of the thrown dice only"),
        pytest.param(
            [(2, .9), (6, .9), (4, .9)], {1: 6, 3: 5}, "2 6 6 5 4",
            "ttt", [0, 2, 4], id="thrown dice fill the free positions left to right"),
        pytest.param(
            [(6, .95), (2, .9), (6, .97), (4, .8), (6, .9)], {0: 6, 1: 6}, "6 6 2 4 6",
            "ktktt", [1, 2, 0, 3, 4], id="photo of all five: kept values matched, surest first"),
        pytest.param(
            [(6, .95), (5, .55), (2, .9), (3, .9), (4, .9)], {0: 6, 1: 6}, "6 6 2 3 4",
            "kdttt", [0, None, 2, 3, 4], id="all five, a kept die misread: it stays kept"),
        pytest.param(
            [(2, .9), (5, .3), (3, .8), (1, .2), (4, .7)], {0: 6, 1: 6}, "6 6 2 3 4",
            "tdtdt", [2, None, 3, None, 4], id="more found than thrown: the surest counted"),
        pytest.param(
            [(1, .9), (2, .9), (3, .4), (4, .9), (5, .9), (6, .9)], {}, "1 2 4 5 6",
            "ttdttt", [0, 1, None, 2, 3, 4], id="first roll: six found, the least sure doubtful"),
        pytest.param(
            [(6, .9), (6, .9), (2, .9), (3, .9)], {0: 6, 1: 6}, "6 6 6 2 3",
            "kttt", [0, 2, 3, 4], id="four sure dice: one of them is kept"),
        pytest.param(
            [(4, .9), (4, .9), (4, .9), (4, .9), (4, .9)], {0: 4, 1: 4, 2: 4, 3: 4}, "4 4 4 4 4",
            "kkkkt", [0, 1, 2, 3, 4], id="four kept, one thrown, photo of all five"),
        pytest.param(
            [(3, .9)], {0: 4, 1: 4, 2: 4, 3: 4}, "4 4 4 4 3",
            "t", [4], id="four kept, photo of the one thrown die"),
    ],
)
def test_merge(finds: list[tuple[int, float]], kept: dict[int, int], dice: str, roles: str,
               positions: list[int | None]) -> None:
    merged = merge(found(*finds), kept)
    assert merged.dice == Dice.parse(dice)
    names = {"thrown": "t", "kept": "k", "doubtful": "d"}
    assert "".join(names[r] for r in merged.roles) == roles
    assert list(merged.positions) == positions


@pytest.mark.parametrize(
    ("count", "kept", "thrown"),
    [(0, {}, 5), (4, {}, 5), (2, {0: 6, 1: 6}, 3), (3, {0: 1}, 4)],
)
def test_fewer_found_than_thrown_is_refused(count: int, kept: dict[int, int],
                                            thrown: int) -> None:
    with pytest.raises(TooFewDiceError) as refused:
        merge(found(*[(2, .9)] * count), kept)
    assert (refused.value.found, refused.value.thrown) == (count, thrown)
    assert str(refused.value) == (
        f"the photo shows fewer dice than were thrown ({count} found, {thrown} thrown): "
        "set the dice by hand")


@pytest.mark.parametrize(
    ("dice", "kept", "values"),
    [
        (None, [0, 1], {}),
        ("1 2 3 4 5", [], {}),
        ("1 2 3 4 5", [0, 3], {0: 1, 3: 4}),
        ("1 2 3 4 5", [7, 4], {4: 5}),  # the rules refuse position 7 when it is recorded
    ],
)
def test_kept_values_are_the_roll_on_the_table(dice: str | None, kept: list[int],
                                               values: dict[int, int]) -> None:
    assert kept_values(Dice.parse(dice) if dice else None, kept) == values
