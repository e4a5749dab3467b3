"""The legal actions of the game view: each ``{type, options}`` that ``risk.rules.engine.
legal_actions`` offers a player (an ``ActionSpec``), with the options typed per action type.

The options are what the game page's forms (``frontend/static/frontend/forms*.js``) and the
bots build an action from: the choices open now, so a client never offers what the engine
would refuse. Each action type is a ``msgspec.Struct`` tagged by its ``type`` whose ``options``
is a Struct of its own, so the JSON Schema (``GET /api/protocol``, the OpenAPI document) shows
every type's option shape, and an option the engine adds fails tests/games/test_protocol.py
until it is written here (``forbid_unknown_fields``).

An option the engine leaves out in some states is ``UNSET`` (absent, never null): ``poker``'s
``choose`` and ``draw``, ``move_in``'s two shapes, the modes a source or a fleet has room for.
"""

from __future__ import annotations

from typing import Literal, get_args

import msgspec
from msgspec import UNSET, UnsetType

Mode = Literal["normal", "committed", "flanking"]
Reward = Literal["armies", "factory", "ship"]
Reveal = Literal["ask", "reveal-all"]
PokerMove = Literal["choose", "draw", "show", "muck", "check", "call", "bet", "raise", "fold"]

#: [least, most] armies.
Range = tuple[int, int]


class _Options(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    pass


class NoOptions(_Options, kw_only=True):
    """An action that is its type alone (``retreat``, ``end_campaign``, ``leave``, ``concede``):
    the form is one button."""


# --- setting up -------------------------------------------------------------------------------


class ArrangeOptions(_Options, kw_only=True):
    territories: list[str]  # the seat's territories: one number field each, the factory's select
    armies: int  # the armies to spread over them (the form's running total)
    min_each: int  # the least on each territory (each field's minimum)
    ship_stations: list[str]  # where the starting ship may go (empty: the seat has no ship)


# --- the turn ---------------------------------------------------------------------------------


class TurnInOptions(_Options, kw_only=True):
    sets: list[list[str]]  # the sets of the hand that may be turned in ("wild" for a wild card)
    rewards: list[Reward]  # the reward radios ("ship" only with a coast, RULES.md R6)


class PlaceOptions(_Options, kw_only=True):
    """Open for a ``place`` of one territory, and for a ``deploy`` of several at once
    (``placements: [[territory, armies], ...]``, each entry within these bounds and all of them
    within ``max``; the board's draft, committed together, all or nothing)."""

    territories: list[str]  # the territory select, and the board's clickable territories
    min: int  # the armies field's minimum
    max: int  # its maximum and default: the armies left to place


class PlaceShipOptions(_Options, kw_only=True):
    stations: list[str]  # the coastal stations offered for the new ship


class AttackRoom(_Options, kw_only=True):
    """One source's room per mode: the armies one flank may commit from it."""

    normal: Range  # the armies field's bounds in a normal attack
    committed: Range | UnsetType = UNSET  # in a committed attack, and each flank's (shared)


class AttackOptions(_Options, kw_only=True):
    targets: dict[str, list[str]]  # target -> the sources (territories, ships) that reach it
    room: dict[str, AttackRoom]  # source -> the armies field's bounds per mode
    modes: dict[str, list[Mode]]  # target -> the mode select's choices


class NavalMode(_Options, kw_only=True):
    """A naval attack mode's limits, which the form checks the chosen grouping against."""

    max_per_target: int | None  # most ships on one target (null: any number)
    min_on_a_target: int  # some target has at least this many ships
    min_armies: int  # 0: every army aboard fights; else each ship commits this many or more


class NavalModes(_Options, kw_only=True):
    normal: NavalMode
    committed: NavalMode | UnsetType = UNSET  # a crew has room for a committed attack
    flanking: NavalMode | UnsetType = UNSET  # two or more ships can engage one target


class NavalAttackOptions(_Options, kw_only=True):
    defenders: dict[str, dict[str, list[str]]]  # seat -> own ship -> enemy ships it may engage
    crew: dict[str, int]  # own ship -> armies aboard (the committed armies' ceiling)
    modes: NavalModes  # the mode select's choices with their limits


class CruiseOptions(_Options, kw_only=True):
    ships: list[str]  # the ships that may start a cruise (the ship select)


class SailOptions(_Options, kw_only=True):
    ship: str  # the cruising ship this spec is for (one spec per ship)
    stations: dict[str, int]  # station -> moves it costs: the stations marked on the board


class EmbarkOptions(_Options, kw_only=True):
    ship: str  # the cruising ship this spec is for
    territories: list[str]  # own coasts it may pick armies up from
    max: dict[str, int]  # territory -> the armies field's maximum


class DisembarkOptions(_Options, kw_only=True):
    ship: str  # the cruising ship this spec is for
    territories: list[str]  # own coasts it may land armies on
    max: int  # the armies field's maximum (one army stays aboard)


class EndCruiseOptions(_Options, kw_only=True):
    ship: str  # the cruising ship whose cruise the button ends


class PlaceFactoryOptions(_Options, kw_only=True):
    territories: list[str]  # the sites a factory may be built on


class DiscardOptions(_Options, kw_only=True):
    count: int  # how many poker cards the form asks for (down to the hand limit)
    cards: list[str]  # the poker hand to pick them from


class TransferOptions(_Options, kw_only=True):
    sources: list[str]  # the source select: territories that reach another own territory
    destinations: dict[str, list[str]]  # source -> the destination select
    max: dict[str, int]  # source -> the armies field's maximum


class EndTurnOptions(_Options, kw_only=True):
    allies: list[str]  # the allied armies that may be declared (the ally select; may be empty)


# --- battles ----------------------------------------------------------------------------------


class RollOptions(_Options, kw_only=True):
    max_add: int  # the "add armies" field's maximum (0: no field; a normal attack adds none)
    flank: int  # the index of the flank that rolls next
    dice: list[int]  # the dice counts open in a normal attack (empty in the other modes)
    #: The attacker's armies fighting now: "roll on until N left" (``until_armies``) makes
    #: sense for N below it; ``until_decided`` rolls on to the end.
    armies: int


class MoveInOptions(_Options, kw_only=True):
    """A normal attack's win has ``min``/``max``; a committed or flanking one ``moving`` and
    ``extra_from``."""

    min: int | UnsetType = UNSET  # the armies field's minimum (the dice last rolled)
    max: int | UnsetType = UNSET  # its maximum and default (the armies standing)
    moving: int | UnsetType = UNSET  # the armies that move in anyway (the form's sentence)
    extra_from: dict[str, int] | UnsetType = UNSET  # source -> most more from it ("also from")


class MobilizeOptions(_Options, kw_only=True):
    cards: list[str]  # the cards the defender may reveal (card boxes; empty: none may be)
    wild_dice: int  # how many wild dice it places (one territory select each)
    territories: list[str]  # where a wild die's armies may go


class JoinDefenceOptions(_Options, kw_only=True):
    ships: list[str]  # the defender's ships that may join (the ship boxes)
    behind: dict[str, list[str]]  # ship -> the attacked ships it may back (its select)


class PrizeOptions(_Options, kw_only=True):
    ships: list[str]  # the prizes to decide, one at a time (the prize select)
    boarders: dict[str, int]  # attacking ship -> most armies it may board with (or sink it)


# --- the ally contest -------------------------------------------------------------------------


class ChallengeOptions(_Options, kw_only=True):
    contest: list[bool]  # the two answers (contest it, or let it pass)


class AnswerOptions(_Options, kw_only=True):
    demur: list[bool]  # the two answers (play the poker hand, or demur)


class PokerChoose(_Options, kw_only=True):
    stash: list[str]  # the stash cards offered (card boxes)
    min: int  # the least to choose, so the deck can fill every hand
    max: int  # the most (five, or the whole stash)


class PokerDraw(_Options, kw_only=True):
    hand: list[str]  # the hand's cards that may be discarded (card boxes)
    stash: list[str]  # stash cards that may replace them (else the deck does)
    deck: int  # the cards left in the deck
    keep: list[str] | UnsetType = UNSET  # with keep_one: the hand's stash cards, not all to go
    keep_one: bool | UnsetType = UNSET  # RULES.md A12: one stash card stays (the form's note)


class PokerOptions(_Options, kw_only=True):
    moves: list[PokerMove]  # the move buttons open now
    amount: int  # a bet or raise, in armies
    pot: int  # the seat's betting pot (the form's sentence)
    choose: PokerChoose | UnsetType = UNSET  # with the move "choose"
    draw: PokerDraw | UnsetType = UNSET  # with the move "draw"


# --- the seat ---------------------------------------------------------------------------------


class VoteDrawOptions(_Options, kw_only=True):
    agree: list[bool]  # the two votes (the checkbox)
    votes: list[str]  # the seats that have voted for a draw (shown beside it)


class PreferNow(_Options, kw_only=True):
    defence_dice: int
    reveal: Reveal


class PreferOptions(_Options, kw_only=True):
    defence_dice: list[int]  # the defence dice select (1 or 2)
    reveal: list[Reveal]  # the mobilization preference select
    now: PreferNow  # the seat's standing preferences: each select's default


class JoinOptions(_Options, kw_only=True):
    allies: list[str]  # the allied armies a spectator (or an eliminated player) may take over


# --- the legal actions ------------------------------------------------------------------------


class _Legal(msgspec.Struct, tag_field="type", forbid_unknown_fields=True, kw_only=True):
    """One action the viewer may take now: its ``type`` (the tag) and the choices it allows."""


def _none() -> NoOptions:
    return NoOptions()


class LegalArrange(_Legal, tag="arrange", kw_only=True):
    options: ArrangeOptions


class LegalTurnIn(_Legal, tag="turn_in", kw_only=True):
    options: TurnInOptions


class LegalPlace(_Legal, tag="place", kw_only=True):
    options: PlaceOptions


class LegalPlaceShip(_Legal, tag="place_ship", kw_only=True):
    options: PlaceShipOptions


class LegalAttack(_Legal, tag="attack", kw_only=True):
    options: AttackOptions


class LegalNavalAttack(_Legal, tag="naval_attack", kw_only=True):
    options: NavalAttackOptions


class LegalRoll(_Legal, tag="roll", kw_only=True):
    options: RollOptions


class LegalRetreat(_Legal, tag="retreat", kw_only=True):
    options: NoOptions = msgspec.field(default_factory=_none)


class LegalMoveIn(_Legal, tag="move_in", kw_only=True):
    options: MoveInOptions


class LegalMobilize(_Legal, tag="mobilize", kw_only=True):
    options: MobilizeOptions


class LegalJoinDefence(_Legal, tag="join_defence", kw_only=True):
    options: JoinDefenceOptions


class LegalPrize(_Legal, tag="prize", kw_only=True):
    options: PrizeOptions


class LegalCruise(_Legal, tag="cruise", kw_only=True):
    options: CruiseOptions


class LegalSail(_Legal, tag="sail", kw_only=True):
    options: SailOptions


class LegalEmbark(_Legal, tag="embark", kw_only=True):
    options: EmbarkOptions


class LegalDisembark(_Legal, tag="disembark", kw_only=True):
    options: DisembarkOptions


class LegalEndCruise(_Legal, tag="end_cruise", kw_only=True):
    options: EndCruiseOptions


class LegalEndCampaign(_Legal, tag="end_campaign", kw_only=True):
    options: NoOptions = msgspec.field(default_factory=_none)


class LegalPlaceFactory(_Legal, tag="place_factory", kw_only=True):
    options: PlaceFactoryOptions


class LegalTransfer(_Legal, tag="transfer", kw_only=True):
    options: TransferOptions


class LegalDiscard(_Legal, tag="discard", kw_only=True):
    options: DiscardOptions


class LegalEndTurn(_Legal, tag="end_turn", kw_only=True):
    options: EndTurnOptions


class LegalChallenge(_Legal, tag="challenge", kw_only=True):
    options: ChallengeOptions


class LegalAnswer(_Legal, tag="answer", kw_only=True):
    options: AnswerOptions


class LegalPoker(_Legal, tag="poker", kw_only=True):
    options: PokerOptions


class LegalJoin(_Legal, tag="join", kw_only=True):
    options: JoinOptions


class LegalLeave(_Legal, tag="leave", kw_only=True):
    options: NoOptions = msgspec.field(default_factory=_none)


class LegalConcede(_Legal, tag="concede", kw_only=True):
    options: NoOptions = msgspec.field(default_factory=_none)


class LegalVoteDraw(_Legal, tag="vote_draw", kw_only=True):
    options: VoteDrawOptions


class LegalPrefer(_Legal, tag="prefer", kw_only=True):
    options: PreferOptions


#: One legal action: the union of the types above, told apart by ``type``.
LegalAction = (
    LegalArrange | LegalTurnIn | LegalPlace | LegalPlaceShip | LegalAttack | LegalNavalAttack
    | LegalRoll | LegalRetreat | LegalMoveIn | LegalMobilize | LegalJoinDefence | LegalPrize
    | LegalCruise | LegalSail | LegalEmbark | LegalDisembark | LegalEndCruise | LegalEndCampaign
    | LegalPlaceFactory | LegalTransfer | LegalDiscard | LegalEndTurn | LegalChallenge
    | LegalAnswer | LegalPoker | LegalJoin | LegalLeave | LegalConcede | LegalVoteDraw
    | LegalPrefer
)  # fmt: skip

#: Action types with no spec of their own: each is built from another type's options (a
#: ``deploy`` is a batch of ``place`` entries, open whenever ``place`` is, within its bounds).
BUILT_FROM: dict[str, str] = {"deploy": "place"}

#: Every legal action type -> its definition.
LEGAL: dict[str, type[_Legal]] = {
    str(cls.__struct_config__.tag): cls for cls in get_args(LegalAction)
}


def validate(action: dict[str, object]) -> _Legal:
    """One legal action as its definition; ``msgspec.ValidationError`` names what does not fit."""
    return msgspec.convert(action, type=LegalAction, strict=True)
