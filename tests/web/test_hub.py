"""The hub: each change rendered once and sent to that game's streams only, in order."""

from __future__ import annotations

import asyncio
import time

from flask import Flask

from tests.threads import on_own_thread
from tests.web.conftest import Api
from web import events, store
from web.db import connect
from web.events import QUEUE_LIMIT, Hub, LoopSubscriber, ThreadSubscriber
from web.storage import storage


class Recorder:
    """A subscriber that keeps what it is given."""

    def __init__(self) -> None:
        self.messages: list[str | None] = []

    def deliver(self, message: str | None) -> None:
        self.messages.append(message)


def never_render(record: store.Record) -> str:
    raise AssertionError(f"game {record.id} was rendered again")


def test_one_message_object_reaches_every_stream_of_its_game_only() -> None:
    hub = Hub(None, never_render)
    table = [Recorder() for _ in range(9)]
    elsewhere = Recorder()
    for device in table:
        hub.subscribe(1, device, 1)
    hub.subscribe(2, elsewhere, 1)
    message = "event: state\ndata: {}\n\n"
    hub.publish(1, 2, message)
    hub.publish(1, 2, "a duplicate of version 2")
    hub.publish(1, 1, "an older version")
    assert all(device.messages == [message] for device in table)
    assert all(device.messages[0] is message for device in table)
    assert elsewhere.messages == [] and hub.subscribers() == 10


def test_a_late_subscriber_gets_the_newer_state_at_once() -> None:
    hub = Hub(None, never_render)
    first, late = Recorder(), Recorder()
    hub.subscribe(5, first, 3)
    hub.publish(5, 4, "v4")
    hub.subscribe(5, late, 3)  # its page loaded version 3 before v4 was published
    assert late.messages == ["v4"]
    hub.unsubscribe(5, first)
    hub.unsubscribe(5, late)
    assert hub.subscribers() == 0


def test_a_deleted_game_ends_its_streams() -> None:
    hub = Hub(None, never_render)
    device = Recorder()
    hub.subscribe(7, device, 1)
    hub.publish_gone(7)
    assert device.messages == [events.gone_event(7), None]
    assert hub.subscribers() == 0


def test_a_stream_that_falls_behind_is_ended_not_grown() -> None:
    subscriber = ThreadSubscriber()
    for n in range(QUEUE_LIMIT + 10):
        subscriber.deliver(f"v{n}")
    assert subscriber.get(0.1) is None
    assert subscriber.get(0.01) == events.KEEPALIVE


def test_a_loop_subscriber_takes_messages_from_threads() -> None:
    async def run() -> list[str | None]:
        subscriber = LoopSubscriber(asyncio.get_running_loop())
        await asyncio.to_thread(subscriber.deliver, "from a thread")
        for n in range(QUEUE_LIMIT + 1):
            subscriber.deliver(f"v{n}")
        await asyncio.sleep(0)
        return [await subscriber.get(0.1), await subscriber.get(0.1), await subscriber.get(0.01)]

    assert on_own_thread(lambda: asyncio.run(run())) == [None, events.KEEPALIVE, events.KEEPALIVE]


def test_the_watcher_sends_changes_made_by_another_process(app: Flask, api: Api) -> None:
    created = api.create()
    hub = Hub(storage(app), events.render_message)
    device = Recorder()
    hub.subscribe(created["id"], device, created["version"])
    Api(app.test_client()).join(created["join_code"]).roll(created["id"], [2, 2, 2, 2, 2])
    deadline = time.monotonic() + 2
    while not device.messages and time.monotonic() < deadline:
        time.sleep(0.02)
    assert device.messages and '"dice":[2,2,2,2,2]' in str(device.messages[0])
    conn = connect(app.config["DATABASE"])
    conn.execute("DELETE FROM games WHERE id = ?", (created["id"],))
    conn.close()
    deadline = time.monotonic() + 2
    while device.messages[-1] is not None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert device.messages[-2:] == [events.gone_event(created["id"]), None]
