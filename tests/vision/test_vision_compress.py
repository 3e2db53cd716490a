"""Weights stored as int8 (models.compress): a quarter of the file, the same answers."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import helper, numpy_helper

from models.compress import compress_file, quantize_weight, set_poses
from vision.faces import FaceReader
from vision.onnx import open_session


def small_model(path: Path, rng: np.random.Generator) -> None:
    """Write a model: Conv 3->64 (3x3), ReLU, global pool, Gemm 64->7 (transposed)."""
    conv = rng.normal(0, 0.2, (64, 3, 3, 3)).astype(np.float32)
    gemm = rng.normal(0, 0.2, (7, 64)).astype(np.float32)
    bias = rng.normal(0, 0.1, 7).astype(np.float32)
    nodes = [helper.make_node("Conv", ["image", "conv"], ["c"], pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c"], ["r"]),
             helper.make_node("GlobalAveragePool", ["r"], ["p"]),
             helper.make_node("Flatten", ["p"], ["f"]),
             helper.make_node("Gemm", ["f", "gemm", "bias"], ["out"], transB=1)]
    graph = helper.make_graph(
        nodes, "small", [helper.make_tensor_value_info("image", onnx.TensorProto.FLOAT,
                                                       [None, 3, 16, 16])],
        [helper.make_tensor_value_info("out", onnx.TensorProto.FLOAT, [None, 7])],
        [numpy_helper.from_array(conv, "conv"), numpy_helper.from_array(gemm, "gemm"),
         numpy_helper.from_array(bias, "bias")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, str(path))


def test_int8_weights_keep_the_answers_and_shrink_the_file(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    small_model(tmp_path / "float.onnx", rng)
    compress_file(tmp_path / "float.onnx", tmp_path / "int8.onnx")
    model = onnx.load(str(tmp_path / "int8.onnx"))
    assert sorted(init.name for init in model.graph.initializer) == [
        "bias", "conv_q", "conv_scale", "gemm"]  # the Gemm's 448 values stay float32
    assert [n.op_type for n in model.graph.node][:2] == ["DequantizeLinear", "Conv"]
    image = rng.uniform(0, 1, (4, 3, 16, 16)).astype(np.float32)
    want = open_session("float.onnx", tmp_path).run(None, {"image": image})[0]
    got = open_session("int8.onnx", tmp_path).run(None, {"image": image})[0]
    assert np.abs(got - want).max() < 0.01 * np.abs(want).max()
    assert not np.array_equal(got, want)  # the weights did change


@pytest.mark.parametrize("axis", [0, 1])
def test_each_output_channel_gets_its_own_scale(axis: int) -> None:
    weight = np.array([[1.0, -0.5, 0.25], [0.01, 0.02, -0.04]], np.float32)
    weight = weight if axis == 0 else weight.T
    q, scale = quantize_weight(weight, axis)
    assert q.dtype == np.int8
    assert scale.tolist() == pytest.approx([1 / 127, 0.04 / 127])
    assert np.abs(q).max() == 127
    restored = q * (scale[:, None] if axis == 0 else scale[None, :])
    assert np.abs(restored - weight).max() <= scale.max() / 2 + 1e-7


def test_an_all_zero_weight_keeps_a_usable_scale() -> None:
    q, scale = quantize_weight(np.zeros((2, 4), np.float32), 0)
    assert scale.tolist() == [1.0, 1.0]
    assert not q.any()


@pytest.mark.parametrize("poses", [1, 2, 4])
def test_the_reader_reads_in_the_poses_its_model_file_names(tmp_path: Path,
                                                             poses: int) -> None:
    small_model(tmp_path / "faces.onnx", np.random.default_rng(4))
    assert FaceReader(open_session("faces.onnx", tmp_path)).poses() == 4  # no metadata
    set_poses(tmp_path / "faces.onnx", 3)
    set_poses(tmp_path / "faces.onnx", poses)  # replaces, never adds a second entry
    model = onnx.load(str(tmp_path / "faces.onnx"))
    assert [(p.key, p.value) for p in model.metadata_props] == [("poses", str(poses))]
    assert FaceReader(open_session("faces.onnx", tmp_path)).poses() == poses
