"""A new tournament's settings, described once: ``TournamentSettings``.

Three places read a tournament's settings: the service that creates it
(``setup.tournament_create``), the API's body for ``POST /api/tournaments`` and the form of
``/tournaments/new``. Each used to restate the limits (minutes 1-240, days 1-30, entrants
2-256 ...), so a change in one left the others stale. Here every setting is a field of one
frozen dataclass, and its ``Setting`` (the field's metadata) says what the three need: its
kind, its limits or choices, the API's help text, the form's label and which kind of play it
applies to. The service checks against these limits, the serializer and the form are
generated from them (``games.tournaments.api``, ``frontend.tournament_forms``).

What the service alone decides (a name taken, a Swiss event's rounds, points that never rise,
the rooms' variants and the Fast Risk options) stays in the service: the metadata states the
shape of each input, not the rules that tie them together.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from combat.axis_allies.editions import available_editions
from games.models import AI_LEVELS, Game, Room, Tournament
from games.play.lobby import CORRESPONDENCE_DAYS, LIVE_MINUTES
from games.rooms.setup import MAX_DAYS_PER_TURN, RULES

MAX_ENTRANTS = 256
MAX_ROUNDS = 30
#: A tables event's rounds when the staff leave them empty.
TABLE_ROUNDS = 3
#: The fewest and most players at a multiplayer table (a Fast Risk game seats 3 to 6 here).
TABLE_SIZES = (3, 6)
#: The most points a place may score at a table.
MAX_PLACE_POINTS = 1000


class Kind(StrEnum):
    """The shape of a setting's value, which decides its API field and its form field."""

    TEXT = "text"
    CHOICE = "choice"
    INTEGER = "integer"
    BOOLEAN = "boolean"
    DATETIME = "datetime"
    #: The Fast Risk rules options (``risk.rules.Options``, checked by ``lobby.checked_options``).
    OPTIONS = "options"
    #: A list of short names (a room's two sides).
    NAMES = "names"
    #: A list of numbers (the points of each place at a table).
    NUMBERS = "numbers"


@dataclass(frozen=True)
class Setting:
    """What the service, the API and the form need to know of one setting.

    ``low``/``high`` bound an integer, each number of a list (``NUMBERS``), or a list's length
    (``NAMES``, with ``max_length`` bounding each name); ``choices`` are ``(value, label)``
    pairs: the API states the values, the form shows the labels. ``offered`` marks choices the
    form offers while the API takes any short text and the service refuses an unknown one (its
    refusal lists what it allows). ``null`` says that an empty value means something (untimed,
    the format's own number). A default is one the service takes for every format: the form
    fills in the defaults, and the defaults alone make a tournament of any format.
    """

    kind: Kind
    label: str
    help: str = ""
    low: int | None = None
    high: int | None = None
    max_length: int | None = None
    choices: tuple[tuple[str, str], ...] = ()
    offered: bool = False
    null: bool = False
    play: str | None = None

    @property
    def values(self) -> list[str]:
        """The choices' values, as the API states them."""
        return [value for value, _ in self.choices]


def about(**meta: Any) -> dict[str, Setting]:
    """A dataclass field's metadata: its ``Setting``."""
    return {"setting": Setting(**meta)}


def _labelled(values: list[str], labels: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    """``(value, label)`` for every value of a model's choices: a value added to the model
    without a label here fails at import, not on the page."""
    return tuple((value, labels[value]) for value in values)


# str() of a Django choice is its value (plain text, as the type checker also sees it).
FAST_RISK, ROOM = str(Tournament.Play.FAST_RISK), str(Tournament.Play.ROOM)


@dataclass(frozen=True)
class TournamentSettings:
    """Every setting of a new tournament (``setup.tournament_create`` checks them together).

    The Fast Risk settings apply when ``play`` is ``fast_risk``, the room settings when it is
    ``room``; the other group is ignored.
    """

    name: str = field(
        metadata=about(kind=Kind.TEXT, max_length=80, label="Name", help="Unique (409 name_taken).")
    )
    play: str = field(
        metadata=about(
            kind=Kind.CHOICE,
            label="Play",
            help="Fast Risk games or rooms.",
            choices=_labelled(
                Tournament.Play.values,
                {
                    FAST_RISK: "Fast Risk games",
                    ROOM: "Correspondence rooms (A&A, WiF, France 1944)",
                },
            ),
        )
    )
    format: str = field(
        metadata=about(
            kind=Kind.CHOICE,
            label="Format",
            help="tables: multiplayer Fast Risk only.",
            choices=_labelled(
                Tournament.Format.values,
                {
                    "round_robin": "Round robin (1 v 1)",
                    "swiss": "Swiss (1 v 1)",
                    "knockout": "Knockout (1 v 1)",
                    "tables": "Multiplayer tables (Fast Risk, 3-6)",
                },
            ),
        )
    )
    description: str = field(
        default="", metadata=about(kind=Kind.TEXT, max_length=4000, label="Description")
    )
    options: dict[str, Any] | None = field(
        default=None,
        metadata=about(
            kind=Kind.OPTIONS,
            play=FAST_RISK,
            label="Rules options",
            help="Fast Risk: the games' rules options (risk/RULES.md).",
        ),
    )
    time_control: str = field(
        default="correspondence",
        metadata=about(
            kind=Kind.CHOICE,
            play=FAST_RISK,
            label="Time control",
            choices=tuple(Game.TimeControl.choices),
            help="Fast Risk: live needs minutes, correspondence days.",
        ),
    )
    minutes: int | None = field(
        default=None,
        metadata=about(
            kind=Kind.INTEGER,
            play=FAST_RISK,
            low=LIVE_MINUTES[0],
            high=LIVE_MINUTES[1],
            null=True,
            label="Minutes per decision (live)",
            help="Fast Risk, live: minutes per turn.",
        ),
    )
    days: int | None = field(
        default=3,
        metadata=about(
            kind=Kind.INTEGER,
            play=FAST_RISK,
            null=True,
            low=CORRESPONDENCE_DAYS[0],
            high=CORRESPONDENCE_DAYS[1],
            label="Days per decision (correspondence)",
            help="Fast Risk, correspondence: days per turn.",
        ),
    )
    ai_level: str = field(
        default="hard",
        metadata=about(
            kind=Kind.CHOICE,
            play=FAST_RISK,
            choices=tuple((level, level) for level in AI_LEVELS),
            label="AI level (bot stand-ins, allied armies)",
            help="Fast Risk: the bots' strength (stand-ins, allied armies, time-outs).",
        ),
    )
    room_system: str = field(
        default="",
        metadata=about(
            kind=Kind.CHOICE,
            play=ROOM,
            choices=(("", "(rooms only)"), *Room.System.choices),
            label="Room system",
            help="Rooms: the game system (required for play room).",
        ),
    )
    room_rules: str = field(
        default="",
        metadata=about(
            kind=Kind.CHOICE,
            play=ROOM,
            offered=True,
            max_length=20,
            label="A&A rules",
            choices=_labelled(
                ["", *RULES],
                {
                    "": "(A&A only) dice",
                    "dice": "Dice",
                    "lowluck": "Low Luck",
                    "chess": "A&A Chess",
                },
            ),
            help="Rooms, A&A only: dice (default), lowluck or chess.",
        ),
    )
    room_edition: str = field(
        default="",
        metadata=about(
            kind=Kind.CHOICE,
            play=ROOM,
            offered=True,
            max_length=40,
            label="A&A edition",
            choices=(("", "(A&A only) revised"), *((e, e) for e in sorted(available_editions()))),
            help="Rooms, A&A only: the edition (revised by default; /api/combat/aa/editions).",
        ),
    )
    room_sides: list[str] | None = field(
        default=None,
        metadata=about(
            kind=Kind.NAMES,
            play=ROOM,
            low=2,
            high=2,
            max_length=40,
            null=True,
            label="The two sides, first-named first (one per line; empty: the system's)",
            help="Rooms: the two sides, first-named first (default by system, e.g. Axis, Allies).",
        ),
    )
    days_per_turn: int | None = field(
        default=7,
        metadata=about(
            kind=Kind.INTEGER,
            play=ROOM,
            low=1,
            high=MAX_DAYS_PER_TURN,
            null=True,
            label="Days per turn (rooms; empty: untimed)",
            help="Rooms: days per turn; null untimed.",
        ),
    )
    rated: bool = field(default=True, metadata=about(kind=Kind.BOOLEAN, label="Rated"))
    registration_opens: datetime | None = field(
        default=None,
        metadata=about(
            kind=Kind.DATETIME,
            null=True,
            label="Registration opens (YYYY-MM-DD HH:MM, UTC; empty: now)",
            help="ISO 8601; null: at once.",
        ),
    )
    registration_closes: datetime | None = field(
        default=None,
        metadata=about(
            kind=Kind.DATETIME,
            null=True,
            label="Registration closes (YYYY-MM-DD HH:MM, UTC; empty: at the start)",
            help="ISO 8601, after registration_opens; null: at the start.",
        ),
    )
    min_entrants: int | None = field(
        default=None,
        metadata=about(
            kind=Kind.INTEGER,
            low=2,
            high=MAX_ENTRANTS,
            null=True,
            label="Fewest entrants (empty: 2, or the smallest table)",
            help="Default 2 (tables: table_min); a start with fewer is refused.",
        ),
    )
    max_entrants: int | None = field(
        default=None,
        metadata=about(
            kind=Kind.INTEGER,
            low=2,
            high=MAX_ENTRANTS,
            null=True,
            label="Most entrants (empty: the format's largest field)",
            help="Default and most: the format's largest field (round robin 24, Swiss 64, "
            "knockout 256, tables 120; games.competition.formats.MAX_FIELD).",
        ),
    )
    rounds: int | None = field(
        default=None,
        metadata=about(
            kind=Kind.INTEGER,
            low=1,
            high=MAX_ROUNDS,
            null=True,
            label=f"Rounds (Swiss and tables; empty: Swiss log2 of the field, tables "
            f"{TABLE_ROUNDS}; round robin and knockout: from the field)",
            help=f"Swiss and tables (optional: Swiss ceil(log2 n), tables {TABLE_ROUNDS}); "
            "round robin and knockout: null, their rounds follow from the field.",
        ),
    )
    table_min: int = field(
        default=TABLE_SIZES[0],
        metadata=about(
            kind=Kind.INTEGER,
            low=TABLE_SIZES[0],
            high=TABLE_SIZES[1],
            label="Smallest table (tables)",
        ),
    )
    table_max: int = field(
        default=TABLE_SIZES[1],
        metadata=about(
            kind=Kind.INTEGER,
            low=TABLE_SIZES[0],
            high=TABLE_SIZES[1],
            label="Largest table (tables)",
        ),
    )
    place_points: list[float] | None = field(
        default=None,
        metadata=about(
            kind=Kind.NUMBERS,
            low=0,
            high=MAX_PLACE_POINTS,
            null=True,
            label="Points for 1st, 2nd, … place (tables; empty: 10, 6, 4, 3, 2, 1)",
            help="Tables: points for 1st, 2nd, ... place, at least table_max of them, never "
            "rising (400 naming place_points.<n>).",
        ),
    )
    late_entry_rounds: int = field(
        default=0,
        metadata=about(
            kind=Kind.INTEGER,
            low=0,
            high=MAX_ROUNDS,
            label="Late entries until this many rounds are paired (Swiss, tables)",
            help="Swiss and tables: entries taken until this many rounds are paired.",
        ),
    )
    auto_pair: bool = field(
        default=True,
        metadata=about(
            kind=Kind.BOOLEAN, label="Pair the next round as soon as the last one is complete"
        ),
    )

    @classmethod
    def of(cls, values: Mapping[str, Any]) -> TournamentSettings:
        """The settings in ``values`` that apply to its ``play``; the others at their default
        (a form sends both groups, and the service ignores the other one anyway)."""
        play = values.get("play")
        return cls(**{
            name: value for name, value in values.items()
            if name in SETTINGS and SETTINGS[name].play in (None, play)
        })  # fmt: skip


#: Every setting by name, in the order the API and the form list them.
SETTINGS: dict[str, Setting] = {
    f.name: f.metadata["setting"] for f in dataclasses.fields(TournamentSettings)
}


def default(name: str) -> Any:
    """The value a setting has when it is left out (``dataclasses.MISSING``: it is required)."""
    return TournamentSettings.__dataclass_fields__[name].default


def limits(name: str) -> tuple[int, int]:
    """A bounded setting's ``(low, high)``, for the service's checks and messages."""
    setting = SETTINGS[name]
    assert setting.low is not None and setting.high is not None, name
    return setting.low, setting.high
