"""The pages hold no inline script, event handler or style attribute (the CSP refuses them)."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from tests.web.conftest import Api

STATIC_JS = Path(__file__).resolve().parents[2] / "web" / "static" / "js"


class Inline(HTMLParser):
    """Collects what a page would run or style inline."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        if tag == "script" and "src" not in names and names.get("type") != "application/json":
            self.found.append("inline <script>")
        if tag == "style":
            self.found.append("inline <style>")
        self.found += [f"{tag} {name}=" for name in names
                       if name.startswith("on") or name == "style"]


@pytest.mark.parametrize("page", ["/", "/games/{id}", "/games/{id}/board", "/pad"])
def test_pages_have_nothing_inline(client: FlaskClient, api: Api, page: str) -> None:
    game = api.create()["id"]
    response = client.get(page.format(id=game))
    assert response.status_code == 200
    parser = Inline()
    parser.feed(response.get_data(as_text=True))
    assert parser.found == []
    assert "script-src" not in response.headers["Content-Security-Policy"]  # default-src rules


def test_scripts_set_styles_through_the_cssom_only() -> None:
    for path in STATIC_JS.glob("*.js"):
        text = path.read_text(encoding="utf-8")
        assert 'setAttribute("style"' not in text and "innerHTML" not in text, path.name
    assert 'node.style.cssText = value' in (STATIC_JS / "dom.js").read_text(encoding="utf-8")
