"""Finding and opening the project's ONNX models (each loaded once per process)."""

from __future__ import annotations

import os
from pathlib import Path

import onnxruntime as ort

from vision.errors import VisionError

MODELS = Path(__file__).resolve().parent.parent / "models"


class ModelError(VisionError, OSError):
    """A model file is missing or cannot be loaded."""


def open_session(name: str, folder: Path | None = None) -> ort.InferenceSession:
    """Return an inference session for *name* in *folder*; sessions are safe to share.

    The folder defaults to ``$PIPKEEPER_MODELS`` or the project's ``models/``.
    Raises ModelError when the file is missing.
    """
    path = (folder or Path(os.environ.get("PIPKEEPER_MODELS", MODELS))) / name
    if not path.exists():
        raise ModelError(f"model {path} not found; train it with `make train`")
    options = ort.SessionOptions()
    # A few threads per session: small models gain little beyond that, and a web
    # server runs several requests side by side.
    options.intra_op_num_threads = min(4, os.cpu_count() or 1)
    options.inter_op_num_threads = 1
    # Two sessions run one after the other per photo; spinning worker threads of one
    # would steal the CPU from the other (and from other requests).
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    # Weights stored as int8 with a DequantizeLinear in front (models.compress) are
    # turned back into float32 constants once, at load, instead of at every run.
    options.add_session_config_entry("session.disable_quant_qdq", "1")
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
