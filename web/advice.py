"""The advisor for the web app: one solved table per rule set, hints and reviews as JSON.

Tables are solved (or loaded from the advisor's cache folder, PIPKEEPER_CACHE_DIR
or the user's cache) the first time a rule set is needed and then kept for the
life of the process; a table is read-only, so every request thread shares it.
A lock per rule set makes concurrent first requests wait for one solve instead
of each starting its own. `warm` starts that solve in a background thread when
a game is created or its page opened, so the first hint comes quickly.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from typing import Any

from flask import Flask

from scorekeeper import Dice, RuleSet
from scorekeeper.advisor import Option, Table, advise, solve
from scorekeeper.advisor.review import review
from scorekeeper.game import Game
from web.errors import ApiError

log = logging.getLogger(__name__)

_tables: dict[str, Table] = {}
_locks: dict[str, threading.Lock] = {}
_registry = threading.Lock()  # guards _locks and _warming
_warming: set[str] = set()


def _lock_for(name: str) -> threading.Lock:
    with _registry:
        return _locks.setdefault(name, threading.Lock())


def table_for(rules: RuleSet) -> Table:
    """Return the solved table of *rules*, solving or loading it on first use (blocking)."""
    table = _tables.get(rules.name)
    if table is not None:
        return table
    with _lock_for(rules.name):
        table = _tables.get(rules.name)
        if table is None:
            table = solve(rules)
            _tables[rules.name] = table
    return table


def _warm(rules: RuleSet) -> None:
    try:
        table_for(rules)
    except Exception:  # a failed warm-up only costs speed: the next hint solves again
        log.exception("could not solve the advisor table of %s", rules.name)
    finally:
        with _registry:
            _warming.discard(rules.name)


def warm(rules: RuleSet) -> None:
    """Start solving *rules*' table in a background thread, unless it is ready or under way."""
    with _registry:
        if rules.name in _tables or rules.name in _warming:
            return
        _warming.add(rules.name)
    threading.Thread(target=_warm, args=(rules,), name=f"advisor-{rules.name}",
                     daemon=True).start()


def warm_for(app: Flask, rules: RuleSet) -> None:
    """`warm` *rules*, unless *app*'s config sets ADVISOR_WARM to false."""
    if app.config.get("ADVISOR_WARM", True):
        warm(rules)


def holds(dice: Sequence[int], keep: Sequence[int], prefer: Sequence[int] = ()) -> list[int]:
    """Return positions of *dice* showing the values *keep*, ascending.

    Positions in *prefer* (the dice already kept) are taken first, so a hint marks
    the dice the player has set aside where it can.
    """
    order = [*prefer, *(i for i in range(len(dice)) if i not in prefer)]
    free = list(order)
    chosen = []
    for value in keep:
        position = next(i for i in free if dice[i] == value)
        free.remove(position)
        chosen.append(position)
    return sorted(chosen)


def _option(option: Option, dice: Dice, kept: Sequence[int]) -> dict[str, Any]:
    """Return *option* as JSON with ``hold``: the positions of *dice* a keep holds."""
    hold = holds(dice.values, option.keep, kept) if option.kind == "keep" else None
    return {**option.to_dict(), "hold": hold}


def hint(game: Game) -> dict[str, Any]:
    """Return the advisor's options for the current player's dice, best first, as JSON.

    Raises ApiError(409) when the game is over, the first player is being decided or
    the turn has no roll yet.
    """
    player = game.current_player
    if game.phase == "over":
        raise ApiError("the game is over: there is no turn to give a hint for", 409)
    if player is None:
        raise ApiError("the first player is not decided yet: hints start with the first turn", 409)
    if game.dice is None:
        raise ApiError("no roll yet this turn: record a roll to get a hint", 409)
    options = advise(table_for(game.rules), game.cards[player], game.dice, game.roll_number)
    return {
        "player": player,
        "turn": game.turn,
        "roll": game.roll_number,
        "dice": list(game.dice.values),
        "expected": options[0].expected,
        "options": [_option(o, game.dice, game.kept) for o in options],
    }


def game_review(game: Game) -> dict[str, Any]:
    """Return the review of *game* as JSON. Raises ApiError(409) while it is not over."""
    if not game.is_over:
        raise ApiError("the game is not over yet: the review comes when every box is filled", 409)
    return review(game, table_for(game.rules)).to_dict()
