"""Turning the shipped reader's ONNX file back into a network to train on (models.resume)."""

from __future__ import annotations

import numpy as np

from models.resume import EPS, folded_weights, mixed, restoring_norm
from vision.faces import FACES_MODEL
from vision.onnx import MODELS


def test_the_shipped_reader_holds_a_folded_weight_and_bias_for_each_layer() -> None:
    named, folded = folded_weights(MODELS / FACES_MODEL)
    assert [w.shape[0] for w, _ in folded] == [16, 16, 32, 32, 64, 64, 128, 128]
    assert [w.shape[1] for w, _ in folded] == [3, 16, 16, 32, 32, 64, 64, 128]
    assert all(b.shape == (w.shape[0],) for w, b in folded)
    assert named["classes.3.weight"].shape == (7, 128)
    assert named["box.0.weight"].shape == (16, 128, 1, 1)


def test_the_restored_norm_adds_the_folded_bias_in_training_and_evaluation() -> None:
    rng = np.random.default_rng(3)
    z = rng.normal(2.0, 3.0, (64, 5, 6, 6)) * rng.uniform(0.1, 4, (1, 5, 1, 1))
    bias = rng.normal(0, 1, 5)
    mean, var = z.mean(axis=(0, 2, 3)), z.var(axis=(0, 2, 3))
    norm = restoring_norm(bias, mean, var)
    per = {k: v.reshape(1, 5, 1, 1) for k, v in norm.items()}
    evaluated = (per["weight"] * (z - per["running_mean"]) / np.sqrt(per["running_var"] + EPS)
                 + per["bias"])
    trained = per["weight"] * (z - mean.reshape(1, 5, 1, 1)) / np.sqrt(
        var.reshape(1, 5, 1, 1) + EPS) + per["bias"]
    folded = z + bias.reshape(1, 5, 1, 1)
    assert np.allclose(evaluated, folded) and np.allclose(trained, folded)
    assert not np.allclose(z, folded)


def test_the_trained_weights_are_averaged_with_the_start_but_counters_are_not() -> None:
    start = {"w": np.array([1.0, 2.0]), "seen": np.array(0)}
    trained = {"w": np.array([3.0, 6.0]), "seen": np.array(2500)}
    kept = mixed(start, trained, 0.25)
    assert np.allclose(kept["w"], [2.5, 5.0]) and int(kept["seen"]) == 2500
