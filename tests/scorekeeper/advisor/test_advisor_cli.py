"""`pipkeeper solve` and `pipkeeper advise`, and the card files advise reads."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from pipkeeper.cli import main
from scorekeeper import Dice, Scorecard, ruleset
from scorekeeper.advisor import CardFileError, Table, card_from_data
from scorekeeper.audit import PadFormatError
from scorekeeper.errors import RulesError

Solved = Callable[[str], Table]  # the `solved` fixture of conftest.py

YAHTZEE = ruleset("yahtzee")


def run(argv: list[str]) -> int:
    """Run the command line; return its exit code (argparse exits on usage errors)."""
    try:
        return main(argv)
    except SystemExit as done:
        return int(done.code or 0)


# --- card files ------------------------------------------------------------------


@pytest.mark.parametrize(
    "data",
    [
        {"boxes": {"aces": 5, "yahtzee": 50, "chance": None}, "yahtzee_bonus": 1},
        {"rules": "yahtzee", "boxes": {"aces": 5, "yahtzee": 50}, "bonus_checks": 1},
        {"rules": "yahtzee", "boxes": {"aces": 5, "yahtzee": 50},
         "totals": {"yahtzee_bonus_checks": 1, "grand_total": 153}},
    ],
)
def test_card_formats(data: dict[str, object]) -> None:
    card = card_from_data(YAHTZEE, data)
    assert card.box("aces") == 5 and card.box("yahtzee") == 50 and card.box("chance") is None
    assert card.bonus_checks == 1 and len(card.open_boxes()) == 11


def test_card_from_scorecard_to_dict() -> None:
    card = Scorecard.empty("yacht").score("yacht", Dice.parse("44444"))
    assert card_from_data(ruleset("yacht"), json.loads(json.dumps(card.to_dict()))) == card


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"boxes": {"sevens": 7}}, "'boxes': unknown row 'sevens'; rows are: aces"),
        ({"boxes": {"aces": -1}}, "'boxes': aces cannot be negative, got -1"),
        ({"boxes": {"aces": "3x"}}, "'boxes': aces must be a whole number, got '3x'"),
        ({"boxes": {"aces": 2.5}}, "got 2.5"),
        ({"boxes": {"aces": True}}, "got True"),
        ({"boxes": {"aces": 12345}}, "aces has more than 4 digits"),
        ({"boxes": [3, 6]}, "'boxes' must be an object of row: value"),
        ([1, 2], "a pad is an object with rules, boxes, totals"),
        ({"rules": "yacht", "boxes": {}}, "the pad says rules 'yacht' but 'yahtzee' was asked"),
        ({"rules": ["yahtzee"], "boxes": {}}, "rules must be a name such as 'yahtzee'"),
        ({"boxes": {}, "yahtzee_bonus": -2}, "cannot be negative"),
        ({"boxes": {}, "yahtzee_bonus": 1, "bonus_checks": 2}, "is given twice"),
        ({"boxes": {"full_house": 20}}, "Full House: 20 is written, but this box can only hold"),
        ({"boxes": {"chance": 99}}, "Chance: 99 is written, but this box can only hold 5 to 30"),
        ({"boxes": {"yahtzee": 0}, "yahtzee_bonus": 1},
         "Yahtzee bonus checks: 1 is written, but a bonus needs 50 in the Yahtzee box"),
        ({"boxes": {"yahtzee": 50, "chance": 23}, "bonus_checks": 2},
         "each check needs another Yahtzee scored in another box"),
        ({"boxes": {"full_house": 20, "chance": 99}}, "only hold 0 or 25. (and 1 more)"),
    ],
)
def test_bad_cards(data: object, message: str) -> None:
    with pytest.raises(CardFileError) as caught:
        card_from_data(YAHTZEE, data)
    assert message in str(caught.value)
    assert isinstance(caught.value, PadFormatError) and isinstance(caught.value, RulesError)


def test_no_bonus_checks_in_yacht() -> None:
    with pytest.raises(CardFileError, match="yacht has no bonus rows"):
        card_from_data(ruleset("yacht"), {"boxes": {}, "yahtzee_bonus": 1})
    yacht = Scorecard.empty("yacht")
    assert card_from_data(ruleset("yacht"), yacht.to_dict()) == yacht  # "bonus_checks": 0


def test_card_bonus_points_count_as_checks() -> None:
    data = {"boxes": {"fives": 25, "yahtzee": 50}, "totals": {"yahtzee_bonus": 100}}
    assert card_from_data(YAHTZEE, data).bonus_checks == 1


# --- the commands -------------------------------------------------------------------


def test_solve_prints_the_expected_score_last(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["solve", "--rules", "yacht", "--rebuild"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("solved yacht in ") and lines[0].endswith(" s")
    assert lines[-1] == "expected score 169.7738891"
    assert run(["solve", "--rules", "yacht"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("loaded yacht from ")
    assert lines[-1] == "expected score 169.7738891"


@pytest.mark.parametrize(
    ("name", "line"),
    [("yahtzee", "expected score 254.5877287"),
     ("yahtzee+free-joker", "expected score 254.5896095")],
)
def test_solve_yahtzee(
    solved: Solved, capsys: pytest.CaptureFixture[str], name: str, line: str
) -> None:
    solved(name)  # cached for the session: the command loads it
    assert run(["solve", "--rules", name]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == line


def test_advise_text(solved: Solved, capsys: pytest.CaptureFixture[str]) -> None:
    solved("yahtzee")
    assert run(["advise", "--rules", "yahtzee", "--roll", "1", "6", "6", "4", "6", "6"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("yahtzee: roll 1 of 3, dice 6 6 4 6 6; 13 open boxes")
    assert lines[2].split()[:6] == ["1", "keep", "6", "6", "6", "6,"]
    assert lines[2].split()[-1] == "0.0000"
    assert len(lines) == 2 + 9 + 13  # header, column names, 9 keeps, 13 boxes


def test_advise_json_with_a_card(
    solved: Solved, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    solved("yahtzee")
    pad = tmp_path / "card.json"
    pad.write_text(json.dumps({"boxes": {"sixes": 24, "yahtzee": 50}, "yahtzee_bonus": 0}))
    argv = ["advise", "--card", str(pad), "--roll", "3", "--json", "55555"]
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["rules"] == "yahtzee" and report["roll"] == 3 and report["dice"] == [5] * 5
    assert report["card"]["boxes"]["sixes"] == 24
    assert [(o["box"], o["points"], o["bonus"]) for o in report["options"]] == [("fives", 25, 100)]
    assert report["options"][0]["expected"] > report["expected_now"]


def test_advise_reads_a_pad_csv(
    solved: Solved, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    solved("yahtzee")
    pad = tmp_path / "pad.csv"
    pad.write_text(
        "rules,yahtzee\nSixes,24\nFull House,25\nYahtzee,50\nyahtzee_bonus_checks,1\nchance,\n"
    )
    assert run(["advise", "--card", str(pad), "--roll", "3", "--json", "55555"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["card"]["boxes"]["sixes"] == 24 and report["card"]["bonus_checks"] == 1
    assert report["options"][0]["box"] == "fives"
    pad.write_text("rules,yacht\n")
    assert run(["advise", "--card", str(pad), "--roll", "3", "55555"]) == 2
    assert "the pad says rules 'yacht' but 'yahtzee' was asked for" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "card", "message"),
    [
        (["--roll", "1", "1", "2", "3"], None, "expected 5 dice, got 3"),
        (["--roll", "1", "7", "1", "1", "1", "1"], None, "a die shows 1..6, got 7"),
        (["--roll", "1", "dice"], None, "cannot read dice from 'dice'"),
        (["--roll", "4", "11111"], None, "invalid choice: 4"),
        (["--rules", "chess", "--roll", "1", "11111"], None, "unknown rule set 'chess'"),
        (["--roll", "1", "11111"], '{"boxes": {"sevens": 7}}', "unknown row 'sevens'"),
        (["--roll", "1", "11111"], '{"boxes": {"aces": -3}}', "cannot be negative, got -3"),
        (["--roll", "1", "11111"], "{not json", "card.json: not valid JSON"),
        (["--roll", "1", "11111"], '{"boxes": {"twos": 7}}', "Twos: 7 is written, but this box"),
        (["--roll", "1", "11111"],
         json.dumps({"boxes": dict.fromkeys(YAHTZEE.slugs, 0) | {"chance": 5}}),
         "the card is complete"),
    ],
)
def test_advise_bad_input_exits_2(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    solved: Solved,
    argv: list[str],
    card: str | None,
    message: str,
) -> None:
    solved("yahtzee")
    if card is not None:
        pad = tmp_path / "card.json"
        pad.write_text(card)
        argv = ["--card", str(pad), *argv]
    assert run(["advise", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_advise_missing_card_file_exits_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert run(["advise", "--card", str(tmp_path / "none.json"), "--roll", "1", "11111"]) == 2
    assert "none.json" in capsys.readouterr().err


def test_solve_unknown_rules_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["solve", "--rules", "yacht+free-joker"]) == 2
    assert "Yacht has no Joker rules" in capsys.readouterr().err


def test_progress_line_and_bar() -> None:
    from io import StringIO

    from pipkeeper.commands.advisor import ProgressBar
    from scorekeeper.advisor.solver import Progress

    start = Progress("maxi-yatzy", 19, 20, 0, 33_472_510, 0.0)
    assert start.remaining is None
    assert start.describe().endswith("0:00:00 so far, ETA --:--:--")
    half = Progress("maxi-yatzy", 11, 20, 16_736_255, 33_472_510, 600.0)
    assert half.remaining == pytest.approx(600.0, rel=1e-6)
    assert half.describe(width=10) == (
        "maxi-yatzy [#####.....]  50.0% 16,736,255/33,472,510 states, level 11 (9 of 20), "
        "0:10:00 so far, ETA 0:10:00")
    log = StringIO()
    bar = ProgressBar(log, every=30.0)
    for seconds in (0.0, 10.0, 31.0, 40.0):
        bar(Progress("yacht", 3, 12, int(seconds), 100, seconds))
    bar(Progress("yacht", 0, 12, 100, 100, 45.0))  # the last line is always shown
    bar.close()
    assert [line.split("%")[0][-5:] for line in log.getvalue().splitlines()] == [
        "  0.0", " 31.0", "100.0"]


def test_solve_shows_its_progress_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["solve", "--rules", "yatzy+in-order", "--rebuild"]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines()[-1] == "expected score 122.5585274"
    assert captured.err.splitlines()[-1].startswith("yatzy+in-order [####")
    assert "100.0% 745/745 states" in captured.err


def test_advise_six_dice_with_rolls_left(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["advise", "--rules", "maxi-yatzy+in-order", "--roll", "3", "--rolls-left", "2",
            "--json", "6 6 6 6 1 2"]
    assert run(argv) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["dice"] == [6, 6, 6, 6, 1, 2] and "the 2 rolls" not in report["assumes"]
    assert report["assumes"].startswith("three rolls a turn in later turns")
    assert {o["kind"] for o in report["options"]} == {"keep", "score"}
