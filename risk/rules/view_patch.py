"""A JSON Patch (RFC 6902) between two views, so a push carries the change, not the whole view.

``view_patch(before, after)`` returns the operations that turn ``before`` into ``after``;
``apply_patch(doc, ops)`` applies them (the server uses it only in tests; the browser has its own
copy in ``frontend/static/frontend/patch.js``). The subset used:

- ``{"op": "add", "path", "value"}``: a key ``after`` has and ``before`` lacks;
- ``{"op": "remove", "path"}``: a key ``before`` has and ``after`` lacks;
- ``{"op": "replace", "path", "value"}``: anything else that differs.

Paths are JSON Pointers (RFC 6901): ``""`` is the whole document, ``/a/b`` the key ``b`` of
the key ``a``; a ``~`` in a key is written ``~0`` and a ``/`` is written ``~1``. Objects are
compared key by key, recursively; a list or a scalar that differs is replaced whole (a view's
lists are short, and list diffs are where patch code goes wrong). Keys come out in ``after``'s
order, removals first, so the output is deterministic for equal inputs.
"""

from __future__ import annotations

import copy
from typing import Any

__all__ = ["PatchError", "apply_patch", "pointer", "view_patch"]


class PatchError(ValueError):
    """An operation that does not fit the document (a missing key, a bad path or op)."""


def pointer(keys: list[str]) -> str:
    """The JSON Pointer of a path of object keys (``["a/b", "c~"]`` -> ``"/a~1b/c~0"``)."""
    return "".join("/" + key.replace("~", "~0").replace("/", "~1") for key in keys)


def view_patch(before: Any, after: Any) -> list[dict[str, Any]]:
    """The operations that turn ``before`` into ``after`` (an empty list when they are equal)."""
    ops: list[dict[str, Any]] = []
    _diff(before, after, [], ops)
    return ops


def _same(a: Any, b: Any) -> bool:
    # JSON distinguishes true from 1 and 1 from 1.0 only by type; Python's == does not.
    return type(a) is type(b) and a == b


def _diff(before: Any, after: Any, path: list[str], ops: list[dict[str, Any]]) -> None:
    if isinstance(before, dict) and isinstance(after, dict):
        for key in before:
            if key not in after:
                ops.append({"op": "remove", "path": pointer([*path, key])})
        for key, value in after.items():
            if key not in before:
                ops.append({"op": "add", "path": pointer([*path, key]), "value": value})
            else:
                _diff(before[key], value, [*path, key], ops)
        return
    if not _same(before, after):
        ops.append({"op": "replace", "path": pointer(path), "value": after})


def _keys(path: str) -> list[str]:
    if path == "":
        return []
    if not path.startswith("/"):
        raise PatchError(f"a JSON Pointer starts with '/': {path!r}")
    return [part.replace("~1", "/").replace("~0", "~") for part in path[1:].split("/")]


def apply_patch(doc: Any, ops: list[dict[str, Any]]) -> Any:
    """``doc`` with ``ops`` applied (a new document; ``doc`` is left as it was).

    Object keys only: the patches of ``view_patch`` never index into a list. Raises
    ``PatchError`` for an operation that does not fit (the document is then left unchanged).
    """
    result = copy.deepcopy(doc)
    for op in ops:
        kind, keys = op.get("op"), _keys(op.get("path", ""))
        if kind not in ("add", "remove", "replace"):
            raise PatchError(f"unsupported op {kind!r}")
        if not keys:
            if kind == "remove":
                raise PatchError("cannot remove the whole document")
            result = copy.deepcopy(op["value"])
            continue
        parent = result
        for key in keys[:-1]:
            if not isinstance(parent, dict) or key not in parent:
                raise PatchError(f"no {op['path']!r} in the document")
            parent = parent[key]
        last = keys[-1]
        if not isinstance(parent, dict):
            raise PatchError(f"{op['path']!r} is not inside an object")
        if kind != "add" and last not in parent:
            raise PatchError(f"no {op['path']!r} to {kind}")
        if kind == "remove":
            del parent[last]
        else:
            parent[last] = copy.deepcopy(op["value"])
    return result
