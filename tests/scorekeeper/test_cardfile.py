"""scorekeeper.cardfile: the text, JSON, CSV and numbers of pad and card files; Pad.from_file."""

from __future__ import annotations

import codecs

import pytest

from scorekeeper.audit import Pad, PadFormatError
from scorekeeper.cardfile import (
    MAX_FILE_BYTES,
    csv_rows,
    file_kind,
    load_json,
    quote,
    read_number,
    read_text,
)
from scorekeeper.errors import RulesError
from scorekeeper.rulesets import RuleSetError


def test_errors_are_rules_errors() -> None:
    assert issubclass(PadFormatError, RulesError)


@pytest.mark.parametrize(
    ("value", "quoted"),
    [("short", "'short'"), ("x" * 78, "'" + "x" * 78 + "'"), ("x" * 200, "'" + "x" * 78 + "…")],
)
def test_quote_cuts_at_80_characters(value: str, quoted: str) -> None:
    assert quote(value) == quoted and len(quote(value)) <= 80


@pytest.mark.parametrize(
    ("data", "text"),
    [
        (b"rules,yahtzee\n", "rules,yahtzee\n"),
        (codecs.BOM_UTF8 + b"rules,yahtzee", "rules,yahtzee"),
        ("aces,✓".encode(), "aces,✓"),
    ],
)
def test_read_text(data: bytes, text: str) -> None:
    assert read_text(data) == text


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "the file is empty"),
        (b" \r\n\t", "the file is empty"),
        (codecs.BOM_UTF8, "the file is empty"),
        ("rules,yahtzee".encode("utf-16"), "not a text file in UTF-8: it is UTF-16"),
        ("rules,yahtzee".encode("utf-16-le"), "not a text file in UTF-8: it has zero bytes"),
        (b"\x89PNG\r\n\x1a\n", "not a text file in UTF-8: byte 0x89 at offset 0"),
        (b"a" * (MAX_FILE_BYTES + 1), "the file is too big"),
    ],
)
def test_read_text_refuses(data: bytes, message: str) -> None:
    with pytest.raises(PadFormatError, match=message):
        read_text(data)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 1000 + "]" * 1000, "nested more than 20 levels deep"),
        ('{"a": ' * 21 + "1" + "}" * 21, "nested more than 20 levels deep"),
        ("[" * 100_000, "nested more than 20 levels deep"),
        ("1" * 5000, "a number has more than 4 digits: '1111"),
        ('{"aces": 12345}', "a number has more than 4 digits: '12345'"),
        ("{", "not valid JSON: "),
    ],
)
def test_load_json_refuses(text: str, message: str) -> None:
    with pytest.raises(PadFormatError, match=message):
        load_json(text)


def test_load_json_reads_brackets_in_strings_and_a_bom() -> None:
    text = '\ufeff{"note": "' + "[{" * 500 + '", "n": [[1]], "m": -12}'
    assert load_json(text) == {"note": "[{" * 500, "n": [[1]], "m": -12}


@pytest.mark.parametrize(("text", "value"), [("0", 0), ("9999", 9999), ("-3", -3), ("007", 7)])
def test_read_number(text: str, value: int) -> None:
    assert read_number("aces", text) == value


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("²", "aces must be a whole number, got '²'"),
        ("٣", "aces must be a whole number, got '٣'"),
        ("１２", "aces must be a whole number, got '１２'"),
        ("1_0", "aces must be a whole number, got '1_0'"),
        ("+3", "aces must be a whole number, got '\\+3'"),
        ("3.0", "aces must be a whole number"),
        ("12345", "aces has more than 4 digits: '12345'"),
        ("9" * 5000, "aces has more than 4 digits: '9999"),
    ],
)
def test_read_number_refuses(text: str, message: str) -> None:
    with pytest.raises(PadFormatError, match=message):
        read_number("aces", text)


@pytest.mark.parametrize(
    ("name", "kind"), [("a.json", "json"), ("B.CSV", "csv"), ("x.y.csv", "csv")]
)
def test_file_kind(name: str, kind: str) -> None:
    assert file_kind(name) == kind


def test_file_kind_refuses_other_names() -> None:
    with pytest.raises(PadFormatError, match=r"'pad.txt': a pad or card file ends in \.json"):
        file_kind("pad.txt")


@pytest.mark.parametrize(
    ("text", "rows"),
    [
        ("# a; b; c\naces,3\n\nsixes,\n", [(2, "aces", "3"), (4, "sixes", "")]),
        ("aces;3\n# a, b, c, d, e\n", [(1, "aces", "3")]),
        ("aces\t3\n", [(1, "aces", "3")]),
        ('"Full House", 25 \n,\n', [(1, "Full House", "25")]),
    ],
)
def test_csv_rows(text: str, rows: list[tuple[int, str, str]]) -> None:
    assert list(csv_rows(text)) == rows


# --- Pad: the CSV and JSON readers on top -----------------------------------------


@pytest.mark.parametrize("marks", ["3", "✓✓✓", "✓ ✓ ✓", "xxx", "x x x", "XXX", "///", "|||", "✔✔✔"])
def test_every_check_notation(marks: str) -> None:
    pad = Pad.from_csv(f"rules,yahtzee\nyahtzee_bonus_checks,{marks}\n")
    assert pad.totals["yahtzee_bonus_checks"] == 3


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("rules,yahtzee\naces,3\nrules,yahtzee\n", "line 3: the rules are given twice"),
        ("rules,\nrules,yacht\n", "line 2: the rules are given twice"),
        ("rules,yahtzee\naces,²\n", "line 2: aces must be a whole number, got '²'"),
        ("rules,yahtzee\nchance,12345\n", "line 2: chance has more than 4 digits"),
        ("rules,yahtzee\nyahtzee_bonus_checks,✓ 2\n", "must be a whole number, got '✓ 2'"),
        ("rules,yahtzee\n" + "y" * 300 + ",1\n", "unknown row '" + "y" * 78 + "…;"),
    ],
)
def test_csv_pads_refused(text: str, message: str) -> None:
    with pytest.raises(PadFormatError) as caught:
        Pad.from_csv(text)
    assert message in str(caught.value)


def test_a_semicolon_in_a_comment_keeps_the_comma() -> None:
    pad = Pad.from_csv("# boxes; totals; more; more\nrules,yahtzee\naces,3\nsixes,18\n")
    assert (pad.boxes["aces"], pad.boxes["sixes"]) == (3, 18)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"rules": "yahtzee", "boxes": {"aces": 10**300}}, "aces has more than 4 digits"),
        ({"rules": "yahtzee", "boxes": {"aces": 1e300}}, "aces has more than 4 digits"),
        ({"rules": "yahtzee", "boxes": {"aces": list(range(100))}}, "got [0, 1, 2, "),
        ({"rules": "yahtzee", "x" * 200: 1}, "unknown key(s) '" + "x" * 78 + "…"),
        ({"rules": 7}, "rules must be a name such as 'yahtzee', got 7"),
    ],
)
def test_dict_pads_refused(data: dict[str, object], message: str) -> None:
    with pytest.raises(PadFormatError) as caught:
        Pad.from_dict(data)
    assert message in str(caught.value) and len(str(caught.value)) < 200


def test_saved_card_is_read_as_a_pad() -> None:
    data = {"rules": "yahtzee", "boxes": {"aces": 5, "yahtzee": 50}, "bonus_checks": 1}
    assert Pad.from_dict(data).totals["yahtzee_bonus_checks"] == 1
    yacht = {"rules": "yacht", "boxes": {}, "bonus_checks": 0}
    assert "yahtzee_bonus_checks" not in Pad.from_dict(yacht).totals


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("p.json", b"[" * 1000, "p.json: the JSON is nested more than 20 levels deep"),
        ("p.csv", b"", "p.csv: the file is empty"),
        ("p.csv", b"rules,yahtzee\nfours,\xff\n", "p.csv: not a text file in UTF-8: byte 0xff"),
        ("p.csv", b"rules,yahtzee\nrules,yacht\n", "p.csv: line 2: the rules are given twice"),
    ],
)
def test_from_file_names_the_file(name: str, data: bytes, message: str) -> None:
    with pytest.raises(PadFormatError) as caught:
        Pad.from_file(name, data)
    assert str(caught.value).startswith(message)


def test_from_file_names_the_file_for_unknown_rules() -> None:
    with pytest.raises(RuleSetError, match=r"^p\.csv: unknown rule set 'poker'"):
        Pad.from_file("p.csv", b"rules,poker\n")


def test_from_file_reads_bom_csv_and_json() -> None:
    csv_pad = Pad.from_file("p.csv", codecs.BOM_UTF8 + b"rules,yahtzee\naces,3\n")
    json_pad = Pad.from_file("P.JSON", codecs.BOM_UTF8 + b'{"rules":"yahtzee","boxes":{"aces":3}}')
    assert csv_pad == json_pad and csv_pad.boxes["aces"] == 3
