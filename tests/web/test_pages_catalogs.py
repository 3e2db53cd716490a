"""The translation catalogues: complete, placeholders kept, .mo compiled from the .po."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po

WEB = Path(__file__).resolve().parents[2] / "web"
TRANSLATIONS = WEB / "translations"
LANGUAGES = ("gd", "he", "tr", "th")
PLACEHOLDER = re.compile(r"\{\w+\}|%\(\w+\)s")


def po(lang: str) -> Catalog:
    """Return the .po catalogue of *lang*."""
    with (TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po").open("rb") as file:
        return read_po(file, locale=lang)


def extracted_ids() -> set[str]:
    """Return every message id the web package's Python and templates mark for translation."""
    method_map = [("**.py", "python"), ("**/templates/**.html", "jinja2")]
    keywords = {**DEFAULT_KEYWORDS, "_l": None}
    found = extract_from_dir(str(WEB), method_map=method_map, keywords=keywords)
    return {message if isinstance(message, str) else message[0]
            for _file, _line, message, _comments, _context in found}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_mo_is_compiled_from_the_po(lang: str) -> None:
    catalog = po(lang)
    fresh = io.BytesIO()
    write_mo(fresh, catalog)
    fresh.seek(0)
    with (TRANSLATIONS / lang / "LC_MESSAGES" / "messages.mo").open("rb") as file:
        committed = read_mo(file)
    expected = read_mo(fresh)
    messages = {m.id: m.string for m in committed if m.id}
    assert messages == {m.id: m.string for m in expected if m.id}, (
        f"web/translations/{lang}: run `.venv/bin/pybabel compile -d web/translations`"
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_is_translated_with_its_placeholders(lang: str) -> None:
    catalog = po(lang)
    ids = extracted_ids()
    missing = sorted(ids - {m.id for m in catalog if m.id})
    assert not missing, f"{lang}: not in the catalogue (run pybabel extract/update): {missing}"
    for message in catalog:
        if not message.id:
            continue
        assert message.string, f"{lang}: {message.id!r} is not translated"
        assert not message.fuzzy, f"{lang}: {message.id!r} is fuzzy"
        assert sorted(PLACEHOLDER.findall(str(message.string))) == sorted(
            PLACEHOLDER.findall(str(message.id))), f"{lang}: placeholders differ in {message.id!r}"


def test_the_totals_labels_are_the_printed_pad_names() -> None:
    from scorekeeper.layout import PRINTED_TOTALS
    from web.i18n import TOTAL_LABELS

    assert {key: label._args[0] for key, label in TOTAL_LABELS.items()} == PRINTED_TOTALS
