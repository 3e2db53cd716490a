"""Optimal solitaire play: exact expected final scores by backward induction (numpy).

The only part of scorekeeper that imports numpy.

>>> from scorekeeper.advisor import solve
>>> round(solve("yahtzee").expected_score, 7)  # doctest: +SKIP
254.5877287
"""

from scorekeeper.advisor.advise import (
    KeepError,
    Option,
    advise,
    best_expected,
    keep_value,
    loss_of_box,
    loss_of_keep,
)
from scorekeeper.advisor.cache import cache_dir, cache_key, cache_path, load, save, solve
from scorekeeper.advisor.cards import CardFileError, card_from_data
from scorekeeper.advisor.solver import (
    ALGORITHM_VERSION,
    AdvisorError,
    Table,
    UnreachableCardError,
    build,
)

__all__ = [
    "ALGORITHM_VERSION",
    "AdvisorError",
    "CardFileError",
    "KeepError",
    "Option",
    "Table",
    "UnreachableCardError",
    "advise",
    "best_expected",
    "build",
    "cache_dir",
    "cache_key",
    "cache_path",
    "card_from_data",
    "keep_value",
    "load",
    "loss_of_box",
    "loss_of_keep",
    "save",
    "solve",
]
