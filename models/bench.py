"""Print how fast dice are read: model load, a 640x480 webcam frame, a 12 MP phone JPEG.

``python -m models.bench`` uses photos it renders itself; no shared data needed.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import cv2
import numpy as np

from models.render import render_scene
from vision.detect import DETECTOR_MODEL, DiceDetector
from vision.faces import FACES_MODEL, FaceReader
from vision.image import decode_bytes
from vision.onnx import open_session
from vision.pipeline import read_dice


def timed(action: Callable[[], object], repeat: int) -> str:
    """Return "median ms (best ms)" of *repeat* calls, after one warm-up call.

    The best time is what an otherwise idle machine gives; the median shows the
    effect of other work sharing the CPU.
    """
    action()
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        times.append(1000 * (time.perf_counter() - started))
    return f"{statistics.median(times):.1f} ms median ({min(times):.1f} ms best)"


def photo_bytes(width: int, height: int, dice: int, seed: int) -> bytes:
    """Return a rendered JPEG of *dice* dice at *width* x *height* (rendered small, upscaled)."""
    rng = np.random.default_rng(seed)
    small = render_scene(rng, width // 4, height // 4, dice, min(width, height) // 40)
    image = cv2.resize(small.image, (width, height), interpolation=cv2.INTER_CUBIC)
    ok, buffer = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    assert ok
    return buffer.tobytes()


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print one line per figure; return the exit code."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    detector = DiceDetector(open_session(DETECTOR_MODEL))
    reader = FaceReader(open_session(FACES_MODEL))
    print(f"model load: {1000 * (time.perf_counter() - started):.0f} ms")
    frame_jpeg = photo_bytes(640, 480, 5, seed=1)
    frame = decode_bytes(frame_jpeg).pixels
    print("640x480 frame (pixels in memory), 5 dice:",
          timed(lambda: read_dice(frame, detector, reader), args.repeat))
    print("640x480 frame (JPEG bytes, incl. decode), 5 dice:",
          timed(lambda: read_dice(frame_jpeg, detector, reader), args.repeat))
    board = render_scene(np.random.default_rng(3), 640, 480, 10, 12, clutter=8).image
    print("640x480 frame (pixels in memory), 10 dice of 12 px among decoys:",
          timed(lambda: read_dice(board, detector, reader), args.repeat))
    photo = photo_bytes(4000, 3000, 12, seed=2)
    print("4000x3000 (12 MP) JPEG incl. decode, 12 dice:",
          timed(lambda: read_dice(photo, detector, reader), max(3, args.repeat // 2)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
