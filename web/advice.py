"""The advisor for the web app: one solved table per rule set, hints and reviews as JSON.

Tables are solved (or loaded from the advisor's cache folder, PIPKEEPER_CACHE_DIR
or the user's cache) the first time a rule set is needed and then kept by the app:
`init_app` puts an `Advisor` in ``app.extensions``, which holds the tables (a
`TableCache`) and the background warm-ups. A table is read-only, so every request
thread shares it. `warm` starts a solve in a background thread when a game is
created or its page opened, so the first hint comes quickly.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from typing import Any

from flask import Flask, current_app

from scorekeeper import Dice, RuleSet
from scorekeeper.advisor import Option, Table, advise, solve
from scorekeeper.advisor.cache import TableCache
from scorekeeper.advisor.review import review
from scorekeeper.game import Game
from web.errors import ApiError

log = logging.getLogger(__name__)

EXTENSION = "pipkeeper.advisor"  # the key of the app's Advisor in app.extensions


class Advisor:
    """One app's solved tables and the warm-ups under way."""

    def __init__(self, solver: Callable[[RuleSet], Table] = solve) -> None:
        self.tables = TableCache(solver)
        self._warming: set[str] = set()
        self._guard = threading.Lock()  # guards _warming

    def table_for(self, rules: RuleSet) -> Table:
        """Return the solved table of *rules*, solving or loading it on first use (blocking)."""
        return self.tables.get(rules)

    def warm(self, rules: RuleSet) -> None:
        """Start solving *rules*' table in a background thread, unless ready or under way."""
        with self._guard:
            if rules.name in self.tables or rules.name in self._warming:
                return
            self._warming.add(rules.name)
        threading.Thread(target=self._warm, args=(rules,), name=f"advisor-{rules.name}",
                         daemon=True).start()

    def _warm(self, rules: RuleSet) -> None:
        try:
            self.table_for(rules)
        except Exception as error:  # a failed warm-up only costs speed: a hint solves again
            if _exiting(error):
                log.info("the advisor table of %s was left unsolved at exit", rules.name)
            else:
                log.exception("could not solve the advisor table of %s", rules.name)
        finally:
            with self._guard:
                self._warming.discard(rules.name)


def _exiting(error: Exception) -> bool:
    """Whether *error* comes of the program exiting: the solver's thread pool then takes
    no more work ("cannot schedule new futures after [interpreter] shutdown"), as it
    never does while the program runs."""
    stopped = isinstance(error, RuntimeError) and "futures after" in str(error)
    return stopped or not threading.main_thread().is_alive()


def init_app(app: Flask) -> None:
    """Give *app* its own `Advisor`."""
    app.extensions[EXTENSION] = Advisor()


def advisor(app: Flask | None = None) -> Advisor:
    """Return the `Advisor` of *app* (default: the current app).

    An app whose factory did not call `init_app` gets one on first use.
    """
    extensions = (app if app is not None else current_app).extensions
    found: Advisor | None = extensions.get(EXTENSION)
    if found is None:
        found = extensions.setdefault(EXTENSION, Advisor())  # setdefault: one wins a race
    return found


def table_for(rules: RuleSet) -> Table:
    """Return the current app's solved table of *rules* (see `Advisor.table_for`)."""
    return advisor().table_for(rules)


def warm_for(app: Flask, rules: RuleSet) -> None:
    """`Advisor.warm` *rules* for *app*, unless its config sets ADVISOR_WARM to false."""
    if app.config.get("ADVISOR_WARM", True):
        advisor(app).warm(rules)


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

    The options count the rolls the player has left this turn, saved rolls included
    (Maxi Yatzy; each option's ``assumes`` says what the advice takes for granted then).

    Raises ApiError(409) when the game is over, the first player is being decided or
    the turn has no roll yet.
    """
    player = game.current_player
    if game.phase == "over":
        raise ApiError("the game is over: there is no turn to give a hint for", 409,
                       code="hint_game_over")
    if player is None:
        raise ApiError("the first player is not decided yet: hints start with the first turn",
                       409, code="hint_first_player")
    if game.dice is None:
        raise ApiError("no roll yet this turn: record a roll to get a hint", 409,
                       code="hint_no_roll")
    options = advise(table_for(game.rules), game.cards[player], game.dice, game.roll_number,
                     game.rolls_left)
    return {
        "player": player,
        "turn": game.turn,
        "roll": game.roll_number,
        "rolls_left": game.rolls_left,
        "dice": list(game.dice.values),
        "expected": options[0].expected,
        "options": [_option(o, game.dice, game.kept) for o in options],
    }


def game_review(game: Game) -> dict[str, Any]:
    """Return the review of *game* as JSON. Raises ApiError(409) while it is not over."""
    if not game.is_over:
        raise ApiError("the game is not over yet: the review comes when every box is filled",
                       409, code="review_not_over")
    return review(game, table_for(game.rules)).to_dict()
