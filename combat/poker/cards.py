"""Poker cards as two-character strings ("Qh", "Td", "As"), the 52-card deck and its shuffle.

Cards stay plain strings: they are what players type, what the API carries and what the hand
evaluator hashes fastest. The deck is an explicit tuple whose ``[0]`` is the top card; it is
shuffled by the caller with injected dice (design.md section 2) so every deal can be replayed and
checked against the dice log.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeGuard, cast

from combat.dice import Dice, shuffle
from combat.poker.errors import PokerInputError

#: Ranks from lowest to highest (T is the ten) and suits (clubs, diamonds, hearts, spades).
RANKS = "23456789TJQKA"
SUITS = "cdhs"
#: The unshuffled deck, rank by rank: 2c 2d 2h 2s 3c ... As.
DECK: tuple[str, ...] = tuple(rank + suit for rank in RANKS for suit in SUITS)
#: The red queens, a rank of their own above the ace when red queens are high (design.md §5).
RED_QUEENS = frozenset({"Qh", "Qd"})

_CARDS = frozenset(DECK)
CARD_RULE = "a card is a rank (23456789TJQKA) then a suit (cdhs), e.g. 'Qh' or 'Td'"


def is_card(value: object) -> TypeGuard[str]:
    """True for one of the 52 card strings."""
    return isinstance(value, str) and value in _CARDS


def check_cards(
    cards: Iterable[object],
    *,
    field: str,
    count: int | None = None,
    at_least: int = 0,
) -> tuple[str, ...]:
    """``cards`` as a tuple once each is a valid card and none repeats; else ``PokerInputError``.

    ``count`` demands an exact number, ``at_least`` a minimum. A bare string is refused rather
    than read letter by letter ("AhKd" is a typo for a list, not four one-letter cards).
    """
    if isinstance(cards, str) or not isinstance(cards, Iterable):
        raise PokerInputError(field, f"expected a list of cards, got {cards!r}; {CARD_RULE}", DECK)
    given = tuple(cards)
    for card in given:
        if not is_card(card):
            raise PokerInputError(field, f"{card!r} is not a card; {CARD_RULE}", DECK)
    found = cast(tuple[str, ...], given)  # every item passed is_card just above
    repeated = sorted({card for card in found if found.count(card) > 1})
    if repeated:
        raise PokerInputError(field, f"{', '.join(repeated)} appears more than once")
    if count is not None and len(found) != count:
        raise PokerInputError(field, f"expected exactly {count} cards, got {len(found)}")
    if len(found) < at_least:
        raise PokerInputError(field, f"expected at least {at_least} cards, got {len(found)}")
    return found


def shuffled_deck(dice: Dice, exclude: Iterable[str] = ()) -> tuple[str, ...]:
    """The deck without ``exclude`` (cards held in stashes), shuffled; ``[0]`` is the top card.

    Fisher-Yates from the end, the convention of every deck (``combat.dice.shuffle``): for
    ``i`` from ``n`` down to 2, ``j = dice.roll(i)`` and the cards at positions ``i`` and ``j``
    (1-based) swap. Exactly ``n - 1`` rolls, all in the dice log, so anyone can redo a shuffle
    by hand.
    """
    excluded = frozenset(check_cards(exclude, field="exclude"))
    return shuffle(tuple(card for card in DECK if card not in excluded), dice)
