"""The live camera's judgement (static/js/settle.js), run in Chromium on sequences of readings.

Each frame is a reading as the frames route returns it; the module is imported into a page
of the real server and stepped frame by frame, 250 ms apart, as the hands-free mode does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

pytestmark = pytest.mark.browser

SIZE = 60  # a die's box in frame pixels
# Five dice at their places on the table: (value, x, y).
SCENE = [(4, 40, 200), (1, 150, 60), (5, 260, 300), (5, 380, 120), (1, 500, 260)]

RUN = """async ({frames, states}) => {
  const m = await import("/static/js/settle.js");
  let memory = m.fresh();
  const views = [];
  frames.forEach((reading, i) => {
    const result = m.step(memory, reading, i * 250, states[i]);
    memory = result.memory;
    views.push(result.view);
  });
  return views;
}"""


def reading(scene: Sequence[tuple[int, int, int]], doubtful: int = 0) -> dict[str, Any]:
    """Return a 640x480 reading of *scene*, plus *doubtful* unclear finds."""
    dice = [{"value": v, "box": [x, y, x + SIZE, y + SIZE], "confidence": 0.95,
             "doubtful": False} for v, x, y in scene]
    dice += [{"value": 2, "box": [600, 10 + 70 * i, 600 + SIZE, 70 + 70 * i],
              "confidence": 0.3, "doubtful": True} for i in range(doubtful)]
    return {"width": 640, "height": 480, "dice": dice}


def state(roll: int = 0, dice: list[int] | None = None, version: int = 1,
          phase: str = "play", history: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Return the fields of a game state that settle.js reads."""
    return {"phase": phase, "roll": roll, "max_rolls": 3, "dice": dice, "version": version,
            "history": history or []}


def run(page: Any, frames: list[dict[str, Any]],
        states: dict[str, Any] | list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Step settle.js through *frames* (250 ms apart) under *states* (one, or one per frame)."""
    every = states if isinstance(states, list) else [states] * len(frames)
    views: list[dict[str, Any]] = page.evaluate(RUN, {"frames": frames, "states": every})
    return views


@pytest.fixture
def js(page: Any, live_server: str) -> Any:
    """A page of the real server, to import the module from."""
    page.goto(f"{live_server}/")
    return page


def kinds(views: list[dict[str, Any]]) -> list[str]:
    """Return the kind of each view."""
    return [view["kind"] for view in views]


def test_dice_lying_still_for_a_second_are_proposed_then_recorded(js: Any) -> None:
    views = run(js, [reading(SCENE)] * 12, state())
    assert kinds(views) == ["moving"] * 4 + ["propose"] * 8
    first = views[4]
    assert first["dice"] == [4, 1, 5, 5, 1] and first["kept"] == []
    assert first["due"] == 2500 and not first["ready"]
    assert [view["ready"] for view in views[4:]] == [False] * 6 + [True] * 2


def test_a_few_pixels_of_jitter_still_settle(js: Any) -> None:
    frames = [reading([(v, x + (i % 3) * 4, y - (i % 2) * 5) for v, x, y in SCENE])
              for i in range(6)]
    assert kinds(run(js, frames, state())) == ["moving"] * 4 + ["propose"] * 2


def test_dice_still_rolling_are_not_proposed(js: Any) -> None:
    frames = [reading([(v, x + 40 * i, y) for v, x, y in SCENE]) for i in range(8)]
    assert kinds(run(js, frames, state())) == ["moving"] * 8


def test_a_flickering_value_waits_until_it_holds_for_a_second(js: Any) -> None:
    flicker = [reading([(3 if i % 2 else 5, 260, 300) if d == 2 else die
                        for d, die in enumerate(SCENE)]) for i in range(6)]
    views = run(js, flicker + [reading(SCENE)] * 6, state())
    assert kinds(views) == ["moving"] * 10 + ["propose"] * 2
    assert views[-1]["dice"] == [4, 1, 5, 5, 1]


def test_a_die_that_did_not_move_since_the_last_roll_is_kept(js: Any) -> None:
    # Roll 1 (4 1 5 5 1 by position) lies on the table; then all but the 5 at (380, 120)
    # are thrown again.
    after = state(roll=1, dice=[4, 1, 5, 5, 1], version=2,
                  history=[{"type": "roll", "dice": [4, 1, 5, 5, 1], "kept": [], "roll": 1}])
    thrown = [(6, 60, 380), (6, 200, 200), (2, 300, 40), (5, 380, 120), (3, 520, 400)]
    views = run(js, [reading(SCENE)] * 5 + [reading(thrown)] * 5, after)
    assert kinds(views) == ["moving"] * 4 + ["waiting"] + ["moving"] * 4 + ["propose"]
    # The kept 5 keeps a position that held a 5; the thrown dice fill the rest left to right.
    assert views[-1]["kept"] == [2]
    assert views[-1]["dice"] == [6, 6, 5, 2, 3]


def test_a_die_that_stayed_but_shows_another_face_was_thrown(js: Any) -> None:
    after = state(roll=1, dice=[4, 1, 5, 5, 1], version=2,
                  history=[{"type": "roll", "dice": [4, 1, 5, 5, 1], "kept": [], "roll": 1}])
    turned = [(6, 40, 200), *SCENE[1:]]
    views = run(js, [reading(SCENE)] * 5 + [reading(turned)] * 5, after)
    assert views[-1]["kind"] == "propose"
    assert views[-1]["kept"] == [1, 2, 3, 4] and views[-1]["dice"] == [6, 1, 5, 5, 1]


def test_a_recorded_roll_is_not_proposed_again_nor_after_an_undo(js: Any) -> None:
    before = state()
    recorded = state(roll=1, dice=[4, 1, 5, 5, 1], version=2)
    undone = state(version=3)
    states = [before] * 5 + [recorded] * 5 + [undone] * 5
    views = run(js, [reading(SCENE)] * 15, states)
    assert kinds(views) == ["moving"] * 4 + ["propose"] + ["waiting"] * 10


def test_the_next_players_throw_is_proposed_with_nothing_kept(js: Any) -> None:
    scored = state(version=4, history=[{"type": "score", "dice": [4, 1, 5, 5, 1]}])
    moved = [(v, x, y + 100) if i != 3 else (v, x, y) for i, (v, x, y) in enumerate(SCENE)]
    views = run(js, [reading(SCENE)] * 5 + [reading(moved)] * 5, scored)
    assert kinds(views) == ["moving"] * 4 + ["waiting"] + ["moving"] * 4 + ["propose"]
    assert views[-1]["kept"] == [] and views[-1]["dice"] == [4, 1, 5, 5, 1]


@pytest.mark.parametrize(
    ("scene", "doubtful", "seen", "unclear"),
    [
        ([*SCENE, (2, 300, 400)], 0, 6, 0),
        (SCENE[:3], 0, 3, 0),
        (SCENE[:4], 1, 4, 1),
        ([], 0, 0, 0),
    ],
)
def test_not_five_dice_in_view_are_counted(
    js: Any, scene: list[tuple[int, int, int]], doubtful: int, seen: int, unclear: int
) -> None:
    views = run(js, [reading(scene, doubtful)] * 6, state())
    assert views[-1] == {"kind": "count", "seen": seen, "unclear": unclear}


def test_after_the_last_roll_a_box_is_asked_for_and_a_finished_game_stops(js: Any) -> None:
    assert run(js, [reading(SCENE)] * 5, state(roll=3, dice=[4, 1, 5, 5, 1]))[-1] == {
        "kind": "score"}
    assert run(js, [reading(SCENE)], state(phase="over"))[-1] == {"kind": "over"}


def test_a_roll_for_first_player_keeps_nothing(js: Any) -> None:
    views = run(js, [reading(SCENE)] * 5, state(phase="first-roll"))
    assert views[-1]["kind"] == "propose" and views[-1]["kept"] == []
