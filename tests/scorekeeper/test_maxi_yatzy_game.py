"""A Maxi Yatzy game: six dice a roll, and the rolls a player leaves unused saved for
their later turns (undo, JSON and corrections keep them exactly)."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from scorekeeper import Dice, Game, KeptDiceError, PhaseError, Series, TooManyRollsError

# (dice, box, points): one player's whole game, every box scored at the first roll.
MAXI_SCRIPT = [
    ("111123", "ones", 4),
    ("222214", "twos", 8),
    ("333312", "threes", 12),
    ("444412", "fours", 16),
    ("555512", "fives", 20),
    ("666612", "sixes", 24),  # upper 84: bonus 100
    ("665512", "one_pair", 12),
    ("665543", "two_pairs", 22),
    ("665544", "three_pairs", 30),
    ("666123", "three_of_a_kind", 18),
    ("666612", "four_of_a_kind", 24),
    ("666661", "five_of_a_kind", 30),
    ("123455", "small_straight", 15),
    ("234566", "large_straight", 20),
    ("123456", "full_straight", 21),
    ("666551", "full_house", 28),
    ("666555", "villa", 33),
    ("666655", "tower", 34),
    ("666666", "chance", 36),
    ("555555", "maxi_yatzy", 100),
]


def dice(text: str) -> Dice:
    return Dice.parse(text, 6)


def test_a_whole_game_of_six_dice_and_its_totals() -> None:
    game = Game.new("maxi-yatzy", ["Ann"])
    for roll, box, points in MAXI_SCRIPT:
        game = game.roll(dice(roll))
        assert [s.box for s in game.suggestions()][:1] != []
        game = game.score(box)
        assert game.cards[0].box(box) == points
    card = game.cards[0]
    assert game.is_over
    assert (card.upper_subtotal, card.upper_bonus, card.grand_total) == (84, 100, 607)
    assert game.saved_rolls == (2 * 20,)  # two rolls left unused every turn


def test_rolls_left_unused_are_saved_for_the_next_turns() -> None:
    game = Game.new("maxi-yatzy", ["Ann", "Bob"])
    assert (game.saved_rolls, game.max_rolls, game.rolls_left) == ((0, 0), 3, 3)
    game = game.roll(dice("123456")).score("full_straight")  # Ann: scored after one roll
    assert game.saved_rolls == (2, 0)
    game = game.roll(dice("111222")).roll(dice("111333"), [0, 1, 2])
    game = game.roll(dice("111334"), [0, 1, 2, 3, 4]).score("ones")  # Bob: all three rolls
    assert game.saved_rolls == (2, 0)
    assert (game.current_player, game.max_rolls, game.rolls_left) == (0, 5, 5)
    for number in range(1, 6):  # Ann rolls five times: three and her two saved rolls
        game = game.roll(dice("666612"), [0, 1, 2, 3] if number > 1 else [])
        assert (game.roll_number, game.rolls_left) == (number, 5 - number)
        assert game.saved_rolls == (min(2, 5 - number), 0)
    with pytest.raises(TooManyRollsError) as caught:
        game.roll(dice("666612"), [0, 1, 2, 3])
    assert str(caught.value) == ("only 5 rolls this turn (3 and 2 saved): choose a box to "
                                 "score")
    assert (caught.value.code, caught.value.params) == (
        "too_many_rolls_saved", {"most": 5, "saved": 2})
    game = game.score("sixes")
    assert game.saved_rolls == (0, 0)


def test_saved_rolls_add_up_over_turns_and_spend_only_what_is_rolled() -> None:
    game = Game.new("maxi-yatzy", ["Ann"])
    game = game.roll(dice("123456")).score("full_straight")  # 2 saved
    game = game.roll(dice("123455")).score("small_straight")  # 4 saved
    game = game.roll(dice("111111")).roll(dice("222222")).score("maxi_yatzy")  # 1 more: 5
    assert game.saved_rolls == (5,)
    for _ in range(4):  # four of eight rolls: one saved roll spent, two of the turn left
        game = game.roll(dice("333333"))
    assert (game.saved_rolls, game.rolls_left) == ((4,), 4)
    assert game.score("threes").saved_rolls == (4,)


def test_undo_and_json_restore_the_saved_rolls_exactly() -> None:
    game = Game.new("maxi-yatzy", ["Ann", "Bob"])
    game = game.roll(dice("123456")).score("full_straight")
    game = game.roll(dice("123456")).roll(dice("123455")).score("small_straight")
    assert game.saved_rolls == (2, 1)
    undone = game.undo()
    assert (undone.saved_rolls, undone.current_player, undone.rolls_left) == ((2, 0), 1, 1)
    assert undone.undo().undo().saved_rolls == (2, 0)
    assert undone.undo().undo().undo().saved_rolls == (0, 0)
    again = Game.from_dict(json.loads(json.dumps(game.to_dict())))
    assert again == game
    assert (again.saved_rolls, again.max_rolls) == ((2, 1), 5)


def test_a_corrected_roll_or_box_leaves_the_saved_rolls() -> None:
    game = Game.new("maxi-yatzy", ["Ann"]).roll(dice("123456")).score("full_straight")
    game = game.roll(dice("111111")).correct(dice("111112"))
    assert (game.roll_number, game.saved_rolls, game.rolls_left) == (1, (2,), 4)
    game = game.correct_box(0, "full_straight", dice("123455"), "small_straight")
    assert game.saved_rolls == (2,)


def test_a_new_game_of_the_series_starts_with_no_saved_rolls() -> None:
    series = Series.new("maxi-yatzy", ["Ann"])
    game = series.current
    for roll, box, _ in MAXI_SCRIPT:
        game = game.roll(dice(roll)).score(box)
    series = series.with_current(game).play_again()
    assert (series.current.saved_rolls, series.current.max_rolls) == ((0,), 3)


@pytest.mark.parametrize("name", ["yahtzee", "yacht", "yatzy"])
def test_other_games_save_no_rolls(name: str) -> None:
    game = Game.new(name, ["Ann"]).roll(Dice.parse("12345")).score("sixes")
    assert (game.saved_rolls, game.max_rolls, game.rolls_left) == ((0,), 3, 3)
    game = game.roll(Dice.parse("12345")).roll(Dice.parse("12345")).roll(Dice.parse("12345"))
    with pytest.raises(TooManyRollsError, match=r"^only 3 rolls a turn: choose a box to score$"):
        game.roll(Dice.parse("12345"))


@pytest.mark.parametrize(
    ("action", "error", "message", "code"),
    [
        (lambda g: g.roll(Dice.parse("12345")), KeptDiceError,
         "a roll shows six dice, got 1 2 3 4 5", "roll_six"),
        (lambda g: g.roll(dice("123456")).roll(dice("123456"), [6]), KeptDiceError,
         "kept dice are positions 0..5, each once, got 6", "kept_positions_six"),
    ],
)
def test_a_roll_shows_six_dice_kept_at_positions_0_to_5(
    action: Callable[[Game], Game], error: type[Exception], message: str, code: str
) -> None:
    game = Game.new("maxi-yatzy", ["Ann"])
    with pytest.raises(error) as caught:
        action(game)
    assert (str(caught.value), getattr(caught.value, "code", "")) == (message, code)
    kept = game.roll(dice("123456")).roll(dice("123451"), [5 - 1, 0])
    assert kept.kept == (4, 0)


def test_everyone_rolls_all_six_dice_for_first() -> None:
    game = Game.new("maxi-yatzy", ["Ann", "Bob"], roll_for_first=True)
    with pytest.raises(KeptDiceError, match=r"^roll all six dice for first, got 6 6 6 6 6$"):
        game.roll_first(Dice.parse("66666"))
    with pytest.raises(PhaseError) as caught:
        game.roll(dice("123456"))
    assert (str(caught.value), caught.value.code) == (
        "roll for the first player first: every player rolls all six dice",
        "first_player_pending_six")
    game = game.roll_first(dice("111111")).roll_first(dice("666666"))
    assert (game.phase, game.current_player, game.max_rolls) == ("play", 1, 3)
