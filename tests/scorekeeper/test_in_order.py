"""Boxes in order (+in-order): every game fills its boxes top to bottom, one after another."""

from __future__ import annotations

import pytest

from scorekeeper import Dice, Game, IllegalBoxError, Scorecard, ruleset, suggest

IN_ORDER = ("yahtzee+in-order", "yacht+in-order", "yatzy+in-order",
            "yahtzee+free-joker+in-order", "yatzy+fh5+tp4+in-order")
ROLL = Dice.parse("6 6 6 5 5")


@pytest.mark.parametrize("name", IN_ORDER)
def test_only_the_next_box_may_be_filled(name: str) -> None:
    card = Scorecard.empty(name)
    for slug in card.rules.slugs:
        assert card.legal_boxes(ROLL) == (slug,)
        assert [s.box for s in suggest(card, ROLL)] == [slug]
        card = card.score(slug, ROLL)
    assert card.is_complete


@pytest.mark.parametrize(
    ("name", "box", "points", "allowed"),
    [
        ("yatzy+in-order", "full_house", 28, "Ones"),
        ("yacht+in-order", "choice", 28, "Ones"),
        ("yahtzee+in-order", "chance", 28, "Aces"),
    ],
)
def test_any_other_box_is_refused_with_the_next_one_named(
    name: str, box: str, points: int, allowed: str
) -> None:
    card = Scorecard.empty(name)
    assert ruleset(name).score(box, ROLL) == points  # the box would score on an open card
    with pytest.raises(IllegalBoxError) as caught:
        card.score(box, ROLL)
    first = card.rules.slugs[0]
    assert str(caught.value) == (
        f"box {box!r} is not allowed for 6 6 6 5 5: boxes are filled in order, top to bottom: "
        f"next is {first!r}; allowed boxes: {first}")
    assert caught.value.code == "box_not_allowed"
    assert caught.value.params["reason"] == "in_order"
    assert caught.value.params["boxes"] == (allowed,)


def test_a_lower_box_after_the_upper_section() -> None:
    card = Scorecard(ruleset("yatzy+in-order"), (3, 6, 9, 12, 15, 18, *(None,) * 9))
    assert card.legal_boxes(ROLL) == ("one_pair",)
    assert card.points_for("one_pair", ROLL) == 12
    with pytest.raises(IllegalBoxError, match="next is 'one_pair'"):
        card.points_for("full_house", ROLL)


def test_a_game_refuses_a_box_out_of_order_and_stays_as_it_was() -> None:
    game = Game.new("yatzy+in-order", ["Ann"]).roll(ROLL)
    with pytest.raises(IllegalBoxError, match="boxes are filled in order"):
        game.score("sixes")
    game = game.score("ones")
    assert (game.cards[0].box("ones"), game.turn) == (0, 2)
    assert [s.box for s in game.roll(ROLL).suggestions()] == ["twos"]


def test_the_joker_of_yahtzee_in_order_scores_the_next_box_with_its_bonus() -> None:
    rules = ruleset("yahtzee+in-order")
    card = Scorecard(rules, (*(0,) * 6, 0, 0, 0, 0, 0, 50, None))
    fives = Dice.parse("5 5 5 5 5")
    assert card.legal_boxes(fives) == ("chance",)
    [option] = suggest(card, fives)
    assert (option.box, option.points, option.bonus) == ("chance", 25, 100)
    assert card.score("chance", fives).grand_total == 50 + 25 + 100


def test_in_order_is_a_switch_of_every_game() -> None:
    for game in ("yahtzee", "yacht", "yatzy"):
        plain, ordered = ruleset(game), ruleset(f"{game}+in-order")
        assert (plain.in_order, ordered.in_order) == (False, True)
        assert ordered.categories == plain.categories
        assert ordered.upper_first is False
