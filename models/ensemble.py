"""Join two detectors into one ONNX file that a `DiceDetector` runs like any other.

Both networks see the same image; the joined heatmap is the pointwise maximum of
theirs (a die either of them finds is found), and each position takes its box from
the network that scored it higher. Detectors trained on different sources miss
different dice, so the pair finds what either finds, at the cost of running both.
``python -m models.ensemble FIRST SECOND OUT`` (train-only: needs the onnx package).

``--side-by-side`` writes instead one file running both networks on the same input,
each giving its own output (the first's name kept, the second's with ``_1``): the
handwriting reader averages the readings of every output (vision.handwriting).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import onnx

INPUT = "image"
OUTPUTS = ("heat", "box")


def _renamed(model: onnx.ModelProto, prefix: str) -> onnx.GraphProto:
    """Return *model*'s graph with every name prefixed except the shared input."""
    from onnx import compose

    graph = compose.add_prefix_graph(model.graph, prefix, rename_inputs=False)
    return graph


def join(first: onnx.ModelProto, second: onnx.ModelProto) -> onnx.ModelProto:
    """Return one model computing both detectors and their joined heatmap and boxes."""
    from onnx import helper

    a, b = _renamed(first, "a/"), _renamed(second, "b/")
    heat, box = OUTPUTS
    nodes = [
        *a.node, *b.node,
        helper.make_node("Max", [f"a/{heat}", f"b/{heat}"], [heat]),
        helper.make_node("GreaterOrEqual", [f"a/{heat}", f"b/{heat}"], ["a_wins"]),
        helper.make_node("Where", ["a_wins", f"a/{box}", f"b/{box}"], [box]),
    ]
    graph = helper.make_graph(
        nodes, "joined detectors", list(a.input),
        [next(o for o in a.output if o.name == f"a/{name}") for name in OUTPUTS],
        initializer=[*a.initializer, *b.initializer],
    )
    for output, name in zip(graph.output, OUTPUTS, strict=True):
        output.name = name
    model = helper.make_model(graph, opset_imports=list(first.opset_import))
    model.ir_version = first.ir_version
    return model


def side_by_side(first: onnx.ModelProto, second: onnx.ModelProto) -> onnx.ModelProto:
    """Return one model running both networks (of one input and one output each, named
    alike) on the shared input; the outputs are the first's name and that name + ``_1``."""
    from onnx import helper

    a, b = _renamed(first, "a/"), _renamed(second, "b/")
    name = first.graph.output[0].name
    nodes = [*a.node, *b.node,
             helper.make_node("Identity", [f"a/{name}"], [name]),
             helper.make_node("Identity", [f"b/{name}"], [f"{name}_1"])]
    outputs = [helper.make_value_info(n, o.type) for n, o in
               ((name, a.output[0]), (f"{name}_1", b.output[0]))]
    graph = helper.make_graph(nodes, "readers side by side", list(a.input), outputs,
                              initializer=[*a.initializer, *b.initializer])
    model = helper.make_model(graph, opset_imports=list(first.opset_import))
    model.ir_version = first.ir_version
    return model


def join_files(first: Path, second: Path, out: Path, *, apart: bool = False) -> None:
    """Write the joined model of the detector files *first* and *second* to *out* (with
    *apart*, the two networks side by side instead: see side_by_side)."""
    import onnx

    model = (side_by_side if apart else join)(onnx.load(str(first)), onnx.load(str(second)))
    onnx.checker.check_model(model)
    out.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(out))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", type=Path)
    parser.add_argument("second", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--side-by-side", dest="apart", action="store_true",
                        help="both networks' outputs apart, not joined heatmaps")
    args = parser.parse_args(argv)
    join_files(args.first, args.second, args.out, apart=args.apart)
    print(f"{args.out}: {args.out.stat().st_size / 1000:.0f} kB")


if __name__ == "__main__":
    main()
