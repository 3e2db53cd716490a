"""Does capacity or the length of training limit how well the reader reads values?

Trains face readers of two capacities (the small reader, ~299,000 parameters, and
EfficientNet-Lite0 with ImageNet weights, 3.4M) for short and long schedules on the
same training dice, and exports each as a reader file that ``python -m models.values
--models DIR`` reads on every source's held-out dice.

The training dice travel as a compact bank (``bank``): each labelled die of the
training photos cut out with the margin the trainer's crops take, so a machine with a
GPU (or any other) can train without the photos; rendered scenes are rendered where
the training runs. The readers learn values only: no hard negatives, "not a die" only
from rendered decoys, so they are for measuring, not for shipping.

    python -m models.capacity bank runs/capacity/bank.pkl [--patch 96]
        (patches of 96 px for the readers of 56 px crops, `small-56`)
    python -m models.capacity train runs/capacity/bank.pkl --out DIR [--device cuda]
        [--without rune55]   (a source left out: how each reader reads a camera unseen)
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn

from models.cropbank import PATCH, build_bank, load_bank, unbank
from models.data import TRAINING
from models.nets import Classifier, Exported, PretrainedReader
from models.samples import Photo, Pool, crop_sample, rendered_photos
from vision.faces import CROP_SIZE

RENDERED = 300  # rendered scenes, as in `make train`
RENDERED_SHARE = 0.2
BOX_WEIGHT = 2.0


@dataclass(frozen=True, slots=True)
class Run:
    """One reader to train: its kind, crop side, steps, batch and peak learning rate, and
    the share of that rate its pretrained layers take (the heads take the whole)."""

    name: str
    reader: str
    crop: int
    steps: int
    batch: int
    lr: float
    pretrained_share: float = 1.0


# The short schedules are `make train`'s on the CPU; the long ones 4 and 13 times the crops.
RUNS = (Run("efficientnet-long", "pretrained", 64, 10000, 128, 1e-3),
        Run("small-long", "small", CROP_SIZE, 20000, 128, 3e-3),
        Run("small-short", "small", CROP_SIZE, 5000, 128, 3e-3),
        Run("small-56", "small", 56, 5000, 128, 3e-3),
        Run("efficientnet-short", "pretrained", 64, 1500, 64, 1e-3),
        Run("efficientnet-gentle", "pretrained", 64, 1500, 64, 1e-3, 0.1))


def render_part(seed: int) -> list[Photo]:
    """Return 20 rendered scenes of *seed* (one worker's share)."""
    return rendered_photos(20, seed)


def training_pool(path: Path, rendered: int = RENDERED, workers: int = 1,
                  without: tuple[str, ...] = ()) -> Pool:
    """Return the pool of the banked dice (each source an even share, but those whose name
    starts with one of *without*) and rendered scenes."""
    real = [unbank(dice) for dice in load_bank(path, without).values()]
    seeds = [7000 + k for k in range(max(1, rendered // 20))]
    with ProcessPoolExecutor(max(1, workers)) as pool:
        scenes = [p for part in pool.map(render_part, seeds) for p in part][:rendered]
    shares = [(1 - RENDERED_SHARE) / len(real)] * len(real) + [RENDERED_SHARE]
    return Pool.of([*real, scenes], shares)


class Crops(torch.utils.data.IterableDataset):  # type: ignore[type-arg]
    """Endless batches of training crops, each worker with its own seed."""

    def __init__(self, pool: Pool, batch: int, crop: int, seed: int) -> None:
        self.pool, self.batch, self.crop, self.seed = pool, batch, crop, seed

    def __iter__(self) -> Iterator[tuple[torch.Tensor, ...]]:
        cv2.setNumThreads(1)  # one thread a worker: the workers are the parallelism
        info = torch.utils.data.get_worker_info()
        rng = np.random.default_rng([self.seed, info.id if info else 0])
        while True:
            # negative_share 0: only rendered scenes without dice give "not a die"
            samples = [crop_sample(self.pool, rng, 0.0, self.crop) for _ in range(self.batch)]
            crops, labels, codes, masks = zip(*samples, strict=True)
            yield (torch.from_numpy(np.stack(crops)), torch.tensor(labels),
                   torch.from_numpy(np.stack(codes)), torch.from_numpy(np.stack(masks)))


def make_reader(run: Run) -> nn.Module:
    """Return a fresh reader of *run*'s kind."""
    return Classifier(run.crop) if run.reader == "small" else PretrainedReader(run.crop)


def train(run: Run, pool: Pool, device: str, workers: int) -> nn.Module:
    """Train *run*'s reader on *device*; print the loss every 500 steps."""
    torch.manual_seed(7)
    net = make_reader(run).to(device)
    groups: tuple[list[nn.Parameter], list[nn.Parameter]] = ([], [])  # heads, the rest
    for name, parameter in net.named_parameters():
        groups[not name.startswith(("classes.", "box."))].append(parameter)
    rates = [run.lr, run.lr * run.pretrained_share]
    optimizer = torch.optim.AdamW([{"params": group} for group in groups], lr=run.lr,
                                  weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimizer, rates, total_steps=run.steps,
                                                   pct_start=0.1)
    crops = Crops(pool, run.batch, run.crop, 7)
    batches = torch.utils.data.DataLoader(crops, batch_size=None, num_workers=workers,
                                          prefetch_factor=8 if workers else None,
                                          pin_memory=device != "cpu")
    net.train()
    started, total = time.time(), torch.zeros((), device=device)
    for step, (crops, labels, codes, masks) in enumerate(batches, start=1):
        crops, labels, codes, masks = (t.to(device, non_blocking=True)
                                       for t in (crops, labels, codes, masks))
        logits, box = net(crops / 255.0)
        loss = (nn.functional.cross_entropy(logits, labels, label_smoothing=0.05)
                + BOX_WEIGHT * (torch.abs(box - codes) * masks).sum() / masks.sum().clamp(min=1))
        optimizer.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call]
        optimizer.step()
        schedule.step()
        total += loss.detach()
        if step % 500 == 0 or step == run.steps:
            mean = float(total) / (500 if step % 500 == 0 else step % 500)
            print(f"{run.name} step {step}/{run.steps} loss {mean:.4f} "
                  f"({time.time() - started:.0f} s)", flush=True)
            total.zero_()
        if step == run.steps:
            break
    return net.eval().cpu()


def export(net: nn.Module, run: Run, folder: Path) -> Path:
    """Write *net* as a reader file ``folder/RUN/faces.onnx`` (its weights, ``RUN.pt``,
    where this torch cannot export ONNX)."""
    path = folder / run.name / "faces.onnx"
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        _onnx(net, run, path)
    except Exception as error:
        print(f"ONNX export failed ({error}); saving the weights", flush=True)
        path = path.with_name(f"{run.name}.pt")
        torch.save(net.state_dict(), path)
    return path


def _onnx(net: nn.Module, run: Run, path: Path) -> None:
    """Export *net* to *path* as the reader's ONNX file."""
    torch.onnx.export(Exported(net, False).eval(), (torch.zeros(1, 3, run.crop, run.crop),),
                      str(path), input_names=["image"], output_names=["probs", "box"],
                      dynamic_axes={"image": {0: "n"}}, opset_version=17, dynamo=False)


def main(argv: list[str] | None = None) -> int:
    """Build the bank, or train and export the readers."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=["bank", "train"])
    parser.add_argument("path", type=Path, help="the bank of training dice")
    parser.add_argument("--out", type=Path, default=Path("runs/capacity"))
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--runs", nargs="+", default=[r.name for r in RUNS])
    parser.add_argument("--steps", type=int, help="train every run this many steps (a trial)")
    parser.add_argument("--rendered", type=int, default=RENDERED)
    parser.add_argument("--without", nargs="+", default=[], metavar="SOURCE",
                        help="leave out the banked sources starting so (byler, roboflow, rune55)")
    parser.add_argument("--patch", type=int, default=PATCH,
                        help="side of a banked die's patch (96 for readers of 56 px crops)")
    parser.add_argument("--workers", type=int, default=max(1, (os.cpu_count() or 2) - 2))
    args = parser.parse_args(argv)
    torch.backends.cudnn.benchmark = True
    if args.action == "bank":
        print(build_bank(list(TRAINING), args.path, args.patch), flush=True)
        return 0
    pool = training_pool(args.path, args.rendered, args.workers, tuple(args.without))
    print(f"{len(pool.photos)} photos in the pool", flush=True)
    for run in RUNS:
        if run.name in args.runs:
            if args.steps:
                run = replace(run, steps=args.steps)
            started = time.time()
            path = export(train(run, pool, args.device, args.workers), run,
                          args.out)
            print(f"{run.name}: {run.steps} steps in {time.time() - started:.0f} s, "
                  f"wrote {path}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
