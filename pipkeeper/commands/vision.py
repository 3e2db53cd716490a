"""Sub-commands for vision (registered by pipkeeper.cli)."""

from __future__ import annotations

import argparse
from typing import Any


def register(subparsers: Any) -> None:
    """Add this module's sub-commands to *subparsers*."""
    del subparsers
