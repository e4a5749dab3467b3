"""Events: what an action did, as small frozen values with a ``type`` and a JSON form.

The handlers build each event as a JSON-ready dict (``{"type": "roll", ...}``), as
``combat.poker`` does; ``apply`` returns them frozen as ``Event`` values. An ``Event`` is also a
read-only mapping, so ``event["type"]`` and comparing with a plain dict both work, and
``to_dict``/``from_dict`` give its JSON form. Events that carry cards only their owner may see
name that seat in ``private_to``; ``risk.rules.views.events_for`` strips them for everyone else.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, eq=False)
class Event(Mapping[str, Any]):
    type: str
    data: tuple[tuple[str, Any], ...] = ()

    def __getitem__(self, key: str) -> Any:
        if key == "type":
            return self.type
        for name, value in self.data:
            if name == key:
                return value
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        yield "type"
        for name, _ in self.data:
            yield name

    def __len__(self) -> int:
        return 1 + len(self.data)

    def to_dict(self) -> dict[str, Any]:
        return dict(self.items())

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Event:
        return cls(str(data["type"]), tuple((k, v) for k, v in data.items() if k != "type"))
