"""Join codes and the QR code of the join URL."""

from __future__ import annotations

import io

import segno
from flask.testing import FlaskClient

from tests.conftest import AppFactory
from tests.web.conftest import Api
from web.store import JOIN_ALPHABET


def test_join_code_redirects_to_the_game_page(client: FlaskClient, api: Api) -> None:
    state = api.create()
    code = state["join_code"]
    assert set(code) <= set(JOIN_ALPHABET)
    for given in (code, code.lower()):
        response = client.get(f"/join/{given}")
        assert response.status_code == 302
        assert response.headers["Location"] == f"/games/{state['id']}"


def test_unknown_join_code_is_404(client: FlaskClient) -> None:
    assert client.get("/join/ZZZZZZ").status_code == 404


def test_join_codes_differ(api: Api) -> None:
    codes = {api.create([f"P{i}"])["join_code"] for i in range(30)}
    assert len(codes) == 30


def svg_of(url: str) -> bytes:
    """The SVG the server should make for *url*."""
    buffer = io.BytesIO()
    segno.make(url, error="m").save(buffer, kind="svg", scale=8, border=2, xmldecl=False,
                                    title=f"Join {url.rsplit('/', 1)[1]}")
    return buffer.getvalue()


def test_qr_code_holds_the_join_url_on_the_requested_host(make_app: AppFactory) -> None:
    client = make_app(SERVED_HOSTS=["localhost", "192.168.1.20"]).test_client()
    state = Api(client).create()
    client.get(f"/join/{state['join_code']}", base_url="http://192.168.1.20:8000")
    response = client.get(f"/api/games/{state['id']}/qr.svg",
                          base_url="http://192.168.1.20:8000")
    url = f"http://192.168.1.20:8000/join/{state['join_code']}"
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    assert response.headers["X-Join-URL"] == url
    assert response.data == svg_of(url)
    assert response.data.startswith(b"<svg")


def test_qr_code_on_localhost_uses_the_lan_url(make_app: AppFactory) -> None:
    hosts = ["localhost", "127.0.0.1", "::1", "pi.lan"]
    api = Api(make_app(LAN_URL="http://10.0.0.7:8000/", SERVED_HOSTS=hosts).test_client())
    state = api.create()
    for host in ("http://localhost:8000", "http://127.0.0.1:8000", "http://[::1]:8000",
                 "http://pi.lan:8000"):
        api.client.get(f"/join/{state['join_code']}", base_url=host)
    for host in ("http://localhost:8000", "http://127.0.0.1:8000", "http://[::1]:8000"):
        response = api.client.get(f"/api/games/{state['id']}/qr.svg", base_url=host)
        assert response.headers["X-Join-URL"] == f"http://10.0.0.7:8000/join/{state['join_code']}"
    response = api.client.get(f"/api/games/{state['id']}/qr.svg", base_url="http://pi.lan:8000")
    assert response.headers["X-Join-URL"] == f"http://pi.lan:8000/join/{state['join_code']}"


def test_a_board_on_a_loopback_only_server_says_how_to_let_phones_join(
    make_app: AppFactory,
) -> None:
    api = Api(make_app().test_client())
    state = api.create()
    page = api.client.get(f"/games/{state['id']}/board").get_data(as_text=True)
    assert "qr.svg" not in page
    assert "phones cannot open it" in page and "pipkeeper serve --host 0.0.0.0" in page
    assert state["join_code"] in page  # still typed on the home page of the same server


def test_a_board_served_on_the_lan_shows_its_qr_code(make_app: AppFactory) -> None:
    api = Api(make_app(LAN_URL="http://10.0.0.7:8000/").test_client())
    state = api.create()
    page = api.client.get(f"/games/{state['id']}/board").get_data(as_text=True)
    assert f"/api/games/{state['id']}/qr.svg" in page and "phones cannot open it" not in page
