"""Two networks in one file (models.ensemble): joined detectors, where the likelier heatmap wins
with its box, and handwriting readers side by side, whose readings are averaged."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import helper, numpy_helper

from models.ensemble import join_files
from vision.detect import DiceDetector
from vision.handwriting import CELL_H, CELL_W, MODEL, HandwritingReader, sure_at_once
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


def tiny_reader(path: Path, rng: np.random.Generator) -> None:
    """Write a handwriting-reader-shaped model: one convolution from the cell to 24 steps of
    11 classes, a softmax over the classes."""
    weights = rng.normal(0, 2.0, (11, 1, CELL_H, 4)).astype(np.float32)
    nodes = [helper.make_node("Conv", ["cells", "w"], ["logits"], strides=[1, 4]),
             helper.make_node("Squeeze", ["logits", "axis"], ["steps"]),
             helper.make_node("Transpose", ["steps"], ["ordered"], perm=[0, 2, 1]),
             helper.make_node("Softmax", ["ordered"], ["probs"], axis=2)]
    graph = helper.make_graph(
        nodes, "tiny reader",
        [helper.make_tensor_value_info("cells", onnx.TensorProto.FLOAT, [None, 1, CELL_H, CELL_W])],
        [helper.make_tensor_value_info("probs", onnx.TensorProto.FLOAT, [None, 24, 11])],
        [numpy_helper.from_array(weights, "w"),
         numpy_helper.from_array(np.array([2], np.int64), "axis")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, str(path))


def test_readers_side_by_side_are_read_by_both_and_their_readings_averaged(
        tmp_path: Path) -> None:
    rng = np.random.default_rng(8)
    tiny_reader(tmp_path / "a.onnx", rng)
    tiny_reader(tmp_path / "b.onnx", rng)
    join_files(tmp_path / "a.onnx", tmp_path / "b.onnx", tmp_path / MODEL, apart=True)
    cells = rng.uniform(0, 1, (3, CELL_H, CELL_W)).astype(np.float32)
    batch = cells[:, None]
    session = open_session(MODEL, tmp_path)
    assert [o.name for o in session.get_outputs()] == ["probs", "probs_1"]
    both = session.run(None, {"cells": batch})
    for output, name in zip(both, ("a.onnx", "b.onnx"), strict=True):
        alone = open_session(name, tmp_path).run(None, {"cells": batch})[0]
        np.testing.assert_allclose(output, alone, atol=1e-6)
    alone_readings = [HandwritingReader(open_session(name, tmp_path)).read(cells)
                      for name in ("a.onnx", "b.onnx")]
    for pair, side in zip(zip(*alone_readings, strict=True),
                          HandwritingReader(session).read(cells), strict=True):
        assert pair[0].candidates != pair[1].candidates  # two networks that disagree
        value, p = side.candidates[0]
        expected = sum(dict(r.candidates).get(value, 0.0) for r in pair) / 2
        assert p == pytest.approx(expected, abs=1e-4)


def test_the_shipped_handwriting_model_holds_three_readers_side_by_side() -> None:
    outputs = open_session(MODEL).get_outputs()
    assert [o.name for o in outputs] == ["probs", "probs_1", "probs_2"]


def test_a_file_of_readers_side_by_side_takes_one_more_reader(tmp_path: Path) -> None:
    rng = np.random.default_rng(9)
    for name in ("a.onnx", "b.onnx", "c.onnx", "d.onnx"):
        tiny_reader(tmp_path / name, rng)
    join_files(tmp_path / "a.onnx", tmp_path / "b.onnx", tmp_path / "pair.onnx", apart=True)
    join_files(tmp_path / "pair.onnx", tmp_path / "c.onnx", tmp_path / "four.onnx",
               tmp_path / "d.onnx", apart=True)
    session = open_session("four.onnx", tmp_path)
    assert [o.name for o in session.get_outputs()] == ["probs", "probs_1", "probs_2", "probs_3"]
    batch = rng.uniform(0, 1, (2, 1, CELL_H, CELL_W)).astype(np.float32)
    outputs = session.run(None, {"cells": batch})
    for output, name in zip(outputs, ("a.onnx", "b.onnx", "c.onnx", "d.onnx"), strict=True):
        alone = open_session(name, tmp_path).run(None, {"cells": batch})[0]
        np.testing.assert_allclose(output, alone, atol=1e-6)
    with pytest.raises(ValueError, match="side by side"):
        join_files(tmp_path / "a.onnx", tmp_path / "b.onnx", tmp_path / "x.onnx",
                   tmp_path / "c.onnx")


class RecordingSession:
    """An inference session that notes how many cells each run is given."""

    def __init__(self, session: ort.InferenceSession) -> None:
        self.session = session
        self.batches: list[int] = []

    def get_inputs(self) -> Any:
        return self.session.get_inputs()

    def run(self, names: Any, feeds: dict[str, np.ndarray]) -> Any:
        self.batches.append(len(next(iter(feeds.values()))))
        return self.session.run(names, feeds)


def test_a_cell_read_surely_as_cut_is_not_read_again_moved() -> None:
    recording = RecordingSession(open_session(MODEL))
    blank = np.zeros((1, CELL_H, CELL_W), np.float32)
    noise = np.random.default_rng(3).uniform(0, 1, (1, CELL_H, CELL_W)).astype(np.float32)
    readings = HandwritingReader(cast(ort.InferenceSession, recording)).read(
        np.concatenate([blank, noise]))
    assert recording.batches == [2, 2]  # both as cut; the noise alone, moved either way
    assert readings[0].value is None and readings[0].confidence > 0.999
    assert readings[1].confidence < 0.5


def test_only_readings_that_agree_and_are_sure_together_are_taken_at_once() -> None:
    assert sure_at_once([((5, 0.9995), (3, 0.0005)), ((5, 0.9999),), ((5, 1.0),)])
    assert not sure_at_once([((5, 0.9999),), ((3, 0.9999),)])
    assert not sure_at_once([((5, 0.999),), ((5, 0.998),)])
    assert not sure_at_once([((None, 0.99),), ((None, 0.9995),), ((None, 1.0),)])
