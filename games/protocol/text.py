"""The events' English from the catalog's templates (``games.protocol.events`` describes the
template language). The browser's ``text.js`` is the same renderer in JavaScript, fed the same
templates by ``GET /api/protocol``; tests/frontend/test_game_js_events.py holds the two to the same
sentence for every event of seeded games.

Values print as JavaScript prints them (``true``, a list joined with ", "), so both sides agree;
a sentence that would show a missing value (or ``null``, ``true``/``false``, ``NaN``) is dropped
for the plain fields instead, as the browser always did.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from games.protocol.events import EVENTS

_SEGMENT = re.compile(r"\[\?([^:\]]*):([^\]]*)\]|\{([^{}]*)\}")
_CONDITION = re.compile(r"^(!?)(\w+)(?:(!?=)(?:'([^']*)'|(\w+)))?$")
#: A name that already says what water it is (text.js's oceanName: the same test).
OCEAN_WORD = re.compile(r"\b(ocean|sea|gulf|bay|strait|channel)s?$", re.IGNORECASE)
_SHOWS_NOTHING = re.compile(r"\b(undefined|null|NaN|true|false)\b|\[object")


class Unrendered(Exception):
    """A template that does not fit the event (a missing field, a value of the wrong kind)."""


def _truthy(value: Any) -> bool:
    """Set, and not empty, 0 or false."""
    return value not in (None, False, 0, "") and value != [] and value != {}


def _plain(value: Any) -> str:
    """A value as JavaScript's String() would print it (lists joined with ", ")."""
    if value is None or isinstance(value, dict):
        raise Unrendered(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return ", ".join(_plain(v) for v in value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def ocean_name(name: str) -> str:
    """A map's ocean as people read it: "Pacific" -> "Pacific Ocean"; "North Sea" stays."""
    return name if OCEAN_WORD.search(name) else f"{name} Ocean"


def station_place(key: Any) -> str:
    """A ship station, keyed "<ocean>:<coast>", as "<coast> (<ocean> Ocean)" (text.js's twin)."""
    ocean, _, coast = str(key).partition(":")
    return f"{coast} ({ocean_name(ocean)})" if coast else str(key)


def _filtered(value: Any, name: str, args: list[str], event: Mapping[str, Any]) -> str:
    if name == "one":
        single = value == 1 if not isinstance(value, list | tuple) else len(value) == 1
        return args[0] if single else args[1]
    if name == "placed":
        return ", ".join(f"{_plain(n)} on {t}" for t, n in (value or {}).items())
    if name == "flanks":
        return " and ".join(f"{_plain(s)} ({_plain(n)})" for s, n in value or [])
    if name == "station":
        return station_place(value)
    if name == "plus":
        other = int(args[0]) if args[0].isdigit() else event.get(args[0])
        if not isinstance(value, int) or not isinstance(other, int):
            raise Unrendered(name)
        return str(value + other)
    raise Unrendered(name)


def _field(expr: str, event: Mapping[str, Any], name: Callable[[str, Any], Any]) -> str:
    field, *rest = expr.split("|", 1)
    value = name(field, event.get(field))
    if not rest:
        return _plain(value)
    filter_name, *args = rest[0].split(":")
    return _filtered(value, filter_name, args, event)


def _holds(condition: str, event: Mapping[str, Any]) -> bool:
    match = _CONDITION.match(condition)
    if match is None:
        raise Unrendered(condition)
    negate, field, op, literal, other = match.groups()
    value = event.get(field)
    if op is None:
        result = _truthy(value)
    else:
        right = literal if literal is not None else event.get(other)
        result = value == right if op == "=" else (_truthy(value) and value != right)
    return not result if negate else result


def _branches(body: str) -> tuple[str, str]:
    """``then|else`` split at the first "|" outside a ``{placeholder|filter}``."""
    depth = 0
    for i, char in enumerate(body):
        depth += {"{": 1, "}": -1}.get(char, 0)
        if char == "|" and depth == 0:
            return body[:i], body[i + 1 :]
    return body, ""


def render(
    template: str,
    event: Mapping[str, Any],
    name: Callable[[str, Any], Any] = lambda field, value: value,
) -> str:
    """The template filled from the event; ``name(field, value)`` may replace a placeholder's
    value (the mail shows display names). Raises ``Unrendered`` when it does not fit."""

    def fill(text: str) -> str:
        return re.sub(r"\{([^{}]*)\}", lambda m: _field(m.group(1), event, name), text)

    def segment(match: re.Match[str]) -> str:
        condition, body, expr = match.groups()
        if expr is not None:
            return _field(expr, event, name)
        then, otherwise = _branches(body)
        return fill(then if _holds(condition, event) else otherwise)

    return _SEGMENT.sub(segment, template)


def plain_fields(event: Mapping[str, Any]) -> str:
    """The event as its type and fields, for an event with no sentence (``something new: seat
    carol, count 2``)."""
    fields = [
        f"{k.replace('_', ' ')} {_js(v)}"
        for k, v in event.items()
        if k not in ("type", "private_to", "hand")
    ]
    kind = str(event.get("type")).replace("_", " ")
    return f"{kind}: {', '.join(fields)}" if fields else kind


def _js(value: Any) -> str:
    """A value as a JavaScript template literal shows it (objects as JSON)."""
    if isinstance(value, dict | list):
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def event_line(event: Mapping[str, Any]) -> str:
    """The event log's sentence for the event (the browser's ``eventText``)."""
    definition = EVENTS.get(str(event.get("type")))
    if definition is not None:
        try:
            text = render(definition.line, event)
        except (Unrendered, TypeError, ValueError, AttributeError):
            text = None
        if text is not None and not _SHOWS_NOTHING.search(text):
            return text
    return plain_fields(event)
