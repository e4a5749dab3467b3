"""Scoped rate limits of the game server's API, one class per scope.

``LoginThrottle`` guards everything that checks a password (login, token issue),
``RegisterThrottle`` account creation. Both count per client address, since signing in or
registering changes the user (a per-user count would start afresh with every new account). The
game actions' rate limit is not here: the HTTP endpoint and the socket share it, transport-free,
in ``games.services.submissions``.
Counts are kept in the cache (Redis when ``REDIS_URL`` is set, so across processes). A refused
request is DRF's ``Throttled``: a 429 in the one error shape, with ``Retry-After``.

The base class (``config.throttles``) reads each rate per request, so a rate changed in the
settings (a test's ``settings`` fixture) applies at once.
"""

from __future__ import annotations

from config.throttles import SettingsScopedRateThrottle


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
