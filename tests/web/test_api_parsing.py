"""How the API reads fields from JSON bodies and from multipart forms (photo uploads)."""

from __future__ import annotations

import pytest

from scorekeeper import Dice, DiceSyntaxError
from web.errors import ApiError
from web.parsing import dice_of, flag_of, kept_of, version_of, whole_number


@pytest.mark.parametrize(
    ("value", "expected"),
    [(None, None), ("", None), (7, 7), ("7", 7), (" 12 ", 12), (0, 0)],
)
def test_whole_number(value: object, expected: int | None) -> None:
    assert whole_number(value, "version") == expected


@pytest.mark.parametrize("value", [True, 1.5, "seven", "-1", [1], {}])
def test_not_a_whole_number(value: object) -> None:
    with pytest.raises(ApiError, match="'version' must be a whole number"):
        whole_number(value, "version")


@pytest.mark.parametrize(
    ("value", "expected"),
    [(None, ()), ("", ()), ([], ()), ([1, 2], (1, 2)), ("1,2", (1, 2)), ("0, 4", (0, 4)),
     ("3 1", (3, 1))],
)
def test_kept(value: object, expected: tuple[int, ...]) -> None:
    assert kept_of(value) == expected


@pytest.mark.parametrize("value", [7, "a,b", [None], [True], {"0": 1}])
def test_bad_kept(value: object) -> None:
    with pytest.raises(ApiError, match="'kept' must be"):
        kept_of(value)


@pytest.mark.parametrize(
    ("value", "expected"),
    [(None, False), (True, True), (False, False), ("true", True), ("1", True),
     ("false", False), ("0", False), ("", False), ("TRUE", True)],
)
def test_flag(value: object, expected: bool) -> None:
    assert flag_of(value, "replace") is expected


@pytest.mark.parametrize("value", ["yes", 1, [], "on"])
def test_bad_flag(value: object) -> None:
    with pytest.raises(ApiError, match="'replace' must be true or false"):
        flag_of(value, "replace")


def test_version_required_or_not() -> None:
    assert version_of({}, required=False) is None
    assert version_of({"version": "3"}, required=True) == 3
    with pytest.raises(ApiError, match="'version' is required"):
        version_of({"version": ""}, required=True)


@pytest.mark.parametrize("value", [[6, 6, 4, 6, 6], "6 6 4 6 6", "66466", "6,6,4,6,6"])
def test_dice(value: object) -> None:
    assert dice_of(value) == Dice((6, 6, 4, 6, 6))


def test_bad_dice() -> None:
    with pytest.raises(DiceSyntaxError, match=r"a die must be a whole number 1\.\.6"):
        dice_of([1, 2, 3, 4, "5"])
    with pytest.raises(ApiError, match="'dice' must be a list of five values"):
        dice_of({"a": 1})
