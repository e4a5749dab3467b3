"""The lobby's filtered lists ("live list of open and running games, 'my games',
'waiting on me', join a running game by taking over an allied army, spectate").

Each filter narrows what ``access.listed_for`` already allows the caller (public games, and the
private ones they sit in or created), so no filter shows a private game the plain list would not:

- ``mine``: games where the caller holds a seat they have not left.
- ``waiting_on``: running games where a pending decision is the caller's, as the engine says
  (``pending_decisions``: its ``player`` is whoever acts, so a person playing an allied army they
  took over counts for that army's decisions too).
- ``played_by``: games where a named player holds or held a seat (their profile page's list).
- ``joinable``: running public games where the engine would offer the caller a ``join`` (a live
  allied army not in play right now, RULES.md J1), with the armies it would offer. A private
  game needs its invite to be joined, and the lobby shows no invites, so none is listed.

The last two ask the rules state, so they read one state row per candidate game; the candidates
are cut down in SQL first (running, and seated or public) and capped at ``LIMIT``.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Exists, OuterRef, QuerySet

from games.models import Game, Seat
from games.play import access, snapshots
from risk.rules import pending_decisions
from risk.rules.engine import legal_actions

#: Games one list returns at most (the lobby's page).
LIMIT = 100
#: The player name ``joinable`` asks the engine about for a visitor: no username holds a ':'
#: (Django's validator), so it is nobody's seat, and it is not an AI's name ("ai:").
VISITOR = "visitor:lobby"


def _seated(user: Any) -> Exists:
    return Exists(
        Seat.objects.filter(game=OuterRef("pk"), user=user).exclude(state=Seat.State.LEFT)
    )


def mine(games: QuerySet[Game], user: Any) -> QuerySet[Game]:
    """The games of ``games`` where ``user`` holds a seat (not one they left); none for a
    visitor."""
    if not access.signed_in(user):
        return games.none()
    return games.filter(_seated(user))


def played_by(games: QuerySet[Game], username: str) -> QuerySet[Game]:
    """The games of ``games`` where the person ``username`` holds or held a seat (one they left
    included: they played it), the newest first."""
    return games.filter(
        Exists(Seat.objects.filter(game=OuterRef("pk"), user__username=username))
    ).order_by("-created_at", "-pk")


def waiting_on(games: QuerySet[Game], user: Any) -> list[Game]:
    """The running games of ``games`` with a pending decision of ``user``'s."""
    if not access.signed_in(user):
        return []
    name = user.get_username()
    candidates = games.filter(_seated(user), status=Game.Status.RUNNING)[:LIMIT]
    found = []
    for game in candidates:
        state = snapshots.load_if_started(game)
        if state is not None and any(d.player == name for d in pending_decisions(state)):
            found.append(game)
    return found


def joinable(games: QuerySet[Game], user: Any) -> list[tuple[Game, list[str]]]:
    """The running public games of ``games`` whose engine offers ``user`` a ``join``, each with
    the allied armies on offer (the ``join`` spec's ``allies``)."""
    name = user.get_username() if access.signed_in(user) else VISITOR
    candidates = games.filter(status=Game.Status.RUNNING, public=True)[:LIMIT]
    found = []
    for game in candidates:
        state = snapshots.load_if_started(game)
        if state is None:
            continue
        allies = next(
            (list(s.options["allies"]) for s in legal_actions(state, name) if s.type == "join"),
            None,
        )
        if allies:
            found.append((game, allies))
    return found
