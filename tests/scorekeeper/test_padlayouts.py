"""The printed pads a photo may show: their rows, totals, checks and the rules they fit."""

from __future__ import annotations

import pytest

from scorekeeper import RULESET_NAMES, ruleset
from scorekeeper.layout import total_keys
from scorekeeper.padlayouts import (
    LAYOUT_NAMES,
    LayoutError,
    column_keys,
    layouts_for,
    pad_layout,
)


def test_the_layouts_are_named() -> None:
    assert LAYOUT_NAMES == ("pipkeeper", "hasbro", "kniffel", "yatzy")


def test_the_hasbro_pad_row_by_row() -> None:
    rows = pad_layout("hasbro").rows_for(ruleset("yahtzee"))
    assert rows[0].kind == "header"
    assert [row.key for row in rows[1:]] == [
        "aces", "twos", "threes", "fours", "fives", "sixes",
        "upper_subtotal", "upper_bonus", "upper_total",
        "three_of_a_kind", "four_of_a_kind", "full_house", "small_straight",
        "large_straight", "yahtzee", "chance", "yahtzee_bonus_checks", "yahtzee_bonus",
        "lower_total", "upper_total", "grand_total",
    ]
    assert [row.key for row in rows if row.marks == "checks"] == ["yahtzee_bonus_checks"]
    assert [row.kind for row in rows[7:10]] == ["total"] * 3
    assert pad_layout("hasbro").columns == 6


def test_the_kniffel_block_has_no_yahtzee_bonus_and_german_labels() -> None:
    layout = pad_layout("kniffel")
    rows = layout.rows_for(ruleset("yahtzee"))
    keys = [row.key for row in rows]
    assert "yahtzee_bonus" not in keys and "yahtzee_bonus_checks" not in keys
    assert len(rows) == 1 + 19
    assert [row.label for row in rows if row.key == "yahtzee"] == ["Kniffel"]
    assert rows[-1].label == "Endsumme"
    assert layout.column_label.format(n=3) == "3. Spiel"


def test_the_yatzy_pad_has_fifteen_boxes_sum_bonus_and_total() -> None:
    layout = pad_layout("yatzy")
    rules = ruleset("yatzy")
    rows = layout.value_rows(rules)
    assert [row.key for row in rows if row.kind == "box"] == list(rules.slugs)
    assert [row.key for row in rows if row.kind == "total"] == [
        "upper_subtotal", "upper_bonus", "grand_total"]
    assert layout.columns is None and layout.label_columns == 1


@pytest.mark.parametrize(("name", "rows"), [("yahtzee", 23), ("yacht", 19), ("yatzy", 21)])
def test_the_pipkeeper_pad_follows_the_rule_set(name: str, rows: int) -> None:
    layout = pad_layout("pipkeeper")
    grid = layout.rows_for(ruleset(name))
    assert len(grid) == rows
    assert [row.kind for row in grid[:2]] == ["header", "section"]
    assert layout.markers


def test_the_pipkeeper_checks_row_gives_the_count_of_checks() -> None:
    rows = pad_layout("pipkeeper").value_rows(ruleset("yahtzee"))
    assert [(row.key, row.label) for row in rows if row.marks == "checks"] == [
        ("yahtzee_bonus_checks", "Yahtzee bonus")]


@pytest.mark.parametrize("name", RULESET_NAMES)
def test_every_column_key_is_a_box_or_total_of_the_rules(name: str) -> None:
    rules = ruleset(name)
    for layout in layouts_for(rules):
        keys = column_keys(layout, rules)
        assert set(rules.slugs) <= set(keys) <= {*rules.slugs, *total_keys(rules)}


@pytest.mark.parametrize(("rules", "layouts"), [
    ("yahtzee", ("pipkeeper", "hasbro", "kniffel")),
    ("yahtzee+free-joker", ("pipkeeper", "hasbro", "kniffel")),
    ("yacht", ("pipkeeper",)),
    ("yatzy", ("pipkeeper", "yatzy")),
])
def test_which_layouts_fit_a_rule_set(rules: str, layouts: tuple[str, ...]) -> None:
    assert tuple(layout.name for layout in layouts_for(ruleset(rules))) == layouts


def test_a_layout_of_another_game_is_refused() -> None:
    with pytest.raises(LayoutError, match=r"Kniffel block \('kniffel'\) is not a pad for 'yatzy'"):
        pad_layout("kniffel").rows_for(ruleset("yatzy"))


def test_an_unknown_layout_is_refused_by_name() -> None:
    with pytest.raises(LayoutError, match="unknown pad layout 'bingo'; layouts are: pipkeeper"):
        pad_layout("bingo")
