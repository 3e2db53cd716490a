"""pipkeeper's printed pad carries four ArUco markers (4x4 bits, ids 0..3 clockwise from
the top left) just outside the corners of its score grid, `MARKER_GAP` of a marker's side
away from the grid's corner on both axes; web/static/js/print.js prints the same bits.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

MARKER_GAP = 0.25
MARKER_IDS = (0, 1, 2, 3)  # top left, top right, bottom right, bottom left
_DICTIONARY = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
# The corner of each marker nearest the grid: ArUco corners run clockwise from the marker's
# own top left, so marker 0 gives its bottom right (2), marker 1 its bottom left (3), ...
_INNER_CORNER = {0: 2, 1: 3, 2: 0, 3: 1}


def marker_image(marker_id: int, side: int) -> np.ndarray:
    """Return marker *marker_id* as a side x side gray image (black border included)."""
    return cv2.aruco.generateImageMarker(_DICTIONARY, marker_id, side)


def marker_bits(marker_id: int) -> list[str]:
    """Return the inner 4x4 bits of marker *marker_id*, rows top to bottom ("1" white)."""
    image = marker_image(marker_id, 6)
    return ["".join("1" if v > 127 else "0" for v in row[1:5]) for row in image[1:5]]


@dataclass(frozen=True)
class Markers:
    """The pad's markers found in a photo: id -> its 4 corners (clockwise, photo pixels)."""

    corners: dict[int, np.ndarray]

    @property
    def complete(self) -> bool:
        """True when all four markers were found."""
        return all(i in self.corners for i in MARKER_IDS)

    def grid_corners(self) -> np.ndarray:
        """Return the grid's corners (top left, top right, bottom right, bottom left) in
        the photo, from the markers' corners nearest them and the printed gap."""
        points = []
        for marker_id in MARKER_IDS:
            quad = self.corners[marker_id]
            inner = quad[_INNER_CORNER[marker_id]]
            # From the inner corner, a gap along both of the marker's sides leads to the grid.
            along = [quad[(_INNER_CORNER[marker_id] + k) % 4] - inner for k in (1, 3)]
            points.append(inner - MARKER_GAP * (along[0] + along[1]))
        return np.array(points, dtype=np.float32)


def find_markers(gray: np.ndarray) -> Markers:
    """Return the pad markers (ids 0..3) found in *gray*; several of one id keep the
    largest."""
    detector = cv2.aruco.ArucoDetector(_DICTIONARY, cv2.aruco.DetectorParameters())
    corners, ids, _ = detector.detectMarkers(gray)
    found: dict[int, np.ndarray] = {}
    for quad, marker_id in zip(corners, ids.ravel() if ids is not None else [], strict=False):
        number = int(marker_id)
        if number not in MARKER_IDS:
            continue
        quad = quad.reshape(4, 2).astype(np.float32)
        if number not in found or cv2.contourArea(quad) > cv2.contourArea(found[number]):
            found[number] = quad
    return Markers(found)
