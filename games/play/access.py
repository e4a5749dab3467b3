"""Who may see a game: the one rule every read and write of a game goes through.

A public game is open to everyone. A private game is visible (and so readable, joinable,
watchable) only to its players (a seat in any state, one left included), its creator, staff, and
whoever presents its invite token. Anyone else is told exactly what an id that does not exist
gets: 404 ``not_found``, message "no such game", field ``id`` (the message names no id), so
neither the body nor the status confirms that a private game is there.

The rule is checked right after the game row is read, before any other work whose cost could
differ between a missing id and a hidden game. ``game_for`` in ``reads.fetch`` reads the row
with the caller's seat as one ``EXISTS`` in the same statement, so a read costs one statement
whether the game is missing, hidden or shown; the write path checks the seats it loads anyway.
The invite is compared with ``hmac.compare_digest``.

Nothing here knows a transport: the HTTP views pass ``?invite=``, the socket its URL's
``?invite=``, the lobby's join its ``invite`` field and an action submission its ``invite``.
"""

from __future__ import annotations

import hmac
from collections.abc import Iterable
from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet, Value
from django.db.models.expressions import Combinable

from games.models import Game, Seat
from games.web.exceptions import NotFoundError

#: The one message and field of a game the caller may not see, or that does not exist.
NOT_FOUND_MESSAGE = "no such game"
NOT_FOUND_FIELD = "id"


def not_found() -> NotFoundError:
    """The 404 of a missing game, and of a private game the caller may not see (the same)."""
    return NotFoundError(NOT_FOUND_MESSAGE, field=NOT_FOUND_FIELD)


def signed_in(user: Any) -> bool:
    return bool(user is not None and user.is_authenticated)


def is_staff(user: Any) -> bool:
    return signed_in(user) and bool(getattr(user, "is_staff", False))


def invite_matches(game: Game, invite: str | None) -> bool:
    """Whether ``invite`` is the game's token (compared in constant time)."""
    if not invite or not isinstance(invite, str):
        return False
    return hmac.compare_digest(invite.encode(), game.invite_token.encode())


def may_see(game: Game, user: Any, *, seated: bool, invite: str | None = None) -> bool:
    """The rule: public, or a seat of the caller's (``seated``, any state), or the creator, or
    staff, or the invite token."""
    if game.public or seated:
        return True
    if signed_in(user) and (user.pk == game.creator_id or is_staff(user)):
        return True
    return invite_matches(game, invite)


def check(game: Game, user: Any, *, seated: bool, invite: str | None = None) -> None:
    """404 ``not_found`` (the missing game's answer) unless ``may_see``."""
    if not may_see(game, user, seated=seated, invite=invite):
        raise not_found()


def seated_in(seats: Iterable[Seat], user: Any) -> bool:
    """Whether ``user`` holds one of ``seats`` (already loaded; any state)."""
    if not signed_in(user):
        return False
    return any(s.user_id is not None and s.user_id == user.pk for s in seats)


def seated_expression(user: Any) -> Combinable:
    """An annotation of a ``Game`` query: whether ``user`` holds a seat in the game. The same
    ``EXISTS`` for everyone signed in; a constant for a visitor, who holds none."""
    if not signed_in(user):
        return Value(False)
    return Exists(Seat.objects.filter(game=OuterRef("pk"), user=user))


def listed_for(user: Any) -> QuerySet[Game]:
    """The games the lobby lists for ``user``: the public ones, and the private games they sit
    in or created. Never other private games, not even for staff (they have the admin): the
    lobby is what one can join or play, and no invite is presented to a list."""
    if not signed_in(user):
        return Game.objects.filter(public=True)
    return Game.objects.filter(
        Q(public=True)
        | Q(creator=user)
        | Exists(Seat.objects.filter(game=OuterRef("pk"), user=user))
    )
