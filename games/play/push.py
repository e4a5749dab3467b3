"""After a commit: each seat its own events and view change over the channel layer.

Runs from ``effects`` after the commit, so nobody is told of an action that rolled back. Each
seat gets a payload built for it (``events_for`` with its own player name, and the JSON Patch
from its view before the action to its view after, ``risk.rules.view_patch``): a few hundred
bytes instead of the whole ~7 KB view. Spectators share one payload, built once from the public
view. Group names are defined here once; the consumer joins them.

Hidden information is why this is per seat and not one message to a game group: a message sent
to a shared group would have to be the public one, and a player's own cards would then need a
second channel anyway (baserow's ws/signals.py does the same, per user).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games.play.reads.shown import pending_of
from games.play.write import Committed
from risk.rules import GameState, events_for, view_patch
from risk.rules.views import PER_VIEWER_KEYS, views_for

logger = logging.getLogger(__name__)


def seat_group(game_id: int, position: int) -> str:
    return f"game.{game_id}.seat.{position}"


def public_group(game_id: int) -> str:
    return f"game.{game_id}.public"


def update_messages(
    before: GameState | None, after: GameState, events: list[dict[str, Any]],
    players: list[str | None], *, version: int, sequence: int, status: str,
    pending: list[dict[str, Any]] | None = None,
) -> dict[str | None, dict[str, Any]]:  # fmt: skip
    """The socket message each of ``players`` (None: the spectators) receives after an action
    (the protocol is in ``games.protocol.socket``): ``patch`` turns the viewer's view of ``before``
    (at ``base_version``, the version before the action) into their view of ``after`` (at
    ``version``).

    Each patch is the diff of that viewer's own two views, so it can carry only what their view
    shows. The views' public part is the same for everyone (``risk.rules.views.PER_VIEWER_KEYS``
    name the rest): it is built once per state and diffed once, and each viewer's patch is that
    shared diff plus the diff of their own keys. With ``before`` None (the start of a game: the
    client had no view yet) each message carries the whole ``view`` instead, ``base_version``
    and ``patch`` None. ``pending`` (a timed game's decisions with their deadlines, public) goes
    to everyone as it is: the clients keep their countdowns without asking for the state.
    """
    now = time.time()  # lets a client (and bench/load.py) measure push latency
    views = views_for(after, players)
    old_views = views_for(before, players) if before is not None else {}
    shared_patch: list[dict[str, Any]] | None = None
    messages = {}
    for player in players:
        message: dict[str, Any] = {
            "type": "update",
            "version": version,
            "base_version": None,
            "sequence": sequence,
            "status": status,
            "events": events_for(after, events, player),
            "patch": None,
            "committed_at": now,
        }
        if pending is not None:
            message["pending"] = pending
        view = views[player]
        if before is None:
            message["view"] = view
        else:
            old = old_views[player]
            if shared_patch is None:
                shared_patch = view_patch(_public(old), _public(view))
            message["base_version"] = version - 1
            message["patch"] = view_patch(_own(old), _own(view)) + shared_patch
        messages[player] = message
    return messages


def _public(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in PER_VIEWER_KEYS}


def _own(view: dict[str, Any]) -> dict[str, Any]:
    return {k: view[k] for k in PER_VIEWER_KEYS}


def action_committed(committed: Committed) -> None:
    """Push the action to every seat and spectator (called by ``effects`` after the commit)."""
    game = committed.game
    try:
        groups = {
            seat_group(game.pk, seat.position): seat.player
            for seat in committed.seats
            if seat.user_id is not None
        }
        groups[public_group(game.pk)] = None  # one payload for every spectator
        # Sequence 0 is the start (the lobby logs no action): the lobby had no view to patch.
        before = None if committed.log.sequence == 0 else committed.before
        # A timed game's deadlines ride along (one query here, instead of every client asking
        # for a whole state after every update).
        pending = pending_of(game, committed.after, committed.seats) if game.timed else None
        messages = update_messages(
            before, committed.after, committed.events, list(set(groups.values())),
            version=game.version, sequence=committed.log.sequence, status=game.status,
            pending=pending,
        )  # fmt: skip
        async_to_sync(_send_all)([(group, messages[player]) for group, player in groups.items()])
    except Exception:  # the action is committed; a failed push must not turn into an error
        logger.exception("game %s: push of action %s failed", game.pk, committed.log.sequence)


def chat(game_id: int, positions: list[int], message: dict[str, Any]) -> None:
    """A chat line to every socket of the game: each listed seat's group and the public one
    (called after the commit by ``games.play.chat``). A private game's public group holds
    only sockets that passed ``access`` on connect."""
    groups = [seat_group(game_id, p) for p in positions] + [public_group(game_id)]
    try:
        async_to_sync(_send_all)([(group, message) for group in groups])
    except Exception:  # the line is saved: a client that missed the push reads it from the API
        logger.exception("game %s: push of chat line %s failed", game_id, message.get("id"))


def notice(game_id: int, position: int, message: dict[str, Any]) -> None:
    """A one-off message to one seat's sockets (a deadline reminder, say)."""
    async_to_sync(_send_all)([(seat_group(game_id, position), message)])


async def _send_all(messages: list[tuple[str, dict[str, Any]]]) -> None:
    """All of one action's pushes at once: sent one after another they held the request for
    seven Redis round trips (a third of its time under load, bench/load.py).

    Each message names the group it was sent to: a socket moving from the public group to a
    seat's may still receive a public update queued before it left, and must not apply that
    patch to its seat view (``GameConsumer.game_message`` drops it).
    """
    layer = get_channel_layer()
    if layer is None:
        return
    await asyncio.gather(
        *(layer.group_send(group, {"type": "game.message", "group": group, "payload": payload})
          for group, payload in messages)
    )  # fmt: skip
