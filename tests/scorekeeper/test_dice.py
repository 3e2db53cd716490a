"""Dice: construction, parsing, errors that quote the input, formatting."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper import Dice, DiceCountError, DiceError, DiceSyntaxError, DieValueError


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("6 6 4 6 6", (6, 6, 4, 6, 6)),
        ("66466", (6, 6, 4, 6, 6)),
        ("6,6,4,6,6", (6, 6, 4, 6, 6)),
        ("6, 6, 4, 6, 6", (6, 6, 4, 6, 6)),
        ("4-4-4-4-1", (4, 4, 4, 4, 1)),
        ("1;2;3;4;5", (1, 2, 3, 4, 5)),
        ("1/2/3/4/5", (1, 2, 3, 4, 5)),
        ("  3 1  2 6 5\n", (3, 1, 2, 6, 5)),
    ],
)
def test_parse_reads_values_in_order(text: str, values: tuple[int, ...]) -> None:
    assert Dice.parse(text).values == values


@pytest.mark.parametrize(
    ("text", "error", "quoted"),
    [
        ("1 2 3 4 7", DieValueError, "got 7"),
        ("0 1 2 3 4", DieValueError, "got 0"),
        ("12347", DieValueError, "got 7"),
        ("-1 2 3 4 5", DieValueError, "got -1"),
        ("1 2 3 4", DiceCountError, "expected 5 dice, got 4"),
        ("123456", DiceCountError, "expected 5 dice, got 6"),
        ("abc", DiceSyntaxError, "cannot read dice"),
        ("", DiceSyntaxError, "cannot read dice"),
        ("1 2 x 4 5", DiceSyntaxError, "cannot read dice"),
    ],
)
def test_parse_errors_quote_the_text(text: str, error: type[DiceError], quoted: str) -> None:
    with pytest.raises(error) as caught:
        Dice.parse(text)
    assert quoted in str(caught.value)
    assert repr(text) in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_parse_with_other_count() -> None:
    assert Dice.parse("1 2 3", count=3).values == (1, 2, 3)
    assert Dice.parse("1 2 3 4 5 6 6", count=None).values == (1, 2, 3, 4, 5, 6, 6)
    with pytest.raises(DiceCountError, match="expected 3 dice, got 5"):
        Dice.parse("1 2 3 4 5", count=3)


@pytest.mark.parametrize(
    ("values", "error"),
    [
        ((), DiceCountError),
        ([1, 2, 3, 4, 5], DiceSyntaxError),  # a list, not a tuple
        ((1, 2, 3, 4, True), DiceSyntaxError),
        ((1, 2, 3, 4, 5.0), DiceSyntaxError),
        ((1, 2, 3, 4, "5"), DiceSyntaxError),
        ((1, 2, 3, 4, 9), DieValueError),
    ],
)
def test_constructor_rejects(values: object, error: type[DiceError]) -> None:
    with pytest.raises(error):
        Dice(values)  # type: ignore[arg-type]


def test_of_checks_count() -> None:
    assert Dice.of([2, 2, 3, 3, 3]).values == (2, 2, 3, 3, 3)
    assert Dice.of(iter([6]), count=None).values == (6,)
    with pytest.raises(DiceCountError, match=r"expected 5 dice, got 6: 1 1 1 1 1 1$"):
        Dice.of([1] * 6)


def test_properties_of_a_roll() -> None:
    dice = Dice.parse("6 6 4 6 6")
    assert dice.total == 28
    assert dice.counts() == (0, 0, 0, 1, 0, 4)
    assert dice.sorted() == Dice.parse("4 6 6 6 6")
    assert len(dice) == 5
    assert str(dice) == "6 6 4 6 6"
    assert repr(dice) == "Dice.parse('6 6 4 6 6')"
    assert repr(Dice((1, 2))) == "Dice.parse('1 2', count=2)"


def test_dice_are_immutable_and_hashable() -> None:
    dice = Dice.parse("12345")
    with pytest.raises(dataclasses.FrozenInstanceError):
        dice.values = (6, 6, 6, 6, 6)  # type: ignore[misc]
    assert {dice, Dice.parse("1 2 3 4 5")} == {dice}


@given(st.lists(st.integers(1, 6), min_size=1, max_size=8))
def test_repr_and_str_round_trip(values: list[int]) -> None:
    dice = Dice(tuple(values))
    assert eval(repr(dice)) == dice
    assert Dice.parse(str(dice), count=len(values)) == dice
    assert Dice.parse("".join(map(str, values)), count=None) == dice
    assert sum(dice.counts()) == len(values)
    assert dice.total == sum(values)


@pytest.mark.parametrize(
    "text",
    [
        "\u0666\u0666\u0664\u0666\u0666",  # Arabic-Indic digits: int() reads them
        "\uff16\uff16\uff14\uff16\uff16",  # fullwidth digits
        "\u0666 \u0666 \u0664 \u0666 \u0666",
        "\u00b2\u00b2\u00b2\u00b2\u00b2",  # superscripts: isdigit() is true, int() fails
        "6 6 4 6 \u00b2",
        "6,6,4,6,\uff16",
        "\u09ec\u09ec\u09ea\u09ec\u09ec",  # Bengali digits
    ],
)
def test_parse_reads_only_ascii_digits(text: str) -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        Dice.parse(text)
    assert str(caught.value) == f"cannot read dice from {text!r}: use e.g. '6 6 4 6 6'"


@pytest.mark.parametrize(("count", "shown"), [(5, "6 6 4 6 6"), (None, "6 6 4 6 6"),
                                              (6, "6 6 4 6 6 1"), (1, "6")])
def test_a_syntax_error_shows_as_many_dice_as_a_roll_has(count: int | None, shown: str) -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        Dice.parse("six", count)
    assert str(caught.value) == f"cannot read dice from 'six': use e.g. '{shown}'"
    assert caught.value.params["expected"] == len(shown.split())


@pytest.mark.parametrize(
    ("text", "values"),
    [("6\u00a06 4 6 6", (6, 6, 4, 6, 6)), ("1\u30002 3 4 5", (1, 2, 3, 4, 5))],
)
def test_parse_still_takes_unicode_spaces_between_ascii_digits(
    text: str, values: tuple[int, ...]
) -> None:
    assert Dice.parse(text).values == values
