"""Fit the confidence calibration (Platt scaling) on rendered tables and training photos.

``python -m models.calibrate`` reads rendered tables of dice among decoys, a third
of them board-game tables with small dice (seeds used by neither training nor
evaluation), and training photos of every real source (a part of each: byler train,
Roboflow and each kind of Rune55 scene but their held-out photos) with the shipped
models, fits p = sigmoid(a * logit(score) + c * logit(is_die) + b) to whether each
find was a true die read right (each group weighing the same), and writes
``models/calibration.json``. No held-out photo is used. The finds are kept
in runs/calibration-finds.npz; ``--reuse`` fits again from them without reading.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from models.data import source_photos
from models.evalsets import RUNS, board_scene, scene_set, table_scene
from models.evaluate import match
from models.labels import LabelledPhoto
from models.reliability import diagram, ece
from models.render import Scene
from vision.calibration import CALIBRATION_FILE, Calibration, logit
from vision.detect import DETECTOR_MODEL, DiceDetector
from vision.faces import FACES_MODEL, FaceReader
from vision.image import load
from vision.onnx import MODELS, open_session
from vision.pipeline import candidates

CALIBRATION_SEED = 777
CALIBRATION_SCENES = 300


def calibration_scene(rng: np.random.Generator) -> Scene:
    """A rendered table (see models.evalsets), one in three a board with small dice."""
    return board_scene(rng) if rng.random() < 1 / 3 else table_scene(rng)


Finds = tuple[np.ndarray, np.ndarray, np.ndarray]  # scores, is_die, right (bool)


def fit_platt(finds: Finds, weight: np.ndarray, l2: float = 1e-3,
              steps: int = 50) -> Calibration:
    """Return the calibration that best predicts right finds (weighted logistic regression)."""
    scores, is_die, right = finds
    x = np.stack([logit(scores), logit(is_die), np.ones(len(scores))], axis=1)
    y = right.astype(np.float64)
    w = np.array([1.0, 0.0, 0.0])
    for _ in range(steps):  # Newton's method
        p = 1 / (1 + np.exp(-x @ w))
        gradient = x.T @ (weight * (p - y)) + l2 * w
        hessian = (x * (weight * p * (1 - p))[:, None]).T @ x + l2 * np.eye(3)
        w = w - np.linalg.solve(hessian, gradient)
    return Calibration(slope=float(w[0]), intercept=float(w[2]), die_slope=float(w[1]))


def collect(photos: list[LabelledPhoto], detector: DiceDetector, reader: FaceReader) -> Finds:
    """Return every candidate's raw scores and whether it is a true die read right."""
    parts: list[Finds] = []
    for photo in photos:
        image = load(photo.path)
        found = candidates(image, reader.read(image.pixels, detector.detect(image.pixels).boxes))
        truth = photo.boxes * np.array([image.width, image.height] * 2, np.float32)
        right = np.zeros(len(found.values), bool)
        for t, r in match(truth, found.boxes.astype(np.float32)):
            right[r] = photo.values[t] == found.values[r]
        parts.append((found.scores, found.is_die, right))
    return (np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]),
            np.concatenate([p[2] for p in parts]))


def calibration_groups() -> dict[str, list[LabelledPhoto]]:
    """Return the photos the calibration is fitted on, by group (no held-out photo).

    Rune55's tables are left out: their boxes hold the face turned to the camera, not
    the die, so a die read right there often misses its box and would teach the
    calibration that sure finds are wrong.
    """
    tables = scene_set("calibration", CALIBRATION_SCENES, CALIBRATION_SEED, calibration_scene)
    return {"rendered tables": tables,
            "roboflow rest (every 3rd)": source_photos("roboflow-rest")[::3],
            "byler train (every 2nd)": source_photos("byler-train")[::2],
            "rune55 trays rest (every 2nd)": source_photos("rune55-trays-rest")[::2],
            "rune55 close-ups rest (every 5th)": source_photos("rune55-closeups-rest")[::5]}


def main(argv: list[str] | None = None) -> int:
    """Fit, print the reliability before and after, write the calibration file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=MODELS)
    parser.add_argument("--reuse", action="store_true", help="fit on the finds kept last time")
    args = parser.parse_args(argv)
    cache = RUNS / "calibration-finds.npz"
    if args.reuse and cache.exists():
        stored = np.load(cache)
        found = {n: (stored[n + "/s"], stored[n + "/d"], stored[n + "/r"])
                 for n in calibration_groups()}
    else:
        detector = DiceDetector(open_session(DETECTOR_MODEL, args.out))
        reader = FaceReader(open_session(FACES_MODEL, args.out))
        found = {n: collect(photos, detector, reader) for n, photos in calibration_groups().items()}
        np.savez(cache, **{f"{n}/{k}": v for n, f in found.items()
                           for k, v in zip("sdr", f, strict=True)})
    finds: Finds = tuple(np.concatenate([f[i] for f in found.values()])  # type: ignore[assignment]
                         for i in range(3))
    total = len(finds[0])
    weight = np.concatenate([np.full(len(f[0]), total / len(found) / max(1, len(f[0])))
                             for f in found.values()])  # each group weighs the same
    calibration = fit_platt(finds, weight)
    print(f"calibration: {calibration.to_dict()}")
    for name, (s, d, r) in found.items():
        print(f"{name}: {len(s)} finds, ECE raw {ece(s, r):.4f}, "
              f"calibrated {ece(calibration(s, d), r):.4f}")
    print("all groups, raw score:\n" + diagram(finds[0], finds[2]))
    print("all groups, calibrated:\n" + diagram(calibration(finds[0], finds[1]), finds[2]))
    record = {**calibration.to_dict(), "fitted_on": {n: len(f[0]) for n, f in found.items()},
              "ece_before": round(ece(finds[0], finds[2]), 4),
              "ece_after": round(ece(calibration(finds[0], finds[1]), finds[2]), 4)}
    path = args.out / CALIBRATION_FILE
    path.write_text(json.dumps(record, indent=1) + "\n")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
