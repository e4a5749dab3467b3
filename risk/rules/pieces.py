"""A state's pieces as flat rows: holdings, ships and cards, as the server's tables keep them.

The server stores every game's pieces as rows beside its state row (``games.models.pieces``),
so that SQL can answer "who holds Brazil", "which ships are in the Pacific", "how many factories
does bob hold". This module says what those rows are for a state, row by row, and is the one
definition both the write path (only the rows an action touched, ``risk.rules.touched``) and the
checks (every row, ``pieces_of``) use.

- A holding row per territory: its owner (the seat id, an army colour), the person playing that
  army (``player``: None for an allied army nobody plays), armies, factory and captives.
- A ship row per ship afloat: owner, player, station, armies and captives. A ship's cruise this
  turn (cruises, moves, ports) is turn bookkeeping, kept in the state only.
- A card row per card in a pile: kind ("risk" or "poker"), pile, holder (a seat id, "" for a
  deck's piles), position and the card. Positions count from the bottom of the pile (0 is the
  bottom card; a hand's first card is its oldest), so taking the top card of a draw pile removes
  one row and leaves every other row as it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from risk.rules.state import GameState
from risk.rules.touched import (
    DISCARD,
    DRAW,
    HAND,
    HAND_CARDS,
    HAND_DECK,
    HAND_DISCARDS,
    HAND_STASH,
    POKER,
    RISK,
    PileKey,
    Touched,
)


class HoldingRow(NamedTuple):
    territory: str
    owner: str
    player: str | None
    armies: int
    factory: bool
    captives: dict[str, int]


class ShipRow(NamedTuple):
    ship: str
    owner: str
    player: str | None
    station: str
    armies: int
    captives: dict[str, int]


class CardRow(NamedTuple):
    kind: str
    pile: str
    holder: str
    player: str | None
    position: int
    card: str


class Pieces(NamedTuple):
    """Every row of a state, each list in key order."""

    holdings: list[HoldingRow]
    ships: list[ShipRow]
    cards: list[CardRow]


#: Piles whose list keeps the top card first (a draw pile, a poker hand's deck); every other
#: pile's list grows at its end, so it is already bottom first.
_TOP_FIRST = frozenset({(RISK, DRAW), (POKER, DRAW), (POKER, HAND_DECK)})


def player_of(state: GameState, seat_id: str) -> str | None:
    """The person playing seat ``seat_id`` (None: an allied army, or no such seat)."""
    for seat in state.seats:
        if seat.id == seat_id:
            return seat.player
    return None


def holding_row(state: GameState, name: str) -> HoldingRow:
    h = state.territories[name]
    return HoldingRow(
        name, h.owner, player_of(state, h.owner), h.armies, h.factory, dict(h.captured)
    )


def ship_row(state: GameState, ship_id: str) -> ShipRow | None:
    """The ship's row, or None when it is no longer afloat."""
    s = state.ships.get(ship_id)
    if s is None:
        return None
    return ShipRow(
        ship_id, s.owner, player_of(state, s.owner), s.station, s.armies, dict(s.captured)
    )


def pile_cards(state: GameState, key: PileKey) -> list[str]:
    """The cards of a pile, bottom first ([] for a pile that does not exist now)."""
    kind, name, holder = key
    cards: Sequence[str] = ()
    if name in (DRAW, DISCARD):
        deck = state.risk_deck if kind == RISK else state.poker_deck
        cards = deck.draw if name == DRAW else deck.discard
    elif name == HAND:
        seat = next((s for s in state.seats if s.id == holder), None)
        if seat is not None:
            cards = seat.risk_cards if kind == RISK else seat.poker_cards
    else:
        cards = _poker_hand_pile(state, name, holder)
    return list(reversed(cards)) if (kind, name) in _TOP_FIRST else list(cards)


def _poker_hand_pile(state: GameState, name: str, holder: str) -> Sequence[str]:
    hand = state.contest.hand if state.contest is not None else None
    if hand is None:
        return ()
    if name == HAND_DECK:
        return hand.deck
    for seat in hand.seats:
        if seat.player == holder:
            fields = {HAND_STASH: seat.stash, HAND_CARDS: seat.hand, HAND_DISCARDS: seat.discards}
            return fields.get(name, ())
    return ()


def pile_keys(state: GameState) -> list[PileKey]:
    """Every pile that exists now: the decks' four, each seat's two hands, and while a poker
    hand is played its deck and each of its players' stash, hand and discards."""
    keys: list[PileKey] = [(RISK, DRAW, ""), (RISK, DISCARD, ""), (POKER, DRAW, ""),
                           (POKER, DISCARD, "")]  # fmt: skip
    for seat in state.seats:
        keys += [(RISK, HAND, seat.id), (POKER, HAND, seat.id)]
    hand = state.contest.hand if state.contest is not None else None
    if hand is not None:
        keys.append((POKER, HAND_DECK, ""))
        for player in hand.seats:
            keys += [(POKER, name, player.player) for name in (HAND_STASH, HAND_CARDS,
                                                                HAND_DISCARDS)]  # fmt: skip
    return keys


def card_rows(state: GameState, key: PileKey, cards: list[str], start: int = 0) -> list[CardRow]:
    """The rows of ``cards`` (a pile of ``state``, bottom first) from position ``start`` up."""
    kind, name, holder = key
    player = player_of(state, holder) if holder else None
    return [
        CardRow(kind, name, holder, player, position, cards[position])
        for position in range(start, len(cards))
    ]


def common_bottom(before: Sequence[str], after: Sequence[str]) -> int:
    """How many cards at the bottom of a pile stayed as they were: the first position whose row
    changed (both piles bottom first)."""
    same = 0
    for old, new in zip(before, after, strict=False):
        if old != new:
            break
        same += 1
    return same


def pieces_of(state: GameState) -> Pieces:
    """Every row of ``state``: what the tables must hold after the action that made it."""
    holdings = [holding_row(state, name) for name in sorted(state.territories)]
    ships = [row for row in (ship_row(state, k) for k in sorted(state.ships)) if row is not None]
    cards: list[CardRow] = []
    for key in sorted(pile_keys(state)):
        cards += card_rows(state, key, pile_cards(state, key))
    return Pieces(holdings, ships, cards)


class Changes(NamedTuple):
    """What one action changes in the tables: rows to write (insert or update), ships to delete,
    and piles that shrank, each with its length now (its rows from there up are deleted)."""

    holdings: list[HoldingRow]
    ships: list[ShipRow]
    sunk: list[str]
    cards: list[CardRow]
    shrunk: list[tuple[PileKey, int]]

    def __bool__(self) -> bool:
        return bool(self.holdings or self.ships or self.sunk or self.cards or self.shrunk)


def changes(before: GameState, after: GameState, touched: Touched) -> Changes:
    """The rows to write after an action, from what it ``touched`` (never the whole board).

    A touched piece that is as it was is skipped; of a touched pile only the rows above the
    cards that stayed at its bottom are written. A seat whose player changed has every piece
    of its own rewritten (each row names the player), found by a pass over the board, which
    only a join or a leave takes.
    """
    relinked = touched.seats
    territories, ships, piles = set(touched.territories), set(touched.ships), set(touched.piles)
    if relinked:
        territories |= {n for n, h in after.territories.items() if h.owner in relinked}
        ships |= {k for k, s in after.ships.items() if s.owner in relinked}
        for seat_id in relinked:
            piles |= {(RISK, HAND, seat_id), (POKER, HAND, seat_id)}
    holdings = []
    for name in sorted(territories):
        row = holding_row(after, name)
        if (
            row.owner in relinked
            or name not in before.territories
            or row != holding_row(before, name)
        ):
            holdings.append(row)
    ship_rows, sunk = [], []
    for ship_id in sorted(ships):
        now, then = ship_row(after, ship_id), ship_row(before, ship_id)
        if now is None:
            if then is not None:
                sunk.append(ship_id)
        elif now.owner in relinked or now != then:
            ship_rows.append(now)
    cards: list[CardRow] = []
    shrunk: list[tuple[PileKey, int]] = []
    for key in sorted(piles):
        old, new = pile_cards(before, key), pile_cards(after, key)
        start = 0 if key[2] in relinked else common_bottom(old, new)
        if start == len(old) == len(new):
            continue
        cards += card_rows(after, key, new, start)
        if len(old) > len(new):
            shrunk.append((key, len(new)))
    return Changes(holdings, ship_rows, sunk, cards, shrunk)
