"""Photo -> dice values: OpenCV + onnxruntime, no web framework.

>>> from vision import read_dice
>>> reading = read_dice("sample_images/sample_01.jpg")  # doctest: +SKIP
>>> reading.dice()  # doctest: +SKIP
"""

from vision.errors import VisionError
from vision.image import ImageError
from vision.onnx import ModelError
from vision.pipeline import read_dice
from vision.reading import DOUBTFUL_BELOW, DiceCountReadError, DiceReading, Die

__all__ = [
    "DOUBTFUL_BELOW", "DiceCountReadError", "DiceReading", "Die", "ImageError", "ModelError",
    "VisionError", "read_dice",
]
