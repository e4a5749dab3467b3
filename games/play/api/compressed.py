"""A JSON answer kept gzipped (a finished game's replay): sent as it is to a client that
accepts gzip, unzipped for one that does not.

Only answers that hold no secret of the caller are kept this way (a finished game's public
log): a compressed answer that mixed a secret with text an attacker chooses could leak it by
its length (BREACH), so compression is not switched on for the whole site.
"""

from __future__ import annotations

import gzip
import re

from django.http import HttpResponse
from django.utils.cache import patch_vary_headers
from rest_framework.request import Request

#: As Django's GZipMiddleware reads ``Accept-Encoding``.
_ACCEPTS_GZIP = re.compile(r"\bgzip\b")


def gzipped_json(request: Request, body: bytes) -> HttpResponse:
    """``body`` (gzipped JSON) as a 200 answer, in the encoding the client accepts."""
    if _ACCEPTS_GZIP.search(request.META.get("HTTP_ACCEPT_ENCODING", "")):
        response = HttpResponse(body, content_type="application/json")
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(gzip.decompress(body), content_type="application/json")
    patch_vary_headers(response, ("Accept-Encoding",))
    return response
