"""Go on training a shipped reader: its ONNX file turned back into the small network.

ONNX export folds each batch norm into the convolution before it, so the file holds one
weight and one bias per convolution. `unfolded` restores the layers: each convolution
keeps the folded weight, and its batch norm takes the mean and variance of that
convolution's output over crops of labelled training dice as its running statistics,
with a scale and shift that give back the folded network exactly (`restoring_norm`).
``python -m models.train --only classifier --init models/faces.onnx`` starts from it;
with ``--keep-start SHARE`` the trained weights are then averaged with the starting ones
(`mixed`), which keeps more of what the starting reader read well.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import onnx
from onnx import numpy_helper

from models.data import source_photos
from models.labels import LabelledPhoto
from vision.faces import CONTEXT, crops_for, square_around
from vision.image import load

if TYPE_CHECKING:  # torch is a training need: imported where a network is built
    from models.nets import Classifier

EPS = 1e-5  # PyTorch's batch norm epsilon


def folded_weights(path: Path) -> tuple[dict[str, np.ndarray], list[tuple[np.ndarray,
                                                                           np.ndarray]]]:
    """Return the reader file's named weights (``net.`` dropped) and, in graph order, each
    folded convolution's weight and bias."""
    model = onnx.load(str(path))
    values = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    named = {k.removeprefix("net."): v for k, v in values.items() if k.startswith("net.")}
    folded = [(values[node.input[1]], values[node.input[2]]) for node in model.graph.node
              if node.op_type == "Conv" and not node.input[1].startswith("net.")]
    return named, folded


def restoring_norm(bias: np.ndarray, mean: np.ndarray, var: np.ndarray,
                   eps: float = EPS) -> dict[str, np.ndarray]:
    """Return a batch norm's weight, bias and running statistics such that, after a
    convolution without bias whose output has *mean* and *var* per channel, it adds
    *bias*: the folded convolution's output, in training (statistics of the batch close to
    these) and exactly in evaluation."""
    return {"weight": np.sqrt(var + eps), "bias": mean + bias,
            "running_mean": mean, "running_var": var}


def unfolded(path: Path, crops: np.ndarray, size: int) -> Classifier:
    """Return the small reader of the ONNX file *path*, batch norms restored from the
    statistics over *crops* (N, 3, size, size) in 0..1. Raises ValueError for a file
    that is not the small reader."""
    import torch
    from torch import nn

    from models.nets import Classifier

    net = Classifier(size)
    net.eval()
    named, folded = folded_weights(path)
    layers = [m for m in net.features if isinstance(m, nn.Sequential)]
    if len(folded) != len(layers):
        raise ValueError(f"{path} is not the small reader: {len(folded)} folded "
                         f"convolutions for {len(layers)} layers")
    net.load_state_dict({k: torch.from_numpy(v.copy()) for k, v in named.items()}, strict=False)
    x = torch.from_numpy(crops).float()
    pending = iter(folded)  # the folded convolutions, in the layers' order
    with torch.no_grad():
        for layer in net.features:
            if isinstance(layer, nn.Sequential):
                weight, bias = next(pending)
                layer[0].weight.copy_(torch.from_numpy(weight.copy()))
                z = layer[0](x).double()
                norm = restoring_norm(bias.astype(np.float64), z.mean(dim=(0, 2, 3)).numpy(),
                                      z.var(dim=(0, 2, 3)).numpy() + 1e-4, layer[1].eps)
                for name, value in norm.items():
                    getattr(layer[1], name).copy_(torch.from_numpy(value))
            x = layer(x)
    return net


def dice_crops(photos: list[LabelledPhoto], size: int, limit: int = 2000) -> np.ndarray:
    """Return crops (N, 3, size, size) in 0..1 around the labelled dice of *photos*, cut
    as the reader cuts them, at most *limit*."""
    parts: list[np.ndarray] = []
    for photo in photos:
        image = load(photo.path)
        boxes = photo.boxes * np.array([image.width, image.height] * 2, np.float32) / image.scale
        parts.append(crops_for(image.pixels, [square_around(b, CONTEXT) for b in boxes], size))
        if sum(len(p) for p in parts) >= limit:
            break
    return np.concatenate(parts)[:limit] / np.float32(255)


def shipped_reader(path: Path, size: int) -> Classifier:
    """Return the small reader of *path* ready to train on, its statistics taken over dice
    of byler's and Rune55's training photos."""
    photos = source_photos("byler-train")[::3] + source_photos("rune55-trays-rest")[::6]
    return unfolded(path, dice_crops(photos, size), size)


def mixed(start: Mapping[str, Any], trained: Mapping[str, Any], keep: float) -> dict[str, Any]:
    """Return *trained*'s weights averaged with *start*'s, a share *keep* of the latter;
    counters (integer buffers) are *trained*'s."""
    return {k: keep * start[k] + (1 - keep) * v if _is_float(v) else v
            for k, v in trained.items()}


def _is_float(value: Any) -> bool:
    kind = getattr(value.dtype, "is_floating_point", None)  # a torch dtype says it
    return bool(np.issubdtype(value.dtype, np.floating) if kind is None else kind)
