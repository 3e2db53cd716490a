"""What the server says to people, in the request's language: every refusal of the API.

An error names its kind of message with a `code` and gives its `params`
(`scorekeeper.errors.Coded`; the rules' errors and the web's own ApiError alike).
`render` writes it from `MESSAGES` in the language of the request (the page's
language, or the API client's Accept-Language). The parameters are written the
way people read them, never as Python values:

- ``dice``, ``positions``: numbers separated by spaces, kept left to right inside
  right-to-left text (U+2066 … U+2069), "6 6 4 6 6";
- ``box``: a box's English name, written in the page's language; ``boxes``: several,
  joined "Aces, Twos and Chance";
- ``name``, ``text``: a player's name or what was typed, isolated (U+2068 … U+2069)
  so that a Latin name reads right inside Hebrew; ``names``: several, joined;
- ``reason``: why a box is not allowed (a Joker rule, upper section first, boxes in order);
- anything else (counts, points, ids): the number.

A count sits in the plural form its language needs (ngettext): "1 roll", "3 rolls".
In English, and for an error without a code, the message is the error's own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from flask_babel import LazyString, gettext, ngettext
from flask_babel import lazy_gettext as _l

from scorekeeper.dice import DICE_COUNT, example
from web.i18n import DEFAULT_LOCALE, JS_STRINGS, box_name, current_language

MAX_TEXT = 40  # characters of typed text quoted back
LTR_ISOLATE, FIRST_STRONG_ISOLATE, POP_ISOLATE = "\u2066", "\u2068", "\u2069"

Params = dict[str, str]

REASONS: dict[str, LazyString] = {
    "own_upper": _l("the upper box of this face is open, so the Yahtzee must be scored there"),
    "any_lower": _l("the upper box of this face is filled, so any open lower box may be used"),
    "upper_zero": _l("every allowed lower box is filled, so a zero goes in an open upper box"),
    "free": _l("free-choice Joker: the box of this face is filled, so any open box may be used"),
    "upper_first": _l("the upper section must be complete before a lower box is scored"),
    "in_order": _l(
        "boxes are filled in order, top to bottom: only the next open box may be filled"),
    "filled": _l("the box is already filled at that point"),
}
"""Why a box is not allowed, by `box_not_allowed`'s ``reason``."""

MESSAGES: dict[str, Callable[[Params], str]] = {
    # dice
    "dice_none": lambda p: gettext("no dice given"),
    "die_value": lambda p: gettext("a die shows 1 to 6, got %(value)s in %(dice)s", **p),
    "dice_count": lambda p: ngettext(
        "expected %(num)s die, got %(count)s: %(dice)s",
        "expected %(num)s dice, got %(count)s: %(dice)s", int(p["expected"]), **p),
    "dice_syntax": lambda p: ngettext(
        "cannot read dice from %(text)s: type %(num)s die, for example %(example)s",
        "cannot read dice from %(text)s: type %(num)s dice, for example %(example)s",
        _expected(p), example=_example(p), **p),
    # players
    "name_empty": lambda p: gettext("a player's name cannot be empty"),
    "name_too_long": lambda p: ngettext(
        "a name has at most %(num)s character: %(name)s",
        "a name has at most %(num)s characters: %(name)s", int(p["most"]), **p),
    "name_control": lambda p: gettext("a player's name cannot contain control characters"),
    "players_count": lambda p: ngettext(
        "a game has 1 to %(num)s player, got %(count)s",
        "a game has 1 to %(num)s players, got %(count)s", int(p["most"]), **p),
    "same_name": lambda p: gettext("two players have the same name: %(names)s", **p),
    # the turn
    "first_player_pending": lambda p: gettext(
        "roll for the first player first: every player rolls all five dice"),
    "first_roll_kept": lambda p: gettext(
        "nothing is kept when rolling for the first player: roll all five dice"),
    "first_five": lambda p: gettext("roll all five dice for first, got %(dice)s", **p),
    "first_player_pending_six": lambda p: gettext(
        "roll for the first player first: every player rolls all six dice"),
    "first_roll_kept_six": lambda p: gettext(
        "nothing is kept when rolling for the first player: roll all six dice"),
    "first_six": lambda p: gettext("roll all six dice for first, got %(dice)s", **p),
    "first_decided": lambda p: gettext("the first player is already decided"),
    "roll_five": lambda p: gettext("a roll shows five dice, got %(dice)s", **p),
    "roll_six": lambda p: gettext("a roll shows six dice, got %(dice)s", **p),
    "too_many_rolls": lambda p: ngettext(
        "only %(num)s roll a turn: choose a box to score",
        "only %(num)s rolls a turn: choose a box to score", int(p["most"]), **p),
    "too_many_rolls_saved": lambda p: gettext(
        "no rolls left this turn, saved rolls included: choose a box to score"),
    "kept_first_roll": lambda p: gettext("nothing can be kept on the first roll of a turn"),
    "kept_positions": lambda p: gettext(
        "kept dice are positions 0 to 4, each once, got %(positions)s", **p),
    "kept_positions_six": lambda p: gettext(
        "kept dice are positions 0 to 5, each once, got %(positions)s", **p),
    "kept_changed": lambda p: gettext(
        "die %(die)s was kept at %(kept)s but shows %(shows)s", **p),
    "nothing_to_correct": lambda p: gettext("there is no roll to correct: roll the dice first"),
    "photo_too_few": lambda p: gettext(
        "the photo shows fewer dice than were thrown (%(found)s found, %(thrown)s thrown): "
        "set the dice by hand", **p),
    "score_unrecorded": lambda p: gettext(
        "the dice %(dice)s are not the recorded roll: record them, then choose a box", **p),
    "roll_before_scoring": lambda p: gettext("roll the dice before scoring a box"),
    "nothing_to_undo": lambda p: gettext("nothing to undo: the game is at its start"),
    "game_over": lambda p: gettext("the game is over: every box is filled"),
    # corrections of boxes filled in earlier turns
    "correction_player": lambda p: gettext("no player %(player)s: seats are 0 to %(last)s", **p),
    "correction_open": lambda p: gettext(
        "%(name)s's %(box)s is still open: only a filled box can be corrected", **p),
    "correction_same": lambda p: gettext(
        "%(name)s's %(box)s already holds %(dice)s: the correction changes nothing", **p),
    "correction_illegal": lambda p: gettext(
        "%(name)s's round %(round)s cannot be corrected to %(dice)s in %(box)s: %(reason)s", **p),
    "correction_breaks": lambda p: gettext(
        "correcting %(name)s's round %(round)s would make round %(later)s (%(dice)s in %(box)s) "
        "illegal: %(reason)s; nothing was changed", **p),
    # boxes
    "box_filled": lambda p: ngettext(
        "%(box)s already holds %(num)s point", "%(box)s already holds %(num)s points",
        int(p["points"]), **p),
    "box_not_allowed": lambda p: gettext(
        "%(box)s is not allowed for %(dice)s: %(reason)s; allowed boxes: %(boxes)s", **p),
    "unknown_box": lambda p: gettext("unknown box %(text)s", **p),
    "unknown_rules": lambda p: gettext("unknown rule set %(text)s", **p),
    # the series
    "game_not_over": lambda p: gettext(
        "the current game is not over yet: finish the current game before playing again"),
    "pad_full": lambda p: ngettext(
        "a score pad holds %(num)s game: start a new series",
        "a score pad holds %(num)s games: start a new series", int(p["most"]), **p),
    # games on this server
    "no_game_id": lambda p: gettext("no game with id %(game)s", **p),
    "no_game_code": lambda p: gettext("no game with join code %(text)s", **p),
    "not_joined": lambda p: gettext(
        "this device has not joined game %(game)s: open its join link or type its "
        "6-letter join code", **p),
    "owner_only": lambda p: gettext(
        "only the device that started game %(game)s may do this", **p),
    "stale": lambda p: gettext(
        "the game changed meanwhile: version %(given)s was given, the current one is "
        "%(current)s; reload and try again", **p),
    "internal": lambda p: gettext("internal error: the server could not handle this request"),
    "storage_busy": lambda p: gettext(
        "the database is busy: nothing was changed; try again in a moment"),
    "storage_failed": lambda p: gettext(
        "the games cannot be saved (%(text)s): nothing was changed; tell whoever runs the "
        "server", **p),
    "too_large": lambda p: gettext("that is too large for this server: send something smaller"),
    "too_many_joins": lambda p: gettext(
        "too many wrong join codes from this address: at most %(most)s a minute; try again "
        "in %(wait)s s", **p),
    "too_many_joins_all": lambda p: gettext(
        "too many wrong join codes from all addresses: at most %(most)s a minute; try again "
        "in %(wait)s s", **p),
    "too_many_games": lambda p: gettext(
        "too many new games from this address: at most %(most)s a minute; try again in "
        "%(wait)s s", **p),
    "body_too_slow": lambda p: gettext(
        "the request body stopped arriving (%(received)s bytes came): send it again; a body "
        "may pause at most %(idle)s s and must keep up %(rate)s kB/s after its first "
        "%(grace)s s", **p),
    "uploads_busy": lambda p: gettext(
        "the server holds as many uploads as it can: try again in a moment"),
    # the devices of a game
    "no_device": lambda p: gettext("game %(game)s has no device %(device)s", **p),
    "owner_device": lambda p: gettext(
        "the device that started game %(game)s cannot be removed: delete the game instead", **p),
    # the request itself
    "json_needed": lambda p: gettext("send a JSON body with Content-Type: application/json"),
    "json_bad": lambda p: gettext("the request body is not a JSON object"),
    "field_number": lambda p: gettext("'%(field)s' must be a whole number", **p),
    "field_required": lambda p: gettext("'%(field)s' is required", **p),
    "field_text": lambda p: gettext("'%(field)s' must be text", **p),
    "field_flag": lambda p: gettext("'%(field)s' must be true or false", **p),
    "field_dice": lambda p: ngettext(
        "'dice' must be %(num)s die, each 1 to 6, for example %(example)s",
        "'dice' must be %(num)s dice, each 1 to 6, for example %(example)s",
        _expected(p), example=_example(p)),
    "field_kept": lambda p: gettext("'kept' must be a list of positions 0 to %(most)s", **p),
    "field_players": lambda p: gettext("'players' must be a list of names"),
    "field_range": lambda p: gettext(
        "'%(field)s' must be a whole number from %(least)s to %(most)s", **p),
    "field_cursor": lambda p: gettext(
        "'cursor' must be the cursor of an earlier page of the list, got %(text)s", **p),
    "field_unknown": lambda p: gettext(
        "unknown parameter %(text)s: the game list takes limit, cursor and finished", **p),
    # photos
    "photo_empty": lambda p: gettext("the uploaded photo is empty"),
    "not_image": lambda p: gettext(
        "not an image: %(text)s is not a JPEG, PNG, WebP or BMP photo", **p),
    "unreadable_image": lambda p: gettext(
        "that photo cannot be read: take it again, or enter the dice with the buttons"),
    "photos_unavailable": lambda p: gettext(
        "reading photos is not available on this server: enter the dice with the buttons"),
    "decode_busy": lambda p: gettext(
        "the server is reading other large images: try again in a moment"),
    "frame_pixels": lambda p: gettext(
        "a camera frame is at most %(megapixels)s MP, this one is %(width)s×%(height)s: "
        "send a smaller frame", **p),
    # hints and reviews
    "hint_game_over": lambda p: gettext("the game is over: there is no turn to give a hint for"),
    "hint_first_player": lambda p: gettext(
        "the first player is not decided yet: hints start with the first turn"),
    "hint_no_roll": lambda p: gettext("no roll yet this turn: record a roll to get a hint"),
    "review_not_over": lambda p: gettext(
        "the game is not over yet: the review comes when every box is filled"),
    "review_game": lambda p: ngettext(
        "this series has game %(num)s only, not %(number)s",
        "this series has games 1 to %(num)s, not %(number)s", int(p["most"]), **p),
}
"""Each code's message in the request's language, from its written parameters."""


def _expected(params: Params) -> int:
    """Return the dice a roll has, from a message's ``expected`` (five when not given)."""
    return int(params.get("expected", DICE_COUNT))


def _example(params: Params) -> str:
    """Return example dice for a message, as many as ``expected``: "6 6 4 6 6"."""
    return numbers(example(_expected(params)))


def isolate(text: str, mark: str = FIRST_STRONG_ISOLATE) -> str:
    """Return *text* isolated from the text around it (Unicode bidirectional isolates)."""
    return f"{mark}{text}{POP_ISOLATE}"


def join_words(words: Iterable[str]) -> str:
    """Return *words* joined as "A, B and C" in the request's language."""
    items = list(words)
    if len(items) < 2:
        return "".join(items)
    return ", ".join(items[:-1]) + str(JS_STRINGS["and"]) + items[-1]


def numbers(values: Iterable[int]) -> str:
    """Return dice or positions as "6 6 4 6 6", read left to right in every language."""
    return isolate(" ".join(str(v) for v in values), LTR_ISOLATE)


def _written(key: str, value: Any) -> str:
    """Return parameter *key* as people read it (see the module's list)."""
    if key in ("dice", "positions"):
        return numbers(value)
    if key == "box":
        return box_name(str(value))
    if key == "boxes":
        return join_words(box_name(b) for b in value) or gettext("none")
    if key in ("name", "text"):
        text = str(value)
        return isolate(text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…")
    if key == "names":
        return join_words(isolate(str(n)) for n in value)
    if key == "reason":
        found = REASONS.get(str(value))
        return str(found) if found is not None else str(value)
    return str(value)


def render(code: str, params: Mapping[str, Any], english: str) -> str:
    """Return the message *code* with *params* in the request's language.

    In English, and for a code not listed, it is *english*: the error's own message,
    which quotes what was sent exactly.
    """
    write = MESSAGES.get(code)
    if write is None or current_language() == DEFAULT_LOCALE:
        return english
    return write({key: _written(key, value) for key, value in params.items()})


def message_of(error: BaseException) -> str:
    """Return what *error* says, in the request's language (its `code` and `params`)."""
    return render(getattr(error, "code", ""), getattr(error, "params", {}), str(error))
