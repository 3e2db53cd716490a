"""The translation catalogues: complete, placeholders kept, plural forms right for each
language, .mo compiled from the .po."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

WEB = Path(__file__).resolve().parents[2] / "web"
TRANSLATIONS = WEB / "translations"
LANGUAGES = ("gd", "he", "tr", "th")
PLACEHOLDER = re.compile(r"\{\w+\}|%\(\w+\)s")


def po(lang: str) -> Catalog:
    """Return the .po catalogue of *lang*."""
    with (TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po").open("rb") as file:
        return read_po(file, locale=lang)


def msgid(message: Message) -> str:
    """Return a message's id, a plural message's by its singular."""
    return message.id if isinstance(message.id, str) else message.id[0]


def forms(message: Message) -> list[str]:
    """Return a message's translation, each plural form of a plural message."""
    string = message.string
    return [string] if isinstance(string, str) else list(string)


def extracted_ids() -> set[str]:
    """Return every message id the web package's Python and templates mark for translation
    (a plural message by its singular)."""
    method_map = [("**.py", "python"), ("**/templates/**.html", "jinja2")]
    keywords = {**DEFAULT_KEYWORDS, "_l": None, "_n": (1, 2)}
    found = extract_from_dir(str(WEB), method_map=method_map, keywords=keywords)
    return {message if isinstance(message, str) else message[0]
            for _file, _line, message, _comments, _context in found}


def key(value: object) -> object:
    """Return a message id or string as a dict key (a plural one is a list)."""
    return tuple(value) if isinstance(value, list | tuple) else value


@pytest.mark.parametrize("lang", LANGUAGES)
def test_mo_is_compiled_from_the_po(lang: str) -> None:
    catalog = po(lang)
    fresh = io.BytesIO()
    write_mo(fresh, catalog)
    fresh.seek(0)
    with (TRANSLATIONS / lang / "LC_MESSAGES" / "messages.mo").open("rb") as file:
        committed = read_mo(file)
    expected = read_mo(fresh)
    messages = {key(m.id): key(m.string) for m in committed if m.id}
    assert messages == {key(m.id): key(m.string) for m in expected if m.id}, (
        f"web/translations/{lang}: run `.venv/bin/pybabel compile -d web/translations`"
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_is_translated_with_its_placeholders(lang: str) -> None:
    catalog = po(lang)
    ids = extracted_ids()
    missing = sorted(ids - {msgid(m) for m in catalog if m.id})
    assert not missing, f"{lang}: not in the catalogue (run pybabel extract/update): {missing}"
    for message in catalog:
        if not message.id:
            continue
        assert all(forms(message)), f"{lang}: {message.id!r} is not translated"
        assert not message.fuzzy, f"{lang}: {message.id!r} is fuzzy"
        wanted = sorted(PLACEHOLDER.findall(str(message.id if msgid(message) == message.id
                                                 else message.id[1])))
        for form in forms(message):
            assert sorted(PLACEHOLDER.findall(form)) == wanted, (
                f"{lang}: placeholders differ in {message.id!r}: {form!r}")


def test_the_totals_labels_are_the_printed_pad_names() -> None:
    from scorekeeper import ruleset
    from scorekeeper.layout import printed_pad
    from scorekeeper.rulesets import BASE_GAMES
    from web.i18n import TOTAL_LABELS

    assert all(label._args[0] == name for name, label in TOTAL_LABELS.items())
    printed = {row.name for game in BASE_GAMES for row in printed_pad(ruleset(game))
               if row.kind == "total"}
    assert printed == set(TOTAL_LABELS)


PLURAL_FORMS = {"gd": 4, "he": 3, "tr": 2, "th": 1}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_plural_messages_have_every_form_of_their_language(lang: str) -> None:
    catalog = po(lang)
    assert catalog.num_plurals == PLURAL_FORMS[lang]
    plurals = [m for m in catalog if m.id and m.pluralizable]
    assert len(plurals) >= 10, "server messages and script strings with counts are plural"
    for message in plurals:
        assert len(forms(message)) == PLURAL_FORMS[lang], f"{lang}: {message.id!r}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_browser_picks_the_form_the_catalogue_would(lang: str) -> None:
    """static/js/i18n.js `tn` picks a form by the count's Unicode plural category
    (Intl.PluralRules); that must be the form gettext picks for every count."""
    from web.i18n import PLURAL_CATEGORIES

    translations = Translations.load(str(TRANSLATIONS), [lang])
    categories = PLURAL_CATEGORIES[lang]
    for count in range(0, 250):
        category = Locale.parse(lang).plural_form(count)
        index = categories.index(category) if category in categories else len(categories) - 1
        assert index == translations.plural(count), (lang, count, category)


@pytest.mark.parametrize(
    ("count", "words"),
    [(1, "1 phuing"), (2, "2 phuing"), (3, "3 puingean"), (11, "11 phuing"),
     (19, "19 puingean"), (20, "20 puing"), (0, "0 puing")],
)
def test_gaelic_counts_take_their_own_forms(count: int, words: str) -> None:
    translations = Translations.load(str(TRANSLATIONS), ["gd"])
    text = translations.ngettext("{points} point", "{points} points", count)
    assert text.replace("{points}", str(count)) == words


def test_gaelic_grand_total_is_gaelic() -> None:
    translations = Translations.load(str(TRANSLATIONS), ["gd"])
    assert translations.gettext("Grand total") == "Àireamh iomlan"
