"""The `pipkeeper` command: parses arguments and hands them to a sub-command.

Exit codes: 0 success, 1 a check found problems or an image failed, 2 bad input.
Bad input (the rules' RulesError, the camera's VisionError, a file that cannot
be read) is reported as one line on stderr; anything else is a bug and keeps
its traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from pipkeeper import __version__
from pipkeeper.commands import advisor, data, database, rules, serve, vision
from scorekeeper.errors import RulesError

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
    for module in (rules, vision, serve, advisor, data, database):
        module.register(subparsers)
    return parser


def _is_vision_error(error: Exception) -> bool:
    """True for the camera pipeline's own errors (vision is imported only when it was used)."""
    vision_errors = sys.modules.get("vision.errors")
    return vision_errors is not None and isinstance(error, vision_errors.VisionError)


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
    except (RulesError, OSError) as error:
        # The rules' errors quote the bad input; OSError: a file or port that cannot be used.
        print(f"pipkeeper {args.command}: error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except Exception as error:
        if not _is_vision_error(error):
            raise  # a bug: Python prints its traceback, and the exit status is 1
        print(f"pipkeeper {args.command}: error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130
