"""`pipkeeper check PHOTO`: a photographed pad read, decided by the rules and audited; the
JSON report, the drawn photo, and clear refusals of photos that hold no pad of the rules."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from pipkeeper.cli import main

PADS = Path(__file__).resolve().parent.parent / "sample_images" / "pads"
HASBRO = PADS / "hasbro_24.jpg"
UPSIDE_DOWN = PADS / "pipkeeper_25.jpg"


def truth(photo: Path) -> dict[str, object]:
    data: dict[str, object] = json.loads(photo.with_suffix(".json").read_text())
    return data


def test_a_hasbro_pad_photo_is_read_and_its_slip_reported(
        capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["check", str(HASBRO), "--rules", "yahtzee", "--layout", "hasbro", "--json"])
    report = json.loads(capsys.readouterr().out)
    expected = truth(HASBRO)["columns"]
    assert code == 1
    assert (report["layout"], report["found_by"], len(report["columns"])) == (
        "hasbro", "ruling", 6)
    for column, written in zip(report["columns"], expected, strict=False):  # type: ignore[call-overload]
        assert {name: cell["value"] for name, cell in column.items()} == written
    assert report["blank"] == [False, False, True, True, True, True]
    assert [(p["row"], p["code"]) for p in report["problems"][0]] == [
        ("grand_total", "wrong_total")]
    assert report["problems"][1] == []
    cell = report["columns"][0]["aces"]
    assert set(cell) == {"value", "confidence", "candidates"}
    assert cell["candidates"][0][0] == cell["value"]


def test_the_printed_pad_upside_down_is_found_by_its_markers(
        capsys: pytest.CaptureFixture[str]) -> None:
    main(["check", str(UPSIDE_DOWN), "--rules", "yahtzee", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert (report["layout"], report["found_by"]) == ("pipkeeper", "markers")
    assert report["blank"] == [False, False, True, True, True, True]
    expected = truth(UPSIDE_DOWN)["columns"]
    assert {n: c["value"] for n, c in report["columns"][1].items()} == expected[1]  # type: ignore[index]
    assert report["problems"][1] == []


def test_the_printed_pad_upside_down_is_read_whole(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["check", str(UPSIDE_DOWN), "--rules", "yahtzee", "--json"])
    report = json.loads(capsys.readouterr().out)
    expected = truth(UPSIDE_DOWN)["columns"]
    assert [{n: c["value"] for n, c in col.items()} for col in report["columns"][:2]] == expected
    assert code == 0


def test_the_words_and_the_drawn_photo(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["check", str(HASBRO), "--rules", "yahtzee", "--annotate", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 1
    assert out.splitlines()[0] == (f"{HASBRO}: Hasbro Yahtzee pad found by its ruling "
                                   "(6 columns, yahtzee)")
    assert "  Game #1: 1 problem" in out and "    Grand total: " in out
    assert "  Game #3: blank" in out
    drawn = cv2.imread(str(tmp_path / "hasbro_24-checked.jpg"))
    assert drawn is not None and drawn.shape[1] > 1000


def test_a_photo_without_a_pad_is_refused(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    table = tmp_path / "table.jpg"
    rng = np.random.default_rng(1)
    cv2.imwrite(str(table), cv2.GaussianBlur(rng.uniform(40, 200, (900, 1200, 3)).astype(
        np.uint8), (0, 0), 5))
    assert main(["check", str(table), "--rules", "yahtzee"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("pipkeeper check: error: no pad for yahtzee found: pipkeeper "
                            "printed pad: no pipkeeper markers found")
    assert "Hasbro Yahtzee pad: no score pad found in the photo" in error


def test_a_pad_of_another_layout_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(HASBRO), "--rules", "yahtzee", "--layout", "kniffel"]) == 2
    assert "found a grid of 22 rows and 8 columns, but a Kniffel block has 20 rows" in (
        capsys.readouterr().err)


def test_a_layout_of_other_rules_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(HASBRO), "--rules", "yatzy", "--layout", "hasbro"]) == 2
    assert "is not a pad for 'yatzy'" in capsys.readouterr().err


def test_a_photo_needs_the_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(HASBRO)]) == 2
    assert "a photo does not say which rules the pad follows" in capsys.readouterr().err


def test_a_pad_cut_by_the_photo_is_refused(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """The lower part of the Hasbro pad cut off, and the left of the upside-down printed
    pad: no verdict, but what was found and what is needed."""
    hasbro, printed = cv2.imread(str(HASBRO)), cv2.imread(str(UPSIDE_DOWN))
    assert hasbro is not None and printed is not None
    cv2.imwrite(str(tmp_path / "top.jpg"), hasbro[:hasbro.shape[0] * 6 // 10])
    cv2.imwrite(str(tmp_path / "right.jpg"), printed[:, printed.shape[1] * 4 // 10:])
    assert main(["check", str(tmp_path / "top.jpg"), "--rules", "yahtzee",
                 "--layout", "hasbro", "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "Hasbro Yahtzee pad: the pad's grid runs off the edge of the photo" in captured.err
    assert "photograph the whole pad" in captured.err
    assert main(["check", str(tmp_path / "right.jpg"), "--rules", "yahtzee",
                 "--layout", "pipkeeper"]) == 2
    assert ("found 2 of the 4 pipkeeper markers (missing the top right, bottom right)"
            in capsys.readouterr().err)
