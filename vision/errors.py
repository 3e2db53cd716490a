"""The root of every error the camera pipeline raises on purpose.

`VisionError` covers an image that cannot be read (`ImageError`), models that
cannot be loaded (`ModelError`) and a reading that is not a roll
(`DiceCountReadError`); anything else the pipeline raises is a bug.
"""

from __future__ import annotations


class VisionError(Exception):
    """A photo or model the pipeline cannot use; the message says which and why."""
