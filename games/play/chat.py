"""A game's chat: plain-text lines from its seated players, read by whoever may read the game.

Rules ("a per-game chat (plain text, rate-limited, spectators read only) delivered
through the same socket"):

- Only a signed-in person holding a seat of the game (not one they left) may write: spectators,
  the anonymous and leavers read only (403 ``spectators_read_only``). The game itself must be
  visible to them first (``access``: a private game answers 404 as a missing one does).
- The text is stripped; 1 to ``MAX_LENGTH`` characters; no control character other than a
  newline (400 ``invalid``, field ``text``). It is stored and sent as plain text: the browser
  puts it in with ``textContent``, never as markup.
- At most ``RATE_LIMITS`` lines per user per game (5 in 10 s and 20 in a minute; 429
  ``throttled`` with ``retry_after``), counted in Django's cache like the action throttle.
- Saved, then pushed once the transaction commits (``push.chat``) to every socket of the
  game: the seats' groups and the public one. A private game's public group holds only sockets
  that passed ``access`` on connect, so nobody who may not read the game hears its chat.
- Read back with ``messages_after`` (``GET /api/games/{id}/chat?after=<id>``): the newest
  ``PAGE`` lines after that id, oldest first, so a client that reconnects fetches what it
  missed, in order.

Nothing here knows a transport; the socket and the HTTP view call these functions.
"""

from __future__ import annotations

import logging
import math
import time
import unicodedata
from typing import Any

from django.core.cache import cache
from django.db import transaction

from games.models import ChatMessage, Game, Seat
from games.play import push, snapshots
from games.play.reads import fetch
from games.web.exceptions import ApplicationError, ForbiddenError, ThrottledError

logger = logging.getLogger(__name__)

#: The longest line, in characters (after stripping).
MAX_LENGTH = 500
#: Lines one ``messages_after`` returns at most: the newest ones after the given id.
PAGE = 100
#: (lines, seconds): a user may write at most ``lines`` in any ``seconds`` in one game. The
#: minute's limit is 20, not 30: with a sliding ten-second window of 5, no minute can hold more
#: than 30 lines anyway (5 in each of six windows), so 30 a minute would never refuse a thing.
#: 20 lets a quick exchange through and stops a steady five-every-ten-seconds stream.
RATE_LIMITS = ((5, 10.0), (20, 60.0))
#: The one character below U+0020 (and no other control character) a line may hold.
NEWLINE = "\n"


def clean_text(raw: Any) -> str:
    """The line as stored: a string, stripped, 1..``MAX_LENGTH`` characters, no control
    character but the newline (a tab, a NUL, an escape or a bidi override has no place in a
    line others read). Raises 400 ``invalid`` naming field ``text``."""
    if not isinstance(raw, str):
        raise ApplicationError("the text is a string", code="invalid", field="text")
    text = raw.strip()
    if not text:
        raise ApplicationError("say something: the text is empty", code="invalid", field="text")
    if len(text) > MAX_LENGTH:
        raise ApplicationError(
            f"at most {MAX_LENGTH} characters ({len(text)} given)", code="invalid", field="text"
        )
    for char in text:
        if char != NEWLINE and unicodedata.category(char) in ("Cc", "Cf", "Cs"):
            raise ApplicationError(
                f"no control characters other than a newline (U+{ord(char):04X} found)",
                code="invalid", field="text",
            )  # fmt: skip
    return text


def check_rate(game_id: int, user_id: int, now: float | None = None) -> None:
    """Count one line of ``user_id`` in ``game_id``; 429 ``throttled`` past ``RATE_LIMITS``.

    A sliding log of the last minute's times in the cache: the sixth line inside ten seconds is
    refused, whenever the ten seconds began. As with the action throttle, the cache being down
    lets the line through (logged) and two lines at the same instant may both pass the last
    slot."""
    now = time.time() if now is None else now
    longest = max(seconds for _, seconds in RATE_LIMITS)
    key = f"chat_rate_{game_id}_{user_id}"
    try:
        stored = cache.get(key, [])
    except Exception:
        logger.warning("chat throttle unavailable (cache down); user %s not counted", user_id)
        return
    history = [t for t in stored if t > now - longest]  # newest first
    for allowed, seconds in RATE_LIMITS:
        recent = [t for t in history if t > now - seconds]
        if len(recent) >= allowed:
            wait = seconds - (now - recent[allowed - 1])
            retry_after = max(1, math.ceil(wait))
            error = ThrottledError(
                f"at most {allowed} chat messages in {seconds:g} seconds: wait {retry_after} s",
                wait=wait,
            )
            error.extra = {"retry_after": retry_after}
            raise error
    try:
        cache.set(key, [now, *history], longest)
    except Exception:
        logger.warning("chat throttle unavailable (cache down); user %s not counted", user_id)


def writer_seat(game: Game, user: Any) -> Seat:
    """The seat that lets ``user`` write, or 403 ``spectators_read_only``."""
    seat = fetch.seat_of(game, user)
    if seat is None or seat.state == Seat.State.LEFT:
        raise ForbiddenError(
            "spectators read only: only the game's seated players write in its chat",
            code="spectators_read_only",
        )
    return seat


def seat_id_of(game: Game, seat: Seat) -> str:
    """The rules seat the author plays now (their colour on the page), or '' before the start.

    A person who took over an allied army plays that seat ("ally-2"), not the one they sat
    down in, so this asks the state rather than the ``Seat`` row."""
    state = snapshots.load_if_started(game)
    if state is None:
        return ""
    playing = state.seat_of_actor(seat.player)
    return playing.id if playing is not None else ""


def post_message(
    *, game_id: int, user: Any, text: Any, invite: str | None = None
) -> dict[str, Any]:
    """Check, store and (after the commit) push one line; the line as every reader gets it."""
    game = fetch.game_for(game_id, user, invite=invite)  # 404 before anything else
    if user is None or not user.is_authenticated:
        raise ForbiddenError(
            "spectators read only: sign in and take a seat to write", code="spectators_read_only"
        )
    seat = writer_seat(game, user)
    line = clean_text(text)
    check_rate(game.pk, user.pk)
    with transaction.atomic():
        message = ChatMessage.objects.create(
            game=game, author=user, seat=seat_id_of(game, seat), text=line
        )
        out = message_out(message, author=user.get_username())
        transaction.on_commit(lambda: push.chat(game.pk, _listening_positions(game), out))
    return out


def _listening_positions(game: Game) -> list[int]:
    """The seat positions whose groups sockets listen on (people's seats, in any state)."""
    return list(
        Seat.objects.filter(game=game, user__isnull=False).values_list("position", flat=True)
    )


def message_out(message: ChatMessage, *, author: str | None = None) -> dict[str, Any]:
    """A line as the socket pushes it and the API lists it."""
    return {
        "type": "chat",
        "id": message.pk,
        "author": author if author is not None else message.author.get_username(),
        "seat": message.seat,
        "text": message.text,
        "at": message.created_at.isoformat(),
    }


def messages_after(game: Game, after: int = 0, limit: int = PAGE) -> dict[str, Any]:
    """The newest ``limit`` lines with an id above ``after``, oldest first (the caller has
    already passed ``access`` for ``game``). ``last`` is the id to ask after next time."""
    rows = list(
        ChatMessage.objects.filter(game=game, pk__gt=after)
        .select_related("author")
        .order_by("-pk")[:limit]
    )
    rows.reverse()
    messages = [message_out(m) for m in rows]
    return {"after": after, "last": messages[-1]["id"] if messages else after,
            "messages": messages}  # fmt: skip
