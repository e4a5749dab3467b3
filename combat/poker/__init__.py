"""Poker for Nautical-but-Nice Fast Risk: hand values with red queens and five-card draw.

Pure Python (design.md section 1): ``evaluate`` ranks five cards (``combat.poker.evaluate``, with
the red-queen rule and its switch); ``start_hand``/``apply`` play one hand of five-card draw as a
state machine (``combat.poker.draw``, whose docstring lists the decisions taken where the rules are
silent); ``shuffled_deck`` shuffles with injected dice (``combat.poker.cards``).
"""

from combat.poker.cards import DECK, RANKS, RED_QUEENS, SUITS, shuffled_deck
from combat.poker.draw import (
    Action,
    Bet,
    Call,
    Check,
    Choose,
    Draw,
    Entrant,
    Event,
    Fold,
    HandResult,
    HandState,
    Muck,
    PotShare,
    Raise,
    Seat,
    Show,
    allowed,
    apply,
    events_for,
    start_hand,
    to_act,
    view_for,
)
from combat.poker.errors import IllegalAction, PokerInputError
from combat.poker.evaluate import CATEGORIES, HandValue, evaluate

__all__ = [
    "CATEGORIES",
    "DECK",
    "RANKS",
    "RED_QUEENS",
    "SUITS",
    "Action",
    "Bet",
    "Call",
    "Check",
    "Choose",
    "Draw",
    "Entrant",
    "Event",
    "Fold",
    "HandResult",
    "HandState",
    "HandValue",
    "IllegalAction",
    "Muck",
    "PokerInputError",
    "PotShare",
    "Raise",
    "Seat",
    "Show",
    "allowed",
    "apply",
    "evaluate",
    "events_for",
    "shuffled_deck",
    "start_hand",
    "to_act",
    "view_for",
]
