"""`pipkeeper serve`: the web app on uvicorn, with a QR code when it listens on the LAN.

With ``--https`` it serves TLS with a self-signed certificate (`pipkeeper.tls`),
made once and kept in the user data directory: a phone's browser gives a page
the camera only over https.

The server is uvicorn (asyncio) running `web.asgi.LiveApp`: views on a pool of
worker threads, event streams on the event loop, so hundreds of open phones and
tablets hold no thread, and a client that stalls or trickles its request holds
only a socket, and only until its deadline (`web.connection.Limits`).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from web.security import LOOPBACK_HOSTS

if TYPE_CHECKING:
    import uvicorn
    from flask import Flask

    from pipkeeper.tls import Certificate
    from web.connection import Limits

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_THREADS = 16  # workers for ordinary requests; event streams take none
ALL_INTERFACES = frozenset({"0.0.0.0", "::", ""})
# Private addresses (not broadcast ones, which connect() refuses) in each private range,
# for a LAN without a default route. Connecting a UDP socket sends no packet.
_ROUTE_PROBES = ("10.254.254.254", "172.31.254.254", "192.168.254.254")


def port_number(text: str) -> int:
    """Return *text* as a TCP port 1..65535; raise argparse.ArgumentTypeError."""
    if not text.isascii() or not text.isdigit() or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"a port is a number 1..65535, got {text!r}")
    return int(text)


def worker_count(text: str) -> int:
    """Return *text* as a number of worker threads 1..256; raise argparse.ArgumentTypeError."""
    if not text.isascii() or not text.isdigit() or not 1 <= int(text) <= 256:
        raise argparse.ArgumentTypeError(f"threads is a number 1..256, got {text!r}")
    return int(text)


def positive_count(text: str) -> int:
    """Return *text* as a whole number >= 1; raise argparse.ArgumentTypeError."""
    if not text.isascii() or not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"a count is a whole number >= 1, got {text!r}")
    return int(text)


def register(subparsers: Any) -> None:
    """Add the ``serve`` sub-command to *subparsers*."""
    parser = subparsers.add_parser(
        "serve", help="serve the scorecards and the scoreboard on a local web page",
        description="Serve the web app with uvicorn: views on a pool of worker threads, "
        "event streams and request bodies on its event loop. Listens on 127.0.0.1 unless "
        "told otherwise; --host 0.0.0.0 lets phones and tablets on the LAN join.",
    )
    parser.add_argument("--host", default=DEFAULT_HOST,
                        help=f"address to listen on (default {DEFAULT_HOST}; 0.0.0.0 for the LAN)")
    parser.add_argument("--port", type=port_number, default=DEFAULT_PORT,
                        help=f"TCP port (default {DEFAULT_PORT})")
    parser.add_argument("--db", type=database_of, default=None, metavar="PATH|URL",
                        help="SQLite database file (default: pipkeeper.sqlite3 in the user data "
                        "directory), or a postgresql:// URL (several servers may share it)")
    parser.add_argument("--threads", type=worker_count, default=DEFAULT_THREADS,
                        help=f"worker threads for requests (default {DEFAULT_THREADS}; event "
                        "streams need none)")
    parser.add_argument("--games-per-minute", type=positive_count, default=30,
                        metavar="N", help="new games one address may start a minute "
                        "(default 30; past it 429)")
    parser.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                        help="another host name the pages may be opened by (e.g. behind a "
                        "proxy); repeatable")
    parser.add_argument("--behind-proxy", action="store_true",
                        help="trust the X-Forwarded-For and X-Forwarded-Proto headers of one "
                        "reverse proxy in front (see docs/deploy.md)")
    parser.add_argument("--https", action="store_true",
                        help="serve https with a self-signed certificate kept in the user data "
                        "directory (phones give the camera only to https pages)")
    parser.set_defaults(handler=run)


def _outgoing_address(target: str) -> str | None:
    """Return the local address a UDP packet to *target* would leave from (none is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect((target, 9))
            return str(probe.getsockname()[0])
        except OSError:  # no route there
            return None


def _usable(address: str | None) -> bool:
    return bool(address) and not str(address).startswith(("0.", "127."))


def lan_addresses() -> list[str]:
    """Return this machine's IPv4 addresses on the LAN, the likeliest first (maybe none).

    Asks the kernel which interface would reach each private range (connecting a
    UDP socket sends nothing), then adds the host name's addresses.
    """
    found = [_outgoing_address(target) for target in _ROUTE_PROBES]
    with contextlib.suppress(OSError):
        found += socket.gethostbyname_ex(socket.gethostname())[2]
    return list(dict.fromkeys(str(address) for address in found if _usable(address)))


def lan_address() -> str | None:
    """Return this machine's likeliest address on the LAN, or None when it has none."""
    addresses = lan_addresses()
    return addresses[0] if addresses else None


def print_lan_banner(address: str, port: int, out: TextIO, scheme: str = "http") -> str:
    """Print the LAN URL (*scheme* http or https) and its QR code (for phones to scan) to
    *out*; return the URL."""
    import segno

    url = f"{scheme}://{address}:{port}/"
    print(f"On this network, open {url} or scan:", file=out)
    segno.make(url, error="m").terminal(out=out, compact=True)
    return url


def served_hosts(host: str, lan: str | None, extra: list[str]) -> list[str]:
    """Return the host names requests may name: this machine's, the LAN address, *extra*."""
    names = [*LOOPBACK_HOSTS, *extra]
    if host not in ALL_INTERFACES:
        names.append(host)
    elif lan:
        hostname = socket.gethostname()
        names += [lan, hostname, f"{hostname}.local"]
    return list(dict.fromkeys(name.strip("[]").lower() for name in names if name))


def listen(host: str, port: int) -> socket.socket:
    """Return a listening socket on *host*:*port*. Raises OSError (e.g. the port is taken)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP named: asyncio sets TCP_NODELAY only on sockets that say they are TCP;
    # without it a keep-alive reply waits ~40 ms for a delayed ACK (Nagle).
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        if os.name != "nt":  # on Windows this would let two servers share the port
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(1024)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def raise_open_files_limit() -> None:
    """Let the server hold as many sockets as the system allows this process (not on Windows)."""
    try:
        import resource
    except ImportError:
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else 65536
    if soft != resource.RLIM_INFINITY and soft < wanted:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def open_app(database: str | Path, hosts: list[str], games_per_minute: int = 30,
             threads: int = DEFAULT_THREADS) -> Flask:
    """Return the app on *database* (a file or a ``postgresql://`` URL), with a connection
    for each of *threads* workers. Raises DatabaseUnusableError with one line of why not."""
    from web import create_app
    from web.storage import open_storage

    try:
        engine = open_storage(str(database))  # only to know its errors: opens nothing
    except RuntimeError as error:
        raise DatabaseUnusableError(str(error)) from None
    try:
        return create_app({"DATABASE": str(database), "SERVED_HOSTS": hosts,
                           "GAMES_PER_MINUTE": games_per_minute,
                           "DATABASE_POOL_SIZE": threads + 4})
    except engine.errors as error:
        raise DatabaseUnusableError(f"cannot use the database {engine.name}: "
                                    f"{engine.describe(error)}") from None
    except OSError as error:
        raise DatabaseUnusableError(f"cannot use the database {engine.name}: "
                                    f"{error.strerror or error}") from None


def trust_proxy(app: Flask) -> None:
    """Let *app* take the client's address and scheme from one reverse proxy's
    X-Forwarded-For and X-Forwarded-Proto headers (its own address and http otherwise)."""
    from werkzeug.middleware.proxy_fix import ProxyFix

    app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1)  # type: ignore[method-assign]


def database_of(text: str) -> str | Path:
    """Return what ``--db`` names: a ``postgresql://`` URL as it is, else a file path."""
    from web.storage import is_url

    return text if is_url(text) else Path(text).expanduser()


class DatabaseUnusableError(OSError):
    """The database file cannot be opened, read, written or migrated."""


def server_config(app: Flask, threads: int, limits: Limits | None = None,
                  certificate: Certificate | None = None) -> uvicorn.Config:
    """Return uvicorn's configuration serving *app* on *threads* workers under *limits*,
    over TLS with *certificate* when one is given."""
    import uvicorn

    from web.asgi import LiveApp
    from web.connection import Limits, guarded_protocol

    limits = limits or Limits()
    tls: dict[str, Any] = {}
    if certificate is not None:
        tls = {"ssl_certfile": certificate.cert_file, "ssl_keyfile": certificate.key_file}
    return uvicorn.Config(LiveApp(app, workers=threads, limits=limits),
                          http=guarded_protocol(limits), ws="none", loop="asyncio",
                          lifespan="off", log_level="warning", access_log=False,
                          server_header=False, timeout_keep_alive=int(limits.keep_alive_seconds),
                          timeout_graceful_shutdown=2, **tls)


def https_certificate() -> Certificate:
    """Return the certificate of this machine kept in the user data directory (made now
    when there was none or it no longer fits). Raises OSError when the directory cannot
    be written."""
    from pipkeeper.tls import ensure_certificate, machine_names
    from web.db import default_database

    names = machine_names(socket.gethostname(), lan_addresses())
    return ensure_certificate(default_database().parent, names)


def print_certificate(certificate: Certificate, out: TextIO) -> None:
    """Print where *certificate* is, whether it is new, and its fingerprint to *out*."""
    state = "made now" if certificate.made else "kept from before"
    print(f"HTTPS certificate ({state}, self-signed, valid until "
          f"{certificate.not_after:%Y-%m-%d}): {certificate.cert_file}", file=out)
    print(f"  SHA-256 fingerprint {certificate.fingerprint}", file=out)
    print("  Browsers warn about it the first time: accept it on each phone to go on.",
          file=out)


def run(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    """Serve until interrupted; return 0.

    Raises OSError when the port is taken, the database cannot be used or the
    certificate cannot be stored.
    """
    import uvicorn

    from web.db import default_database
    from web.storage import storage

    lan = lan_address() if args.host in ALL_INTERFACES else None
    database = args.db or default_database()
    app = open_app(database, served_hosts(args.host, lan, args.allow_host),
                   args.games_per_minute, args.threads)
    if args.behind_proxy:
        trust_proxy(app)
    certificate = https_certificate() if args.https else None
    scheme = "https" if certificate else "http"
    sock = listen(args.host, args.port)
    port = sock.getsockname()[1]
    raise_open_files_limit()
    shown_host = "127.0.0.1" if args.host in ALL_INTERFACES else args.host
    print(f"pipkeeper: serving {storage(app).name}", file=out)
    if certificate:
        print_certificate(certificate, out)
    print(f"Open {scheme}://{shown_host}:{port}/ on this machine.", file=out)
    if args.host in ALL_INTERFACES:
        if lan:
            app.config["LAN_URL"] = print_lan_banner(lan, port, out, scheme)
        else:
            print("No LAN address found: other devices cannot join.", file=out)
    out.flush()
    uvicorn.Server(server_config(app, args.threads, certificate=certificate)).run(sockets=[sock])
    return 0
