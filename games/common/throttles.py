"""Scoped rate limits of the game server's API, one class per scope.

``LoginThrottle`` guards everything that checks a password (login, token issue),
``RegisterThrottle`` account creation. Both count per client address, since signing in or
registering changes the user (a per-user count would start afresh with every new account). The
game actions' rate limit is not here: the HTTP endpoint and the socket share it, transport-free,
in ``games.play.submit``.
Counts are kept in the cache (Redis when ``REDIS_URL`` is set, so across processes). A refused
request is DRF's ``Throttled``: a 429 in the one error shape, with ``Retry-After``.

The base class (``games.web.throttles``) reads each rate per request, so a rate changed in the
settings (a test's ``settings`` fixture) applies at once.
"""

from __future__ import annotations

from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.views import APIView

from games.web.throttles import SettingsScopedRateThrottle


class LoginThrottle(SettingsScopedRateThrottle):
    scope = "login"
    per_user = False


class RegisterThrottle(SettingsScopedRateThrottle):
    scope = "register"
    per_user = False


class HintThrottle(SettingsScopedRateThrottle):
    """A hint runs the hard AI (milliseconds, a fraction of a second at worst): per user."""

    scope = "hint"


class RoomPostThrottle(SettingsScopedRateThrottle):
    """Room writes (create, join, journal posts): each takes the room's row lock; per user."""

    scope = "rooms"


class TournamentWriteThrottle(SettingsScopedRateThrottle):
    """Tournament writes (create, entries, staff actions): each takes the tournament's row lock;
    per user. Reads are public pages' data and are not counted (``writes_only``: the schema
    documents the 429 on writes only)."""

    scope = "tournaments"
    writes_only = True

    def allow_request(self, request: Request, view: APIView) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return super().allow_request(request, view)


class ReplayThrottle(SettingsScopedRateThrottle):
    """Anonymous readers of a finished game's replays, per client address: each answer is
    megabytes for a long game (cached, but still sent). Signed-in players are not counted."""

    scope = "replays"
    per_user = False

    def allow_request(self, request: Request, view: APIView) -> bool:
        if request.user is not None and request.user.is_authenticated:
            return True
        return super().allow_request(request, view)
