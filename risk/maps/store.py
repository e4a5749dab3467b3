"""Map versions on the server: drafts, uploads, trial copies, publishing, and what the lobby offers.

Every change of state runs the one validator (``risk.rules.board_map`` through
``documents.row_problems``/``file_problems``) and is refused with each fault named
(``MapRefused.errors``). Versions of a name are numbered 1, 2, ... in the order they were made
(drafts, trial copies and published versions share the numbers); a version that can be played on
(trial or published) never changes again, which is what lets the engine cache it for good.

``map_source`` is the source ``RiskConfig.ready`` registers with ``board_map``: it serves trial
and published versions, never a draft.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.exceptions import SynchronousOnlyOperation
from django.db import DatabaseError, transaction
from django.db.models import Count, Max
from django.utils import timezone

from risk.maps.documents import file_problems, import_map, map_file, row_problems, split_file
from risk.models import Map
from risk.rules.board_map import PACKAGED_VERSION, MapError, check_map_name, load_map, map_names

logger = logging.getLogger(__name__)

#: The versions games can be played on: they never change.
PLAYABLE = (Map.Status.TRIAL, Map.Status.PUBLISHED)


class MapRefused(Exception):
    """A map change refused: ``errors`` are the validator's faults, each with its code."""

    def __init__(self, message: str, errors: list[MapError] | None = None):
        super().__init__(message)
        self.message = message
        self.errors = errors or []

    def lines(self) -> list[str]:
        """The message, then one line per fault (``[one-way-border] ...``)."""
        return [self.message, *(str(e) for e in self.errors)]


def map_source(name: str, version: int) -> Mapping[str, Any] | None:
    """The file of a trial or published version (the board under ``"board"``), or None.

    Asked once per version and process (``board_map.load_map`` keeps the answer). With no
    database to ask, None, so the packaged file answers for version 1: while the tables are
    being made (``migrate``), in an async context (where Django refuses queries; the sockets
    reach the engine through ``database_sync_to_async``), or in a test that has no database.
    """
    try:
        found = Map.objects.filter(name=name, version=version, status__in=PLAYABLE).first()
        return None if found is None else map_file(found)
    except (DatabaseError, SynchronousOnlyOperation, RuntimeError) as exc:
        # RuntimeError: pytest-django's guard on a test that asked for no database.
        logger.debug("map source: no database for %s@%s (%s)", name, version, exc)
        return None


# -- what may be played --------------------------------------------------------------------------


@dataclass(frozen=True)
class Offered:
    """A published map as the lobby offers it: its newest published version."""

    name: str
    version: int
    title: str
    min_seats: int
    max_seats: int
    territories: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name, "version": self.version, "title": self.title,
            "min_seats": self.min_seats, "max_seats": self.max_seats,
            "territories": self.territories,
        }  # fmt: skip


def _packaged(name: str) -> Offered:
    board = load_map(name, PACKAGED_VERSION)
    return Offered(name, PACKAGED_VERSION, board.name, board.min_seats, board.max_seats,
                   len(board.territories))  # fmt: skip


def offered_maps() -> list[Offered]:
    """The newest published version of every map, by name.

    A packaged map (``risk/data``) is always published as version 1: migrations 0006 and 0007
    load its rows, and where they are missing (a test database that was flushed) its file, which
    the engine falls back to, stands in."""
    rows = (
        Map.objects.filter(status=Map.Status.PUBLISHED)
        .annotate(count=Count("territories"))
        .order_by("name", "-version")
    )
    newest: dict[str, Offered] = {}
    for m in rows:
        if m.name not in newest:
            newest[m.name] = Offered(
                m.name, m.version, m.title, m.min_seats, m.max_seats, getattr(m, "count", 0)
            )
    for name in map_names():
        newest.setdefault(name, _packaged(name))
    return sorted(newest.values(), key=lambda offer: offer.name)


def playable(name: Any, version: Any = None, *, trial: bool = False) -> int:
    """The version a new game may be played on: ``version`` of map ``name`` if it is published
    (or, with ``trial``, a trial copy), else the newest published one when ``version`` is None.
    Raises ``MapRefused`` naming what is missing."""
    if not isinstance(name, str):
        raise MapRefused(f"no map {name!r}")
    if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
        raise MapRefused(f"map version {version!r} is not a whole number")
    allowed = PLAYABLE if trial else (Map.Status.PUBLISHED,)
    versions = Map.objects.filter(name=name, status__in=allowed)
    if version is not None:
        versions = versions.filter(version=version)
    found = versions.order_by("-version").values_list("version", flat=True).first()
    if found is not None:
        return found
    packaged = name in map_names() and version in (None, PACKAGED_VERSION)
    if packaged and not Map.objects.filter(name=name, version=PACKAGED_VERSION).exists():
        return PACKAGED_VERSION
    wanted = name if version is None else f"{name}@{version}"
    raise MapRefused(f"no published map {wanted!r}")


# -- making and publishing -----------------------------------------------------------------------


def may_make_maps(user: Any) -> bool:
    """Staff, and any signed-in user when ``settings.WARBOARD_USER_MAPS`` is on."""
    if not getattr(user, "is_authenticated", False):
        return False
    return bool(user.is_staff or getattr(settings, "WARBOARD_USER_MAPS", False))


def may_publish(user: Any, the_map: Map) -> bool:
    """Staff publish any draft; a map's own author, when users may make maps."""
    return may_make_maps(user) and (user.is_staff or the_map.author_id == user.pk)


def next_version(name: str) -> int:
    """The number the next version of ``name`` takes (after version 1 of a packaged map,
    which is its file's even where its rows are missing)."""
    top = Map.objects.filter(name=name).aggregate(top=Max("version"))["top"]
    return max(top or 0, PACKAGED_VERSION if name in map_names() else 0) + 1


def upload(raw: Any, *, name: str, author: Any = None) -> Map:
    """A new draft of map ``name`` (its next version) from a map file (``documents.map_file``'s
    shape), if the whole file is good; else ``MapRefused`` with each fault."""
    try:
        check_map_name(name)
    except MapError as error:
        raise MapRefused("the map's name is refused", [error]) from None
    errors = file_problems(raw)
    if errors:
        raise MapRefused(f"the map file has {len(errors)} fault(s)", errors)
    doc, drawn = split_file(raw)
    with transaction.atomic():
        return import_map(doc, drawn, name=name, version=next_version(name), author=author)


def copy_as(the_map: Map, status: str, *, author: Any = None) -> Map:
    """A new version of ``the_map``'s name with the same rows, as ``status``."""
    doc, drawn = split_file(map_file(the_map))
    return import_map(
        doc, drawn, name=the_map.name, version=next_version(the_map.name), status=status,
        author=author,
    )  # fmt: skip


def new_draft(the_map: Map, *, author: Any = None) -> Map:
    """A draft to change a version that no longer changes (its rows copied, next version)."""
    with transaction.atomic():
        return copy_as(the_map, Map.Status.DRAFT, author=author)


def _checked_draft(the_map: Map) -> Map:
    locked = Map.objects.select_for_update().get(pk=the_map.pk)
    if locked.status != Map.Status.DRAFT:
        raise MapRefused(f"{locked.ref} is {locked.status}, not a draft")
    errors = row_problems(locked)
    if errors:
        raise MapRefused(f"{locked.ref} has {len(errors)} fault(s)", errors)
    return locked


def publish(the_map: Map) -> Map:
    """Publish a good draft: from now on it never changes, and new games may choose it."""
    with transaction.atomic():
        locked = _checked_draft(the_map)
        locked.status = Map.Status.PUBLISHED
        locked.published_at = timezone.now()
        locked.save(update_fields=["status", "published_at"])
    return locked


def trial_copy(the_map: Map, *, author: Any = None) -> Map:
    """A frozen copy of a good draft to try against bots; the draft itself stays editable."""
    with transaction.atomic():
        return copy_as(_checked_draft(the_map), Map.Status.TRIAL, author=author)
