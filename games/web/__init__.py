"""The shared web kernel: the one error shape, strict serializer fields, throttles, the JSON
parser, the error pages and ids in URLs, the OpenAPI schema hooks, the admin's secret-safe base
and the ``/healthz`` probes.

Every feature's API, socket and admin builds on these, so they import no feature (no
``games.<feature>``, no ``frontend``); ``config`` (the composition root) names them in the
settings. The one outside import is ``combat.errors``: a pure error type the handler answers.
"""
