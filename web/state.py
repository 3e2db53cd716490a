"""The JSON state of a stored game, as the API and the event stream send it."""

from __future__ import annotations

from typing import Any

from scorekeeper import RuleSet
from scorekeeper.game import Game
from scorekeeper.series import MAX_GAMES, Series
from web.store import Record
from web.summary import position, winners


def render_boxes(rules: RuleSet) -> list[dict[str, str]]:
    """Return the rule set's boxes in card order: slug, English name, section."""
    return [
        {"slug": c.slug, "name": c.name, "section": c.section.name.lower()}
        for c in rules.categories
    ]


def render_cards(game: Game) -> list[dict[str, Any]]:
    """Return every player's scorecard: name, boxes (points or null), totals, and the dice
    each filled box was scored with (what a correction of that box starts from)."""
    return [
        {"player": name, "boxes": card.boxes(), "totals": card.totals(),
         "dice": {box: list(dice.values) for box, dice in game.turns(seat)}}
        for seat, (name, card) in enumerate(zip(game.players, game.cards, strict=True))
    ]


def render_series(series: Series) -> dict[str, Any]:
    """Return the series: which game this is (1..6), each game's grand totals, series totals.

    The finished games' scorecards are not in it (they would multiply every change's size
    by the number of games): `render_pad` gives them, for printing the whole pad.
    """
    game = series.current
    return {
        "game_number": series.number,
        "max_games": MAX_GAMES,
        "totals": list(series.totals()),
        "games": [
            {
                "number": number,
                "grand_totals": [card.grand_total for card in g.cards],
                "finished": g.is_over,
                "winners": winners(g),
            }
            for number, g in enumerate(series.games, start=1)
        ],
        "can_play_again": game.is_over and series.number < MAX_GAMES,
    }


def render_pad(series: Series) -> dict[str, Any]:
    """Return the scorecards of the series' finished games (as `render_cards`), by number:
    with the state's own cards, the whole pad, one column per game."""
    return {"games": [{"number": number, "cards": render_cards(g)}
                      for number, g in enumerate(series.games, start=1) if g.is_over]}


def render_game(game: Game) -> dict[str, Any]:
    """Return the play state of one game: turn, roll, dice, suggestions, cards, winners.

    ``max_rolls`` is the current player's rolls this turn: three, and in Maxi Yatzy their
    saved rolls too; ``rolls_left`` what is left of them; ``saved_rolls`` each seat's
    saved rolls not yet spent (all 0 in the other games, which save none).
    """
    return {
        **position(game),
        "game": game.rules.game,
        "dice_count": game.rules.dice_count,
        "roll": game.roll_number,
        "max_rolls": game.max_rolls,
        "rolls_left": game.rolls_left,
        "saves_rolls": game.rules.saved_rolls,
        "saved_rolls": list(game.saved_rolls),
        "dice": list(game.dice.values) if game.dice is not None else None,
        "kept": list(game.kept),
        "suggestions": [s.to_dict() for s in game.suggestions()],
        "first_roll_pending": list(game.first_roll_pending),
        "first_rolls": [
            {"player": player, "dice": list(dice.values)} for player, dice in game.first_rolls
        ],
        "can_undo": game.can_undo,
        "boxes": render_boxes(game.rules),
        "cards": render_cards(game),
        "history": [record.to_dict() for record in game.history()],
    }


def render_state(record: Record) -> dict[str, Any]:
    """Return the whole JSON state of a stored game."""
    return {
        "id": record.id,
        "join_code": record.join_code,
        "join_path": f"/join/{record.join_code}",
        "version": record.version,
        "created_at": record.created_at,
        "updated_at": record.updated_at,
        **render_game(record.game),
        "series": render_series(record.series),
    }
