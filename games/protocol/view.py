"""The game view: what one viewer (a seat, or a spectator) sees of a game, as ``risk.rules.
views.view_for`` builds it. It is the ``view`` of ``GET /api/games/{id}`` and of the socket's
``state`` message, and what each ``update`` message's JSON Patch keeps current.

Typed down to the seats, territories, ships, decks, turn, pending decisions and the legal
actions (each action type's ``options`` in ``games.protocol.legal``: what the game page's forms
read); the battle and the ally contest are objects whose fields follow the rules
(risk/RULES.md). Unknown fields are refused where the shape is typed, so a field the engine adds
fails tests/games/test_protocol.py until it is written here.
"""

from __future__ import annotations

from typing import Any

import msgspec

from games.protocol.legal import LegalAction


class _Shape(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    pass


class SeatView(_Shape, kw_only=True):
    id: str
    kind: str  # "player", or "allied" (an allied army)
    player: str | None = None
    colour: str
    suits: list[str] = []
    alive: bool
    set_up: bool
    pot: int | None = None  # the betting pot
    risk_cards: int
    poker_cards: int
    defence_dice: int
    reveal: str
    revealed: list[str] = []
    risk_hand: list[str] | None = None  # only the viewer's own (and an ally's it plays)
    poker_hand: list[str] | None = None


class TerritoryView(_Shape, kw_only=True):
    owner: str
    armies: int
    factory: bool
    captured: dict[str, int] = {}


class ShipView(_Shape, kw_only=True):
    id: str
    owner: str
    station: str
    armies: int
    captured: dict[str, int] = {}
    cruises: int
    moves: int
    cruising: bool
    out_of_action: bool
    ports: list[str] = []


class DeckView(_Shape, kw_only=True):
    draw: int
    discard: int


class TurnView(_Shape, kw_only=True):
    seat: str
    controller: str
    phase: str
    for_seat: str | None = None
    to_place: int = 0
    ships_to_place: list[int] = []
    factories_to_place: int = 0
    turned_in: int = 0
    attacked: list[str] = []
    locked: list[str] = []
    took_territory: bool = False
    transferred: bool = False


class PendingView(_Shape, kw_only=True):
    """A decision the game waits for. In the state body and in an update of a timed game it
    carries its ``deadline`` (ISO 8601, null when the game is untimed)."""

    player: str
    seat: str
    kind: str
    deadline: str | None = None


class GameView(_Shape, kw_only=True):
    version: int
    options: dict[str, Any]
    seed_commitment: str
    you: str | None = None
    round: int
    turn_number: int
    first_seat: str | None = None
    seats: list[SeatView]
    territories: dict[str, TerritoryView]
    ships: dict[str, ShipView]
    risk_deck: DeckView
    poker_deck: DeckView
    turn: TurnView | None = None
    battle: dict[str, Any] | None = None
    contest: dict[str, Any] | None = None
    draw_votes: list[str] = []
    landless: dict[str, int] = {}
    eliminated: list[str] = []
    pending: list[PendingView] = []
    legal_actions: list[LegalAction] = []
    over: bool
    winner: str | None = None
    ranking: list[str] = []
    seed: str | None = None  # the server seed, shown once the game is over (to check every roll)


def validate(view: dict[str, Any]) -> GameView:
    """The view as its definition; ``msgspec.ValidationError`` names what does not fit."""
    return msgspec.convert(view, type=GameView, strict=True)
