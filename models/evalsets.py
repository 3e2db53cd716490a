"""Rendered photos held out of training, written once under runs/ as labelled files.

``rendered_eval`` (dice among decoys on busy tables) is the rendered source of the
leave-one-source-out table; ``small_dice_eval`` (640x640 board-game tables with dice
of 10-25 px) measures what the detector's finer view adds.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from models.labels import LabelledPhoto, photos_in
from models.render import Scene, render_scene
from vision.detect import DiceDetector, default_detector
from vision.faces import default_reader

RUNS = Path(__file__).resolve().parent.parent / "runs"
RENDERED_EVAL_SEED = 1234  # seeds not used by training or the sample photos
SMALL_DICE_SEED = 4321


def write_scene(scene: Scene, image: Path, label: Path) -> None:
    """Write a rendered scene as a JPEG and its YOLO label file."""
    h, w = scene.image.shape[:2]
    cv2.imwrite(str(image), scene.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    lines = [f"{v - 1} {(b[0] + b[2]) / 2 / w:.6f} {(b[1] + b[3]) / 2 / h:.6f} "
             f"{(b[2] - b[0]) / w:.6f} {(b[3] - b[1]) / h:.6f}\n"
             for v, b in zip(scene.values, scene.boxes, strict=True)]
    label.write_text("".join(lines))


def scene_set(name: str, count: int, seed: int,
              draw: Callable[[np.random.Generator], Scene]) -> list[LabelledPhoto]:
    """Return the labelled scenes of runs/<name>, rendering them first where missing."""
    images, labels = RUNS / name / "images", RUNS / name / "labels"
    if not images.is_dir() or len(list(images.glob("*.jpg"))) != count:
        images.mkdir(parents=True, exist_ok=True)
        labels.mkdir(parents=True, exist_ok=True)
        rng = np.random.default_rng(seed)
        for i in range(count):
            write_scene(draw(rng), images / f"scene_{i:03d}.jpg", labels / f"scene_{i:03d}.txt")
    return photos_in(images)


def table_scene(rng: np.random.Generator) -> Scene:
    """A table of 1-15 dice of 2-15 % of the photo's shorter side among 0-15 decoys."""
    w, h = int(rng.integers(480, 1024)), int(rng.integers(400, 800))
    size = int(min(w, h) * rng.uniform(0.02, 0.15))
    return render_scene(rng, w, h, int(rng.integers(1, 16)), size, int(rng.integers(0, 16)))


def board_scene(rng: np.random.Generator) -> Scene:
    """A 640x640 board-game table: 2-12 dice of 10-25 px among 10-30 decoys."""
    return render_scene(rng, 640, 640, int(rng.integers(2, 13)), int(rng.integers(11, 23)),
                        int(rng.integers(10, 31)))


def rendered_eval() -> list[LabelledPhoto]:
    """Return 120 held-out rendered tables (see table_scene)."""
    return scene_set("rendered-eval", 120, RENDERED_EVAL_SEED, table_scene)


def small_dice_eval() -> list[LabelledPhoto]:
    """Return 40 held-out board-game tables with small dice (see board_scene)."""
    return scene_set("small-dice-eval", 40, SMALL_DICE_SEED, board_scene)


def small_dice_report() -> str:
    """Return per-die F1 on the small-dice tables with and without the finer view."""
    from models.evaluate import evaluate

    photos = small_dice_eval()
    session = default_detector().session
    lines = [f"small dice (rendered 640x640 tables, dice 10-25 px among decoys, "
             f"{len(photos)} photos):"]
    for label, fine in (("first views only", False), ("with the finer view", True)):
        s = evaluate(photos, DiceDetector(session, fine), default_reader()).summary()
        lines.append(f"  {label:<20} recall {s['recall']:.3f}  precision {s['precision']:.3f}"
                     f"  F1 {s['f1']:.3f}  {s['ms_per_photo']:.1f} ms per photo")
    return "\n".join(lines)
