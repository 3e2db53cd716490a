"""Read the contents of a card or pad file: text, JSON, CSV lines and numbers, or refuse them.

`pipkeeper check` (through `scorekeeper.audit.Pad.from_file`) and `pipkeeper
advise --card` (through `scorekeeper.advisor.card_from_file`) read files with
these functions, so that a file gets the same answer from both. The caller
reads the bytes; nothing here touches the file system.

What is refused, with a PadFormatError:

- a file of more than `MAX_FILE_BYTES`, an empty one, one that is not UTF-8
  text (UTF-16, binary); a UTF-8 byte-order mark is skipped;
- JSON nested deeper than `MAX_DEPTH` (a pad or card is two levels deep);
- a number written with anything but the digits 0 to 9 ("²", "٣", "１",
  "1_0"), or with more than `MAX_DIGITS` digits.

Messages quote at most `QUOTE_LIMIT` characters of the bad input.
"""

from __future__ import annotations

import codecs
import csv
import json
import re
from collections.abc import Iterator, Mapping
from pathlib import PurePath
from typing import Any

from scorekeeper.errors import RulesError
from scorekeeper.rulesets import RULESET_NAMES, RuleSetError
from scorekeeper.scorecard import check_points

MAX_FILE_BYTES = 100_000
MAX_DEPTH = 20
MAX_DIGITS = 4
QUOTE_LIMIT = 80
SUFFIXES = (".json", ".csv")
CARD_CHECK_KEYS = ("bonus_checks", "yahtzee_bonus")  # a saved card's checks (not points)

# ASCII digits only: int() also reads "٣", "１" and "1_0".
_NUMBER = re.compile(r"-?[0-9]+")
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_UTF16_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)


class PadFormatError(RulesError):
    """A pad or card file that cannot be read: bad text, unknown row, bad value, wrong rules."""


def quote(value: object) -> str:
    """Return the repr of *value*, cut to `QUOTE_LIMIT` characters with "…"."""
    text = repr(value)
    return text if len(text) <= QUOTE_LIMIT else text[: QUOTE_LIMIT - 1] + "…"


def file_kind(name: str) -> str:
    """Return "json" or "csv", from the suffix of file *name* (in any case).

    Raises PadFormatError for any other suffix.
    """
    suffix = PurePath(name).suffix.lower()
    if suffix not in SUFFIXES:
        raise PadFormatError(f"{quote(name)}: a pad or card file ends in .json or .csv")
    return suffix[1:]


def read_text(data: bytes) -> str:
    """Return the UTF-8 text of file contents *data*, without a byte-order mark.

    Raises PadFormatError for a file that is too big, empty, or not UTF-8 text.
    """
    if len(data) > MAX_FILE_BYTES:
        raise PadFormatError(f"the file is too big: a pad has at most {MAX_FILE_BYTES} bytes")
    if data.startswith(_UTF16_BOMS):
        raise PadFormatError("not a text file in UTF-8: it is UTF-16; save it as UTF-8")
    data = data.removeprefix(codecs.BOM_UTF8)
    if not data.strip():
        raise PadFormatError("the file is empty")
    if b"\0" in data:
        raise PadFormatError("not a text file in UTF-8: it has zero bytes (binary, or UTF-16)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        bad = data[error.start : error.start + 1]
        raise PadFormatError(
            f"not a text file in UTF-8: byte 0x{bad.hex()} at offset {error.start}"
        ) from None


def load_json(text: str) -> Any:
    """Return the JSON value in *text*.

    Raises PadFormatError for text that is not JSON, nested deeper than
    `MAX_DEPTH`, or holding a number of more than `MAX_DIGITS` digits.
    """
    text = text.removeprefix("\ufeff")
    if _nesting_depth(text) > MAX_DEPTH:
        raise PadFormatError(f"the JSON is nested more than {MAX_DEPTH} levels deep")
    try:
        return json.loads(text, parse_int=_json_int)
    except json.JSONDecodeError as error:
        raise PadFormatError(f"not valid JSON: {error}") from None
    except RecursionError:
        raise PadFormatError(f"the JSON is nested more than {MAX_DEPTH} levels deep") from None


def _nesting_depth(text: str) -> int:
    """Return how deep the arrays and objects of JSON *text* nest (strings left out)."""
    depth = deepest = 0
    for char in _JSON_STRING.sub('""', text):
        if char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _json_int(digits: str) -> int:
    return read_number("a number", digits)


def read_content(name: str, data: bytes) -> tuple[str, Any]:
    """Return the kind of file *name* ("json" or "csv") and what its contents *data* hold:
    the JSON value, or the CSV text.

    Raises PadFormatError, its message starting with *name*, as `file_kind`,
    `read_text` and `load_json` do.
    """
    kind = file_kind(name)
    try:
        text = read_text(data)
        return kind, load_json(text) if kind == "json" else text
    except PadFormatError as error:
        raise PadFormatError(f"{name}: {error}") from None


def rules_name(named: object) -> str:
    """Return *named* as a rule set name to look up.

    Raises PadFormatError for something other than a string, RuleSetError for
    one too long to be a name.
    """
    if not isinstance(named, str):
        raise PadFormatError(f"rules must be a name such as 'yahtzee', got {quote(named)}")
    if len(named) > QUOTE_LIMIT // 2:
        raise RuleSetError(f"unknown rule set {quote(named)}; known: {', '.join(RULESET_NAMES)}")
    return named


def read_number(where: str, text: str) -> int:
    """Return the whole number written in *text* (ASCII digits, "-" allowed for a clear refusal).

    Raises PadFormatError, naming *where*, for anything else or for more than `MAX_DIGITS` digits.
    """
    if not _NUMBER.fullmatch(text):
        raise PadFormatError(f"{where} must be a whole number, got {quote(text)}")
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise PadFormatError(f"{where} has more than {MAX_DIGITS} digits: {quote(text)}")
    return int(text)


def whole_number(where: str, value: object, error: type[ValueError]) -> int | None:
    """Return *value* as points written in a box or total (None: left blank).

    Raises *error*, naming *where*, unless *value* is None or a whole number from
    0 to `MAX_DIGITS` digits.
    """
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise error(f"{where} must be a whole number, got {quote(value)}")
    points = check_points(where, value, error)
    if points is not None and points >= 10**MAX_DIGITS:
        raise error(f"{where} has more than {MAX_DIGITS} digits")
    return points


def card_check_rows(data: Mapping[str, Any]) -> list[tuple[str, object, str]]:
    """Return the checks a saved card gives at its top level as pad rows (row, value, where).

    A count of 0 is left out, so that a Yacht card's ``"bonus_checks": 0`` is no bonus row.
    """
    return [
        ("yahtzee_bonus_checks", data[key], repr(key))
        for key in CARD_CHECK_KEYS
        if data.get(key) is not None and not (type(data[key]) is int and data[key] == 0)
    ]


def csv_rows(text: str) -> Iterator[tuple[int, str, str]]:
    """Yield (line number, row, value) for each ``row,value`` line of CSV *text*.

    Blank lines and lines starting with ``#`` are skipped; the delimiter (``,``,
    ``;`` or tab) is the one the other lines use most. Raises PadFormatError for
    a line with more than two cells.
    """
    lines = text.removeprefix("\ufeff").splitlines()
    used = [line for line in lines if not _skipped(line)]
    delimiter = max(",;\t", key=lambda d: sum(line.count(d) for line in used))
    for number, line in enumerate(lines, start=1):
        if _skipped(line):
            continue
        try:
            cells = [cell.strip() for cell in next(csv.reader([line], delimiter=delimiter))]
        except csv.Error as error:
            raise PadFormatError(f"line {number}: {error}") from None
        if not any(cells):
            continue
        if any(cells[2:]):
            raise PadFormatError(f"line {number}: expected row,value, got {quote(line.strip())}")
        yield number, cells[0], cells[1] if len(cells) > 1 else ""


def _skipped(line: str) -> bool:
    return not line.strip() or line.lstrip().startswith("#")
