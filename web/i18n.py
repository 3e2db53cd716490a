"""Languages of the web pages: the locale chosen per request, and what templates need.

The locale comes from the remembered cookie first, then the browser's
Accept-Language, then English. Hebrew is written right to left.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask, request
from flask_babel import Babel, LazyString, get_locale, get_translations, gettext
from flask_babel import lazy_gettext as _l

LANG_COOKIE = "pipkeeper_lang"
DEFAULT_LOCALE = "en"
LANGUAGES: dict[str, str] = {
    "en": "English",
    "gd": "Gàidhlig",
    "he": "עברית",
    "tr": "Türkçe",
    "th": "ไทย",
}
RTL_LANGUAGES = frozenset({"he"})
TRANSLATIONS = Path(__file__).parent / "translations"

babel = Babel()


def select_locale() -> str:
    """Return the request's locale: the cookie's choice, else the best Accept-Language match."""
    chosen = request.cookies.get(LANG_COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(list(LANGUAGES)) or DEFAULT_LOCALE


def current_language() -> str:
    """Return the code of the language the page is rendered in."""
    locale = get_locale()
    code = locale.language if locale else DEFAULT_LOCALE
    return code if code in LANGUAGES else DEFAULT_LOCALE


def text_direction(code: str) -> str:
    """Return "rtl" for right-to-left languages, else "ltr"."""
    return "rtl" if code in RTL_LANGUAGES else "ltr"


def language_context() -> dict[str, Any]:
    """Return the template variable ``lang``: current code, direction and the language list."""
    code = current_language()
    return {
        "lang": {
            "code": code,
            "dir": text_direction(code),
            "languages": [
                {"code": c, "name": name, "dir": text_direction(c)} for c, name in LANGUAGES.items()
            ],
        }
    }


def init_app(app: Flask) -> None:
    """Attach Flask-Babel to *app* and give every template the ``lang`` variable."""
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT_LOCALE)
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
    babel.init_app(app, locale_selector=select_locale)
    app.context_processor(language_context)


# --- words on the scorecard ------------------------------------------------------

BOX_NAMES: dict[str, LazyString] = {
    "Aces": _l("Aces"),
    "Ones": _l("Ones"),
    "Twos": _l("Twos"),
    "Threes": _l("Threes"),
    "Fours": _l("Fours"),
    "Fives": _l("Fives"),
    "Sixes": _l("Sixes"),
    "3 of a Kind": _l("3 of a Kind"),
    "4 of a Kind": _l("4 of a Kind"),
    "Four of a Kind": _l("Four of a Kind"),
    "Full House": _l("Full House"),
    "Small Straight": _l("Small Straight"),
    "Large Straight": _l("Large Straight"),
    "Little Straight": _l("Little Straight"),
    "Big Straight": _l("Big Straight"),
    "Yahtzee": _l("Yahtzee"),
    "Yacht": _l("Yacht"),
    "Chance": _l("Chance"),
    "Choice": _l("Choice"),
    "One Pair": _l("One Pair"),
    "Two Pairs": _l("Two Pairs"),
    "Three of a Kind": _l("Three of a Kind"),
    "Yatzy": _l("Yatzy"),
    "Three Pairs": _l("Three Pairs"),
    "Five of a Kind": _l("Five of a Kind"),
    "Full Straight": _l("Full Straight"),
    "Villa": _l("Villa"),
    "Tower": _l("Tower"),
    "Maxi Yatzy": _l("Maxi Yatzy"),
}
"""Box names by the English name of `scorekeeper.Category`."""

HOW_TO_SCORE: dict[tuple[str, str], LazyString] = {
    ("yahtzee", "three_of_a_kind"): _l("Add total of all dice"),
    ("yahtzee", "four_of_a_kind"): _l("Add total of all dice"),
    ("yahtzee", "full_house"): _l("Score 25"),
    ("yahtzee", "small_straight"): _l("Sequence of 4: score 30"),
    ("yahtzee", "large_straight"): _l("Sequence of 5: score 40"),
    ("yahtzee", "yahtzee"): _l("5 of a kind: score 50"),
    ("yahtzee", "chance"): _l("Score total of all 5 dice"),
    ("yacht", "full_house"): _l("Three and two alike: add all dice"),
    ("yacht", "four_of_a_kind"): _l("Four alike: add all five dice"),
    ("yacht", "little_straight"): _l("1-2-3-4-5: score 30"),
    ("yacht", "big_straight"): _l("2-3-4-5-6: score 30"),
    ("yacht", "choice"): _l("Score total of all 5 dice"),
    ("yacht", "yacht"): _l("5 of a kind: score 50"),
    ("yatzy", "one_pair"): _l("Two alike: add those two dice"),
    ("yatzy", "two_pairs"): _l("Two different pairs: add those four dice"),
    ("yatzy", "three_of_a_kind"): _l("Three alike: add those three dice"),
    ("yatzy", "four_of_a_kind"): _l("Four alike: add those four dice"),
    ("yatzy", "small_straight"): _l("1-2-3-4-5: score 15"),
    ("yatzy", "large_straight"): _l("2-3-4-5-6: score 20"),
    ("yatzy", "full_house"): _l("Three and two alike: add all dice"),
    ("yatzy", "chance"): _l("Score total of all 5 dice"),
    ("yatzy", "yatzy"): _l("5 of a kind: score 50"),
    ("maxi-yatzy", "one_pair"): _l("Two alike: add those two dice"),
    ("maxi-yatzy", "two_pairs"): _l("Two different pairs: add those four dice"),
    ("maxi-yatzy", "three_pairs"): _l("Three different pairs: add all six dice"),
    ("maxi-yatzy", "three_of_a_kind"): _l("Three alike: add those three dice"),
    ("maxi-yatzy", "four_of_a_kind"): _l("Four alike: add those four dice"),
    ("maxi-yatzy", "five_of_a_kind"): _l("Five alike: add those five dice"),
    ("maxi-yatzy", "small_straight"): _l("1-2-3-4-5: score 15"),
    ("maxi-yatzy", "large_straight"): _l("2-3-4-5-6: score 20"),
    ("maxi-yatzy", "full_straight"): _l("1-2-3-4-5-6: score 21"),
    ("maxi-yatzy", "full_house"): _l("Three and two alike: add those five dice"),
    ("maxi-yatzy", "villa"): _l("Two sets of three alike: add all six dice"),
    ("maxi-yatzy", "tower"): _l("Four and two alike: add all six dice"),
    ("maxi-yatzy", "chance"): _l("Score total of all 6 dice"),
    ("maxi-yatzy", "maxi_yatzy"): _l("6 of a kind: score 100"),
}
"""The pad's "how to score" column for the lower boxes, by (game, slug)."""

TOTAL_LABELS: dict[str, LazyString] = {
    "Total score": _l("Total score"),
    "Bonus": _l("Bonus"),
    "Total of upper section": _l("Total of upper section"),
    "Yahtzee bonus": _l("Yahtzee bonus"),
    "Total of lower section": _l("Total of lower section"),
    "Grand total": _l("Grand total"),
    "Sum": _l("Sum"),
    "Total": _l("Total"),
}
"""The totals' labels by the English name the pad prints (`scorekeeper.layout.printed_name`)."""

TOTAL_HOW_TO: dict[tuple[str, str], LazyString] = {
    ("yahtzee", "upper_bonus"): _l("Score 35 if the total score is 63 or over"),
    ("yahtzee", "yahtzee_bonus"): _l("✓ for each bonus, score 100 per ✓"),
    ("yatzy", "upper_bonus"): _l("Score 50 if the sum is 63 or over"),
    ("maxi-yatzy", "upper_bonus"): _l("Score 100 if the sum is 84 or over"),
}
"""The pad's "how to score" column for the totals, by (game, total key)."""

SECTION_NAMES: dict[str, LazyString] = {
    "upper": _l("Upper section"),
    "lower": _l("Lower section"),
}

GAME_NAMES: dict[str, LazyString] = {
    "yahtzee": _l("Yahtzee"), "yacht": _l("Yacht"), "yatzy": _l("Yatzy"),
    "maxi-yatzy": _l("Maxi Yatzy"),
}
VARIANT_NAMES: dict[str, LazyString] = {
    "free-joker": _l("free-choice Joker"),
    "fh5": _l("five alike is a full house too"),
    "tp4": _l("four alike is two pairs too"),
    "upper-first": _l("upper section first"),
    "in-order": _l("boxes in order"),
}


def box_name(english: str) -> str:
    """Return the box called *english* (a `Category.name`) in the page's language."""
    name = BOX_NAMES.get(english)
    return str(name) if name is not None else english


def how_to_score(game: str, slug: str, face: int | None) -> str:
    """Return the "how to score" text of box *slug* of *game* in the page's language."""
    if face is not None:
        return str(gettext("Count and add only {face}s")).replace("{face}", str(face))
    text = HOW_TO_SCORE.get((game, slug))
    return str(text) if text is not None else ""


def ruleset_label(name: str) -> str:
    """Return a rule-set name such as ``yahtzee+free-joker`` in words of the page's language."""
    base, *variants = name.split("+")
    parts = [str(GAME_NAMES.get(base, base))]
    parts += [str(VARIANT_NAMES.get(v, v)) for v in variants]
    return ", ".join(parts)


# --- words the scripts show ------------------------------------------------------
# Placeholders are {name} style, filled in by static/js/i18n.js. A string that names the
# dice count has a twin, its key ending in "_six", for games of six dice (Maxi Yatzy).

JS_STRINGS: dict[str, LazyString] = {
    "col_box": _l("Box"),
    "col_how": _l("How to score"),
    "now_playing": _l("playing now"),
    "col_score": _l("Score"),
    "col_check": _l("Check"),
    "turn_of": _l("{name}'s turn"),
    "round": _l("Round {turn} of {turns}"),
    "roll_of": _l("Roll {roll} of {max}"),
    "no_roll_yet": _l("No roll yet: throw all five dice."),
    "no_roll_yet_six": _l("No roll yet: throw all six dice."),
    "saved_rolls": _l("Saved rolls"),
    "saved_rolls_n": _l("Saved rolls: {n}"),
    "record_roll": _l("Record roll {n}"),
    "correct_dice": _l("Correct this roll"),
    "correct_first_roll": _l("Correct {name}'s roll"),
    "must_score": _l("That was the last roll: choose a box to score."),
    "keep": _l("Keep"),
    "kept": _l("Kept"),
    "die": _l("Die {n}: {value}"),
    "die_unknown": _l("Die {n}: not set"),
    "keep_die": _l("Keep die {n}"),
    "invalid_dice": _l("Enter five dice, each 1 to 6, for example 6 6 4 6 6."),
    "invalid_dice_six": _l("Enter six dice, each 1 to 6, for example 6 6 4 6 6 1."),
    "set_all_dice": _l("Set all five dice first."),
    "set_all_dice_six": _l("Set all six dice first."),
    "suggestions_none": _l("Record a roll to see which boxes it can fill."),
    "zero": _l("scores 0"),
    "cross_out": _l("Cross out a box instead (scores 0): {n}"),
    "bonus": _l("+{bonus} Yahtzee bonus"),
    "score_in": _l("Score {points} in {box}"),
    "joker_own_upper": _l(
        "Joker rule: the upper box of this face is open, so the Yahtzee must be scored there."
    ),
    "joker_any_lower": _l(
        "Joker rule: the upper box of this face is filled, so any open lower box may be used, "
        "at its full value."
    ),
    "joker_upper_zero": _l(
        "Joker rule: every lower box is filled, so a zero goes in an open upper box."
    ),
    "joker_free": _l("Free-choice Joker: any open box may be used; lower boxes score in full."),
    "scored": _l("{name} scored {points} in {box}."),
    "rolled": _l("Roll {n} recorded: {dice}."),
    "corrected": _l("Dice corrected: {dice}."),
    "undone": _l("The last action was undone."),
    "stale": _l("The game was changed on another device. This is the current state."),
    "network": _l("Could not reach the scorekeeper. Check the connection and try again."),
    "reading_photo": _l("Reading the photo…"),
    "low_confidence": _l("Check the highlighted dice: the camera was not sure of them."),
    "need_thrown": _l("Dice found: {found}; dice thrown: {thrown}. Set the dice with the buttons."),
    "photo_kept": _l("Die {n}: {value}, kept"),
    "photo_kept_note": _l("The kept dice keep their values."),
    "photo_doubtful": _l("Not counted: maybe a {value}"),
    "photo_doubtful_note": _l("Dotted boxes are not counted: the camera doubts them."),
    "pick_value": _l("Value of die {n}"),
    "score_unrecorded": _l(
        "The dice on screen are not recorded yet: record them (or correct the roll), "
        "then choose a box."
    ),
    "photo_alt": _l("Photo of the dice"),
    "photo_unavailable": _l(
        "Reading photos is not available on this server. Enter the dice with the buttons."
    ),
    "photo_too_big": _l("That photo is too large. Try a smaller one."),
    "webcam_error": _l("The webcam could not be opened."),
    "live_looking": _l("Looking for the dice…"),
    "live_count": _l("Dice in view: {n} of 5."),
    "live_count_six": _l("Dice in view: {n} of 6."),
    "live_too_many": _l("Dice in view: {n}. A roll has five: move the others out of view."),
    "live_too_many_six": _l("Dice in view: {n}. A roll has six: move the others out of view."),
    "live_unclear": _l("Too unclear to read: {n}."),
    "live_moving": _l("Waiting for the dice to settle…"),
    "live_waiting": _l("Waiting for the next throw."),
    "live_propose": _l("Dice settled: {dice}. Recorded in a moment unless they move."),
    "live_propose_kept": _l(
        "Dice settled: {dice}, kept {kept}. Recorded in a moment unless they move."
    ),
    "live_paused": _l("Hands-free stopped while the page was hidden; the camera is off."),
    "first_roll": _l("Who starts? {name}, roll all five dice."),
    "first_roll_six": _l("Who starts? {name}, roll all six dice."),
    "first_rule": _l(
        "Everyone rolls all five dice; the highest total starts. Players tied for the highest "
        "total roll again."
    ),
    "first_rule_six": _l(
        "Everyone rolls all six dice; the highest total starts. Players tied for the highest "
        "total roll again."
    ),
    "first_rolled_dice": _l("rolled {dice}, total {total}"),
    "first_tie": _l("{names} tied with {total}: they roll again."),
    "first_rolled": _l("{name} rolled {dice}, total {total}."),
    "first_starts": _l("{name} starts with {total}."),
    "record_first_roll": _l("Record {name}'s roll"),
    "game_over": _l("Game over"),
    "winner": _l("Winner: {names}"),
    "winners": _l("Tie! Winners: {names}"),
    "play_again": _l("Play again: Game #{n}"),
    "game_number": _l("Game #{n}"),
    "series_totals": _l("Series totals"),
    "series_over": _l("The six games of this pad are played."),
    "live_lost": _l("Live updates interrupted; reconnecting…"),
    "live_ok": _l("Live"),
    "and": _l(" and "),
    "player_n": _l("Player {n}"),
    "remove_player": _l("Remove player {n}"),
    "move_player_up": _l("Move player {n} up"),
    "move_player_down": _l("Move player {n} down"),
    "too_many_players": _l("At most 8 players."),
    "name_needed": _l("Every player needs a name."),
    "no_games": _l("No games yet."),
    "older_games": _l("Older games"),
    "game_summary": _l("{rules}, game #{n}, round {turn}"),
    "finished_summary": _l("{rules}, game #{n}: {scores}"),
    "started": _l("Last played {when}"),
    "audit_ok": _l("No problems found: this column adds up."),
    "audit_carried_total": _l(
        "This total should be {expected} ({sum}), not {written}: it carries a wrong number "
        "from above."
    ),
    "audit_impossible_value": _l("{written} cannot be scored in this box."),
    "audit_wrong_total": _l("This total should be {expected} ({sum}), not {written}."),
    "audit_wrong_bonus": _l("The bonus should be {expected}, not {written}."),
    "audit_bonus_without_yahtzee": _l(
        "A Yahtzee bonus needs 50 in the Yahtzee box (expected {expected})."
    ),
    "audit_too_many_checks": _l("Too many Yahtzee bonus checks: at most {expected}."),
    "audit_blank_box": _l("This box is empty: every box is filled by the end of a game."),
    "audit_other": _l("Check this row: expected {expected}."),
    "pad_photo_reading": _l("Reading the pad…"),
    "pad_photo_found": _l("{pad}: {n} columns read."),
    "pad_photo_ok": _l("No problems found."),
    "pad_photo_blank": _l("blank"),
    "pad_photo_unsure": _l("unsure: read as {value} ({percent}%)"),
    "keep_option": _l("Keep {dice}, reroll {n}"),
    "reroll_all": _l("Reroll all five dice"),
    "reroll_all_six": _l("Reroll all six dice"),
    "keep_all": _l("Keep all five dice, reroll none"),
    "keep_all_six": _l("Keep all six dice, reroll none"),
    "hint_best": _l("Best: {choice}"),
    "hint_expected": _l("Expected final score: {points}"),
    "hint_keeps": _l("Best keeps and what each costs:"),
    "hint_cost": _l("Expected points lost against the best choice"),
    "hint_hold": _l("Hint: keep this die"),
    "hint_loading": _l("Working out the best play…"),
    "hint_unavailable": _l("No hint right now."),
    "col_round": _l("Round"),
    "col_roll": _l("Roll"),
    "col_dice": _l("Dice"),
    "col_done": _l("What was done"),
    "col_best": _l("Best choice"),
    "col_lost": _l("Points lost"),
    "review_expected": _l("Optimal play scores {points} on average."),
    "review_loading": _l("Reviewing the game…"),
    "review_link": _l("Review"),
    "delete_game": _l("Delete"),
    "delete_confirm": _l("Delete this game on every device? Its scores cannot be brought back."),
    "deleted": _l("The game was deleted."),
    "not_joined": _l("Not joined: type its join code to open it"),
    "device_unknown": _l("Unknown browser"),
    "device_this": _l("This device"),
    "device_owner": _l("Started the game"),
    "device_joined": _l("Joined {when}"),
    "remove_device": _l("Remove"),
    "remove_device_named": _l("Remove {name}"),
    "device_removed": _l("{name} was removed from the game."),
    "fix_open": _l("Correct {name}'s {box} ({points})"),
    "fix_title": _l("Correct {name}'s {box}"),
    "fix_was": _l("Written now: {points}, with the dice {dice}."),
    "fix_dice": _l("The dice that turn ended with"),
    "fix_die": _l("Die {n}"),
    "fix_checking": _l("Checking…"),
    "fix_unchanged": _l("Change a die or the box to see the new points."),
    "fix_preview": _l("{box}: {before} → {after}."),
    "fix_preview_moved": _l("{box}: {before} → empty; {to}: {after}."),
    "fix_total": _l("Total: {before} → {after}."),
    "fix_confirm": _l("Correct"),
    "fix_cancel": _l("Cancel"),
    "fix_done": _l("{name}'s {box} corrected: total {total}."),
    "corrections_title": _l("Corrections"),
    "correction_entry": _l("Round {round}, {name}: {box} {before} → {after}"),
    "fix_hint": _l("Tap a filled box to correct it; the turns after it stay as they are."),
}


def _n(singular: str, plural: str) -> tuple[str, str]:
    """Mark a script string that holds a count: its English singular and plural (extracted
    as one plural message)."""
    return (singular, plural)


JS_PLURALS: dict[str, tuple[str, str]] = {
    "points": _n("{points} point", "{points} points"),
    "found_dice": _n("Found {n} die: tap a die to correct it.",
                     "Found {n} dice: tap a die to correct it."),
    "photo_thrown": _n("{n} of 5 dice thrown: photograph it, or all five.",
                       "{n} of 5 dice thrown: photograph them, or all five."),
    "photo_thrown_six": _n("{n} of 6 dice thrown: photograph it, or all six.",
                           "{n} of 6 dice thrown: photograph them, or all six."),
    "audit_problems": _n("{n} problem found.", "{n} problems found."),
    "pad_photo_unsure_cells": _n("{n} cell is unsure: check it.",
                                 "{n} cells are unsure: check them."),
    "review_total": _n("{lost} points lost in {n} choice; {optimal} of them optimal",
                       "{lost} points lost in {n} choices; {optimal} of them optimal"),
}
"""The scripts' strings with a count, by key; static/js/i18n.js `tn` picks the form."""

PLURAL_CATEGORIES: dict[str, tuple[str, ...]] = {
    "en": ("one", "other"),
    "gd": ("one", "two", "few", "other"),
    "he": ("one", "two", "other"),
    "tr": ("one", "other"),
    "th": ("other",),
}
"""Each language's plural forms, in its catalogue's order, by their Unicode (CLDR) names:
what the browser's Intl.PluralRules says of a count picks the form."""

_SAMPLE_COUNTS = {"one": 1, "two": 2, "few": 3, "other": 20}


def plural_categories() -> list[str]:
    """Return the page language's plural categories, in the order of its plural forms."""
    return list(PLURAL_CATEGORIES[current_language()])


def plural_forms(singular: str, plural: str) -> list[str]:
    """Return every plural form of a message in the page's language, in catalogue order."""
    translations = get_translations()
    return [translations.ngettext(singular, plural, _SAMPLE_COUNTS[category])
            for category in plural_categories()]


def js_strings() -> dict[str, str | list[str]]:
    """Return the scripts' strings in the page's language, for a JSON block in the page;
    a string with a count is the list of its plural forms."""
    strings: dict[str, str | list[str]] = {key: str(text) for key, text in JS_STRINGS.items()}
    return strings | {key: plural_forms(*forms) for key, forms in JS_PLURALS.items()}
