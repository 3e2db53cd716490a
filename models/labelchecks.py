"""Labels of held-out dice checked by eye: where a published label is plainly wrong.

`label_checks.json` lists held-out dice whose photo plainly shows another value than
their label (each looked at enlarged in its photo): the photo's file name, a point
inside the labelled box (relative 0..1 to the upright photo), the label as published and
the value the die shows. Only dice the shipped reader read otherwise were looked at
(``python -m models.misreads SOURCE --min-confidence 0``), so a wrong label the reader
agrees with is not in the list. `make eval` reads each checked source twice: against
the labels as published and as checked.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path

from models.labels import LabelledPhoto

CHECKS = Path(__file__).with_name("label_checks.json")


@dataclass(frozen=True)
class LabelCheck:
    """One labelled die of photo *file*: the box holding (x, y) labelled *label* shows
    *shows*."""

    file: str
    x: float
    y: float
    label: int
    shows: int


def load_checks(path: Path = CHECKS) -> tuple[LabelCheck, ...]:
    """Return the checks in *path*."""
    return tuple(LabelCheck(**entry) for entry in json.loads(path.read_text())["checks"])


def checked(photos: list[LabelledPhoto],
            checks: tuple[LabelCheck, ...]) -> list[LabelledPhoto]:
    """Return *photos* with the checked dice given the value they show.

    Raises ValueError when a check of one of *photos* finds no box with its label around
    its point, or the box another check took: the list no longer fits the labels it was
    made for.
    """
    by_file: dict[str, list[LabelCheck]] = {}
    for check in checks:
        by_file.setdefault(check.file, []).append(check)
    return [_checked(photo, by_file.get(photo.path.name, [])) for photo in photos]


def _checked(photo: LabelledPhoto, checks: list[LabelCheck]) -> LabelledPhoto:
    values = list(photo.values)
    taken: set[int] = set()
    x1, y1, x2, y2 = photo.boxes.T
    for check in checks:
        around = (x1 <= check.x) & (check.x <= x2) & (y1 <= check.y) & (check.y <= y2)
        hits = [i for i in around.nonzero()[0] if photo.values[i] == check.label]
        if not hits:
            raise ValueError(f"{photo.path.name}: no die labelled {check.label} around "
                             f"({check.x:.3f}, {check.y:.3f})")
        # of touching dice, the one whose box is centred nearest the point
        i = min(hits, key=lambda k: (x1[k] + x2[k] - 2 * check.x) ** 2
                + (y1[k] + y2[k] - 2 * check.y) ** 2)
        if i in taken:
            raise ValueError(f"{photo.path.name}: two checks of one die around "
                             f"({check.x:.3f}, {check.y:.3f})")
        taken.add(i)
        values[i] = check.shows
    return replace(photo, values=tuple(values)) if checks else photo
