"""Train the dice detector and face classifier on CPU, then export both to ONNX.

``python -m models.train`` trains on every real source but its held-out photos
(models.data.TRAINING) and rendered dice, and writes models/detector.onnx and
models/faces.onnx. ``--sources byler-train`` (or any other source) and ``--out DIR``
train a cross-source model elsewhere.
"""

from __future__ import annotations

import argparse
import pickle
import shutil
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import torch
from torch import nn

from models.compress import compress_file, set_poses
from models.cutouts import Cutout, composite_photos, cutout_bank
from models.data import ANGLED, TRAINING
from models.ensemble import join_files
from models.nets import Classifier, Detector, Exported, PretrainedReader
from models.resume import mixed, shipped_reader
from models.samples import (
    Photo,
    Pool,
    crop_sample,
    detector_sample,
    load_photos,
    rendered_photos,
    shrink,
    turned,
    with_hard_negatives,
)
from vision.detect import DETECTOR_MODEL, DiceDetector
from vision.faces import CROP_SIZE
from vision.onnx import open_session

MODELS = Path(__file__).resolve().parent
CHECKPOINTS = MODELS.parent / "runs" / "checkpoints"  # git-ignored
SEED = 7
RENDERED_SHARE = 0.2  # of the samples; the real sources share the rest evenly
COMPOSITE_SHARE = 0.15  # rendered tables holding real dice (models.cutouts)
CUTOUTS_PER_SOURCE = 600
BOX_WEIGHT = 2.0  # of the classifier's box loss against its class loss
# Poses a reader reads each crop in: four for the small one (each pose is cheap and
# the average steadier); two for EfficientNet, whose every pose costs far more.
POSES = {"small": 4, "pretrained": 2}
PRETRAINED_CROP = 64  # EfficientNet halves the crop five times


def focal_loss(logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """Return CenterNet's penalty-reduced focal loss, normalized by the number of centres."""
    p = torch.sigmoid(logits).clamp(1e-4, 1 - 1e-4)
    centre = target.eq(1).float()
    pos = -torch.log(p) * (1 - p) ** 2 * centre
    neg = -torch.log(1 - p) * p**2 * (1 - target) ** 4 * (1 - centre)
    return (pos.sum() + neg.sum()) / centre.sum().clamp(min=1)


def detector_step(net: Detector, pool: Pool, rng: np.random.Generator,
                  batch: int, size: int) -> torch.Tensor:
    """Return the loss of one random detector batch."""
    samples = [detector_sample(pool.pick(rng), rng, size) for _ in range(batch)]
    image, heat, reg, mask = (torch.from_numpy(np.stack(parts)) for parts in zip(*samples,
                                                                                strict=True))
    heat_out, reg_out = net(image / 255.0)
    box_loss = (torch.abs(reg_out - reg) * mask).sum() / mask.sum().clamp(min=1)
    return focal_loss(heat_out, heat) + box_loss


def classifier_step(net: nn.Module, pool: Pool, rng: np.random.Generator,
                    batch: int, size: int) -> torch.Tensor:
    """Return the loss of one random classifier batch: classes plus the die's box."""
    crops, labels, codes, masks = zip(*(crop_sample(pool, rng, size=size)
                                        for _ in range(batch)), strict=True)
    logits, box = net(torch.from_numpy(np.stack(crops)) / 255.0)
    mask = torch.from_numpy(np.stack(masks))
    box_loss = (torch.abs(box - torch.from_numpy(np.stack(codes))) * mask).sum()
    return (nn.functional.cross_entropy(logits, torch.tensor(labels), label_smoothing=0.05)
            + BOX_WEIGHT * box_loss / mask.sum().clamp(min=1))


def fit(net: nn.Module, step: Callable[..., torch.Tensor], pool: Pool,
        steps: int, batch: int, size: int, name: str, lr: float = 3e-3,
        seed: int = SEED) -> None:
    """Train *net* for *steps* batches with AdamW and a one-cycle learning rate."""
    rng = np.random.default_rng(seed)
    optimizer = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimizer, lr, total_steps=steps,
                                                   pct_start=0.1)
    net.train()
    started, running = time.time(), 0.0
    for i in range(1, steps + 1):
        loss = step(net, pool, rng, batch, size)
        optimizer.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call]
        optimizer.step()
        schedule.step()
        value = float(loss.detach())
        running = 0.98 * running + 0.02 * value if i > 1 else value
        if i % 100 == 0 or i == steps:
            print(f"{name} step {i}/{steps} loss {running:.4f} "
                  f"({time.time() - started:.0f} s)", flush=True)
            CHECKPOINTS.mkdir(exist_ok=True)
            torch.save(net.state_dict(), CHECKPOINTS / f"{name}.pt")
    net.eval()


def export(net: nn.Module, path: Path, detector: bool, crop: int = CROP_SIZE) -> None:
    """Write *net* as ONNX taking 0..255 floats (batch and, for the detector, size dynamic)."""
    wrapped = Exported(net, detector).eval()
    size = (1, 3, 256, 256) if detector else (1, 3, crop, crop)
    outputs = ["heat", "box"] if detector else ["probs", "box"]
    axes = {0: "n", 2: "h", 3: "w"} if detector else {0: "n"}
    torch.onnx.export(wrapped, (torch.zeros(size),), str(path), input_names=["image"],
                      output_names=outputs, dynamic_axes={"image": axes}, opset_version=17,
                      dynamo=False)
    print(f"wrote {path} ({path.stat().st_size / 1e3:.0f} kB)", flush=True)


def train_detector(pool: Pool, args: argparse.Namespace) -> None:
    """Train the detector, then refine it at a lower learning rate; export it."""
    partner = CHECKPOINTS / "joined-detector.onnx"  # copied: --out may hold it
    if args.join_with:
        CHECKPOINTS.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(args.join_with, partner)
    torch.manual_seed(args.seed)  # each model starts the same whether trained alone or not
    detector = Detector()
    if args.detector_init:  # go on from a detector's checkpoint
        detector.load_state_dict(torch.load(args.detector_init))
    views = pool.map(lambda p: shrink(p, 768))
    name = f"{args.out.name}-detector"
    if args.detector_steps:
        fit(detector, detector_step, views, args.detector_steps, 32, 192, name, seed=args.seed)
    if args.detector_refine_steps:
        fit(detector, detector_step, views, args.detector_refine_steps, 32, 192,
            f"{name}-refine", lr=1e-3, seed=args.seed + 1)
    export(detector, args.out / "detector.onnx", detector=True)
    if args.join_with:  # one file computing both networks (models.ensemble)
        join_files(partner, args.out / "detector.onnx", args.out / "detector.onnx")
        print(f"joined with {args.join_with}", flush=True)


def train_classifier(pool: Pool, args: argparse.Namespace) -> None:
    """Train the face classifier with the detector's false detections as "not a die"."""
    detector = DiceDetector(open_session(DETECTOR_MODEL, args.out))
    mined = pool.map(lambda p: with_hard_negatives(p, detector))
    print(f"{sum(len(p.hard) for p in mined.photos)} false detections mined", flush=True)
    torch.manual_seed(args.seed)
    if args.reader == "pretrained":
        crop = args.crop or PRETRAINED_CROP
        classifier: nn.Module = PretrainedReader(crop)
        batch, lr = 64, 1e-3
    else:
        crop = args.crop or CROP_SIZE
        classifier, batch, lr = Classifier(crop), 128, 3e-3
    if args.init:  # go on from a trained reader, at a third of the learning rate
        if args.init.suffix == ".onnx":
            classifier = shipped_reader(args.init, crop)
        else:
            classifier.load_state_dict(torch.load(args.init))
        lr /= 3
    start = {k: v.clone() for k, v in classifier.state_dict().items()}
    fit(classifier, classifier_step, mined, args.classifier_steps, batch, crop,
        f"{args.out.name}-classifier", lr=lr, seed=args.seed)
    if args.init and args.keep_start:
        classifier.load_state_dict(mixed(start, classifier.state_dict(), args.keep_start))
    export(classifier, args.out / "faces.onnx", detector=False, crop=crop)
    if args.reader == "pretrained":  # 13.5 MB of float32 weights: stored as int8
        compress_file(args.out / "faces.onnx", args.out / "faces.onnx")
    set_poses(args.out / "faces.onnx", args.poses or POSES[args.reader])


def cached_bank(sources: list[str], real: list[list[Photo]]) -> list[Cutout]:
    """Return the real dice cut out of *real* (the photos of *sources*), cutting them once:
    the bank is kept in runs/checkpoints/ under the sources' names (GrabCut takes about a
    minute a source)."""
    path = CHECKPOINTS / f"cutouts-{'-'.join(sources)}-{CUTOUTS_PER_SOURCE}.pkl"
    if path.exists():
        with path.open("rb") as stored:
            bank: list[Cutout] = pickle.load(stored)
        return bank
    rng = np.random.default_rng(SEED)
    bank = [cut for group in real for cut in cutout_bank(group, CUTOUTS_PER_SOURCE, rng)]
    CHECKPOINTS.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as out:
        pickle.dump(bank, out)
    return bank


def main(argv: list[str] | None = None) -> None:
    """Train and export both models."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sources", nargs="+", default=list(TRAINING))
    parser.add_argument("--rendered", type=int, default=300, help="rendered scenes to add")
    parser.add_argument("--composites", type=int, default=300,
                        help="rendered tables holding real dice cut from the sources")
    parser.add_argument("--out", type=Path, default=MODELS)
    parser.add_argument("--detector-steps", type=int, default=1200)
    parser.add_argument("--classifier-steps", type=int, default=5000)
    parser.add_argument("--detector-refine-steps", type=int, default=600,
                        help="further detector steps at a third of the learning rate")
    parser.add_argument("--only", choices=["detector", "classifier"],
                        help="train one model; the classifier learns from the false "
                             "detections of the detector already in --out")
    parser.add_argument("--reader", choices=["small", "pretrained"], default="small",
                        help="face reader: the small network trained from scratch, or "
                             "EfficientNet-Lite0's first blocks with ImageNet weights, fine-tuned")
    parser.add_argument("--crop", type=int, help=f"the reader's crop side (default "
                                                 f"{CROP_SIZE}, pretrained {PRETRAINED_CROP})")
    parser.add_argument("--poses", type=int, choices=[1, 2, 3, 4],
                        help="poses the reader reads each crop in (default: small 4, "
                             "pretrained 2)")
    parser.add_argument("--turn", type=float, default=180.0, metavar="DEGREES",
                        help="the reader's crops of photos taken at an angle (Roboflow, "
                             "Rune55's tables, rendered scenes) are turned by at most this "
                             "much, keeping the photo's up, which tells a die's top face "
                             "from its sides (default 180: any way; read it in 2 poses, "
                             "--poses 2)")
    parser.add_argument("--join-with", type=Path,
                        help="a detector file to join with the trained one (its heatmap's "
                             "maximum; the shipped detector joins two, see the model card)")
    parser.add_argument("--detector-init", type=Path,
                        help="a detector checkpoint (runs/checkpoints/*-detector*.pt) to go on "
                             "training")
    parser.add_argument("--init", type=Path, help="a reader to go on training: a checkpoint "
                                                  "or the small reader's ONNX file")
    parser.add_argument("--keep-start", type=float, default=0.0, metavar="SHARE",
                        help="with --init: the trained reader's weights are averaged with "
                             "the starting reader's, SHARE of them kept")
    parser.add_argument("--threads", type=int, default=2, help="torch threads")
    parser.add_argument("--seed", type=int, default=SEED,
                        help="the networks' start and the order of their batches (going on "
                             "from a reader, another seed shows it other crops)")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    started = time.time()
    real = [turned(load_photos(source), args.turn if source in ANGLED else 180.0)
            for source in args.sources]
    rendered = turned(rendered_photos(args.rendered, SEED), args.turn)
    bank = cached_bank(args.sources, real) if args.composites else []
    composites = composite_photos(args.composites, SEED + 2, bank)
    real_share = 1 - RENDERED_SHARE - (COMPOSITE_SHARE if composites else 0)
    shares = [real_share / len(real)] * len(real) + [RENDERED_SHARE, COMPOSITE_SHARE]
    pool = Pool.of([*real, rendered, composites], shares)
    print(f"{len(bank)} real dice cut out for {len(composites)} tables", flush=True)
    print(f"{len(pool.photos)} photos, {sum(len(p.boxes) for p in pool.photos)} dice "
          f"({time.time() - started:.0f} s)", flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    if args.only != "classifier":
        train_detector(pool, args)
    if args.only != "detector":
        train_classifier(pool, args)
    print(f"trained in {(time.time() - started) / 60:.1f} min", flush=True)


if __name__ == "__main__":
    main()
