"""Poker sense for the AI: what a stash is worth, which cards to keep, and how hard to bet.

Pure: ``combat.poker.evaluate`` ranks hands; the equity of a hand is estimated by dealing the
unseen cards at random with the bot's own generator (never the game's dice, never a hidden card:
the unseen cards are the 52 less those the seat holds or was shown).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence

from combat.poker.cards import DECK, RANKS, RED_QUEENS
from combat.poker.evaluate import evaluate

#: Rank strength 0..13 (red queens above the ace when they are high).
HIGH = RANKS.index("J")


def rank_of(card: str, red_queens_high: bool = True) -> int:
    if red_queens_high and card in RED_QUEENS:
        return len(RANKS)
    return RANKS.index(card[0])


def card_score(card: str, stash: Sequence[str], red_queens_high: bool = True) -> float:
    """How much a single card is worth keeping: its rank, more when it pairs in ``stash``."""
    same = sum(1 for c in stash if c != card and c[0] == card[0])
    return rank_of(card, red_queens_high) + 14 * same


def stash_strength(stash: Sequence[str], red_queens_high: bool = True) -> float:
    """A rough 0..1 strength of what a stash brings to a hand: pairs, then high cards."""
    if not stash:
        return 0.0
    counts = Counter(c[0] for c in stash)
    best = max(counts.values())
    if best >= 2:
        return min(
            1.0,
            0.6
            + 0.15 * (best - 2)
            + 0.02 * max(rank_of(c, red_queens_high) for c in stash if counts[c[0]] == best),
        )
    top = max(rank_of(c, red_queens_high) for c in stash)
    return 0.15 + 0.3 * max(0, top - HIGH) / (len(RANKS) - HIGH)


def keep_for_choice(
    stash: Sequence[str],
    least: int,
    most: int,
    suits: Iterable[str] = (),
    red_queens_high: bool = True,
) -> tuple[str, ...]:
    """The stash cards to take into the hand before the deal: pairs and better, four to a flush,
    else the best high card or two; at least ``least`` and at most ``most``; with ``suits`` (the
    allied army a declarer wants), a card of one of them if the stash has one."""
    stash = list(stash)
    counts = Counter(c[0] for c in stash)
    keep = [c for c in stash if counts[c[0]] >= 2]
    by_suit = Counter(c[1] for c in stash)
    suit, n = by_suit.most_common(1)[0] if stash else ("", 0)
    if n >= 4 and len(keep) < 2:
        keep = [c for c in stash if c[1] == suit]
    if not keep:
        ranked = sorted(stash, key=lambda c: -rank_of(c, red_queens_high))
        keep = [c for c in ranked[:2] if rank_of(c, red_queens_high) >= HIGH] or ranked[:1]
    wanted = set(suits)
    if wanted and not any(c[1] in wanted for c in keep):
        suited = sorted(
            (c for c in stash if c[1] in wanted and c not in keep),
            key=lambda c: -rank_of(c, red_queens_high),
        )
        if suited:
            keep.append(suited[0])
    rest = sorted((c for c in stash if c not in keep), key=lambda c: -card_score(c, stash))
    while len(keep) < least and rest:
        keep.append(rest.pop(0))
    keep = sorted(keep, key=lambda c: -card_score(c, stash, red_queens_high))[:most]
    return tuple(keep)


def plan_draw(
    hand: Sequence[str],
    stash: Sequence[str],
    deck: int,
    red_queens_high: bool = True,
    keep: Sequence[str] = (),
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(cards to discard, stash cards to take instead): keep made hands, pairs, four to a
    flush, else the two highest cards; replace from the stash with cards that pair what is
    kept, then with high cards; the deck deals the rest (it must hold them). ``keep``: the
    hand's stash cards when one must stay in the hand (the ``draw`` spec's ``keep_one``)."""
    discard, from_stash = _plan_draw(hand, stash, deck, red_queens_high)
    if keep and not from_stash and all(c in discard for c in keep):
        best = max(keep, key=lambda c: rank_of(c, red_queens_high))
        discard = tuple(c for c in discard if c != best)  # rule text: a stash card is used
    return discard, from_stash


def _plan_draw(
    hand: Sequence[str], stash: Sequence[str], deck: int, red_queens_high: bool
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    value = evaluate(hand, red_queens_high=red_queens_high)
    if value.key[0] >= 4:  # a straight or better: stand pat
        return (), ()
    counts = Counter(c[0] for c in hand)
    keep = [c for c in hand if counts[c[0]] >= 2]
    suits = Counter(c[1] for c in hand)
    suit, n = suits.most_common(1)[0]
    if n == 4 and len(keep) < 4:
        keep = [c for c in hand if c[1] == suit]
    if not keep:
        keep = sorted(hand, key=lambda c: -rank_of(c, red_queens_high))[:2]
    discard = [c for c in hand if c not in keep]
    kept_ranks = {c[0] for c in keep}
    pairing = [c for c in stash if c[0] in kept_ranks]
    high = sorted(
        (c for c in stash if c not in pairing and rank_of(c, red_queens_high) >= HIGH),
        key=lambda c: -rank_of(c, red_queens_high),
    )
    from_stash = (pairing + high)[: len(discard)]
    while len(discard) - len(from_stash) > deck and discard:
        discard.pop()  # the deck cannot deal that many: keep some
        from_stash = from_stash[: len(discard)]
    return tuple(discard), tuple(from_stash)


def equity(
    hand: Sequence[str],
    seen: Iterable[str],
    opponents: int,
    rng: random.Random,
    samples: int = 120,
    red_queens_high: bool = True,
    shown: Sequence[Sequence[str]] = (),
) -> float:
    """The chance ``hand`` beats ``opponents`` random hands (ties count half), dealing from the
    cards not ``seen``; hands already ``shown`` are taken as they are."""
    mine = evaluate(hand, red_queens_high=red_queens_high).key
    unseen = [c for c in DECK if c not in set(seen) | set(hand)]
    fixed = [evaluate(h, red_queens_high=red_queens_high).key for h in shown if len(h) == 5]
    if any(k > mine for k in fixed):
        return 0.0
    random_hands = max(0, opponents - len(fixed))
    if random_hands == 0:
        return 1.0 if all(k < mine for k in fixed) else 0.5
    if len(unseen) < 5 * random_hands:
        return 0.5
    total = 0.0
    for _ in range(samples):
        cards = rng.sample(unseen, 5 * random_hands)
        best = max(
            evaluate(cards[5 * i : 5 * i + 5], red_queens_high=red_queens_high).key
            for i in range(random_hands)
        )
        total += 1.0 if mine > best else 0.5 if mine == best else 0.0
    return total / samples


def worst_cards(cards: Sequence[str], count: int, red_queens_high: bool = True) -> tuple[str, ...]:
    """The ``count`` cards least worth keeping (to discard down to five)."""
    ranked = sorted(cards, key=lambda c: card_score(c, cards, red_queens_high))
    return tuple(ranked[:count])
