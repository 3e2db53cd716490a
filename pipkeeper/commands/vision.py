"""Sub-commands for vision (registered by pipkeeper.cli): ``pipkeeper read IMAGE...``."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

EXIT_IMAGE_FAILED = 1


def register(subparsers: Any) -> None:
    """Add this module's sub-commands to *subparsers*."""
    parser = subparsers.add_parser(
        "read", help="read the dice in photos",
        description="Read the dice in each photo (the model is loaded once for all).")
    parser.add_argument("images", nargs="+", metavar="IMAGE", help="photo files")
    parser.add_argument("--json", action="store_true",
                        help="one JSON object per image and line on stdout")
    parser.add_argument("--rules", metavar="NAME",
                        help="also show what the dice score under these rules, e.g. yahtzee "
                             "(five dice; six in maxi-yatzy)")
    parser.add_argument("--expect", metavar="N", type=_dice_count,
                        help="N dice were thrown: count the N most likely dice and mark "
                             "the rest doubtful")
    parser.add_argument("--annotate", metavar="OUT_DIR", type=Path,
                        help="write each photo with boxes and values drawn into OUT_DIR")
    parser.set_defaults(handler=read_command)


def read_command(args: argparse.Namespace) -> int:
    """Read every image named in *args*; return 0, or 1 when any image failed."""
    from vision.detect import default_detector
    from vision.faces import default_reader

    rules = _ruleset(args.rules) if args.rules else None
    detector, reader = default_detector(), default_reader()
    failed = False
    for name in args.images:
        record = _read_one(name, detector, reader, args.annotate, args.expect)
        failed = failed or "error" in record
        if args.json:
            print(json.dumps(record), flush=True)
        else:
            print(_describe(record, rules), flush=True)
    return EXIT_IMAGE_FAILED if failed else 0


def _dice_count(text: str) -> int:
    """Return the --expect count. Raises argparse.ArgumentTypeError unless it is 0 or more."""
    try:
        count = int(text)
    except ValueError:
        count = -1
    if count < 0:
        raise argparse.ArgumentTypeError(f"expected a number of dice (0 or more), not {text!r}")
    return count


def _read_one(name: str, detector: Any, reader: Any, annotate: Path | None,
              expect: int | None = None) -> dict[str, Any]:
    """Return the JSON record of one image: the reading, or the error that stopped it."""
    from vision.annotate import write_annotated
    from vision.image import ImageError, load
    from vision.pipeline import read_image

    started = time.perf_counter()
    try:
        image = load(name)
        reading = read_image(image, detector, reader, expect=expect)
    except (ImageError, OSError) as error:
        return {"image": name, "error": str(error)}
    record = {"image": name, **reading.to_dict(),
              "ms": round(1000 * (time.perf_counter() - started), 1)}
    if annotate is not None:
        write_annotated(image, reading, annotate / (Path(name).stem + "_read.jpg"))
    return record


def _ruleset(name: str) -> Any:
    """Return the named rule set. Raises ValueError for an unknown name."""
    from scorekeeper.rulesets import ruleset

    return ruleset(name)


def _describe(record: dict[str, Any], rules: Any) -> str:
    """Return one human-readable line for an image record."""
    if "error" in record:
        return f"{record['image']}: error: {record['error']}"
    values = [d["value"] for d in record["dice"] if not d["doubtful"]]
    doubtful = [d["value"] for d in record["dice"] if d["doubtful"]]
    count = f"{len(values)} {'die' if len(values) == 1 else 'dice'}"
    line = f"{record['image']}: {' '.join(map(str, values))} ({count})" if values else \
        f"{record['image']}: no dice"
    check = [d["value"] for d in record["dice"] if d["check"] and not d["doubtful"]]
    if check:
        line += f"; check: {' '.join(map(str, check))}"
    if doubtful:
        line += f"; doubtful: {' '.join(map(str, doubtful))}"
    if rules is None:
        return line
    if len(values) != rules.dice_count:
        return f"{line}; need {rules.dice_count} dice to score"
    from scorekeeper.dice import Dice

    dice = Dice.of(values, rules.dice_count)
    scores = ", ".join(f"{c.slug} {rules.score(c.slug, dice)}" for c in rules.categories)
    return f"{line}; {scores}"

