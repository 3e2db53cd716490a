"""Join two detectors into one ONNX file that a `DiceDetector` runs like any other.

Both networks see the same image; the joined heatmap is the pointwise maximum of
theirs (a die either of them finds is found), and each position takes its box from
the network that scored it higher. Detectors trained on different sources miss
different dice, so the pair finds what either finds, at the cost of running both.
``python -m models.ensemble FIRST SECOND OUT`` (train-only: needs the onnx package).

``--side-by-side`` writes instead one file running two or more networks on the same
input, each giving its own output (the first's name kept, the others' with ``_1``,
``_2``, ...): the handwriting reader averages the readings of every output
(vision.handwriting).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
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


def side_by_side(models: Sequence[onnx.ModelProto]) -> onnx.ModelProto:
    """Return one model running every network of *models* on their shared input, each
    output apart: the first output's name, then that name + ``_1``, ``_2``, ... (a model
    that already holds several networks side by side brings each of its outputs)."""
    from onnx import helper

    graphs = [_renamed(model, f"n{i}/") for i, model in enumerate(models)]
    name = models[0].graph.output[0].name
    sources = [(f"n{i}/{out.name}", out.type) for i, model in enumerate(models)
               for out in model.graph.output]
    names = [name if k == 0 else f"{name}_{k}" for k in range(len(sources))]
    nodes = [*(node for g in graphs for node in g.node),
             *(helper.make_node("Identity", [src], [out])
               for (src, _), out in zip(sources, names, strict=True))]
    outputs = [helper.make_value_info(out, kind)
               for (_, kind), out in zip(sources, names, strict=True)]
    graph = helper.make_graph(nodes, "readers side by side", list(graphs[0].input), outputs,
                              initializer=[init for g in graphs for init in g.initializer])
    model = helper.make_model(graph, opset_imports=list(models[0].opset_import))
    model.ir_version = models[0].ir_version
    return model


def join_files(first: Path, second: Path, out: Path, *more: Path,
               apart: bool = False) -> None:
    """Write the joined model of the detector files *first* and *second* to *out* (with
    *apart*, every network of *first*, *second* and *more* side by side instead: see
    side_by_side)."""
    import onnx

    if more and not apart:
        raise ValueError("only networks side by side take more than two files")
    models = [onnx.load(str(path)) for path in (first, second, *more)]
    model = side_by_side(models) if apart else join(models[0], models[1])
    onnx.checker.check_model(model)
    out.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(out))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("networks", type=Path, nargs="+", help="two (side by side: two or more)")
    parser.add_argument("out", type=Path)
    parser.add_argument("--side-by-side", dest="apart", action="store_true",
                        help="every network's outputs apart, not joined heatmaps")
    args = parser.parse_args(argv)
    if len(args.networks) < 2:
        parser.error("give two detectors, or two or more readers with --side-by-side")
    first, second, *more = args.networks
    try:
        join_files(first, second, args.out, *more, apart=args.apart)
    except ValueError as error:
        parser.error(str(error))
    print(f"{args.out}: {args.out.stat().st_size / 1000:.0f} kB")


if __name__ == "__main__":
    main()
