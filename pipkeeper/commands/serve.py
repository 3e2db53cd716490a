"""`pipkeeper serve`: the web app on waitress, with a QR code when it listens on the LAN."""

from __future__ import annotations

import argparse
import socket
import sys
from pathlib import Path
from typing import Any, TextIO

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_THREADS = 32  # every open event stream (a phone or tablet watching a game) holds one
ALL_INTERFACES = frozenset({"0.0.0.0", "::", ""})
# Private addresses (not broadcast ones, which connect() refuses) in each private range,
# for a LAN without a default route. Connecting a UDP socket sends no packet.
_ROUTE_PROBES = ("10.254.254.254", "172.31.254.254", "192.168.254.254")


def port_number(text: str) -> int:
    """Return *text* as a TCP port 1..65535; raise argparse.ArgumentTypeError."""
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"a port is a number 1..65535, got {text!r}")
    return int(text)


def register(subparsers: Any) -> None:
    """Add the ``serve`` sub-command to *subparsers*."""
    parser = subparsers.add_parser(
        "serve", help="serve the scorecards and the scoreboard on a local web page",
        description="Serve the web app with waitress. Listens on 127.0.0.1 unless told "
        "otherwise; --host 0.0.0.0 lets phones and tablets on the LAN join.",
    )
    parser.add_argument("--host", default=DEFAULT_HOST,
                        help=f"address to listen on (default {DEFAULT_HOST}; 0.0.0.0 for the LAN)")
    parser.add_argument("--port", type=port_number, default=DEFAULT_PORT,
                        help=f"TCP port (default {DEFAULT_PORT})")
    parser.add_argument("--db", type=Path, default=None, metavar="PATH",
                        help="SQLite database file (default: pipkeeper.sqlite3 in the user data "
                        "directory)")
    parser.add_argument("--threads", type=int, default=DEFAULT_THREADS, help=argparse.SUPPRESS)
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


def lan_address() -> str | None:
    """Return this machine's address on the LAN, or None when it has none.

    Asks the kernel which interface would reach a private address (connecting a
    UDP socket sends nothing), then falls back to the host name's address.
    """
    for target in _ROUTE_PROBES:
        address = _outgoing_address(target)
        if _usable(address):
            return address
    try:
        address = socket.gethostbyname(socket.gethostname())
    except OSError:
        return None
    return address if _usable(address) else None


def print_lan_banner(address: str, port: int, out: TextIO) -> str:
    """Print the LAN URL and its QR code (for phones to scan) to *out*; return the URL."""
    import segno

    url = f"http://{address}:{port}/"
    print(f"On this network, open {url} or scan:", file=out)
    segno.make(url, error="m").terminal(out=out, compact=True)
    return url


def run(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    """Serve until interrupted; return 0. Raises OSError when the port is taken."""
    import waitress

    from web import create_app
    from web.db import default_database

    database = Path(args.db).expanduser() if args.db else default_database()
    app = create_app({"DATABASE": str(database)})
    shown_host = "127.0.0.1" if args.host in ALL_INTERFACES else args.host
    print(f"pipkeeper: serving {database}", file=out)
    print(f"Open http://{shown_host}:{args.port}/ on this machine.", file=out)
    if args.host in ALL_INTERFACES:
        address = lan_address()
        if address:
            app.config["LAN_URL"] = print_lan_banner(address, args.port, out)
        else:
            print("No LAN address found: other devices cannot join.", file=out)
    out.flush()
    waitress.serve(app, host=args.host, port=args.port, threads=args.threads,
                   channel_timeout=60, ident="pipkeeper")
    return 0
