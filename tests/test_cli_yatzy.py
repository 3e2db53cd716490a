"""The command line with Scandinavian Yatzy and boxes in order: rules, score, check, solve,
advise."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipkeeper.cli import main
from scorekeeper.advisor.cache import CACHE_ENV


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_rules_of_yatzy_with_both_variants(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "yatzy+tp4+fh5")
    lines = out.splitlines()
    assert code == 0
    assert lines[0] == ("yatzy+fh5+tp4: Yatzy, 15 boxes; upper bonus 50 at 63; five alike is a "
                        "Full House too; four alike is Two Pairs too")
    rows = {line.split()[0]: line.split()[-1] for line in lines[3:18]}
    assert (rows["two_pairs"], rows["full_house"], rows["yatzy"]) == ("24", "30", "50")
    assert lines[-5:] == [
        "Upper bonus: 50 when the upper boxes total 63 or more",
        "Yatzy bonus: none",
        "Joker rules: none",
        "Upper section first: no",
        "Boxes in order: no",
    ]


@pytest.mark.parametrize(
    ("rules", "dice", "points"),
    [
        ("yatzy", "22225", {"one_pair": 4, "two_pairs": 0, "four_of_a_kind": 8, "chance": 13}),
        ("yatzy+tp4", "22225", {"one_pair": 4, "two_pairs": 8, "four_of_a_kind": 8}),
        ("yatzy+fh5", "44444", {"full_house": 20, "two_pairs": 0, "yatzy": 50}),
    ],
)
def test_score_a_roll(capsys: pytest.CaptureFixture[str], rules: str, dice: str,
                      points: dict[str, int]) -> None:
    code, out, _ = run(capsys, "score", "--rules", rules, "--json", dice)
    scored = json.loads(out)
    assert code == 0 and len(scored) == 15
    assert {box: scored[box] for box in points} == points


def test_check_a_yatzy_pad(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pad = tmp_path / "pad.csv"
    pad.write_text("rules,yatzy\nones,3\nsixes,18\nsum,21\nbonus,50\nyatzy,50\ntotal,121\n")
    code, out, _ = run(capsys, "check", "--in-progress", str(pad))
    assert code == 1
    assert out.splitlines()[1:] == [
        "  Upper bonus: 50 is written, but it should be 0 (the upper boxes add up to 21, "
        "less than 63).",
        "  Grand total: 121 adds up the rows above as written, but one of them is wrong, so it "
        "should be 71 (Upper total 21 + Lower total 50).",
    ]


def test_solve_and_advise_in_order(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    code, out, _ = run(capsys, "solve", "--rules", "yatzy+in-order")
    assert code == 0 and out.splitlines()[-1] == "expected score 122.5585274"
    code, out, _ = run(capsys, "advise", "--rules", "yatzy+in-order", "--roll", "3", "--json",
                       "6", "6", "6", "6", "6")
    report = json.loads(out)
    assert code == 0
    assert [(o["box"], o["points"]) for o in report["options"]] == [("ones", 0)]
