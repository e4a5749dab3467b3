"""An action submission as both transports hand it over: the HTTP body or a socket message.

One parser and one rate limit for both, so neither transport imports the other and
a client gains nothing by switching: ``parse_submission`` checks the three fields and names the
one at fault; ``check_action_rate`` counts each user's submissions, refused ones included, in
the cache (Redis when ``REDIS_URL`` is set, so across processes), at the rate
``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["actions"]`` read on every call. The count uses DRF's
sliding window and cache key (``throttle_actions_<user id>``), so the figures and the
``Retry-After`` a client sees are those of the other rate limits.

``action_submit`` is the entry point both transports call: one transaction around the write
path (``write.person_action``), then ``effects`` after the commit.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured
from django.db import IntegrityError, transaction

from games.models import ActionLog
from games.play import effects, write
from games.web.exceptions import ApplicationError, ThrottledError

logger = logging.getLogger(__name__)

MAX_KEY_LENGTH = 100
#: Longer than any invite token (``Game.invite_token`` holds 32 characters).
MAX_INVITE_LENGTH = 100
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


@dataclass(frozen=True)
class Submission:
    action: dict[str, Any]
    expected_version: int
    idempotency_key: str | None = None
    #: The game's invite token: a newcomer's 'join' of a private game needs it (``access``).
    invite: str | None = None

    def as_kwargs(self) -> dict[str, Any]:
        """The keyword arguments of ``action_submit``."""
        return {
            "action": self.action,
            "expected_version": self.expected_version,
            "idempotency_key": self.idempotency_key,
            "invite": self.invite,
        }


def parse_submission(body: Mapping[str, Any]) -> Submission:
    """The submission in ``body``; the first field at fault (action, expected_version,
    idempotency_key, invite, in that order) is named in a 400."""
    if "action" not in body:
        raise _required("action")
    action = body["action"]
    if not isinstance(action, dict):
        raise ApplicationError(
            'an action is a JSON object, e.g. {"type": "end_turn"}', code="not_a_dict",
            field="action",
        )  # fmt: skip
    if "expected_version" not in body:
        raise _required("expected_version")
    version = body["expected_version"]
    if isinstance(version, bool) or not isinstance(version, int):
        raise ApplicationError(
            "the game version you acted on: a whole number", code="invalid",
            field="expected_version",
        )  # fmt: skip
    if version < 0:
        raise ApplicationError("at least 0", code="min_value", field="expected_version")
    key = body.get("idempotency_key")
    if key is not None:
        # No NUL: the key is stored and looked up, and PostgreSQL text cannot hold one (a 500).
        if not isinstance(key, str) or not key or "\x00" in key:
            raise ApplicationError(
                "a non-empty string without NUL characters, or null", code="invalid",
                field="idempotency_key",
            )  # fmt: skip
        if len(key) > MAX_KEY_LENGTH:
            raise ApplicationError(
                f"at most {MAX_KEY_LENGTH} characters", code="max_length", field="idempotency_key"
            )
    invite = body.get("invite")
    if invite is not None and (
        not isinstance(invite, str) or len(invite) > MAX_INVITE_LENGTH or "\x00" in invite
    ):
        raise ApplicationError(
            f"the game's invite token: a string of at most {MAX_INVITE_LENGTH} characters "
            "(no NUL), or null", code="invalid", field="invite",
        )  # fmt: skip
    return Submission(action, version, key, invite or None)


def _required(field: str) -> ApplicationError:
    return ApplicationError("This field is required.", code="required", field=field)


def action_rate() -> tuple[int, int]:
    """(submissions, seconds) allowed, from the settings as they are now."""
    rates = settings.REST_FRAMEWORK.get("DEFAULT_THROTTLE_RATES", {})
    if "actions" not in rates:
        raise ImproperlyConfigured(
            "No rate for throttle scope 'actions' in REST_FRAMEWORK[\"DEFAULT_THROTTLE_RATES\"]"
        )
    count, unit = rates["actions"].split("/")
    return int(count), _UNITS[unit[0]]


def check_action_rate(user_id: int) -> None:
    """Count one submission of ``user_id``; a 429 ``throttled`` (with ``Retry-After``) past the
    rate. With the cache unreachable (Redis down) it lets the submission through and logs it:
    an action must still commit when only the throttle's store is gone. Not atomic
    across processes (DRF's throttles are not either): two submissions at the same instant may
    both pass the last slot."""
    allowed, seconds = action_rate()
    key = f"throttle_actions_{user_id}"
    now = time.time()
    try:
        stored = cache.get(key, [])
    except Exception:  # the cache (Redis) is down: the action goes through unthrottled
        logger.warning("action throttle unavailable (cache down); user %s not counted", user_id)
        return
    history: list[float] = [t for t in stored if t > now - seconds]
    if len(history) >= allowed:
        wait = seconds - (now - history[-1])
        raise ThrottledError(
            f"Request was throttled. Expected available in {max(1, round(wait))} seconds.",
            wait=wait,
        )
    try:
        cache.set(key, [now, *history], seconds)
    except Exception:
        logger.warning("action throttle unavailable (cache down); user %s not counted", user_id)


def action_submit(
    *,
    game_id: int,
    user: Any,
    action: Any,
    expected_version: int,
    idempotency_key: str | None = None,
    invite: str | None = None,
) -> dict[str, Any]:
    """Apply ``action`` for ``user``; the response body (also stored for idempotent replays).

    Refusals as ``write.person_action``; 404 for an unknown game, and the same 404 for a
    private game the caller may not see (``invite``: its token, for a newcomer's 'join').
    The statements of an action: the game row locked with its state row joined,
    the seats, the state row's UPDATE, the log INSERT with its response, the piece rows'
    one upsert (on PostgreSQL; none when no piece moved), and the transaction's BEGIN and
    COMMIT.
    """
    try:
        with transaction.atomic():
            game = write.game_lock(game_id)
            committed = write.person_action(
                game, user, action, expected_version, idempotency_key, invite
            )
            effects.after_commit(committed)
            return committed.log.response
    except (ApplicationError, IntegrityError):
        # Idempotency rides on the log's unique (game, user, key) index, not on a SELECT per
        # action: a repeat of a request that committed finds the game moved on (409, or the
        # insert's duplicate key) and gets the first answer back; nothing of it was written.
        earlier = _earlier_response(game_id, user, idempotency_key) if idempotency_key else None
        if earlier is None:
            raise
        return earlier


def _earlier_response(game_id: int, user: Any, key: str) -> dict[str, Any] | None:
    entry = (
        ActionLog.objects.filter(game_id=game_id, user=user, idempotency_key=key)
        .only("response")
        .first()
    )
    return entry.response if entry is not None else None
