"""Train the handwriting reader and export ``models/handwriting.onnx``.

`python -m models.handwriting` (or `make train-handwriting`): renders cells of numbers
written with MNIST's training digits (`models.handwriting_data`), trains a small
convolutional CTC network on them (PyTorch, CPU), measures it on cells of the held-out
digits and writes the ONNX file. The training digits are written again otherwise each
time (turned, stretched, bent, now and then coarse), and half the cells are renewed after
each epoch. Takes about 30 minutes on one CPU thread (96,000 cells, 20 epochs).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from models.handwriting_data import LOW_RES, Blend, GlyphSource, cell_batch, mnist_split
from models.strokes import StrokeGlyphs
from vision.handwriting import CELL_H, CELL_W, CellReading, ctc_candidates, to_candidates

OUT = Path(__file__).resolve().parent / "handwriting.onnx"
CLASSES = 11  # CTC blank and digits 0..9


def _block(cin: int, cout: int, stride: int = 1) -> list[nn.Module]:
    return [nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False),
            nn.BatchNorm2d(cout), nn.ReLU()]


class CellNet(nn.Module):
    """Cell (1 x 32 x 96, ink 0..1) -> CTC probabilities over 24 steps of its width."""

    def __init__(self, width: int = 1) -> None:
        super().__init__()
        c1, c2, c3, c4, c5 = (16 * width, 32 * width, 48 * width, 64 * width, 96 * width)
        self.features = nn.Sequential(
            *_block(1, c1, stride=2),                 # 16 x 48
            *_block(c1, c2), nn.MaxPool2d(2),         # 8 x 24
            *_block(c2, c3), nn.MaxPool2d((2, 1)),    # 4 x 24
            *_block(c3, c4), nn.MaxPool2d((4, 1)),    # 1 x 24
        )
        self.steps = nn.Sequential(
            nn.Conv1d(c4, c5, 3, padding=1), nn.ReLU(),
            nn.Conv1d(c5, c5, 3, padding=1), nn.ReLU(),
            nn.Conv1d(c5, CLASSES, 1),
        )

    def logits(self, cells: torch.Tensor) -> torch.Tensor:
        """Return batch x steps x classes logits."""
        return self.steps(self.features(cells).squeeze(2)).transpose(1, 2)

    def forward(self, cells: torch.Tensor) -> torch.Tensor:
        return torch.softmax(self.logits(cells), dim=-1)


def _targets(labels: list[str]) -> tuple[torch.Tensor, torch.Tensor]:
    flat = [int(c) + 1 for text in labels for c in text]
    return torch.tensor(flat, dtype=torch.long), torch.tensor([len(t) for t in labels])


Renderer = Callable[..., tuple[np.ndarray, list[str]]]


def train(net: CellNet, cells: np.ndarray, labels: list[str], epochs: int,
          batch: int = 128, renew: Renderer | None = None, seed: int = 0) -> None:
    """Train *net* on *cells* with CTC, a one-cycle learning rate. With *renew* (count,
    seed= -> cells, labels), half the cells are replaced by newly written ones after each
    epoch, written in another process while the epoch trains."""
    loss_fn = nn.CTCLoss(blank=0, zero_infinity=True)
    steps = epochs * (len(cells) // batch)
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    rng = np.random.default_rng(seed)
    labels = list(labels)
    started = time.monotonic()
    with ProcessPoolExecutor(max_workers=1) as pool:
        for epoch in range(epochs):
            fresh = (pool.submit(renew, len(cells) // 2, seed=1000 + epoch + 10_000 * seed)
                     if renew is not None and epoch + 1 < epochs else None)
            loss = _epoch(net, torch.from_numpy(cells[:, None]), labels, batch, rng,
                          (opt, sched, loss_fn))
            print(f"epoch {epoch + 1}/{epochs}: loss {loss:.4f} "
                  f"({time.monotonic() - started:.0f} s)", flush=True)
            if fresh is not None:
                new_cells, new_labels = fresh.result()
                slots = rng.choice(len(cells), len(new_cells), replace=False)
                cells[slots] = new_cells
                for slot, label in zip(slots, new_labels, strict=True):
                    labels[slot] = label


def _epoch(net: CellNet, data: torch.Tensor, labels: list[str], batch: int,
           rng: np.random.Generator, tools: tuple[Any, Any, nn.CTCLoss]) -> float:
    """Train one pass over *data*; return the mean loss."""
    opt, sched, loss_fn = tools
    net.train()
    order = rng.permutation(len(data))
    total = 0.0
    for start in range(0, len(order) - batch + 1, batch):
        idx = order[start:start + batch]
        x = data[idx]
        if rng.random() < 0.5:  # a little more or less ink than rendered
            x = torch.clamp(x * float(rng.uniform(0.7, 1.3)), 0, 1)
        logp = torch.log_softmax(net.logits(x), -1).transpose(0, 1)  # T x N x C
        targets, lengths = _targets([labels[i] for i in idx])
        inputs = torch.full((len(idx),), logp.shape[0], dtype=torch.long)
        loss = loss_fn(logp, targets, inputs, lengths)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        total += float(loss.detach()) * len(idx)
    return total / len(data)


def read_cells(net: CellNet, cells: np.ndarray) -> list[CellReading]:
    """Return the readings of *cells* by *net* (as the shipped model reads them)."""
    net.eval()
    with torch.no_grad():
        probs = torch.cat([net(torch.from_numpy(cells[i:i + 512, None]))
                           for i in range(0, len(cells), 512)]).numpy()
    return [CellReading(to_candidates(ctc_candidates(p))) for p in probs]


def accuracy(readings: list[CellReading], labels: list[str]) -> float:
    """Return the share of cells whose likeliest reading is their value."""
    right = [r.value == (int(t) if t else None) for r, t in zip(readings, labels, strict=True)]
    return float(np.mean(right))


def export(net: CellNet, path: Path) -> None:
    """Write *net* as ONNX (any batch size) to *path*."""
    net.eval()
    torch.onnx.export(net, (torch.zeros(1, 1, CELL_H, CELL_W),), str(path),
                      input_names=["cells"], output_names=["probs"],
                      dynamic_axes={"cells": {0: "n"}, "probs": {0: "n"}}, opset_version=17,
                      dynamo=False)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cells", type=int, default=96_000, help="rendered training cells")
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--no-renew", dest="renew", action="store_false",
                        help="train every epoch on the same cells")
    parser.add_argument("--width", type=int, default=1, help="channels times the base")
    # One thread trains faster than two on a machine whose two cores are shared.
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0, help="of the weights and the cells")
    parser.add_argument("--strokes", type=float, default=0.0,
                        help="share of digits drawn from stroke forms (models.strokes)")
    parser.add_argument("--low-res", type=float, default=LOW_RES,
                        help="share of digits seen at 7-12 px and enlarged back")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    started = time.monotonic()
    mnist, held = mnist_split()
    seen: GlyphSource = replace(mnist, vary=True, low_res=args.low_res)
    if args.strokes:
        seen = Blend(seen, StrokeGlyphs(), args.strokes)
    cells, labels = cell_batch(args.cells, seen, seed=1 + 10_000 * args.seed)
    val_cells, val_labels = cell_batch(3000, held, seed=2)
    print(f"rendered {len(cells)} cells in {time.monotonic() - started:.0f} s", flush=True)
    net = CellNet(args.width)
    print(f"{sum(p.numel() for p in net.parameters())} parameters", flush=True)
    renew = partial(cell_batch, glyphs=seen) if args.renew else None
    train(net, cells, labels, args.epochs, renew=renew, seed=args.seed)
    print(f"held-out MNIST cells: accuracy {accuracy(read_cells(net, val_cells), val_labels):.4f}")
    export(net, args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size / 1024:.0f} kB) after "
          f"{(time.monotonic() - started) / 60:.1f} min")


if __name__ == "__main__":
    main()
