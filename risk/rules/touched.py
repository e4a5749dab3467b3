"""What one action touched of the pieces: territories, ships, card piles, and seats changing hands.

The server keeps every game's pieces as rows beside its state row (``games.models.pieces``) and,
per action, writes only the rows of what the action touched, never by comparing whole boards.
The engine says what it touched while it applies the action: every place that changes a holding,
a ship or a pile of cards calls one of the functions below with its key.

Recording is scoped by ``recording()``, a context variable, rather than passed to each handler
or kept in the state: the handlers keep their signatures, the state and its JSON stay as they
are, and ``apply`` outside a recording (the AI's searches, replays) pays one lookup per change.
``engine.apply_recorded`` is ``apply`` inside a recording.

Reporting too much is harmless (the server skips what did not change, comparing the touched
pieces alone); missing a change is a bug, which ``tests/risk/test_touched.py`` hunts for by
comparing whole states after every action of random games (a test may; the server never does).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

#: The two decks' card kinds.
RISK, POKER = "risk", "poker"
#: The piles a card can be in: the decks' draw and discard piles, a seat's hand (Risk cards, or
#: its poker cards), and while a poker hand is played its deck and each player's stash (poker
#: cards not chosen), hand and discards (``combat.poker.draw``).
DRAW, DISCARD, HAND = "draw", "discard", "hand"
HAND_DECK, HAND_STASH, HAND_CARDS, HAND_DISCARDS = "poker-deck", "stash", "in-hand", "discards"

#: A pile of cards: (kind, pile, holder), the holder a seat id, or "" for a deck's piles.
PileKey = tuple[str, str, str]


@dataclass
class Touched:
    """The keys an action touched. ``seats``: seats whose player changed (a player left, a
    late-comer took over an allied army): every piece of theirs is touched, as the person it
    links to changed."""

    territories: set[str] = field(default_factory=set)
    ships: set[str] = field(default_factory=set)
    piles: set[PileKey] = field(default_factory=set)
    seats: set[str] = field(default_factory=set)

    def __bool__(self) -> bool:
        return bool(self.territories or self.ships or self.piles or self.seats)


_current: ContextVar[Touched | None] = ContextVar("risk_rules_touched", default=None)


@contextmanager
def recording() -> Iterator[Touched]:
    """Record what the code inside touches (nested recordings each get their own)."""
    touched = Touched()
    token = _current.set(touched)
    try:
        yield touched
    finally:
        _current.reset(token)


def territory(name: str) -> None:
    touched = _current.get()
    if touched is not None:
        touched.territories.add(name)


def ship(ship_id: str) -> None:
    touched = _current.get()
    if touched is not None:
        touched.ships.add(ship_id)


def pile(kind: str, name: str, holder: str = "") -> None:
    touched = _current.get()
    if touched is not None:
        touched.piles.add((kind, name, holder))


def hands(seat_id: str) -> None:
    """Both hands of a seat: its Risk cards and its poker cards."""
    pile(RISK, HAND, seat_id)
    pile(POKER, HAND, seat_id)


def deck(kind: str) -> None:
    """A deck's draw and discard piles."""
    pile(kind, DRAW)
    pile(kind, DISCARD)


def poker_hand(players: Iterator[str] | list[str] | tuple[str, ...]) -> None:
    """Every pile of a poker hand in play: its deck and each player's stash, hand, discards."""
    pile(POKER, HAND_DECK)
    for player in players:
        for name in (HAND_STASH, HAND_CARDS, HAND_DISCARDS):
            pile(POKER, name, player)


def seat(seat_id: str) -> None:
    touched = _current.get()
    if touched is not None:
        touched.seats.add(seat_id)
