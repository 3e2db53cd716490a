"""The `pipkeeper rules`, `score` and `check` commands: output, JSON and exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pipkeeper.cli import main
from scorekeeper import RULESET_NAMES, ruleset

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_rules_lists_every_rule_set(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "rules")
    lines = out.splitlines()
    assert (code, err) == (0, "")
    assert [line.split()[0] for line in lines] == list(RULESET_NAMES)
    assert "upper bonus 35 at 63; 100 per extra Yahtzee; forced Joker" in lines[0]
    assert lines[RULESET_NAMES.index("yacht")].split(None, 1)[1] == "Yacht, 12 boxes"


def test_rules_shows_one_rule_set(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "Yacht+Upper-First")
    assert code == 0
    assert out.splitlines()[0] == "yacht+upper-first: Yacht, 12 boxes; upper section first"
    rows = {line.split()[0]: line.split()[-1] for line in out.splitlines()[3:15]}
    assert rows == {c.slug: str(c.max_points) for c in ruleset("yacht").categories}
    assert "Joker rules: none" in out
    assert "Upper section first: yes" in out
    assert "Upper bonus: none" in out


def test_rules_yahtzee_switches(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "rules", "yahtzee+free-joker")
    assert "full_house       Full House      three and two of another: 25   25" in out
    assert "Upper bonus: 35 when the upper boxes total 63 or more" in out
    assert "Yahtzee bonus: 100 per check" in out
    assert "Joker rules: free choice" in out


YACHT_66466 = {
    "ones": 0,
    "twos": 0,
    "threes": 0,
    "fours": 4,
    "fives": 0,
    "sixes": 24,
    "full_house": 0,
    "four_of_a_kind": 28,
    "little_straight": 0,
    "big_straight": 0,
    "choice": 28,
    "yacht": 0,
}


@pytest.mark.parametrize("dice", [["6", "6", "4", "6", "6"], ["66466"], ["6,6,4,6,6"]])
def test_score_json_is_one_object(capsys: pytest.CaptureFixture[str], dice: list[str]) -> None:
    code, out, err = run(capsys, "score", "--rules", "yacht", "--json", *dice)
    assert (code, err) == (0, "")
    assert json.loads(out) == YACHT_66466
    assert list(json.loads(out)) == list(ruleset("yacht").slugs)
    assert out.count("\n") == 1


@pytest.mark.parametrize(
    ("dice", "box", "points"),
    [
        ("3 3 3 2 4", "threes", 9),
        ("3 3 3 6 6", "full_house", 25),
        ("5 5 5 5 5", "full_house", 0),  # no Joker on an empty card
        ("1 2 3 4 6", "small_straight", 30),
        ("2 3 4 5 6", "large_straight", 40),
        ("4 4 4 4 4", "yahtzee", 50),
    ],
)
def test_score_defaults_to_yahtzee(
    capsys: pytest.CaptureFixture[str], dice: str, box: str, points: int
) -> None:
    code, out, _ = run(capsys, "score", "--json", *dice.split())
    assert code == 0
    assert json.loads(out)[box] == points
    assert len(json.loads(out)) == 13


def test_score_table_and_one_box(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "score", "--rules", "yacht", "4-4-4-4-1")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "4 4 4 4 1 in yacht, on an empty card:"
    assert lines[8].split() == ["four_of_a_kind", "Four", "of", "a", "Kind", "17"]
    code, out, _ = run(
        capsys, "score", "--rules", "yacht", "--box", "full_house", "--json", "33366"
    )
    assert (code, json.loads(out)) == (0, {"full_house": 21})


def test_check_consistent_pad(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", str(EXAMPLES / "pad_ok.json"))
    assert code == 0
    assert out.strip().endswith("pad_ok.json: pad is consistent (yahtzee)")


def test_check_pad_with_problems(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", str(EXAMPLES / "pad_errors.csv"))
    lines = out.splitlines()
    assert code == 1
    assert lines[0].endswith("pad_errors.csv: 4 problems (yahtzee)")
    assert lines[1] == "  Fours: 7 is written, but this box can only hold 0, 4, 8, 12, 16 or 20."
    assert len(lines) == 5


def test_check_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "--json", str(EXAMPLES / "pad_errors.csv"))
    report = json.loads(out)
    assert code == 1
    assert report["ok"] is False
    assert [p["code"] for p in report["problems"]] == [
        "impossible_value",
        "impossible_value",
        "blank_box",
        "bonus_without_yahtzee",
    ]
    code, out, _ = run(capsys, "check", "--json", str(EXAMPLES / "pad_ok.json"))
    assert (code, json.loads(out)) == (0, {"ok": True, "rules": "yahtzee", "problems": []})


def test_check_with_rules_from_the_command_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pad = tmp_path / "yacht.CSV"
    boxes = dict.fromkeys(ruleset("yacht").slugs, 0) | {"choice": 20, "yacht": 50}
    pad.write_text("".join(f"{k},{v}\n" for k, v in boxes.items()) + "grand_total,70\n")
    assert run(capsys, "check", "--rules", "yacht", str(pad))[0] == 0
    pad.write_text("ones,\n")
    code, out, _ = run(capsys, "check", "--rules", "yacht", "--in-progress", str(pad))
    assert (code, "pad is consistent" in out) == (0, True)
    code, out, _ = run(capsys, "check", "--rules", "yacht", str(pad))
    assert (code, out.splitlines()[1]) == (
        1,
        "  Ones is blank; every box holds a score at the end of a game.",
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["score", "1", "2", "3", "4", "7"], "a die shows 1..6, got 7"),
        (["score", "1234"], "expected 5 dice, got 4"),
        (["score", "1", "2", "3", "4", "5", "6"], "expected 5 dice, got 6"),
        (["score", "one", "two"], "cannot read dice from 'one two'"),
        (["score", "--rules", "poker", "12345"], "unknown rule set 'poker'; known: yahtzee, "),
        (["score", "--rules", "yacht+free-joker", "12345"], "Yacht has no Joker rules"),
        (
            ["score", "--box", "choice", "12345"],
            "unknown box 'choice' for yahtzee; boxes are: aces",
        ),
        (["rules", "farkle"], "unknown rule set 'farkle'"),
        (["check", "no-such-pad.json"], "cannot read pad file 'no-such-pad.json'"),
        (["check", "pad.txt"], "'pad.txt': a pad or card file ends in .json or .csv"),
        (
            ["check", "--rules", "yacht", str(EXAMPLES / "pad_ok.json")],
            "the pad says rules 'yahtzee'",
        ),
    ],
)
def test_bad_input_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1
    assert err.startswith(f"pipkeeper {argv[0]}: error: ")
    assert message in err


def test_bad_pad_file_names_the_file_and_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pad = tmp_path / "pad.csv"
    pad.write_text("rules,yahtzee\naces,3\nsevens,1\n")
    code, _, err = run(capsys, "check", str(pad))
    assert code == 2
    assert f"{pad}: line 3: unknown row 'sevens'; rows are: aces, twos" in err


def test_missing_dice_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["score"])
    assert caught.value.code == 2
    assert "the following arguments are required: DICE" in capsys.readouterr().err


def test_real_command_line() -> None:
    command = [sys.executable, "-m", "pipkeeper", "score", "--rules", "yacht", "--json"]
    done = subprocess.run(
        [*command, "6", "6", "4", "6", "6"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert (done.returncode, json.loads(done.stdout)) == (0, YACHT_66466)
    bad = subprocess.run(
        [*command, "6", "6", "4", "6"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert bad.returncode == 2
    assert (
        bad.stderr
        == "pipkeeper score: error: expected 5 dice, got 4: 6 6 4 6 (from '6 6 4 6')\n"
    )
    check = subprocess.run(
        [sys.executable, "-m", "pipkeeper", "check", "examples/pad_errors.csv"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert check.returncode == 1
    assert "Traceback" not in check.stderr
