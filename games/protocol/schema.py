"""What the protocol's definitions give the outside: the JSON Schema of the events, the game view
and the socket's messages (``msgspec.json.schema_components``), put into the OpenAPI document as
components (``openapi_components``: OpenAPI 3.0's dialect of it), and the catalog the browser
reads (``catalog``, served as ``GET /api/protocol``): the events' English templates, the quiet
actions and the same JSON Schema (the legal actions' options per action type among it).
"""

from __future__ import annotations

from functools import cache
from typing import Any

import msgspec

from games.protocol import events, legal, socket, view

#: The named unions (the rest are named after their classes, events with an "Event" suffix).
EVENT, CLIENT, SERVER, LEGAL = "Event", "SocketClientMessage", "SocketServerMessage", "LegalAction"


def _union(types: list[type]) -> Any:
    union: Any = None
    for cls in types:
        union = cls if union is None else union | cls
    return union


def _names() -> dict[str, str]:
    """msgspec's component names -> ours: an event's class name + "Event" (``Placed`` ->
    ``PlacedEvent``), so none collides with another component of the API."""
    names = {}
    for cls in events.EVENTS.values():
        names[cls.__name__] = (
            cls.__name__ if cls.__name__.endswith("Event") else f"{cls.__name__}Event"
        )
    return names


def _walk(node: Any, ref: str, names: dict[str, str], inline: dict[str, Any]) -> Any:
    """Each ``$ref`` (and discriminator mapping) as ``ref`` names it, and a union schema that
    ``inline`` names (written out where msgspec meets it) as a ``$ref`` to its component."""
    for name, union in inline.items():
        if node == union:
            return {"$ref": ref.format(name=name)}
    if isinstance(node, dict):
        out = {k: _walk(v, ref, names, inline) for k, v in node.items()}
        if isinstance(out.get("$ref"), str):
            name = out["$ref"].rsplit("/", 1)[1]
            out["$ref"] = ref.format(name=names.get(name, name))
        if "discriminator" in out and "mapping" in out["discriminator"]:
            mapping = out["discriminator"]["mapping"]
            for tag, target in mapping.items():
                name = target.rsplit("/", 1)[1]
                mapping[tag] = ref.format(name=names.get(name, name))
        return out
    if isinstance(node, list):
        return [_walk(v, ref, names, inline) for v in node]
    return node


@cache
def _components(ref: str) -> dict[str, Any]:
    unions = [
        _union(list(events.EVENTS.values())),
        socket.ClientMessage,
        socket.ServerMessage,
        legal.LegalAction,
    ]
    roots, components = msgspec.json.schema_components(
        [*unions, view.GameView], ref_template="#/$defs/{name}"
    )
    names = _names()
    named = {names.get(k, k): v for k, v in components.items()}
    named[EVENT], named[CLIENT], named[SERVER] = roots[0], roots[1], roots[2]
    inline = {LEGAL: roots[3]}  # the view's legal_actions: one named union, not written out
    out = {k: _walk(v, ref, names, inline) for k, v in sorted(named.items())}
    out[LEGAL] = _walk(roots[3], ref, names, {})
    return dict(sorted(out.items()))


def json_schema() -> dict[str, Any]:
    """The definitions as one JSON Schema (2020-12) document: ``$defs`` holds every one."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$defs": _components("#/$defs/{name}"),
    }


def catalog() -> dict[str, Any]:
    """``GET /api/protocol``: what the browser renders the events from, and the schema."""
    return {
        "events": {
            kind: {"line": cls.line, "summary": cls.summary} for kind, cls in events.EVENTS.items()
        },
        "quiet_actions": sorted(events.QUIET_ACTIONS),
        "schema": json_schema(),
    }


# --- OpenAPI 3.0 ------------------------------------------------------------------------------


def _oas30(node: Any) -> Any:
    """JSON Schema 2020-12 as OpenAPI 3.0 says it: ``nullable`` instead of a null type, ``enum``
    instead of ``const``, one ``items`` schema instead of ``prefixItems``, no empty
    ``required``."""
    if isinstance(node, list):
        return [_oas30(v) for v in node]
    if not isinstance(node, dict):
        return node
    node = {k: _oas30(v) for k, v in node.items()}
    if "const" in node:
        node["enum"] = [node.pop("const")]
    if node.get("required") == []:  # 3.0: a required list names at least one property
        del node["required"]
    if "prefixItems" in node:
        items = node.pop("prefixItems")
        distinct = list({repr(i): i for i in items}.values())
        node["items"] = distinct[0] if len(distinct) == 1 else {"anyOf": distinct}
    options = node.get("anyOf")
    if isinstance(options, list) and {"type": "null"} in options:
        rest = [o for o in options if o != {"type": "null"}]
        del node["anyOf"]
        if len(rest) == 1 and "$ref" in rest[0]:
            node.update({"allOf": rest, "nullable": True})
        elif len(rest) == 1:
            node.update({**rest[0], "nullable": True})
        else:
            node.update({"anyOf": rest, "nullable": True})
    return node


def openapi_components() -> dict[str, Any]:
    """The definitions as OpenAPI 3.0 components (``#/components/schemas/<name>``)."""
    return _oas30(_components("#/components/schemas/{name}"))
