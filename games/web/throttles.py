"""Rate limits whose rate is read from the settings on every request, shared by every app.

DRF copies ``DEFAULT_THROTTLE_RATES`` into its classes when it is imported; these read
``settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` on every request instead, so a rate changed
in the settings (a test's ``settings`` fixture) applies at once. Counts are kept in the cache
(Redis when ``REDIS_URL`` is set, so across processes). A refused request is DRF's
``Throttled``: a 429 in the one error shape, with ``Retry-After``. With the cache unreachable
the request goes through, logged (a Redis outage made every login a 500).
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import ScopedRateThrottle, SimpleRateThrottle
from rest_framework.views import APIView

logger = logging.getLogger(__name__)


class SettingsScopedRateThrottle(ScopedRateThrottle):
    """A ``ScopedRateThrottle`` whose scope is fixed by the class, its rate read per request."""

    scope: str
    #: Count a signed-in request against its user (else against the client address).
    per_user: bool = True

    def allow_request(self, request: Request, view: APIView) -> bool:
        # The class's scope, not the view's ``throttle_scope``: the view lists the throttle.
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        try:
            return SimpleRateThrottle.allow_request(self, request, view)
        except Exception:  # the cache (Redis) is down: let the request through, say so
            logger.warning("%s throttle unavailable (cache down); request not counted", self.scope)
            return True

    def get_rate(self) -> str | None:
        rates: dict[str, Any] = settings.REST_FRAMEWORK.get("DEFAULT_THROTTLE_RATES", {})
        try:
            return rates[self.scope]
        except KeyError:
            raise ImproperlyConfigured(
                f"No rate for throttle scope {self.scope!r} in "
                'REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]'
            ) from None

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        if self.per_user:
            return super().get_cache_key(request, view)
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}

    def get_ident(self, request: Request) -> str | None:
        """The client address; ``X-Forwarded-For`` only when ``NUM_PROXIES`` says to trust it.

        DRF's default trusts the whole header when ``NUM_PROXIES`` is unset, so a client could
        name a new address on every attempt and never be limited.
        """
        if api_settings.NUM_PROXIES is None:
            return request.META.get("REMOTE_ADDR")
        return super().get_ident(request)
