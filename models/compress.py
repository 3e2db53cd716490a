"""Finish an exported ONNX model: big weights stored as 8-bit integers, metadata.

Each convolution or matrix weight of at least MIN_ELEMENTS values becomes int8 with one
scale per output channel (symmetric, zero point 0) and a DequantizeLinear node in front
of its use: the file shrinks to about a quarter, the arithmetic stays float32 (no
quantized activations, so no calibration and none of int8's lost accuracy in the
activations), and onnxruntime turns the weights back into floats once when it loads
the model. ``python -m models.compress IN OUT`` (train-only: needs the onnx package).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import onnx

MIN_ELEMENTS = 1024  # smaller weights (biases, batch norms folded in) stay float32
WEIGHT_OPS = {"Conv": 1, "Gemm": 1, "MatMul": 1}  # op type -> index of its weight input


def quantize_weight(weight: np.ndarray, axis: int) -> tuple[np.ndarray, np.ndarray]:
    """Return (int8 weight, float32 scale per slice along *axis*) with weight ≈ q * scale."""
    moved = np.moveaxis(weight, axis, 0).reshape(weight.shape[axis], -1)
    scale = np.abs(moved).max(axis=1) / 127.0
    scale = np.where(scale > 0, scale, 1.0).astype(np.float32)
    shape = [1] * weight.ndim
    shape[axis] = -1
    q = np.clip(np.round(weight / scale.reshape(shape)), -127, 127).astype(np.int8)
    return q, scale


def weight_axis(op: str, node: onnx.NodeProto) -> int:
    """Return the axis of a weight's output channels: 0 for Conv, the last for MatMul, and
    for Gemm 0 when it multiplies by the transposed weight (transB), else 1."""
    if op == "Conv":
        return 0
    if op == "Gemm":
        trans_b = next((a.i for a in node.attribute if a.name == "transB"), 0)
        return 0 if trans_b else 1
    return 1


def compress(model: onnx.ModelProto) -> int:
    """Rewrite *model* in place with int8 weights (see the module's text); return how many
    weights were rewritten."""
    from onnx import helper, numpy_helper

    graph = model.graph
    initializers = {init.name: init for init in graph.initializer}
    done: dict[str, str] = {}
    nodes = []
    for node in graph.node:
        index = WEIGHT_OPS.get(node.op_type)
        name = node.input[index] if index is not None and len(node.input) > index else ""
        init = initializers.get(name)
        if init is not None and name not in done:
            weight = numpy_helper.to_array(init)
            if weight.size >= MIN_ELEMENTS and weight.dtype == np.float32:
                axis = weight_axis(node.op_type, node)
                q, scale = quantize_weight(weight, axis)
                graph.initializer.remove(init)
                graph.initializer.extend([numpy_helper.from_array(q, f"{name}_q"),
                                          numpy_helper.from_array(scale, f"{name}_scale")])
                nodes.append(helper.make_node("DequantizeLinear", [f"{name}_q", f"{name}_scale"],
                                              [f"{name}_dq"], axis=axis))
                done[name] = f"{name}_dq"
        nodes.append(node)
    for node in nodes:
        for i, name in enumerate(node.input):
            if name in done and node.op_type != "DequantizeLinear":
                node.input[i] = done[name]
    del graph.node[:]
    graph.node.extend(nodes)
    return len(done)


def compress_file(source: Path, target: Path) -> None:
    """Write *source*'s model with int8 weights to *target* and print both sizes."""
    import onnx

    model = onnx.load(str(source))
    before = source.stat().st_size
    count = compress(model)
    onnx.checker.check_model(model)
    onnx.save(model, str(target))
    print(f"{count} weights to int8: {before / 1e3:.0f} kB -> "
          f"{target.stat().st_size / 1e3:.0f} kB ({target})", flush=True)


def set_poses(path: Path, poses: int) -> None:
    """Record in the reader's model file in how many poses it reads a crop (see
    vision.faces.FaceReader.poses)."""
    import onnx

    model = onnx.load(str(path))
    kept = [p for p in model.metadata_props if p.key != "poses"]
    del model.metadata_props[:]
    model.metadata_props.extend(kept)
    model.metadata_props.add(key="poses", value=str(poses))
    onnx.save(model, str(path))


def main(argv: list[str] | None = None) -> int:
    """Compress the model named on the command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path)
    parser.add_argument("target", type=Path)
    args = parser.parse_args(argv)
    compress_file(args.source, args.target)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
