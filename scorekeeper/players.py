"""The players of a game: their names cleaned and checked (1 to 8 different names)."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from scorekeeper.gameerrors import GameSetupError

MAX_PLAYERS = 8
MAX_NAME_LENGTH = 40

# Characters that show nothing on their own: format (zero-width spaces and joiners, BOM),
# spaces, controls, private use, surrogates, unassigned. A name made only of these is empty;
# a zero-width joiner *inside* a real name stays (emoji sequences, Indic and Thai text).
_INVISIBLE_CATEGORIES = frozenset({"Cf", "Zs", "Cc", "Co", "Cs", "Cn"})
MAX_QUOTED_NAME = 80


def _quoted(name: str) -> str:
    """Return repr(name), cut to about MAX_QUOTED_NAME characters with "…"."""
    text = repr(name[: MAX_QUOTED_NAME + 1])
    return text if len(text) <= MAX_QUOTED_NAME else text[: MAX_QUOTED_NAME - 1] + "…"


def _clean_name(raw: object) -> str:
    """Return the name with its whitespace collapsed. Raises GameSetupError."""
    name = " ".join(str(raw).split())  # tabs and newlines are whitespace: collapsed, not refused
    if not name:
        raise GameSetupError("a player's name cannot be empty", code="name_empty")
    if len(name) > MAX_NAME_LENGTH:
        raise GameSetupError(
            f"a name has at most {MAX_NAME_LENGTH} characters: {_quoted(name)}",
            code="name_too_long", most=MAX_NAME_LENGTH, name=name[:MAX_NAME_LENGTH],
        )
    categories = {unicodedata.category(ch) for ch in name}
    if "Cs" in categories:  # a pair from JSON is one character: any surrogate is a lone one
        raise GameSetupError(f"a player's name cannot contain lone surrogates: {_quoted(name)}",
                             code="name_control")
    if "Cc" in categories:
        raise GameSetupError(
            f"a player's name cannot contain control characters: {_quoted(name)}",
            code="name_control",
        )
    if categories <= _INVISIBLE_CATEGORIES:
        raise GameSetupError(
            f"a player's name cannot be empty: {_quoted(name)} has no visible characters",
            code="name_empty",
        )
    return name


def clean_players(players: Sequence[str]) -> tuple[str, ...]:
    """Return the cleaned names of 1 to MAX_PLAYERS players. Raises GameSetupError."""
    if not 1 <= len(players) <= MAX_PLAYERS:
        raise GameSetupError(f"a game has 1 to {MAX_PLAYERS} players, got {len(players)}",
                             code="players_count", most=MAX_PLAYERS, count=len(players))
    names = tuple(_clean_name(name) for name in players)
    if len({n.casefold() for n in names}) != len(names):
        twins = tuple(n for n in names if [m.casefold() for m in names].count(n.casefold()) > 1)
        raise GameSetupError(f"two players have the same name: {', '.join(twins)}",
                             code="same_name", names=twins)
    return names
