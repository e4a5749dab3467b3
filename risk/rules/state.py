"""The state of one game of Nautical-but-Nice Fast Risk, and its lossless JSON form.

The state is plain data: dataclasses of ints, strings, lists and dicts, so equality, copying and
serialisation are trivial and the Django adapter can map it to rows field by field. The engine
never mutates a state it was given: ``apply`` works on ``clone(state)`` (copy on apply).

Names: a *seat* is an army colour on the board (a player's army or an allied army); ``Seat.player``
is the person playing it (None for an allied army, whose decisions the server's AI takes under the
seat id). Territories and ships are owned by seats. Risk cards are territory names or ``"wild"``;
poker cards are two-character strings ("Qh").
"""

from __future__ import annotations

import copy
from dataclasses import asdict, dataclass, field, fields, is_dataclass
from typing import Any, TypeVar

from combat.poker.draw import HandState
from combat.poker.draw import Seat as PokerSeat
from risk.rules.vocabulary import AttackMode

SCHEMA_VERSION = 4  # older stored states: risk.rules.upcast

PLAYER, ALLIED = "player", "allied"
AI_PREFIX = "ai:"  # the actor name of an allied army's AI
WILD = "wild"

# Turn phases.
SETUP, REINFORCE, CAMPAIGN, END, CONTEST, OVER = (
    "setup",
    "reinforce",
    "campaign",
    "end",
    "contest",
    "over",
)

# Battle kinds, modes and stages.
LAND, NAVAL = "land", "naval"
NORMAL, COMMITTED, FLANKING = AttackMode.NORMAL, AttackMode.COMMITTED, AttackMode.FLANKING
MODES = (NORMAL, COMMITTED, FLANKING)
MOBILIZE, JOIN, ROLLING, WON, PRIZES = "mobilize", "join", "rolling", "won", "prizes"

# Win conditions (design.md section 5: last player standing by default).
LAST_STANDING, DOMINATION, ROUND_LIMIT = "last-standing", "domination", "round-limit"
WIN_CONDITIONS = (LAST_STANDING, DOMINATION, ROUND_LIMIT)
# How a game ended besides those: every live player landless for too long (RULES.md J10).
STALEMATE = "stalemate"

# Who decides for an attacked allied army (RULES.md M4): the next player after the attacker, or
# the army's own AI.
NEXT_PLAYER, AI = "next", "ai"
# Who draws Risk cards when a player takes territory with an allied army (RULES.md A8): the ally
# draws its own card and the declarer the additional ones, or the declarer only.
ALLY_OWN, DECLARER_ONLY = "own", "declarer"
# A seat's standing answer to its mobilization bonus (RULES.md M3): asked each time, or every
# eligible hand card revealed at once.
ASK, REVEAL_ALL = "ask", "reveal-all"
# How many dice the defender rolls against a committed or flanking block (RULES.md C10): one
# fewer than the commitment (the text), or never fewer than in a normal attack (a host option).
BY_COMMITMENT, AS_NORMAL = "commitment", "normal"
DEFENDER_DICE = (BY_COMMITMENT, AS_NORMAL)

#: The largest ``Options.min_commitment`` a host may set (a block of 10 is a big army already).
MAX_MIN_COMMITMENT = 10

#: A landless player's turns before it is out (RULES.md J10), and the most a host may choose.
PIRATE_TURNS, MAX_PIRATE_TURNS = 10, 100

#: The rule revisions an ``Options.revision`` may name (the newest is every new game's).
REVISIONS = (1, 2)

COLOURS = ("red", "blue", "green", "yellow", "black", "pink", "grey", "orange", "purple", "brown")


@dataclass(frozen=True)
class Options:
    """Choices a game's players make at the start (each documented in risk/RULES.md)."""

    win: str = LAST_STANDING
    round_limit: int | None = None
    red_queens_high: bool = True
    reveal_needs_cut: bool = False  # hand cards add mobilization dice only when the cut hit
    # The map and the version of it the game is played on (``risk.rules.board_map.load_map``):
    # a version never changes, so neither does a running game's board.
    map: str = "classic"
    ally_defender: str = NEXT_PLAYER  # who decides for an attacked allied army
    ally_cards: str = ALLY_OWN  # an allied conquest: the ally draws its own Risk card too
    reveal_once: bool = False  # a revealed mobilization card is shown again only after turn-in
    # The flanking loophole (RULES.md C10, C11): the least armies a committed block or flank
    # commits (2: the text), and the defender's dice against one (``"commitment"``: the text).
    min_commitment: int = 2
    defender_dice: str = BY_COMMITMENT
    # A player who held no territory at the start of this many turns in a row is out at the
    # start of its next one (RULES.md J10; None: never). Needs ``revision`` 2.
    pirate_turns: int | None = PIRATE_TURNS
    # Which of the engine's readings of the text the game plays by: 1 for games set up before
    # the readings marked "revision 2" in risk/RULES.md (so a stored game replays and verifies
    # as it was played), 2 for every new game.
    revision: int = 2
    map_version: int = 1

    def __post_init__(self) -> None:
        choices = {"win": WIN_CONDITIONS, "ally_defender": (NEXT_PLAYER, AI),
                   "ally_cards": (ALLY_OWN, DECLARER_ONLY),
                   "defender_dice": DEFENDER_DICE}  # fmt: skip
        for name, allowed in choices.items():
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name}: one of {', '.join(allowed)}")
        least = self.min_commitment
        whole = isinstance(least, int) and not isinstance(least, bool)
        if not whole or not 2 <= least <= MAX_MIN_COMMITMENT:
            raise ValueError(f"min_commitment: whole armies, 2 to {MAX_MIN_COMMITMENT}")
        if self.pirate_turns is not None and (
            isinstance(self.pirate_turns, bool)
            or not isinstance(self.pirate_turns, int)
            or not 1 <= self.pirate_turns <= MAX_PIRATE_TURNS
        ):
            raise ValueError(f"pirate_turns: a whole number 1 to {MAX_PIRATE_TURNS}, or null")
        if self.revision not in REVISIONS:
            raise ValueError(f"revision: one of {', '.join(map(str, REVISIONS))}")
        version = self.map_version
        if isinstance(version, bool) or not isinstance(version, int) or version < 1:
            raise ValueError("map_version: a whole number, at least 1")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Options:
        return cls(**data)


@dataclass
class Seat:
    """One army colour: a player's army or an allied army."""

    id: str
    kind: str
    player: str | None
    colour: str
    suits: list[str] = field(default_factory=list)
    risk_cards: list[str] = field(default_factory=list)
    poker_cards: list[str] = field(default_factory=list)
    pot: int | None = None  # betting pot counted out for poker, None when not counted
    alive: bool = True
    set_up: bool = True  # False until a player has arranged their starting armies
    # Standing preferences (public, so whether the game waits on the seat never depends on its
    # hidden cards): dice it defends a normal attack with, and its answer to a mobilization.
    defence_dice: int = 2
    reveal: str = ASK
    revealed: list[str] = field(default_factory=list)  # shown for mobilization, not turned in

    @property
    def actor(self) -> str:
        """Who decides for this seat: the person, or for an allied army the AI, ``"ai:<seat>"``
        (never a person's name, so a player who left cannot speak for, or see, their old army)."""
        return self.player if self.player is not None else AI_PREFIX + self.id


@dataclass
class Holding:
    """One territory on the board: owner, armies, a factory, and captured armies held there."""

    owner: str
    armies: int
    factory: bool = False
    captured: dict[str, int] = field(default_factory=dict)  # original owner -> armies


@dataclass
class Ship:
    """A ship at a station, its crew and its actions this turn."""

    id: str
    owner: str
    station: str
    armies: int
    captured: dict[str, int] = field(default_factory=dict)
    cruises: int = 0  # cruises it may still start this turn
    moves: int = 0  # boat lengths left on its current cruise
    cruising: bool = False
    out_of_action: bool = False
    ports: list[str] = field(default_factory=list)  # territories it picked up from this turn


@dataclass
class Flank:
    """One committed block of a battle (the only block of a normal or committed attack)."""

    source: str  # a territory name, or a ship id when ``ship``
    ship: bool
    commitment: int
    standing: int
    captured: int = 0
    out: bool = False  # destroyed (or, for a ship, sunk or commandeered), or its fight is over
    target: str | None = None  # naval: the enemy ship this flank attacks (land: None)


@dataclass
class Battle:
    """A battle in progress: a land attack (maybe a landing) or a naval engagement."""

    kind: str
    mode: str
    attacker: str
    defender: str
    target: str  # territory (land) or the attacked ship's id (naval)
    flanks: list[Flank]
    stage: str = ROLLING
    next_flank: int = 0
    defending_ships: list[str] = field(default_factory=list)  # naval: targets, then joiners
    last_dice: int = 0  # attacker dice in the last roll (the normal move-in minimum)
    rolls: int = 0
    prizes: list[str] = field(default_factory=list)  # naval: emptied enemy ships to board or sink
    mobilization: dict[str, Any] | None = None  # the cut and the dice waiting for a choice
    support: dict[str, str] = field(default_factory=dict)  # naval: joined ship -> target it backs
    decided: dict[str, str] = field(default_factory=dict)  # naval: target -> "won"/"lost"/"left"


@dataclass
class Contest:
    """A declaration to play an allied army, its challengers and the poker hand, if any."""

    declarer: str  # seat id
    ally: str
    answers: dict[str, bool] = field(default_factory=dict)  # seat id -> contests?
    stage: str = "asking"  # asking -> answer (declarer: poker or demur) -> poker
    hand: HandState | None = None
    owed: list[str] = field(default_factory=list)  # late-comers owed a poker card after the hand
    redeal: bool = False  # a join or leave during the declaration: suits dealt at its end


@dataclass
class Turn:
    """Whose turn it is and what they have done in it."""

    seat: str
    controller: str  # the person (or AI seat id) taking the decisions
    phase: str = REINFORCE
    for_seat: str | None = None  # an allied turn: the player seat that plays it
    to_place: int = 0
    ships_to_place: list[int] = field(default_factory=list)  # crews of ships won by a turn-in
    factories_to_place: int = 0
    turned_in: int = 0  # card sets turned in this turn (RULES.md R8)
    attacked: list[str] = field(default_factory=list)  # seats that had their mobilization bonus
    locked: list[str] = field(default_factory=list)  # territories after a failed committed attack
    took_territory: bool = False
    transferred: bool = False


@dataclass
class Deck:
    """A deck's draw pile (index 0 is the top) and discard pile."""

    draw: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)


@dataclass
class GameState:
    """Everything about one game. ``seed`` is secret until the end (view_for strips it)."""

    seed: str
    options: Options
    seats: list[Seat]
    territories: dict[str, Holding]
    ships: dict[str, Ship]
    risk_deck: Deck
    poker_deck: Deck
    turn: Turn | None
    first_seat: str
    round: int = 1
    turn_number: int = 0
    actions: int = 0  # actions applied: the dice context of the next one (``game_dice``)
    next_ship: int = 1
    battle: Battle | None = None
    contest: Contest | None = None
    over: bool = False
    winner: str | None = None
    ranking: list[str] = field(default_factory=list)
    created: dict[str, int] = field(default_factory=dict)  # army ledger: armies made, by source
    lost: dict[str, int] = field(default_factory=dict)  # armies destroyed, by cause
    draw_votes: list[str] = field(default_factory=list)  # players agreeing to end in a draw
    eliminated: list[str] = field(default_factory=list)  # seats out, first out first
    landless: dict[str, int] = field(default_factory=dict)  # player -> turns begun without land
    version: int = SCHEMA_VERSION

    # --- lookups (the engine's vocabulary) ---------------------------------------------------

    def seat(self, seat_id: str) -> Seat:
        for seat in self.seats:
            if seat.id == seat_id:
                return seat
        raise KeyError(seat_id)

    def seat_of_actor(self, actor: str) -> Seat | None:
        """The seat a person plays (or the allied seat an AI speaks for)."""
        for seat in self.seats:
            if seat.player == actor or (seat.player is None and AI_PREFIX + seat.id == actor):
                return seat
        return None

    def owned(self, seat_id: str) -> list[str]:
        return [name for name, holding in self.territories.items() if holding.owner == seat_id]

    def ships_of(self, seat_id: str) -> list[Ship]:
        return [ship for ship in self.ships.values() if ship.owner == seat_id]

    def armies_on_board(self) -> int:
        """Armies on territories and ships, captured ones and those fighting in a battle."""
        total = sum(h.armies + sum(h.captured.values()) for h in self.territories.values())
        total += sum(s.armies + sum(s.captured.values()) for s in self.ships.values())
        if self.battle is not None:
            total += sum(f.standing + f.captured for f in self.battle.flanks if not f.out)
        return total


#: One of the engine's records (``_dup``).
_R = TypeVar("_R")


def _dup(record: _R, **changes: Any) -> _R:
    """A shallow copy of one of the engine's (non-frozen, slot-less) dataclass records with
    ``changes`` set: ``dataclasses.replace`` without its trip through ``__init__`` (which
    re-reads every field by name). ``replace`` was a third of a random game's time, called
    about 15 times an action by ``clone``. The records have no ``__post_init__`` to skip."""
    new = object.__new__(type(record))
    fields = new.__dict__
    fields.update(record.__dict__)
    fields.update(changes)
    return new


def clone(state: GameState) -> GameState:
    """A deep copy the engine may change freely, written out by hand: ``copy.deepcopy`` took 4 ms
    a state, most of an action's time. The poker hand inside a contest is immutable: shared."""
    turn, battle, contest = state.turn, state.battle, state.contest
    return _dup(
        state,
        seats=[
            _dup(s, suits=list(s.suits), risk_cards=list(s.risk_cards),
                 poker_cards=list(s.poker_cards), revealed=list(s.revealed))
            for s in state.seats
        ],
        territories={
            name: Holding(h.owner, h.armies, h.factory, dict(h.captured))
            for name, h in state.territories.items()
        },
        ships={k: _dup(s, captured=dict(s.captured), ports=list(s.ports))
               for k, s in state.ships.items()},
        risk_deck=Deck(list(state.risk_deck.draw), list(state.risk_deck.discard)),
        poker_deck=Deck(list(state.poker_deck.draw), list(state.poker_deck.discard)),
        turn=None if turn is None else _dup(
            turn, ships_to_place=list(turn.ships_to_place), attacked=list(turn.attacked),
            locked=list(turn.locked),
        ),
        battle=None if battle is None else _dup(
            battle, flanks=[_dup(f) for f in battle.flanks],
            defending_ships=list(battle.defending_ships), prizes=list(battle.prizes),
            mobilization=copy.deepcopy(battle.mobilization), support=dict(battle.support),
            decided=dict(battle.decided),
        ),
        contest=None if contest is None else _dup(
            contest, answers=dict(contest.answers), owed=list(contest.owed)
        ),
        ranking=list(state.ranking),
        draw_votes=list(state.draw_votes),
        eliminated=list(state.eliminated),
        landless=dict(state.landless),
        created=dict(state.created),
        lost=dict(state.lost),
    )  # fmt: skip


# --- JSON form ---------------------------------------------------------------------------------


def plain(value: Any) -> Any:
    """``dataclasses.asdict`` for the engine's records, without its deep copy of every leaf
    (the copy was most of the time of ``to_dict`` and of a view: 540,000 calls for 300 actions'
    pushes). The records hold only plain values: numbers, strings, None, tuples, lists, dicts
    and other records; anything else is refused rather than shared."""
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, tuple):
        return tuple(plain(v) for v in value)
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {plain(k): plain(v) for k, v in value.items()}
    raise TypeError(f"not a plain value: {type(value).__name__}")


def to_dict(state: GameState) -> dict[str, Any]:
    """The state as JSON-ready dicts and lists, versioned; ``from_dict`` inverts it exactly."""
    data = plain(state)
    data["options"] = state.options.to_dict()
    if state.contest is not None:
        data["contest"]["hand"] = _hand_to_dict(state.contest.hand)
    return data


def from_dict(data: dict[str, Any]) -> GameState:
    """The state written by ``to_dict``; refuses another schema version (stored states of
    earlier versions load through ``risk.rules.upcast.load_state``)."""
    if data.get("version") != SCHEMA_VERSION:
        raise ValueError(f"version: state schema {data.get('version')!r} is not {SCHEMA_VERSION}")
    data = copy.deepcopy(data)
    battle = data.pop("battle")
    contest = data.pop("contest")
    turn = data.pop("turn")
    return GameState(
        **{
            **data,
            "options": Options.from_dict(data["options"]),
            "seats": [Seat(**seat) for seat in data["seats"]],
            "territories": {k: Holding(**v) for k, v in data["territories"].items()},
            "ships": {k: Ship(**v) for k, v in data["ships"].items()},
            "risk_deck": Deck(**data["risk_deck"]),
            "poker_deck": Deck(**data["poker_deck"]),
            "turn": Turn(**turn) if turn is not None else None,
            "battle": _battle_from_dict(battle) if battle is not None else None,
            "contest": _contest_from_dict(contest) if contest is not None else None,
        }
    )


def _battle_from_dict(data: dict[str, Any]) -> Battle:
    return Battle(**{**data, "flanks": [Flank(**f) for f in data["flanks"]]})


def _contest_from_dict(data: dict[str, Any]) -> Contest:
    return Contest(**{**data, "hand": _hand_from_dict(data["hand"])})


def _hand_to_dict(hand: HandState | None) -> dict[str, Any] | None:
    if hand is None:
        return None
    if hand.result is not None:
        raise ValueError("a finished poker hand is settled, never stored")
    data = asdict(hand)
    data["seats"] = [{k: _listed(v) for k, v in seat.items()} for seat in data["seats"]]
    data["deck"] = list(hand.deck)
    return data


def _hand_from_dict(data: dict[str, Any] | None) -> HandState | None:
    if data is None:
        return None
    listed = ("stash", "hand", "discards", "stash_cards")
    tuple_fields = {f.name for f in fields(PokerSeat) if f.name in listed}
    seats: list[PokerSeat] = []
    for seat in data["seats"]:
        values: dict[str, Any] = {k: tuple(v) if k in tuple_fields else v for k, v in seat.items()}
        seats.append(PokerSeat(**values))
    return HandState(**{**data, "seats": tuple(seats), "deck": tuple(data["deck"])})


def _listed(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value
