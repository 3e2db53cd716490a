"""The `pipkeeper` command: parses arguments and hands them to a sub-command.

Exit codes: 0 success, 1 a check found problems or an image failed, 2 bad input.
Bad input is reported as one line on stderr, never as a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from pipkeeper import __version__
from pipkeeper.commands import advisor, rules, serve, vision

EXIT_BAD_INPUT = 2


class _Parser(argparse.ArgumentParser):
    """An argparse parser whose usage errors are one line and exit 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    """Return the parser for every sub-command."""
    parser = _Parser(prog="pipkeeper", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"pipkeeper {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for module in (rules, vision, serve, advisor):
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return 0
    try:
        return int(args.handler(args))
    except BrokenPipeError:
        # The reader (e.g. `| head`) went away: not an error of the input. Point stdout
        # at devnull so the interpreter's final flush does not complain either.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (ValueError, OSError) as error:
        # Domain errors subclass ValueError and quote the bad input.
        print(f"pipkeeper {args.command}: error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130
