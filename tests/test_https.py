"""`pipkeeper serve --https`: the self-signed certificate made once and kept, its names,
and a real server answering over TLS with https in its addresses and QR codes."""

from __future__ import annotations

import http.client
import io
import ipaddress
import json
import socket
import ssl
import stat
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import segno
import uvicorn
from cryptography import x509
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID

from pipkeeper.cli import build_parser
from pipkeeper.commands import serve
from pipkeeper.tls import CERT_FILE, KEY_FILE, VALID_DAYS, Names, ensure_certificate, machine_names
from tests.server import Server

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
LAN = machine_names("Laptop", ["192.168.1.5"])


def ips(*addresses: str) -> frozenset[ipaddress.IPv4Address | ipaddress.IPv6Address]:
    return frozenset(ipaddress.ip_address(a) for a in addresses)


def test_the_names_are_localhost_the_machine_and_its_lan_addresses() -> None:
    lan = machine_names("Laptop", ["192.168.1.5"])
    assert lan.dns == {"localhost", "laptop", "laptop.local"}
    assert lan.ips == ips("127.0.0.1", "::1", "192.168.1.5")
    assert machine_names("tàbla", []) == Names(frozenset({"localhost"}), ips("127.0.0.1", "::1"))
    assert machine_names("pi.local", ["10.0.0.2", "192.168.1.5"]).dns == {"localhost",
                                                                          "pi.local"}


def test_the_certificate_covers_its_names_and_serves_only_tls(tmp_path: Path) -> None:
    made = ensure_certificate(tmp_path, LAN, NOW)
    cert = x509.load_pem_x509_certificate((tmp_path / CERT_FILE).read_bytes())
    san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert set(san.get_values_for_type(x509.DNSName)) == {"localhost", "laptop", "laptop.local"}
    assert set(san.get_values_for_type(x509.IPAddress)) == ips("127.0.0.1", "::1",
                                                               "192.168.1.5")
    assert made.names == LAN and made.made
    assert cert.not_valid_before_utc == NOW - timedelta(days=1)
    assert cert.not_valid_after_utc - cert.not_valid_before_utc == timedelta(days=VALID_DAYS)
    assert made.not_after == cert.not_valid_after_utc
    assert cert.extensions.get_extension_for_class(x509.BasicConstraints).value.ca is False
    usage = cert.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value
    assert list(usage) == [ExtendedKeyUsageOID.SERVER_AUTH]
    assert cert.issuer == cert.subject  # self-signed
    assert len(made.fingerprint.split(":")) == 32


def test_the_certificate_is_made_once_and_reused(tmp_path: Path) -> None:
    first = ensure_certificate(tmp_path, LAN, NOW)
    files = {name: (tmp_path / name).read_bytes() for name in (CERT_FILE, KEY_FILE)}
    again = ensure_certificate(tmp_path, machine_names("laptop", ["192.168.1.5"]),
                               NOW + timedelta(days=300))
    assert (again.made, again.fingerprint) == (False, first.fingerprint)
    assert {name: (tmp_path / name).read_bytes() for name in files} == files
    assert stat.S_IMODE((tmp_path / KEY_FILE).stat().st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(files)


def _other_key(folder: Path) -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    (folder / KEY_FILE).write_bytes(key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption()))


@pytest.mark.parametrize(("why", "names", "later", "spoil"), [
    ("a new LAN address", machine_names("laptop", ["10.0.0.9"]), 0, None),
    ("a renamed machine", machine_names("desk", ["192.168.1.5"]), 0, None),
    ("29 days left", LAN, VALID_DAYS - 30, None),
    ("a key not its own", LAN, 0, _other_key),
    ("a damaged certificate", LAN, 0, lambda f: (f / CERT_FILE).write_text("not PEM")),
    ("a missing key", LAN, 0, lambda f: (f / KEY_FILE).unlink()),
])
def test_the_certificate_is_made_anew_when_it_no_longer_fits(
        tmp_path: Path, why: str, names: Names, later: int, spoil: Any) -> None:
    first = ensure_certificate(tmp_path, LAN, NOW)
    (tmp_path / KEY_FILE).chmod(0o644)
    if spoil:
        spoil(tmp_path)
    again = ensure_certificate(tmp_path, names, NOW + timedelta(days=later))
    assert again.made and again.fingerprint != first.fingerprint, why
    assert again.names == names
    assert stat.S_IMODE((tmp_path / KEY_FILE).stat().st_mode) == 0o600
    assert not ensure_certificate(tmp_path, names, NOW + timedelta(days=later)).made


def test_the_lan_banner_in_https_prints_and_encodes_an_https_url() -> None:
    out = io.StringIO()
    url = serve.print_lan_banner("192.168.1.5", 8443, out, "https")
    assert url == "https://192.168.1.5:8443/"
    expected = io.StringIO()
    segno.make(url, error="m").terminal(out=expected, compact=True)
    assert out.getvalue() == f"On this network, open {url} or scan:\n" + expected.getvalue()


def test_https_is_off_unless_asked() -> None:
    assert build_parser().parse_args(["serve"]).https is False
    assert build_parser().parse_args(["serve", "--https"]).https is True


def test_serving_https_on_the_lan_says_https_and_hands_uvicorn_the_certificate(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import web.db

    served: list[uvicorn.Config] = []
    monkeypatch.setattr(web.db, "default_database", lambda: tmp_path / "pipkeeper.sqlite3")
    monkeypatch.setattr(serve, "lan_addresses", lambda: ["192.168.1.5"])
    listen = serve.listen
    monkeypatch.setattr(serve, "listen", lambda host, port: listen("127.0.0.1", 0))

    def run(self: uvicorn.Server, sockets: list[socket.socket]) -> None:
        served.append(self.config)
        sockets[0].close()

    monkeypatch.setattr(uvicorn.Server, "run", run)
    args = build_parser().parse_args(["serve", "--https", "--host", "0.0.0.0",
                                      "--db", str(tmp_path / "games.sqlite3")])
    out = io.StringIO()
    assert serve.run(args, out) == 0
    (config,) = served
    port = config.app.flask.config["LAN_URL"].split(":")[-1].rstrip("/")
    text = out.getvalue()
    assert f"Open https://127.0.0.1:{port}/ on this machine." in text
    assert f"On this network, open https://192.168.1.5:{port}/ or scan:" in text
    assert config.app.flask.config["LAN_URL"] == f"https://192.168.1.5:{port}/"
    assert (config.ssl_certfile, config.ssl_keyfile) == (tmp_path / CERT_FILE,
                                                         tmp_path / KEY_FILE)
    assert "HTTPS certificate (made now, self-signed, valid until " in text
    assert "192.168.1.5" in str(x509.load_pem_x509_certificate(
        (tmp_path / CERT_FILE).read_bytes()).extensions)


# --- a real server ---------------------------------------------------------------


@pytest.fixture
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user data directory of the served child processes (a temporary folder)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path / "data" / "pipkeeper"


@pytest.fixture
def server(tmp_path: Path, data_home: Path) -> Iterator[Server]:
    running = Server(tmp_path / "served.sqlite3")
    yield running
    if running.process is not None and running.process.poll() is None:
        running.kill()


def https_call(port: int, host: str, context: ssl.SSLContext, method: str, path: str,
               body: Any = None, headers: dict[str, str] | None = None
               ) -> tuple[int, http.client.HTTPResponse, bytes]:
    """Send one request over TLS; return the status, the response and its body."""
    conn = http.client.HTTPSConnection(host, port, context=context, timeout=10)
    sent = {"Content-Type": "application/json"} if body is not None else {}
    conn.request(method, path, json.dumps(body) if body is not None else None,
                 {**sent, **(headers or {})})
    response = conn.getresponse()
    data = response.read()
    conn.close()
    return response.status, response, data


def test_a_served_https_game_answers_over_tls_trusting_only_its_certificate(
        server: Server, data_home: Path) -> None:
    port = server.start("--https")
    context = ssl.create_default_context(cafile=str(data_home / CERT_FILE))
    status, _, page = https_call(port, "localhost", context, "GET", "/")
    assert status == 200 and b"<!doctype html>" in page
    origin = {"Origin": f"https://127.0.0.1:{port}"}
    status, response, body = https_call(port, "127.0.0.1", context, "POST", "/api/games",
                                        {"players": ["Ann"]}, origin)
    assert status == 201
    cookie = "; ".join(h.split(";", 1)[0] for h in response.headers.get_all("Set-Cookie"))
    assert all("Secure" in h for h in response.headers.get_all("Set-Cookie"))
    state = json.loads(body)
    status, qr, _ = https_call(port, "127.0.0.1", context, "GET",
                               f"/api/games/{state['id']}/qr.svg", headers={"Cookie": cookie})
    assert status == 200
    assert qr.getheader("X-Join-URL") == f"https://127.0.0.1:{port}/join/{state['join_code']}"
    with socket.create_connection(("127.0.0.1", port), timeout=5) as raw, pytest.raises(
            ssl.SSLCertVerificationError):
        ssl.create_default_context().wrap_socket(raw, server_hostname="localhost")
    printed = server.stop()
    assert f"Open https://127.0.0.1:{port}/ on this machine." in printed
    assert "HTTPS certificate (made now, self-signed, valid until " in printed
    assert str(data_home / CERT_FILE) in printed
    fingerprint = printed.split("SHA-256 fingerprint ")[1].split()[0]

    server.start("--https")
    again = server.stop()
    assert "HTTPS certificate (kept from before" in again
    assert f"SHA-256 fingerprint {fingerprint}" in again


def test_plain_http_is_still_the_default(server: Server, data_home: Path) -> None:
    port = server.start()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    conn.request("GET", "/")
    assert conn.getresponse().status == 200
    conn.close()
    printed = server.stop()
    assert f"Open http://127.0.0.1:{port}/ on this machine." in printed
    assert "HTTPS" not in printed and not data_home.joinpath(CERT_FILE).exists()
