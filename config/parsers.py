"""DRF's JSON parser with one more refusal (issue 15): JSON nested deeper than Python can
recurse (``[[[[...`` 100,000 levels) is a 400 ``parse_error`` naming the body, not a 500.

Its own module, importing nothing of the project: DRF imports the parser classes while it
reads its settings, which ``config.exceptions`` is itself in the middle of importing.
"""

from __future__ import annotations

from typing import Any

from rest_framework import parsers
from rest_framework.exceptions import ParseError


class JSONParser(parsers.JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError as exc:
            raise ParseError("JSON parse error - nested too deeply") from exc
