"""Sub-commands of the `pipkeeper` command line, one module per concern.

Each module exposes `register(subparsers)`, which adds its sub-commands and
sets `handler` on them: a function of the parsed arguments returning the exit code.
Heavy imports (OpenCV, onnxruntime, Flask, numpy) happen inside the handlers so
that `pipkeeper rules` starts instantly.
"""
