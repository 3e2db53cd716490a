"""The command line with Maxi Yatzy: its rules, scoring a roll of six dice, checking a pad."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipkeeper.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_rules_of_maxi_yatzy(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "maxi-yatzy")
    lines = out.splitlines()
    assert code == 0
    assert lines[0] == ("maxi-yatzy: Maxi Yatzy, 20 boxes; upper bonus 100 at 84; six dice; "
                        "unused rolls saved")
    rows = {line.split()[0]: line.split()[-1] for line in lines[3:23]}
    assert (rows["three_pairs"], rows["villa"], rows["tower"], rows["maxi_yatzy"]) == (
        "30", "33", "34", "100")
    assert lines[-6:-3] == [
        "Upper bonus: 100 when the upper boxes total 84 or more",
        "Maxi Yatzy bonus: none",
        "Saved rolls: the rolls a player leaves unused in a turn are added to their later turns",
    ]


def test_the_rule_sets_list_maxi_yatzy(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "rules")
    lines = {line.split()[0]: line.split(None, 1)[1] for line in out.splitlines()}
    assert lines["maxi-yatzy+in-order"] == (
        "Maxi Yatzy, 20 boxes; upper bonus 100 at 84; six dice; unused rolls saved; boxes in "
        "order, top to bottom")


@pytest.mark.parametrize(
    ("dice", "points"),
    [
        ("666555", {"villa": 33, "full_house": 28, "two_pairs": 22, "three_of_a_kind": 18}),
        ("2 2 4 4 6 6", {"three_pairs": 24, "two_pairs": 20, "one_pair": 12}),
        ("111122", {"tower": 8, "four_of_a_kind": 4, "full_house": 7, "two_pairs": 6}),
        ("333333", {"maxi_yatzy": 100, "five_of_a_kind": 15, "villa": 0, "chance": 18}),
    ],
)
def test_score_a_roll_of_six_dice(capsys: pytest.CaptureFixture[str], dice: str,
                                  points: dict[str, int]) -> None:
    code, out, _ = run(capsys, "score", "--rules", "maxi-yatzy", "--json", dice)
    scored = json.loads(out)
    assert code == 0 and len(scored) == 20
    assert {box: scored[box] for box in points} == points


def test_five_dice_are_refused_for_maxi_yatzy(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "score", "--rules", "maxi-yatzy", "66655")
    assert code == 2
    assert "expected 6 dice, got 5: 6 6 6 5 5 (from '66655')" in err


def test_check_a_maxi_yatzy_pad(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pad = tmp_path / "pad.csv"
    pad.write_text("rules,maxi-yatzy\nfours,16\nfives,30\nsixes,36\nsum,82\nbonus,100\n"
                   "villa,33\nmaxi yatzy,100\ntotal,315\n")
    code, out, _ = run(capsys, "check", "--in-progress", str(pad))
    assert code == 1
    assert out.splitlines()[1:] == [
        "  Upper bonus: 100 is written, but it should be 0 (the upper boxes add up to 82, "
        "less than 84).",
        "  Grand total: 315 adds up the rows above as written, but one of them is wrong, so it "
        "should be 215 (Upper total 82 + Lower total 133).",
    ]
