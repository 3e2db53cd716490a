"""Correcting a box filled turns ago: re-scored totals, refusals, history, undo, JSON."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scorekeeper_strategies import rolls
from test_game import YAHTZEE_SCRIPT, play

from scorekeeper import Dice, Game, Scorecard
from scorekeeper.correction import CorrectionError
from scorekeeper.history import CorrectionRecord

FULL_GAME_TOTAL = 408  # upper 63 + 35, lower 210, one Yahtzee bonus of 100


def full_game() -> Game:
    return play(Game.new("yahtzee", ["Ann"]), YAHTZEE_SCRIPT)


@pytest.mark.parametrize(
    ("box", "dice", "to_box", "points", "total"),
    [
        # not a straight after all: 30 -> 0
        ("small_straight", "12245", None, 0, FULL_GAME_TOTAL - 30),
        # four sixes, not three: 18 -> 24, the upper bonus stays
        ("sixes", "66662", None, 24, FULL_GAME_TOTAL + 6),
        # two aces, not three: upper 62, so the 35 bonus is lost too
        ("aces", "11223", None, 2, FULL_GAME_TOTAL - 1 - 35),
        # no Yahtzee: 50 -> 0, and the later 5 5 5 5 5 earns no bonus (still a Joker in Chance)
        ("yahtzee", "66665", None, 0, FULL_GAME_TOTAL - 50 - 100),
        # a six, not a five: 18 -> 19
        ("three_of_a_kind", "33346", None, 19, FULL_GAME_TOTAL + 1),
        # a full house that was really a small straight: 25 -> 0 (Small Straight is taken)
        ("full_house", "12342", None, 0, FULL_GAME_TOTAL - 25),
    ],
)
def test_a_corrected_box_rescores_the_card(
    box: str, dice: str, to_box: str | None, points: int, total: int
) -> None:
    game = full_game()
    assert game.cards[0].grand_total == FULL_GAME_TOTAL
    corrected = game.correct_box(0, box, Dice.parse(dice), to_box)
    assert corrected.cards[0].box(to_box or box) == points
    assert corrected.cards[0].grand_total == total
    assert corrected.is_over and len(corrected.events) == len(game.events) + 1


def test_moving_a_turn_to_the_box_it_belonged_in() -> None:
    game = Game.new("yahtzee", ["Ann", "Bob"])
    for dice, box in [("23456", "small_straight"), ("11123", "aces"),
                      ("44412", "fours"), ("22245", "twos")]:
        game = game.roll(Dice.parse(dice)).score(box)
    assert game.cards[0].totals()["grand_total"] == 30 + 12
    moved = game.correct_box(0, "small_straight", Dice.parse("23456"), "large_straight")
    assert moved.cards[0].box("small_straight") is None
    assert moved.cards[0].box("large_straight") == 40
    assert moved.cards[0].grand_total == 40 + 12
    assert moved.cards[1] == game.cards[1]  # Bob's card is untouched
    assert [box for box, _ in moved.turns(0)] == ["large_straight", "fours"]
    assert moved.current_player == 0 and moved.turn == 3  # the later turns stayed


def joker_game() -> Game:
    """Bob: a Yahtzee, then Sixes, then 6 6 6 6 6 as a Joker in Full House (Sixes filled)."""
    game = Game.new("yahtzee", ["Bob"])
    for dice, box in [("11111", "yahtzee"), ("66612", "sixes"), ("66666", "full_house")]:
        game = game.roll(Dice.parse(dice)).score(box)
    return game


@pytest.mark.parametrize(
    ("box", "dice", "to_box", "message"),
    [
        # Sixes moved to Chance: Sixes is open when the 6 6 6 6 6 comes, so it must go there
        ("sixes", "66612", "chance",
         "correcting Bob's round 2 would make round 3 (6 6 6 6 6 in Full House) illegal"),
        ("chance", "66612", None, "Bob's Chance is still open"),
        ("sixes", "66612", None, "the correction changes nothing"),
        # 1 1 1 1 1 after the Yahtzee box: the Joker sends it to Aces, not Chance
        ("sixes", "11111", "chance", "Bob's round 2 cannot be corrected to 1 1 1 1 1 in Chance"),
        ("yahtzee", "11111", "full_house",
         "correcting Bob's round 1 would make round 3 (6 6 6 6 6 in Full House) illegal"),
    ],
)
def test_a_correction_that_breaks_an_entry_is_refused(
    box: str, dice: str, to_box: str | None, message: str
) -> None:
    game = joker_game()
    events = game.events
    with pytest.raises(CorrectionError, match=message.replace("(", r"\(").replace(")", r"\)")):
        game.correct_box(0, box, Dice.parse(dice), to_box)
    assert game.events == events and game.cards[0].grand_total == 50 + 18 + 25 + 100


def test_a_lost_yahtzee_takes_the_joker_bonus_with_it() -> None:
    corrected = joker_game().correct_box(0, "yahtzee", Dice.parse("11112"))
    assert corrected.cards[0].totals() == {
        "upper_subtotal": 18, "upper_bonus": 0, "upper_total": 18,
        "yahtzee_bonus_checks": 0, "yahtzee_bonus": 0,
        "lower_subtotal": 25, "lower_total": 25, "grand_total": 43,
    }


def test_history_shows_the_correction_and_keeps_the_original_entry() -> None:
    game = full_game().correct_box(0, "sixes", Dice.parse("66662"))
    records = game.history()
    assert [r.type for r in records[-2:]] == ["score", "correction"]
    record = records[-1]
    assert isinstance(record, CorrectionRecord)
    assert record.to_dict() == {
        "type": "correction", "player": 0, "round": 6, "box": "sixes", "to_box": "sixes",
        "before": {"dice": [6, 6, 6, 1, 2], "points": 18, "total": FULL_GAME_TOTAL},
        "after": {"dice": [6, 6, 6, 6, 2], "points": 24, "total": FULL_GAME_TOTAL + 6},
    }
    assert record.card == game.cards[0]
    assert [r.to_dict() for r in records if r.type == "score" and r.box == "sixes"] == [
        {"type": "score", "player": 0, "dice": [6, 6, 6, 1, 2], "box": "sixes",
         "points": 18, "bonus": 0}]  # the entry as it was made, long ago


def test_undo_takes_back_a_correction_only() -> None:
    game = full_game()
    corrected = game.correct_box(0, "aces", Dice.parse("11223"))
    assert corrected.undo() == game
    assert corrected.undo().cards == game.cards


def test_a_correction_mid_turn_keeps_the_roll_on_the_table() -> None:
    game = Game.new("yahtzee", ["Ann", "Bob"])
    game = game.roll(Dice.parse("66612")).score("sixes")
    game = game.roll(Dice.parse("11123")).score("aces").roll(Dice.parse("66613"))
    corrected = game.correct_box(0, "sixes", Dice.parse("66662"))
    assert (corrected.dice, corrected.roll_number, corrected.current_player) == (
        Dice.parse("66613"), 1, 0)
    assert corrected.suggestions()[0].box != "sixes"  # Sixes stays filled
    assert corrected.score("chance").cards[0].grand_total == 24 + 22


def test_json_keeps_corrections_and_old_games_still_load() -> None:
    game = full_game().correct_box(0, "small_straight", Dice.parse("23456"), None)
    moved = Game.new("yahtzee", ["Ann"]).roll(Dice.parse("23456")).score("small_straight")
    moved = moved.correct_box(0, "small_straight", Dice.parse("23456"), "large_straight")
    for each in (game, moved):
        data = each.to_dict()
        assert Game.from_dict(data) == each
        assert Game.from_dict(data).cards == each.cards
    assert moved.to_dict()["events"][-1] == {
        "type": "correction", "player": 0, "box": "small_straight", "dice": [2, 3, 4, 5, 6],
        "to_box": "large_straight"}
    old = {"format": 1, "rules": "yahtzee", "players": ["Ann"], "roll_for_first": False,
           "events": [{"type": "roll", "dice": [1, 1, 1, 2, 3], "kept": []},
                      {"type": "score", "box": "aces"}]}
    assert Game.from_dict(old).cards[0].box("aces") == 3


@st.composite
def played_games(draw: st.DrawFn) -> Game:
    """A two-player Yahtzee game of random legal turns, then a random box to correct."""
    game = Game.new(draw(st.sampled_from(["yahtzee", "yahtzee+free-joker",
                                          "yahtzee+upper-first", "yacht"])), ["Ann", "Bob"])
    for _ in range(draw(st.integers(1, 12))):
        dice = draw(rolls)
        game = game.roll(dice)
        player = game.current_player
        assert player is not None
        game = game.score(draw(st.sampled_from(game.cards[player].legal_boxes(dice))))
    return game


@settings(max_examples=150, deadline=None)
@given(played_games(), st.data())
def test_any_correction_rescores_exactly_or_changes_nothing(
    game: Game, data: st.DataObject
) -> None:
    player = data.draw(st.sampled_from([p for p in (0, 1) if game.turns(p)]))
    box, old_dice = data.draw(st.sampled_from(game.turns(player)))
    dice = data.draw(rolls)
    to_box = data.draw(st.one_of(st.none(), st.sampled_from(game.rules.slugs)))
    try:
        corrected = game.correct_box(player, box, dice, to_box)
    except CorrectionError:
        return
    other = 1 - player
    assert corrected.cards[other] == game.cards[other]
    card = Scorecard.empty(game.rules)
    for filled, turn_dice in corrected.turns(player):
        card = card.score(filled, turn_dice)
    assert corrected.cards[player] == card
    assert corrected.current_player == game.current_player and corrected.turn == game.turn
    back = corrected.correct_box(player, to_box or box, old_dice, box)
    assert back.cards == game.cards


def test_the_roll_on_the_table_can_still_be_corrected_after_a_box_correction() -> None:
    game = Game.new("yahtzee", ["Ann"]).roll(Dice.parse("66612")).score("sixes")
    game = game.roll(Dice.parse("11234")).correct_box(0, "sixes", Dice.parse("66662"))
    fixed = game.correct(Dice.parse("12345"))
    assert (fixed.dice, fixed.roll_number, fixed.cards[0].box("sixes")) == (
        Dice.parse("12345"), 1, 24)
    assert [type(e).__name__ for e in fixed.events] == ["Roll", "Score", "Roll", "Correct"]
