"""Playing a game through the API: create, join, choose the next action, send it."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from web.loadtest.client import Device, RequestFailed

State = dict[str, Any]


@dataclass(frozen=True)
class Outcome:
    """What one action got back: the status (0 for no response) and the state it reports."""

    status: int
    state: State | None
    sent: float

    @property
    def accepted(self) -> bool:
        """True for a 2xx reply carrying the new state."""
        return 200 <= self.status < 300 and self.state is not None


async def create_game(device: Device, players: list[str]) -> State:
    """Return the state of a new Yahtzee game created by *device*.

    Raises RequestFailed when the server does not answer 201 with a state.
    """
    response = await device.post("/api/games", {"rules": "yahtzee", "players": players})
    state = response.json()
    if response.status != 201 or not isinstance(state, dict) or "id" not in state:
        raise RequestFailed(f"POST /api/games answered {response.status}: {response.body[:200]!r}")
    return state


async def join(device: Device, code: str) -> bool:
    """Return True when ``GET /join/<code>`` redirects (302), keeping its cookies."""
    try:
        response = await device.get(f"/join/{code}")
    except RequestFailed:
        return False
    return response.status == 302


async def load(device: Device, game_id: int) -> State | None:
    """Return the game's state, or None when the server did not give it."""
    try:
        response = await device.get(f"/api/games/{game_id}")
    except RequestFailed:
        return None
    state = response.json()
    return state if response.status == 200 and isinstance(state, dict) else None


def next_action(state: State, rng: random.Random) -> tuple[str, dict[str, Any]] | None:
    """Return the next action (``rolls`` or ``scores`` and its body); None when none is left.

    A turn is one to three rolls of random dice keeping nothing, then the first suggestion.
    """
    if state.get("finished") or state.get("phase") != "play":
        return None
    version = state.get("version")
    roll = int(state.get("roll") or 0)
    max_rolls = int(state.get("max_rolls") or 3)
    suggestions = state.get("suggestions") or []
    dice = state.get("dice")
    if dice is None or roll == 0 or (roll < max_rolls and (rng.random() < 0.5 or not suggestions)):
        count = len(dice) if isinstance(dice, list) and dice else 5
        values = [rng.randint(1, 6) for _ in range(count)]
        return "rolls", {"dice": values, "kept": [], "version": version}
    if not suggestions:
        return None
    return "scores", {"box": suggestions[0]["box"], "version": version}


async def act(device: Device, game_id: int, kind: str, body: dict[str, Any]) -> Outcome:
    """Send one action; return its outcome: the new state on 2xx, the stored one on 409."""
    sent = time.perf_counter()
    try:
        response = await device.post(f"/api/games/{game_id}/{kind}", body)
    except RequestFailed:
        return Outcome(0, None, sent)
    data = response.json()
    state: Any = None
    if isinstance(data, dict):
        if 200 <= response.status < 300:
            state = data.get("state") if kind == "rolls" else data
        elif response.status == 409:
            state = data.get("state")
    return Outcome(response.status, state if isinstance(state, dict) else None, sent)
