"""The live camera's judgement (static/js/settle.js) in a game of six dice (Maxi Yatzy):
six dice settle into a roll, five are too few, a saved roll is still a roll to propose."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.test_settle import SCENE, kinds, reading, run, state

pytestmark = pytest.mark.browser

SIX = [*SCENE, (6, 580, 400)]


@pytest.fixture
def js(page: Any, live_server: str) -> Any:
    """A page of the real server, to import the module from."""
    page.goto(f"{live_server}/")
    return page


def six(**fields: Any) -> dict[str, Any]:
    """Return the fields of a Maxi Yatzy state that settle.js reads."""
    return {**state(**fields), "dice_count": 6}


def test_six_dice_lying_still_are_proposed(js: Any) -> None:
    views = run(js, [reading(SIX)] * 6, six())
    assert kinds(views) == ["moving"] * 4 + ["propose"] * 2
    assert views[-1]["dice"] == [4, 1, 5, 5, 1, 6] and views[-1]["kept"] == []


def test_five_dice_are_too_few_for_a_roll_of_six(js: Any) -> None:
    views = run(js, [reading(SCENE)] * 6, six())
    assert {view["kind"] for view in views} == {"count"}
    assert views[-1]["seen"] == 5


def test_a_kept_die_of_six_and_a_fourth_roll_from_the_saved_ones(js: Any) -> None:
    rolled = [4, 1, 5, 5, 1, 6]
    after = {**six(roll=3, dice=rolled, version=2,
                   history=[{"type": "roll", "dice": rolled, "kept": [], "roll": 3}]),
             "max_rolls": 5}
    thrown = [(6, 60, 380), (6, 200, 200), (2, 300, 40), (5, 380, 120), (3, 520, 400),
              (1, 600, 100)]
    views = run(js, [reading(SIX)] * 5 + [reading(thrown)] * 5, after)
    assert kinds(views) == ["moving"] * 4 + ["waiting"] + ["moving"] * 4 + ["propose"]
    assert views[-1]["kept"] == [2]
    assert views[-1]["dice"] == [6, 6, 5, 2, 3, 1]
