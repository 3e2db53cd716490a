"""Game: scripted complete games, turns, rolls, roll for first player, undo, JSON."""

from __future__ import annotations

import json

import pytest

from scorekeeper import (
    Dice,
    Game,
    GameFormatError,
    GameOverError,
    GameSetupError,
    IllegalBoxError,
    KeptDiceError,
    NoRollError,
    NothingToUndoError,
    PhaseError,
    TooManyRollsError,
)
from scorekeeper.history import FirstRollRecord, RollRecord, ScoreRecord

# (dice, box, points) for one player's whole game; totals worked out by hand below.
YAHTZEE_SCRIPT = [
    ("11123", "aces", 3),
    ("22245", "twos", 6),
    ("33316", "threes", 9),
    ("44412", "fours", 12),
    ("55531", "fives", 15),
    ("66612", "sixes", 18),  # upper 63: bonus 35
    ("33345", "three_of_a_kind", 18),
    ("44446", "four_of_a_kind", 22),
    ("22333", "full_house", 25),
    ("12346", "small_straight", 30),
    ("23456", "large_straight", 40),
    ("66666", "yahtzee", 50),
    ("55555", "chance", 25),  # Joker: Fives filled, so a lower box; +100 bonus
]
YACHT_SCRIPT = [
    ("11112", "ones", 4),
    ("22213", "twos", 6),
    ("33345", "threes", 9),
    ("44412", "fours", 12),
    ("55512", "fives", 15),
    ("66612", "sixes", 18),
    ("33366", "full_house", 21),
    ("44441", "four_of_a_kind", 17),
    ("12345", "little_straight", 30),
    ("23456", "big_straight", 30),
    ("66655", "choice", 28),
    ("44444", "yacht", 50),
]


def play(game: Game, script: list[tuple[str, str, int]]) -> Game:
    for dice, box, _ in script:
        game = game.roll(Dice.parse(dice)).score(box)
    return game


@pytest.mark.parametrize(
    ("rules", "script", "totals"),
    [
        ("yahtzee", YAHTZEE_SCRIPT,
         {"upper_subtotal": 63, "upper_bonus": 35, "upper_total": 98, "yahtzee_bonus_checks": 1,
          "yahtzee_bonus": 100, "lower_subtotal": 210, "lower_total": 310, "grand_total": 408}),
        ("yacht", YACHT_SCRIPT,
         {"upper_subtotal": 64, "upper_bonus": 0, "upper_total": 64, "yahtzee_bonus_checks": 0,
          "yahtzee_bonus": 0, "lower_subtotal": 176, "lower_total": 176, "grand_total": 240}),
    ],
)
def test_complete_scripted_game(rules: str, script: list[tuple[str, str, int]],
                                totals: dict[str, int]) -> None:
    game = play(Game.new(rules, ["Solo"]), script)
    assert game.is_over and game.phase == "over"
    assert game.cards[0].boxes() == {box: points for _, box, points in script}
    assert game.cards[0].totals() == totals
    assert game.winners() == (0,)
    assert game.current_player is None
    with pytest.raises(GameOverError):
        game.roll(Dice.parse("12345"))


def test_turns_pass_in_seat_order_and_round_counts() -> None:
    game = Game.new("yahtzee", ["Ann", "Ben", "Cat"])
    seen = []
    for _ in range(4):
        seen.append((game.current_player, game.turn))
        game = game.roll(Dice.parse("12345")).score("chance" if game.turn == 1 else "aces")
    assert seen == [(0, 1), (1, 1), (2, 1), (0, 2)]


def test_three_rolls_a_turn_and_kept_dice() -> None:
    game = Game.new("yacht", ["Anna"])
    # The Hebrew document's example turn: 1-2-2-4-6, keep the 2s; 2-2-4-4-6, keep the 4s.
    game = game.roll(Dice.parse("1 2 2 4 6"))
    game = game.roll(Dice.parse("4 2 2 4 6"), kept=[1, 2])
    game = game.roll(Dice.parse("4 1 4 4 4"), kept=[0, 3])
    assert game.roll_number == 3 and game.kept == (0, 3)
    with pytest.raises(TooManyRollsError):
        game.roll(Dice.parse("44444"))
    game = game.score("four_of_a_kind")
    assert game.cards[0].box("four_of_a_kind") == 17
    assert game.roll_number == 0 and game.dice is None


@pytest.mark.parametrize(
    ("first", "second", "kept", "message"),
    [
        ("12345", "12366", [0, 5], "positions 0..4"),
        ("12345", "62345", [0], "die 1 was kept at 1 but shows 6"),
        ("12345", "12345", [1, 1], "each once"),
    ],
)
def test_kept_dice_must_match(first: str, second: str, kept: list[int], message: str) -> None:
    game = Game.new("yahtzee", ["Ann"]).roll(Dice.parse(first))
    with pytest.raises(KeptDiceError, match=message):
        game.roll(Dice.parse(second), kept=kept)


def test_nothing_kept_on_first_roll_and_no_score_without_roll() -> None:
    game = Game.new("yahtzee", ["Ann"])
    with pytest.raises(KeptDiceError):
        game.roll(Dice.parse("12345"), kept=[0])
    with pytest.raises(NoRollError):
        game.score("chance")


def test_rejected_action_changes_nothing() -> None:
    game = Game.new("yahtzee", ["Ann"]).roll(Dice.parse("55555")).score("yahtzee")
    game = game.roll(Dice.parse("55555"))
    before = game.to_dict()
    with pytest.raises(IllegalBoxError, match="allowed boxes: fives"):
        game.score("chance")
    assert game.to_dict() == before


def test_roll_for_first_player_with_a_tie() -> None:
    game = Game.new("yahtzee", ["Ann", "Ben", "Cat"], roll_for_first=True)
    assert game.phase == "first-roll" and game.first_roll_pending == (0, 1, 2)
    with pytest.raises(PhaseError):
        game.roll(Dice.parse("12345"))
    game = game.roll_first(Dice.parse("66655")).roll_first(Dice.parse("11111"))
    game = game.roll_first(Dice.parse("66664"))  # Ann 28, Ben 5, Cat 28: tie
    assert game.phase == "first-roll" and game.first_roll_pending == (0, 2)
    game = game.roll_first(Dice.parse("12345")).roll_first(Dice.parse("23456"))
    assert game.phase == "play"
    assert game.order == (2, 0, 1)  # Cat starts, play passes to the left
    assert game.current_player == 2
    assert len(game.first_rolls) == 5
    with pytest.raises(PhaseError):
        game.roll_first(Dice.parse("12345"))


def test_undo_repeatedly_back_to_the_start() -> None:
    start = Game.new("yahtzee", ["Ann", "Ben"], roll_for_first=True)
    game = start.roll_first(Dice.parse("66666")).roll_first(Dice.parse("11111"))
    game = game.roll(Dice.parse("12345")).roll(Dice.parse("12346"), kept=[0, 1, 2, 3])
    game = game.score("small_straight").roll(Dice.parse("22222")).score("yahtzee")
    states = []
    while game.can_undo:
        states.append((game.current_player, game.roll_number, game.phase))
        game = game.undo()
    assert game == start
    assert states[:3] == [(0, 0, "play"), (1, 1, "play"), (1, 0, "play")]
    assert states[-1] == (None, 0, "first-roll")
    with pytest.raises(NothingToUndoError):
        game.undo()


def test_correct_replaces_the_current_roll_only() -> None:
    game = Game.new("yahtzee", ["Ann"]).roll(Dice.parse("12345"))
    game = game.roll(Dice.parse("12366"), kept=[0, 1, 2]).correct(Dice.parse("12355"))
    assert game.roll_number == 2 and game.dice == Dice.parse("12355")
    with pytest.raises(KeptDiceError):
        game.correct(Dice.parse("62355"))  # die 1 was kept
    with pytest.raises(NoRollError):
        game.score("chance").correct(Dice.parse("12345"))


def test_winners_share_a_tie() -> None:
    game = Game.new("yacht", ["Ann", "Ben"])
    for _, box, _ in YACHT_SCRIPT:
        game = game.roll(Dice.parse("12345")).score(box).roll(Dice.parse("12345")).score(box)
    assert game.is_over and game.winners() == (0, 1)


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ([], "1 to 8 players"),
        ([f"P{i}" for i in range(9)], "1 to 8 players"),
        (["Ann", "  "], "cannot be empty"),
        (["Ann", "ann"], "same name"),
        (["x" * 41], "at most 40"),
    ],
)
def test_bad_players(players: list[str], message: str) -> None:
    with pytest.raises(GameSetupError, match=message):
        Game.new("yahtzee", players)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("A\x00B", "a player's name cannot contain control characters: 'A\\x00B'"),
        ("\x00", "a player's name cannot contain control characters: '\\x00'"),
        ("\x07\x7f", "a player's name cannot contain control characters: '\\x07\\x7f'"),
        ("Ann\x9b", "a player's name cannot contain control characters: 'Ann\\x9b'"),
        ("\ud800", "a player's name cannot contain lone surrogates: '\\ud800'"),
        ("Ann\udfff", "a player's name cannot contain lone surrogates: 'Ann\\udfff'"),
        ("\u200b", "a player's name cannot be empty: '\\u200b' has no visible characters"),
        ("\u200c\u200d\u2060\ufeff",
         "a player's name cannot be empty: '\\u200c\\u200d\\u2060\\ufeff' has no visible "
         "characters"),
        ("\u200b \u200b", "a player's name cannot be empty: '\\u200b \\u200b' has no visible "
         "characters"),
        ("\ue000", "a player's name cannot be empty: '\\ue000' has no visible characters"),
        ("\t\n ", "a player's name cannot be empty"),
    ],
)
def test_names_without_controls_surrogates_or_only_invisible_characters(
    name: str, message: str
) -> None:
    with pytest.raises(GameSetupError) as caught:
        Game.new("yahtzee", ["Ann", name])
    assert str(caught.value) == message


def test_long_bad_names_are_quoted_in_at_most_80_characters() -> None:
    with pytest.raises(GameSetupError) as caught:
        Game.new("yahtzee", ["x" * 1_000_000])
    assert str(caught.value) == f"a name has at most 40 characters: '{'x' * 78}…"


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("  Ann \t  Lee\n", "Ann Lee"),  # whitespace, tabs and newlines collapse as before
        ("Ann\u00a0Lee", "Ann Lee"),
        ("\U0001f468\u200d\U0001f469\u200d\U0001f467",  # a family emoji: ZWJ sequence
         "\U0001f468\u200d\U0001f469\u200d\U0001f467"),
        ("\u0915\u094d\u200d\u0937", "\u0915\u094d\u200d\u0937"),  # Devanagari with a ZWJ
        ("\u0e2a\u0e21\u200b\u0e0a\u0e32\u0e22", "\u0e2a\u0e21\u200b\u0e0a\u0e32\u0e22"),  # Thai
        ("\u05d3\u05e0\u05d4\u200f", "\u05d3\u05e0\u05d4\u200f"),  # Hebrew with a RLM
        ("\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f",
         "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"),  # a flag
    ],
)
def test_real_names_keep_their_joiners_and_marks(given: str, kept: str) -> None:
    assert Game.new("yahtzee", [given]).players == (kept,)


def test_json_round_trip_is_lossless() -> None:
    game = Game.new("yahtzee+free-joker", ["Ann", "Ben"], roll_for_first=True)
    game = game.roll_first(Dice.parse("33333")).roll_first(Dice.parse("44444"))  # Ben starts
    game = play(game, YAHTZEE_SCRIPT[:5]).roll(Dice.parse("61111"))
    restored = Game.from_dict(json.loads(json.dumps(game.to_dict())))
    assert restored == game
    assert restored.cards == game.cards and restored.history() == game.history()
    assert (restored.current_player, restored.roll_number, restored.dice) == (0, 1, game.dice)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"rules": "yahtzee"}, "not a saved game"),
        ({"rules": "chess", "players": ["A"], "events": []}, "does not replay"),
        ({"rules": "yahtzee", "players": ["A"], "events": [{"type": "score", "box": "aces"}]},
         "does not replay: roll the dice"),
        ({"rules": "yahtzee", "players": ["A"], "events": [{"type": "dance"}]}, "unknown event"),
        ({"rules": "yahtzee", "players": ["A"], "events": [{"type": "roll", "dice": [7]}]},
         "does not replay"),
    ],
)
def test_bad_saved_game(data: dict[str, object], message: str) -> None:
    with pytest.raises(GameFormatError, match=message):
        Game.from_dict(data)


def test_history_records_every_action() -> None:
    game = Game.new("yahtzee", ["Ann"]).roll(Dice.parse("55555")).score("yahtzee")
    game = game.roll(Dice.parse("55555")).score("fives")
    fives = Dice.parse("55555")
    assert game.history() == (
        RollRecord(0, fives, (), 1), ScoreRecord(0, fives, "yahtzee", 50, 0),
        RollRecord(0, fives, (), 1), ScoreRecord(0, fives, "fives", 25, 100),
    )
    assert [record.to_dict() for record in game.history()] == [
        {"type": "roll", "player": 0, "dice": [5] * 5, "kept": [], "roll": 1},
        {"type": "score", "player": 0, "dice": [5] * 5, "box": "yahtzee", "points": 50,
         "bonus": 0},
        {"type": "roll", "player": 0, "dice": [5] * 5, "kept": [], "roll": 1},
        {"type": "score", "player": 0, "dice": [5] * 5, "box": "fives", "points": 25,
         "bonus": 100},
    ]
    first = Game.new("yacht", ["Ann", "Ben"], roll_for_first=True).throw(Dice.parse("12345"))
    assert first.history() == (FirstRollRecord(0, Dice.parse("12345")),)
    assert first.history()[0].to_dict() == {"type": "first-roll", "player": 0,
                                            "dice": [1, 2, 3, 4, 5]}


def test_each_action_applies_one_event_as_a_replay_would() -> None:
    game = Game.new("yahtzee", ["Ann", "Ben"], roll_for_first=True)
    game = game.roll_first(Dice.parse("66666")).roll_first(Dice.parse("11111"))
    for dice, box, _ in YAHTZEE_SCRIPT[:6]:
        game = game.roll(Dice.parse("12345")).roll(Dice.parse(dice)).score(box)
        game = game.roll(Dice.parse(dice)).score(box)
    replayed = Game.from_dict(game.to_dict())
    assert game == replayed
    assert (game.cards, game.order, game.turn, game.history()) == (
        replayed.cards, replayed.order, replayed.turn, replayed.history())
    after_undo = game.undo().roll(Dice.parse("66612"))
    assert after_undo.history() == Game.from_dict(after_undo.to_dict()).history()


def test_a_throw_is_a_roll_for_first_while_the_first_player_is_decided() -> None:
    game = Game.new("yahtzee", ["Ann", "Ben"], roll_for_first=True)
    with pytest.raises(KeptDiceError, match="nothing is kept when rolling for the first player"):
        game.throw(Dice.parse("66666"), kept=[0])
    game = game.throw(Dice.parse("12345")).throw(Dice.parse("66665"))
    assert (game.phase, game.current_player) == ("play", 1)
    assert game.throw(Dice.parse("22222")).dice == Dice.parse("22222")


def test_correcting_a_roll_for_first_decides_the_first_player_anew() -> None:
    game = Game.new("yahtzee", ["Ann", "Ben"], roll_for_first=True)
    game = game.throw(Dice.parse("66666")).throw(Dice.parse("11111"))
    assert game.current_player == 0
    fixed = game.correct(Dice.parse("66666"))  # Ben's dice were misread: a tie, both again
    assert (fixed.phase, fixed.first_roll_pending) == ("first-roll", (0, 1))
    assert fixed.correct(Dice.parse("66666")) == fixed
    with pytest.raises(NoRollError, match="there is no roll to correct"):
        Game.new("yacht", ["Cy"]).correct(Dice.parse("12345"))
