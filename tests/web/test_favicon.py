"""The site's icon: /favicon.ico is a real icon, and every page links it and its SVG."""

from __future__ import annotations

import struct

import pytest
from flask.testing import FlaskClient


def test_favicon_ico_is_an_icon_file(client: FlaskClient) -> None:
    response = client.get("/favicon.ico")
    assert response.status_code == 200
    assert response.mimetype == "image/vnd.microsoft.icon"
    reserved, kind, count = struct.unpack("<HHH", response.data[:6])
    assert (reserved, kind) == (0, 1) and count >= 2  # an ICO header: type 1 = icon
    sizes = {response.data[6 + 16 * i] for i in range(count)}
    assert {16, 32} <= sizes
    assert response.cache_control.max_age and response.cache_control.max_age > 86_400


@pytest.mark.parametrize("path", ["/static/favicon.svg", "/static/apple-touch-icon.png"])
def test_the_linked_icons_are_served(client: FlaskClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 200
    assert response.mimetype in {"image/svg+xml", "image/png"}


@pytest.mark.parametrize("path", ["/", "/pad", "/no-such-page"])
def test_pages_link_the_icons(client: FlaskClient, path: str) -> None:
    html = client.get(path).get_data(as_text=True)
    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in html
    assert '<link rel="icon" href="/favicon.ico"' in html
