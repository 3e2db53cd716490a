"""Sheets of misread dice (models.misreads): a die labelled otherwise than it is read is cut out."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np

from models.labels import LabelledPhoto
from models.misreads import HEAD, PER_ROW, ROWS_PER_SHEET, TILE, misreads, picture, sheets, tile
from vision.detect import default_detector
from vision.faces import default_reader
from vision.image import load

SAMPLE = Path(__file__).resolve().parents[2] / "sample_images" / "sample_01.jpg"


def labelled_sample(values: tuple[int, ...] | None = None) -> LabelledPhoto:
    """Return sample_01 with its dice as its .json says (or with *values* instead)."""
    truth = json.loads(SAMPLE.with_suffix(".json").read_text())
    image = load(SAMPLE)
    boxes = np.array(truth["boxes"], np.float32) / np.array([image.width, image.height] * 2)
    return LabelledPhoto(SAMPLE, tuple(values or truth["values"]), boxes)


def test_a_die_labelled_otherwise_than_it_is_read_is_listed_with_both_values() -> None:
    photo = labelled_sample()
    right = list(misreads([photo], default_detector(), default_reader()))
    assert right == []
    wrong = replace(photo, values=(2, *photo.values[1:]))
    found = list(misreads([wrong], default_detector(), default_reader()))
    assert [(d.label, d.read) for d in found] == [(2, photo.values[0])]
    first = np.array(found[0].box)
    assert np.abs(first - photo.boxes[0] * [1280, 960, 1280, 960]).max() < 20
    assert found[0].confidence > 0.5
    sure_only = misreads([wrong], default_detector(), default_reader(), min_confidence=1.01)
    assert list(sure_only) == []


def test_misread_dice_are_laid_out_eight_a_sheet() -> None:
    photo = replace(labelled_sample(), values=(2, 2, 2, 2, 2))
    found = list(misreads([photo], default_detector(), default_reader()))
    assert sorted(d.read for d in found) == sorted(labelled_sample().values)
    pixels = picture(SAMPLE)
    tiles = [tile(pixels, die, k) for k, die in enumerate(found * 2)]
    assert tiles[0].shape == (TILE + HEAD, TILE + 4, 3)
    pages = sheets(tiles)
    assert len(pages) == 2
    assert pages[0].shape == (ROWS_PER_SHEET * (TILE + HEAD), PER_ROW * (TILE + 4), 3)
    assert (pages[1][-(TILE + HEAD):, -(TILE + 4):] == 255).all()  # the last place is blank
