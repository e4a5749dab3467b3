"""Five-card poker hand values, with the red queens of Nautical-but-Nice Fast Risk.

``evaluate(cards)`` returns a ``HandValue``: totally ordered, hashable, equal for hands of equal
strength (suits never break ties), with a ``category`` and a ``describe()`` for players.

The red-queen rule (design.md section 5; "for the red suits the queen is always the high card"):
with ``red_queens_high=True`` (the game's default) the red queens Qh and Qd are a rank of their own
above the ace. They pair only with each other (Qh+Qd is the highest pair, Qh+Qc is no pair), never
make a straight (9-T-J-Qh-K is not one, 9-T-J-Qc-K is) and still count for their suit in a flush.
The black queens stay ordinary queens. With ``red_queens_high=False`` this is standard high poker:
ace high, and low only in A-2-3-4-5 (the wheel, the lowest straight).

Consequences of the rule, decided here where the text is silent: all four queens are two pair
(red queens and queens), Qh-Qd-Qc is a pair of red queens with a queen kicker, hearts and
diamonds have no royal flush (T-J-Qh-K-A is a flush, red queen high), and the red queens'
full house or pair is named "red queens". Values from the two rules are not meant to be compared
with each other. ``describe()`` names every rank that counts, so two values describe alike
exactly when they are equal; the ace-high straight flush is "royal flush".

Why tables: the tests enumerate all 2,598,960 hands, and a game evaluates at every showdown.
Every value is computed once at import (about 6,000 rank multisets per rule), keyed by the product
of one prime per rank: a product of primes identifies the multiset of ranks whatever the card
order, so evaluating is five dictionary look-ups, a multiplication, a suit test and one more
look-up, with no sorting and no string work. Identical values are one shared object.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import combinations, combinations_with_replacement

from combat.poker.cards import CARD_RULE, DECK, RANKS, RED_QUEENS, check_cards
from combat.poker.errors import PokerInputError

#: Categories from the weakest to the strongest; a value's ``key[0]`` is the index here.
CATEGORIES: tuple[str, ...] = (
    "high-card",
    "pair",
    "two-pair",
    "three-of-a-kind",
    "straight",
    "flush",
    "full-house",
    "four-of-a-kind",
    "straight-flush",
)
(
    HIGH_CARD,
    PAIR,
    TWO_PAIR,
    THREE_OF_A_KIND,
    STRAIGHT,
    FLUSH,
    FULL_HOUSE,
    FOUR_OF_A_KIND,
    STRAIGHT_FLUSH,
) = range(len(CATEGORIES))

#: Rank indexes: 0..12 are 2..A as in ``RANKS``; the red queens' own rank sits above the ace.
ACE, QUEEN, RED_QUEEN = 12, 10, 13
#: The wheel's five is its high card.
_FIVE = 3
_WHEEL = frozenset({ACE, 0, 1, 2, 3})
_NAMES = (
    *("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"),
    *("jack", "queen", "king", "ace", "red queen"),
)
_PLURALS = (*(f"{name}s" for name in _NAMES[:4]), "sixes", *(f"{n}s" for n in _NAMES[5:]))
_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43)


@dataclass(frozen=True, order=True, slots=True)
class HandValue:
    """How strong a hand is. Compares by ``key``: the category index, then ranks by importance.

    ``key`` is, after the category: the straight's high card (5 for the wheel); the five ranks
    high to low (flush, high card); or the grouped ranks, biggest group first, then kickers high
    to low (quads + kicker, trips + pair, two pairs + kicker, trips + kickers, pair + kickers).
    Ranks are indexes 0 (two) .. 12 (ace) and 13 (red queen).
    """

    key: tuple[int, ...]
    category: str = field(compare=False)

    def describe(self) -> str:
        """The hand in words, e.g. "full house, kings over fives", "straight, five high (wheel)"."""
        cat, ranks = self.key[0], self.key[1:]
        one, many = _NAMES, _PLURALS
        if cat in (STRAIGHT, STRAIGHT_FLUSH):
            name = "straight" if cat == STRAIGHT else "straight flush"
            if cat == STRAIGHT_FLUSH and ranks[0] == ACE:
                return "royal flush"
            return f"{name}, {one[ranks[0]]} high" + (" (wheel)" if ranks[0] == _FIVE else "")
        if cat == FOUR_OF_A_KIND:
            return f"four of a kind, {many[ranks[0]]}, {_kickers(ranks[1:])}"
        if cat == FULL_HOUSE:
            return f"full house, {many[ranks[0]]} over {many[ranks[1]]}"
        if cat == THREE_OF_A_KIND:
            return f"three of a kind, {many[ranks[0]]}, {_kickers(ranks[1:])}"
        if cat == TWO_PAIR:
            return f"two pair, {many[ranks[0]]} and {many[ranks[1]]}, {_kickers(ranks[2:])}"
        if cat == PAIR:
            return f"pair of {many[ranks[0]]}, {_kickers(ranks[1:])}"
        listed = ", ".join(one[rank] for rank in ranks)
        return f"flush, {listed}" if cat == FLUSH else f"high card, {listed}"

    def __str__(self) -> str:
        return self.describe()


def _kickers(ranks: tuple[int, ...]) -> str:
    if len(ranks) == 1:
        return f"{_NAMES[ranks[0]]} kicker"
    return "kickers " + ", ".join(_NAMES[rank] for rank in ranks)


def evaluate(cards: Iterable[str], *, red_queens_high: bool = True) -> HandValue:
    """The value of five distinct cards such as ``["Qh", "Qd", "As", "9c", "2d"]``.

    Raises ``PokerInputError`` (field "cards") unless given exactly five distinct valid cards.
    """
    codes, plain, flush = _RED_TABLES if red_queens_high else _STANDARD_TABLES
    try:
        a, b, c, d, e = cards
        key = codes[a] * codes[b] * codes[c] * codes[d] * codes[e]
    except (TypeError, ValueError, KeyError):
        raise _cards_error(cards) from None
    if len({a, b, c, d, e}) != 5:
        raise _cards_error(cards)
    if a[1] == b[1] == c[1] == d[1] == e[1]:
        return flush[key]
    return plain[key]


def _cards_error(cards: object) -> PokerInputError:
    """The precise complaint, worked out only once a hand has been refused (the slow path)."""
    if isinstance(cards, str):
        return PokerInputError("cards", f"expected a list of 5 cards, got {cards!r}; {CARD_RULE}")
    try:
        check_cards(cards, field="cards", count=5)  # type: ignore[arg-type]
    except PokerInputError as error:
        return error
    return PokerInputError("cards", f"expected 5 distinct cards; {CARD_RULE}", DECK)


# --- the tables ----------------------------------------------------------------------------------


def _classify(ranks: tuple[int, ...], suited: bool) -> tuple[int, ...]:
    """The ``HandValue.key`` of five rank indexes, all of one suit when ``suited``."""
    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda item: (item[1], item[0]), reverse=True)
    order = tuple(rank for rank, _ in groups)
    if len(counts) == 5:
        high = _straight_high(frozenset(ranks))
        if high is not None:
            return (STRAIGHT_FLUSH if suited else STRAIGHT, high)
        return (FLUSH if suited else HIGH_CARD, *order)
    shape = tuple(count for _, count in groups)
    category = {
        (4, 1): FOUR_OF_A_KIND,
        (3, 2): FULL_HOUSE,
        (3, 1, 1): THREE_OF_A_KIND,
        (2, 2, 1): TWO_PAIR,
        (2, 1, 1, 1): PAIR,
    }[shape]
    return (category, *order)


def _straight_high(ranks: frozenset[int]) -> int | None:
    """The high card of five distinct ranks in sequence, or None; red queens never qualify."""
    if RED_QUEEN in ranks:
        return None
    if max(ranks) - min(ranks) == 4:
        return max(ranks)
    return _FIVE if ranks == _WHEEL else None


def _rank_of(card: str, red_queens_high: bool) -> int:
    return RED_QUEEN if red_queens_high and card in RED_QUEENS else RANKS.index(card[0])


_Tables = tuple[dict[str, int], dict[int, HandValue], dict[int, HandValue]]


def _build(red_queens_high: bool) -> _Tables:
    """Card -> prime, and prime product -> value for unsuited and suited hands."""
    rank_of = {card: _rank_of(card, red_queens_high) for card in DECK}
    codes = {card: _PRIMES[rank] for card, rank in rank_of.items()}
    copies = Counter(rank_of.values())  # 4 per rank; 2 queens and 2 red queens under the rule
    interned: dict[tuple[int, ...], HandValue] = {}

    def value(ranks: tuple[int, ...], suited: bool) -> HandValue:
        key = _classify(ranks, suited)
        return interned.setdefault(key, HandValue(key, CATEGORIES[key[0]]))

    def product(ranks: tuple[int, ...]) -> int:
        result = 1
        for rank in ranks:
            result *= _PRIMES[rank]
        return result

    plain = {
        product(ranks): value(ranks, False)
        for ranks in combinations_with_replacement(sorted(copies), 5)
        if all(ranks.count(rank) <= copies[rank] for rank in set(ranks))
    }
    flush = {product(ranks): value(ranks, True) for ranks in combinations(sorted(copies), 5)}
    return codes, plain, flush


_STANDARD_TABLES = _build(red_queens_high=False)
_RED_TABLES = _build(red_queens_high=True)
