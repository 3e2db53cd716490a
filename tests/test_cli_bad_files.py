"""Bad pad and card files: `pipkeeper check` and `pipkeeper advise --card` refuse them alike.

Each refusal is exit 2 and one line `pipkeeper <cmd>: error: FILE: ...`, never a traceback.
"""

from __future__ import annotations

import codecs
import json
from pathlib import Path

import pytest

from pipkeeper.cli import main

PAD = "rules,yahtzee\naces,3\n"

# (file name, contents, what the one error line says after "FILE: ")
BAD_FILES = [
    ("deep.json", b"[" * 1000 + b"]" * 1000, "the JSON is nested more than 20 levels deep"),
    (
        "deep_box.json",
        b'{"rules": "yahtzee", "boxes": ' + b'{"a": ' * 1000 + b"1" + b"}" * 1001,
        "the JSON is nested more than 20 levels deep",
    ),
    ("utf16.csv", PAD.encode("utf-16"), "not a text file in UTF-8: it is UTF-16"),
    ("utf16be.json", codecs.BOM_UTF16_BE + '{"rules": "yahtzee"}'.encode("utf-16-be"),
     "not a text file in UTF-8: it is UTF-16"),
    ("nul.csv", PAD.encode("utf-16-le"), "not a text file in UTF-8: it has zero bytes"),
    ("binary.json", bytes(range(256)), "not a text file in UTF-8"),
    ("latin1.csv", "rules,yahtzee\nsixes,é\n".encode("latin-1"),
     "not a text file in UTF-8: byte 0xe9 at offset 20"),
    ("empty.csv", b"", "the file is empty"),
    ("empty.json", b"  \n\n", "the file is empty"),
    ("bom_only.csv", codecs.BOM_UTF8, "the file is empty"),
    ("not.json", b"{not json", "not valid JSON: "),
    ("long_number.json", b'{"rules": "yahtzee", "boxes": {"aces": ' + b"9" * 5000 + b"}}",
     "a number has more than 4 digits: '" + "9" * 78 + "…"),
    ("big_box.json", b'{"rules": "yahtzee", "boxes": {"aces": 1e300}}', "aces has more than 4"),
    ("superscript.csv", "rules,yahtzee\naces,²\n".encode(),
     "line 2: aces must be a whole number, got '²'"),
    ("arabic.csv", "rules,yahtzee\naces,٣\n".encode(),
     "line 2: aces must be a whole number, got '٣'"),
    ("fullwidth.csv", "rules,yahtzee\naces,３\n".encode(),
     "line 2: aces must be a whole number, got '３'"),
    ("underscore.csv", b"rules,yahtzee\nsixes,1_0\n", "line 2: sixes must be a whole number"),
    ("five_digits.csv", b"rules,yahtzee\nchance,12345\n", "line 2: chance has more than 4 digits"),
    ("total.csv", b"rules,yahtzee\ngrand_total,99999\n", "grand_total has more than 4 digits"),
    ("rules_twice.csv", b"rules,yahtzee\naces,3\nrules,yahtzee\n",
     "line 3: the rules are given twice"),
    ("long_row.csv", b"rules,yahtzee\n" + b"x" * 500 + b",3\n",
     "line 2: unknown row '" + "x" * 78 + "…; rows are: aces"),
    ("long_line.csv", b"rules,yahtzee\n" + b"a,b," * 200 + b"\n",
     "line 2: expected row,value, got '" + "a,b," * 19 + "a,…"),
    ("long_rules.json", b'{"rules": "' + b"y" * 500 + b'"}',
     "unknown rule set '" + "y" * 78 + "…; known: yahtzee, "),
    ("list_rules.json", b'{"rules": ["yahtzee"]}', "rules must be a name such as 'yahtzee'"),
    ("long_key.json", b'{"rules": "yahtzee", "boxes": {"aces": [' + b"1, " * 300 + b"1]}}",
     "aces must be a whole number, got [1, 1, "),
    ("pad.txt", PAD.encode(), "a pad or card file ends in .json or .csv"),
]


def _refusal(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """Run *argv*; assert exit 2, nothing on stdout, one line on stderr; return that line."""
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    return err.rstrip("\n")


def _commands(path: Path) -> list[tuple[str, list[str]]]:
    return [
        ("check", ["check", str(path)]),
        ("advise", ["advise", "--card", str(path), "--roll", "1", "11111"]),
    ]


@pytest.mark.parametrize(("name", "data", "message"), BAD_FILES, ids=[f[0] for f in BAD_FILES])
def test_bad_files_are_refused_alike(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, data: bytes, message: str
) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    lines = []
    for command, argv in _commands(path):
        line = _refusal(capsys, argv)
        prefix = f"pipkeeper {command}: error: "
        assert line.startswith(prefix)
        lines.append(line.removeprefix(prefix))
        assert message in line
    assert lines[0] == lines[1]  # the same message from both commands
    assert lines[0].startswith((f"{path}: ", f"{str(path)!r}: "))


@pytest.mark.parametrize(
    ("card", "message"),
    [
        ({"boxes": {"yahtzee": 0}, "yahtzee_bonus": 2},
         "Yahtzee bonus checks: 2 is written, but a bonus needs 50 in the Yahtzee box, "
         "which holds 0."),
        ({"boxes": {"full_house": 20}}, "Full House: 20 is written, but this box can only hold "
         "0 or 25."),
        ({"boxes": {"chance": 99}}, "Chance: 99 is written, but this box can only hold 5 to 30."),
        ({"rules": "yahtzee", "boxes": {"fours": 7, "full_house": 20}},
         "Fours: 7 is written, but this box can only hold 0, 4, 8, 12, 16 or 20. (and 1 more)"),
        ({"boxes": {"yahtzee": 50, "chance": 23}, "bonus_checks": 1},
         "Yahtzee bonus checks: 1 is written, but each check needs another Yahtzee scored in "
         "another box, and only 0 boxes hold a value it can score there."),
    ],
)
def test_advise_refuses_unreachable_cards(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, card: dict[str, object], message: str
) -> None:
    path = tmp_path / "card.json"
    path.write_text(json.dumps(card))
    line = _refusal(capsys, ["advise", "--card", str(path), "--roll", "1", "11111"])
    assert line == f"pipkeeper advise: error: {path}: {message}"


def test_check_reports_what_advise_refuses(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "card.json"
    path.write_text(json.dumps({"rules": "yahtzee", "boxes": {"full_house": 20}}))
    assert main(["check", "--in-progress", str(path)]) == 1
    assert "Full House: 20 is written, but this box can only hold 0 or 25." in (
        capsys.readouterr().out
    )
    message = _refusal(capsys, ["advise", "--card", str(path), "--roll", "1", "11111"])
    assert message.endswith("Full House: 20 is written, but this box can only hold 0 or 25.")


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("bom.csv", codecs.BOM_UTF8 + b"rules,yahtzee\naces,3\n"),
        ("bom.json", codecs.BOM_UTF8 + b'{"rules": "yahtzee", "boxes": {"aces": 3}}'),
        ("semicolon_comment.csv", b"# rules; then boxes; then totals\nrules,yahtzee\naces,3\n"),
        ("saved_card.json", b'{"rules": "yahtzee", "boxes": {"aces": 3}, "bonus_checks": 0}'),
    ],
)
def test_readable_files(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, data: bytes
) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    assert main(["check", "--in-progress", "--json", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["ok"] is True


def test_spaced_check_marks_are_read_as_checks(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "checks.csv"
    rows = "yahtzee,50\nfull_house,25\nsmall_straight,30\nlarge_straight,40\n"
    path.write_text(f"rules,yahtzee\n{rows}yahtzee_bonus_checks,✓ ✓ ✓\nyahtzee_bonus,300\n")
    assert main(["check", "--in-progress", str(path)]) == 0
    assert "pad is consistent" in capsys.readouterr().out
