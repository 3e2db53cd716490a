"""Two detectors joined in one file (models.ensemble): the likelier heatmap wins, with its box."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import helper, numpy_helper

from models.ensemble import join_files
from vision.detect import DiceDetector
from vision.onnx import open_session


def tiny_detector(path: Path, rng: np.random.Generator) -> None:
    """Write a detector-shaped model: 1x1 convolutions from the image to heat and box."""
    heat_w = rng.normal(0, 0.01, (1, 3, 1, 1)).astype(np.float32)
    box_w = rng.normal(0, 0.01, (4, 3, 1, 1)).astype(np.float32)
    nodes = [helper.make_node("Conv", ["image", "heat_w"], ["logit"]),
             helper.make_node("Sigmoid", ["logit"], ["heat"]),
             helper.make_node("Conv", ["image", "box_w"], ["box"])]
    shape = [None, 3, None, None]
    graph = helper.make_graph(
        nodes, "tiny", [helper.make_tensor_value_info("image", onnx.TensorProto.FLOAT, shape)],
        [helper.make_tensor_value_info("heat", onnx.TensorProto.FLOAT, [None, 1, None, None]),
         helper.make_tensor_value_info("box", onnx.TensorProto.FLOAT, [None, 4, None, None])],
        [numpy_helper.from_array(heat_w, "heat_w"), numpy_helper.from_array(box_w, "box_w")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, str(path))


@pytest.fixture
def joined(tmp_path: Path) -> Path:
    rng = np.random.default_rng(5)
    tiny_detector(tmp_path / "a.onnx", rng)
    tiny_detector(tmp_path / "b.onnx", rng)
    join_files(tmp_path / "a.onnx", tmp_path / "b.onnx", tmp_path / "joined.onnx")
    return tmp_path


def test_the_joined_heatmap_is_the_maximum_and_each_box_comes_with_its_heat(joined: Path
                                                                             ) -> None:
    image = np.random.default_rng(6).uniform(0, 255, (1, 3, 32, 48)).astype(np.float32)
    heat_a, box_a = open_session("a.onnx", joined).run(None, {"image": image})
    heat_b, box_b = open_session("b.onnx", joined).run(None, {"image": image})
    heat, box = open_session("joined.onnx", joined).run(None, {"image": image})
    assert heat.shape == (1, 1, 32, 48) and box.shape == (1, 4, 32, 48)
    np.testing.assert_array_equal(heat, np.maximum(heat_a, heat_b))
    a_wins = heat_a >= heat_b
    assert 0 < a_wins.mean() < 1  # both networks win somewhere: the test sees both paths
    np.testing.assert_array_equal(box, np.where(a_wins, box_a, box_b))


def test_a_joined_file_is_a_detector_like_any_other(joined: Path) -> None:
    pixels = np.random.default_rng(7).integers(0, 255, (60, 80, 3), dtype=np.uint8)
    detector = DiceDetector(open_session("joined.onnx", joined))
    found = detector.view(pixels, 64, threshold=0.0)
    assert found.boxes.shape[1] == 4 and len(found.boxes) == len(found.scores) > 0
