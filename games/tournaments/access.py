"""Who may do what: staff run tournaments, any signed-in player registers for one.

Tournaments are public: anyone, signed in or not, reads the list, entrants, pairings,
standings and crosstable. Every change other than a player's own registration or withdrawal
is a staff action (``is_staff``); anyone else gets 403 ``staff_only`` and nothing is written.
"""

from __future__ import annotations

from typing import Any

from games.models import Tournament
from games.web.exceptions import ForbiddenError, NotFoundError


def require_staff(user: Any) -> None:
    if not (user.is_authenticated and user.is_active and user.is_staff):
        raise ForbiddenError("only staff run tournaments", code="staff_only")


def locked(tournament_id: int) -> Tournament:
    """The tournament's row, locked for the caller's transaction (404 if missing)."""
    found = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if found is None:
        raise NotFoundError("no such tournament", field="id")
    return found
