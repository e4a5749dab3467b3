"""JSON read with a depth limit, for every JSON request body (DRF's parser, below) and every
socket message (``loads``).

``MAX_JSON_DEPTH`` levels of arrays and objects is the limit: no request or message of the API
nests deeper than a few levels (a battle's arguments are the deepest, at 4), and a deeper
document is refused by name -- a 400 ``parse_error`` naming the body on HTTP, an error message
on a socket -- before any code walks it. Python's own parser stops at its recursion limit
(``[[[[...`` 100,000 levels raised ``RecursionError``, a 500); that is refused the same way.
The check after parsing is one iterative pass over the parsed values (no recursion), linear in
the body, which ``MAX_REQUEST_BODY`` already bounds.

Its own module, importing nothing of the project: DRF imports the parser classes while it
reads its settings, which ``games.web.exceptions`` is itself in the middle of importing.
"""

from __future__ import annotations

import json
from itertools import compress
from typing import Any

from rest_framework import parsers
from rest_framework.exceptions import ParseError

#: The deepest nesting of arrays and objects a JSON body or socket message may have.
MAX_JSON_DEPTH = 32
#: What nests in parsed JSON (exact types: ``json`` makes no subclasses).
_CONTAINERS = frozenset({dict, list})


class TooDeep(ValueError):
    """A JSON document nested deeper than ``MAX_JSON_DEPTH`` (a ``ValueError``, as any other
    unreadable JSON is)."""

    def __init__(self) -> None:
        super().__init__(
            f"nested too deeply: more than {MAX_JSON_DEPTH} levels of arrays and objects"
        )


def check_depth(value: Any, limit: int = MAX_JSON_DEPTH) -> None:
    """Raise ``TooDeep`` when ``value`` (parsed JSON) nests arrays/objects deeper than
    ``limit``. Level by level, no recursion (no input can exhaust Python's stack); each level's
    containers are picked by C-level iterators (``compress``/``map``), so the pass costs a
    fraction of the parse itself."""
    level = [value] if type(value) in _CONTAINERS else []
    depth = 0
    while level:
        depth += 1
        if depth > limit:
            raise TooDeep
        deeper: list[Any] = []
        for item in level:
            children = item.values() if type(item) is dict else item
            deeper.extend(compress(children, map(_CONTAINERS.__contains__, map(type, children))))
        level = deeper


def loads(text: str | bytes) -> Any:
    """``json.loads`` with the depth limit: ``TooDeep`` or the parser's ``ValueError``."""
    try:
        value = json.loads(text)
    except RecursionError as exc:
        raise TooDeep from exc
    check_depth(value)
    return value


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, and the depth limit (a 400 ``parse_error`` naming the body)."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            value = super().parse(stream, media_type, parser_context)
        except RecursionError as exc:
            raise ParseError(f"JSON parse error - {TooDeep()}") from exc
        try:
            check_depth(value)
        except TooDeep as exc:
            raise ParseError(f"JSON parse error - {exc}") from exc
        return value
