"""The pages: every page in every language, the language cookie, 404s and escaping."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from web.pages import card_layout, safe_next

# A box name that only the page's language uses, per language.
BOX_NAME = {
    "en": "Large Straight",
    "gd": "Taigh Làn",
    "he": "סטרייט גדול",
    "tr": "Büyük Düz",
    "th": "สเตรทใหญ่",
}
UI_WORD = {"en": "Check a pad", "gd": "Sgrùd cairt-sgòr", "he": "בדיקת דף ניקוד",
           "tr": "Puan kâğıdını kontrol et", "th": "ตรวจใบจดแต้ม"}
PAGES = ("/", "/games/{id}", "/games/{id}/board", "/pad")


def new_game(client: FlaskClient, players: list[str], rules: str = "yahtzee") -> dict[str, Any]:
    """Start a game through the API and return its state."""
    response = client.post("/api/games", json={"rules": rules, "players": players})
    assert response.status_code == 201, response.get_json()
    state: dict[str, Any] = response.get_json()
    return state


def page_data(html: str) -> dict[str, Any]:
    """Return the JSON block the page gives its scripts."""
    match = re.search(r'<script type="application/json" id="page-data">(.*?)</script>', html, re.S)
    assert match, "no page-data block"
    data: dict[str, Any] = json.loads(match.group(1))
    return data


@pytest.mark.parametrize("lang", list(BOX_NAME))
@pytest.mark.parametrize("page", PAGES)
def test_every_page_renders_in_every_language(client: FlaskClient, page: str, lang: str) -> None:
    game = new_game(client, ["Ann", "Ben"])
    response = client.get(page.format(id=game["id"]), headers={"Accept-Language": lang})
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert f'<html lang="{lang}" dir="{"rtl" if lang == "he" else "ltr"}">' in html
    assert BOX_NAME[lang] in html
    assert UI_WORD[lang] in html


@pytest.mark.parametrize(("header", "expected"), [
    ("he-IL,he;q=0.9,en;q=0.5", "he"),
    ("fr-FR,tr;q=0.8", "tr"),
    ("gd", "gd"),
    ("th-TH", "th"),
    ("de-DE,fr;q=0.8", "en"),
    ("", "en"),
])
def test_locale_follows_accept_language(client: FlaskClient, header: str, expected: str) -> None:
    html = client.get("/pad", headers={"Accept-Language": header}).get_data(as_text=True)
    assert f'<html lang="{expected}"' in html


def test_language_choice_is_remembered_over_accept_language(client: FlaskClient) -> None:
    response = client.get("/lang/tr?next=/pad")
    assert response.status_code == 302
    assert response.headers["Location"] == "/pad"
    assert "pipkeeper_lang=tr" in response.headers["Set-Cookie"]
    html = client.get("/", headers={"Accept-Language": "he"}).get_data(as_text=True)
    assert '<html lang="tr" dir="ltr">' in html
    assert "Yeni oyun" in html


def test_unknown_language_sets_no_cookie(client: FlaskClient) -> None:
    response = client.get("/lang/xx?next=/pad")
    assert response.status_code == 302
    assert "Set-Cookie" not in response.headers


@pytest.mark.parametrize("target", [
    "//evil.example/x", "https://evil.example/", "/\\evil.example", "javascript:alert(1)",
    "evil.example", "", "/\t/evil.example", " //evil.example", "/\n/evil.example",
])
def test_language_switch_never_redirects_off_site(client: FlaskClient, target: str) -> None:
    response = client.get("/lang/gd", query_string={"next": target})
    assert response.headers["Location"] == "/"


def test_language_switch_goes_back_to_a_same_site_referrer(client: FlaskClient) -> None:
    back = client.get("/lang/he", headers={"Referer": "http://localhost/pad?x=1"})
    assert back.headers["Location"] == "/pad?x=1"
    other = client.get("/lang/he", headers={"Referer": "http://evil.example/pad"})
    assert other.headers["Location"] == "/"


@pytest.mark.parametrize(("target", "expected"), [
    ("/games/3", "/games/3"),
    ("/pad?rules=yacht", "/pad?rules=yacht"),
    ("//evil.example", None),
    ("http://localhost/pad", None),
    (None, None),
])
def test_safe_next(target: str | None, expected: str | None) -> None:
    assert safe_next(target) == expected


@pytest.mark.parametrize("page", ["/games/999", "/games/999/board"])
def test_unknown_game_is_a_404_page(client: FlaskClient, page: str) -> None:
    response = client.get(page, headers={"Accept-Language": "gd"})
    assert response.status_code == 404
    assert response.mimetype == "text/html"
    html = response.get_data(as_text=True)
    assert "Cha deach a lorg" in html
    assert 'href="/"' in html


def test_player_names_are_escaped(client: FlaskClient) -> None:
    evil = "<script>alert('pip')</script>"
    game = new_game(client, [evil, "Ben"])
    for page in ("/games/{id}", "/games/{id}/board"):
        html = client.get(page.format(id=game["id"])).get_data(as_text=True)
        assert evil not in html
        assert "&lt;script&gt;" in html
        assert page_data(html)["state"]["players"][0] == evil


def test_page_data_carries_translated_strings_and_layouts(client: FlaskClient) -> None:
    game = new_game(client, ["Ann"], rules="yacht")
    html = client.get(f"/games/{game['id']}", headers={"Accept-Language": "he"}).get_data(
        as_text=True)
    data = page_data(html)
    labels = {row["key"]: row["label"] for row in data["layouts"]["yacht"]}
    assert labels["yacht"] == "יאכטה"
    assert labels["choice"] == "בחירה של שחקן"
    assert data["strings"]["game_over"] == "המשחק נגמר"
    assert data["state"]["rules"] == "yacht"


def test_game_page_has_csrf_token_and_photo_input(client: FlaskClient) -> None:
    game = new_game(client, ["Ann"])
    html = client.get(f"/games/{game['id']}").get_data(as_text=True)
    token = re.search(r'<meta name="csrf-token" content="([^"]+)">', html)
    assert token and len(token.group(1)) > 20
    assert 'accept="image/*" capture="environment"' in html
    board = client.get(f"/games/{game['id']}/board").get_data(as_text=True)
    assert game["join_code"] in board and "pipkeeper serve --host 0.0.0.0" in board


@pytest.mark.parametrize(("game", "boxes", "totals"), [
    ("yahtzee", 13, ["upper_subtotal", "upper_bonus", "upper_total", "yahtzee_bonus",
                     "lower_total", "upper_total", "grand_total"]),
    ("yacht", 12, ["upper_total", "lower_total", "upper_total", "grand_total"]),
])
def test_card_layout_follows_the_paper_pad(
    app: Flask, game: str, boxes: int, totals: list[str]
) -> None:
    with app.test_request_context("/", headers={"Accept-Language": "en"}):
        rows = card_layout(game)
    assert sum(row["kind"] == "box" for row in rows) == boxes
    assert [row["key"] for row in rows if row["kind"] == "total"] == totals
    assert rows[0]["how"] == "Count and add only 1s"
