"""Is the confidence a probability? Reliability diagram and expected calibration error."""

from __future__ import annotations

import numpy as np

BINS = 10


def ece(confidence: np.ndarray, correct: np.ndarray, bins: int = BINS) -> float:
    """Return the expected calibration error: the share-weighted |accuracy - confidence|."""
    edges = np.minimum((np.asarray(confidence) * bins).astype(int), bins - 1)
    total = 0.0
    for b in range(bins):
        inside = edges == b
        if inside.any():
            total += inside.mean() * abs(correct[inside].mean() - confidence[inside].mean())
    return float(total)


def diagram(confidence: np.ndarray, correct: np.ndarray, bins: int = BINS) -> str:
    """Return a text reliability diagram: per confidence bin, count, mean confidence, accuracy.

    A find is correct when it is a true die read with its true value; the bar shows the
    accuracy (#) against the mean confidence (|).
    """
    confidence, correct = np.asarray(confidence, float), np.asarray(correct, float)
    edges = np.minimum((confidence * bins).astype(int), bins - 1)
    lines = ["  confidence   finds  mean conf  accuracy"]
    for b in range(bins):
        inside = edges == b
        n = int(inside.sum())
        if n == 0:
            lines.append(f"  {b / bins:.1f}-{(b + 1) / bins:.1f}  {0:>7}")
            continue
        mean, acc = float(confidence[inside].mean()), float(correct[inside].mean())
        bar = ["#" if i < round(20 * acc) else " " for i in range(21)]
        bar[min(20, round(20 * mean))] = "|"
        lines.append(f"  {b / bins:.1f}-{(b + 1) / bins:.1f}  {n:>7}  {mean:>9.3f}  "
                     f"{acc:>8.3f}  {''.join(bar)}")
    lines.append(f"  expected calibration error (ECE, {bins} bins): "
                 f"{ece(confidence, correct, bins):.4f} over {len(confidence)} finds")
    return "\n".join(lines)
