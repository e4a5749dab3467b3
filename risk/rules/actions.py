"""The actions of Fast Risk: small frozen dataclasses with a ``type`` and a JSON form.

Every action names the ``player`` who takes it (the person, or an allied seat's id when the AI
speaks for it). ``action_from_dict`` turns client JSON into an action or raises ``InvalidAction``
naming the field; whether the action is allowed *now* is the engine's business (``IllegalAction``).
Two error kinds, as python-chess separates a malformed move from one the position forbids.
"""

from __future__ import annotations

import types
import typing
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, ClassVar

from risk.rules.vocabulary import Refusal


class InvalidAction(ValueError):
    """Malformed action JSON: ``field`` is where, ``message`` what is wrong."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")


class IllegalAction(ValueError):
    """An action the rules do not allow now; ``code`` names the rule, ``reason`` explains it."""

    def __init__(self, code: Refusal, reason: str, *, field: str | None = None) -> None:
        self.code = code
        self.reason = reason
        self.field = field
        super().__init__(f"{code}: {reason}")


@dataclass(frozen=True)
class ActionSpec:
    """One kind of action a player may take now, with the choices open to them (JSON-ready)."""

    type: str
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Action:
    player: str
    type: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.type}
        for f in fields(self):
            value = getattr(self, f.name)
            data[f.name] = _jsonable(value)
        return data


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    return value


# --- set-up -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Arrange(Action):
    """A player's set-up: armies per own territory (21 in all), factory, ship station."""

    arrangement: tuple[tuple[str, int], ...]
    factory: str
    ship_station: str | None = None
    type: ClassVar[str] = "arrange"


# --- reinforcement ------------------------------------------------------------------------------


@dataclass(frozen=True)
class TurnIn(Action):
    """Turn in a set of three Risk cards for ``reward``: "armies", "factory" or "ship"."""

    cards: tuple[str, ...]
    reward: str
    type: ClassVar[str] = "turn_in"


@dataclass(frozen=True)
class Place(Action):
    """Deploy reinforcement armies on an own territory."""

    territory: str
    armies: int
    type: ClassVar[str] = "place"


@dataclass(frozen=True)
class Deploy(Action):
    """Several placements at once, applied in order, all or none: the board's draft of a
    reinforcement committed together (each entry as a ``Place`` of it would be)."""

    placements: tuple[tuple[str, int], ...]
    type: ClassVar[str] = "deploy"


@dataclass(frozen=True)
class PlaceShip(Action):
    """Launch a ship won by a turn-in at a station of an own coast."""

    station: str
    type: ClassVar[str] = "place_ship"


# --- battles ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Attack(Action):
    """Attack a territory: flanks are (source territory or ship id, armies committed)."""

    target: str
    mode: str
    flanks: tuple[tuple[str, int], ...]
    type: ClassVar[str] = "attack"


@dataclass(frozen=True)
class NavalAttack(Action):
    """Engage enemy ships with one or more own ships, each committing ``armies``.

    ``targets`` names the target of each ship of ``ships``, in order (all of one seat); empty
    means every ship attacks ``target``. When given, ``target`` is ``targets[0]`` (the lead).
    """

    ships: tuple[str, ...]
    target: str
    mode: str
    armies: int = 0  # armies each ship commits (committed/flanking); 0 = all aboard
    targets: tuple[str, ...] = ()
    type: ClassVar[str] = "naval_attack"


@dataclass(frozen=True)
class Roll(Action):
    """Roll once for the flank whose turn it is, first adding ``add`` armies to it.

    ``until_decided`` and ``until_armies`` roll on inside the one action (adding nothing), each
    roll logged as separate rolls would be, until the battle stops rolling (won, lost, a prize
    to decide) or, with ``until_armies`` N, once the attacker has N or fewer armies left in it.
    """

    add: int = 0
    until_decided: bool = False  # keep rolling (adding nothing) until the battle is decided
    until_armies: int = 0  # 1+: also stop once the attacker has this many or fewer left
    dice: int = 0  # a normal attack's dice, 1-3 (0: as many as allowed); a block rolls them all
    type: ClassVar[str] = "roll"


@dataclass(frozen=True)
class Retreat(Action):
    """Break off a normal attack (committed and flanking attacks cannot be broken off)."""

    type: ClassVar[str] = "retreat"


@dataclass(frozen=True)
class MoveIn(Action):
    """Occupy the conquered territory: ``armies`` in all (normal) or extra from ``source``."""

    armies: int
    source: str | None = None
    type: ClassVar[str] = "move_in"


@dataclass(frozen=True)
class Mobilize(Action):
    """The attacked seat's mobilization: hand cards to reveal, where each wild die goes."""

    reveal: tuple[str, ...] = ()
    wild_territories: tuple[str, ...] = ()
    type: ClassVar[str] = "mobilize"


@dataclass(frozen=True)
class JoinDefence(Action):
    """The defender sends unattacked ships of the same ocean into a naval battle.

    ``behind`` names the attacked ship each joining ship backs, in order; empty means all back
    the lead target.
    """

    ships: tuple[str, ...] = ()
    behind: tuple[str, ...] = ()
    type: ClassVar[str] = "join_defence"


@dataclass(frozen=True)
class Prize(Action):
    """An emptied enemy ship: board it from ``by`` with ``armies`` or, with ``by`` None, sink it."""

    ship: str
    by: str | None = None
    armies: int = 0
    type: ClassVar[str] = "prize"


# --- ships --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Cruise(Action):
    """Start a cruise: roll two dice of boat lengths."""

    ship: str
    type: ClassVar[str] = "cruise"


@dataclass(frozen=True)
class Sail(Action):
    """Move a cruising ship to a station within its remaining boat lengths."""

    ship: str
    station: str
    type: ClassVar[str] = "sail"


@dataclass(frozen=True)
class Embark(Action):
    """Pick up armies from an own coast within one boat length."""

    ship: str
    territory: str
    armies: int
    type: ClassVar[str] = "embark"


@dataclass(frozen=True)
class Disembark(Action):
    """Drop armies off on an own coast within one boat length (the ship keeps one)."""

    ship: str
    territory: str
    armies: int
    type: ClassVar[str] = "disembark"


@dataclass(frozen=True)
class EndCruise(Action):
    """Stop a ship's cruise where it is."""

    ship: str
    type: ClassVar[str] = "end_cruise"


# --- end of turn --------------------------------------------------------------------------------


@dataclass(frozen=True)
class EndCampaign(Action):
    """Stop attacking and sailing: cards are drawn and captured armies converted."""

    type: ClassVar[str] = "end_campaign"


@dataclass(frozen=True)
class PlaceFactory(Action):
    territory: str
    type: ClassVar[str] = "place_factory"


@dataclass(frozen=True)
class Transfer(Action):
    """The turn's one troop transfer through contiguous own territory."""

    source: str
    destination: str
    armies: int
    type: ClassVar[str] = "transfer"


@dataclass(frozen=True)
class Discard(Action):
    """Discard poker cards down to five."""

    cards: tuple[str, ...]
    type: ClassVar[str] = "discard"


@dataclass(frozen=True)
class EndTurn(Action):
    """End the turn, optionally declaring an allied army to play next."""

    ally: str | None = None
    type: ClassVar[str] = "end_turn"


# --- allied armies and poker --------------------------------------------------------------------


@dataclass(frozen=True)
class Challenge(Action):
    """Answer a declaration: contest it (poker) or let it pass."""

    contest: bool
    type: ClassVar[str] = "challenge"


@dataclass(frozen=True)
class Answer(Action):
    """The declarer, challenged: play the poker hand, or demur."""

    demur: bool
    type: ClassVar[str] = "answer"


@dataclass(frozen=True)
class Poker(Action):
    """One move in the poker hand: choose, bet, check, call, raise, fold, draw, show, muck."""

    move: str
    cards: tuple[str, ...] = ()
    from_stash: tuple[str, ...] = ()
    type: ClassVar[str] = "poker"


# --- joining and leaving ------------------------------------------------------------------------


@dataclass(frozen=True)
class Join(Action):
    """A late-comer takes over an allied army."""

    ally: str
    type: ClassVar[str] = "join"


@dataclass(frozen=True)
class Leave(Action):
    """A player leaves: their army becomes an allied army."""

    type: ClassVar[str] = "leave"


@dataclass(frozen=True)
class Concede(Action):
    """A player gives up: as for leaving, their army becomes an allied army."""

    type: ClassVar[str] = "concede"


@dataclass(frozen=True)
class VoteDraw(Action):
    """Agree (or refuse) to end the game in a draw; it ends when every player agrees."""

    agree: bool
    type: ClassVar[str] = "vote_draw"


@dataclass(frozen=True)
class Prefer(Action):
    """A seat's standing preferences (public): ``None`` leaves one as it is."""

    defence_dice: int | None = None  # 1 or 2: dice to defend a normal attack with
    reveal: str | None = None  # "ask" or "reveal-all": the answer to a mobilization bonus
    type: ClassVar[str] = "prefer"


ACTION_TYPES: dict[str, type[Action]] = {
    cls.type: cls
    for cls in (
        Arrange,
        TurnIn,
        Place,
        Deploy,
        PlaceShip,
        Attack,
        NavalAttack,
        Roll,
        Retreat,
        MoveIn,
        Mobilize,
        JoinDefence,
        Prize,
        Cruise,
        Sail,
        Embark,
        Disembark,
        EndCruise,
        EndCampaign,
        PlaceFactory,
        Transfer,
        Discard,
        EndTurn,
        Challenge,
        Answer,
        Poker,
        Join,
        Leave,
        Concede,
        VoteDraw,
        Prefer,
    )
}

#: Actions a person may take while the game waits on somebody else (not pending decisions).
ANYTIME_ACTIONS: tuple[type[Action], ...] = (Join, Leave, Concede, VoteDraw, Prefer)


def action_from_dict(data: Any) -> Action:
    """The action a client sent; ``InvalidAction`` naming the field when it is malformed."""
    if not isinstance(data, dict):
        raise InvalidAction("action", "an action is a JSON object with a 'type'")
    kind = data.get("type")
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise InvalidAction("type", f"unknown action type {kind!r}; one of {sorted(ACTION_TYPES)}")
    hints = typing.get_type_hints(cls)
    values: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in data:
            if f.default is not MISSING or f.default_factory is not MISSING:
                continue
            raise InvalidAction(f.name, f"required for a {kind!r} action")
        values[f.name] = _coerce(f.name, data[f.name], hints[f.name])
    unknown = sorted(set(data) - {f.name for f in fields(cls)} - {"type"})
    if unknown:
        raise InvalidAction(unknown[0], f"not a field of a {kind!r} action")
    return cls(**values)


def _coerce(name: str, value: Any, hint: Any) -> Any:
    """Check ``value`` against a field's annotation (str, int, bool, tuples of them, None)."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(hint)
        if value is None and type(None) in options:
            return None
        return _coerce(name, value, next(o for o in options if o is not type(None)))
    if origin is tuple:
        args = typing.get_args(hint)
        if not isinstance(value, list | tuple):
            raise InvalidAction(name, f"must be a list, got {type(value).__name__}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_coerce(f"{name}[{i}]", v, args[0]) for i, v in enumerate(value))
        if len(value) != len(args):
            raise InvalidAction(name, f"must be a list of {len(args)} items")
        return tuple(
            _coerce(f"{name}[{i}]", v, a) for i, (v, a) in enumerate(zip(value, args, strict=True))
        )
    if hint is bool:
        if not isinstance(value, bool):
            raise InvalidAction(name, "must be true or false")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidAction(name, f"must be a whole number, got {value!r}")
        return value
    if hint is str:
        if not isinstance(value, str) or not value:
            raise InvalidAction(name, f"must be a non-empty string, got {value!r}")
        return value
    raise InvalidAction(name, f"cannot read {value!r}")  # pragma: no cover - all fields typed
