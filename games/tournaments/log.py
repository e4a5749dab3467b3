"""The staff log: every staff action on a tournament, and what the server did by itself."""

from __future__ import annotations

from typing import Any

from games.models import Tournament, TournamentAction


def logged(tournament: Tournament, actor: Any, action: str, **detail: Any) -> TournamentAction:
    """Record ``action`` (``actor`` None: the server's own, such as an automatic pairing)."""
    return TournamentAction.objects.create(
        tournament=tournament,
        actor=actor if actor is not None and actor.is_authenticated else None,
        action=action,
        detail=detail,
    )
