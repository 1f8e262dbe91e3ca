"""A sent message's buttons are dropped at once (``Outgoing.spend``): a discord.py view and its items
point at each other, so a view left alone waits for the garbage collector, and under a burst of
commands thousands of them reach its oldest generation and are freed in one long event-loop pause."""

from __future__ import annotations

import gc
from typing import Any

from bot.discord import components, delivery


class _Followup:
    def __init__(self) -> None:
        self.sent: list[list[dict[str, Any]]] = []

    async def send(self, **kwargs: Any) -> None:
        self.sent.append(kwargs["view"].to_components())


class _Interaction:
    id = 1
    channel_id = 2

    def __init__(self) -> None:
        self.followup = _Followup()


def _message(version: int) -> delivery.Outgoing:
    view = components.game_view(7, version, "active", ["done"], [("Place A1", "place A1")])
    return delivery.Outgoing("board", view=view)


async def test_a_sent_messages_view_is_sent_whole_then_dropped_without_cyclic_garbage() -> None:
    interaction = _Interaction()
    gc.collect()
    gc.disable()
    try:
        for version in range(50):
            message = _message(version)
            assert await delivery.followup(interaction, message, ephemeral=False)  # type: ignore[arg-type]
            assert message.view is None
        del message
        garbage = gc.collect()
    finally:
        gc.enable()
    # Every send carried its buttons: Pick, Done, Undo, Hand and the quick move.
    assert len(interaction.followup.sent) == 50
    ids = [button["custom_id"] for row in interaction.followup.sent[-1] for button in row["components"]]
    assert ids == ["tcb:7:49:pick", "tcb:7:49:mv:done", "tcb:7:49:undo", "tcb:7:49:hand", "tcb:7:49:mv:place_A1"]
    assert garbage == 0  # without spend: 20 cyclic objects per view


async def test_a_failed_send_spends_the_view_too() -> None:
    class Broken(_Followup):
        async def send(self, **kwargs: Any) -> None:
            raise TimeoutError

    interaction = _Interaction()
    interaction.followup = Broken()
    message = _message(1)
    view = message.view
    assert view is not None and view.children
    assert not await delivery.followup(interaction, message, ephemeral=False)  # type: ignore[arg-type]
    assert message.view is None and not view.children
