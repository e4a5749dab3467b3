"""Risk cards of Nautical-but-Nice Fast Risk: what makes a set, and what a turn-in wins.

Pure rules (design.md section 1): standard library only, every value immutable, every random
number from an injected ``Dice`` (``combat.dice``), so a turn-in replays from the game's seed.
The deck itself (dealing, drawing, the cut of the mobilization bonus) is the engine's:
``risk.rules.board``, with the cards named by territory and the symbols from the map
(``risk/data/classic-risk-map.json``).

Decisions where the rule text (and design.md section 5) is silent:

1. Symbols. The map file writes ``Infantry``, ``Cavalry``, ``Artillery``; the code uses the same
   words in lower case plus ``wild``. A wild card is ``Card(territory=None, symbol="wild")``.
2. Sets. Three cards are a set when they show three of one symbol, one of each symbol, or include a
   wild. A wild with two alike makes three alike and a wild with two different makes one of each,
   so *any* three cards with a wild are a set - two wilds and any card too (standard Risk).
3. Hands are tuples of ``Card``. Territory cards are unique, but the two wild cards are equal
   values, so a hand is a multiset: ``all_sets`` lists every *distinct* set once (two wilds with
   Alaska is one set, not two), as tuples of cards in hand order, and ``turn_in`` takes the
   chosen cards themselves (not indexes) and removes one copy of each. A hand holding the same
   territory card twice is rejected.
4. A turn-in is due when a hand holds 5 or more cards at the start of the turn (the engine's
   ``risk.rules.board.MUST_TURN_IN_AT``). Any 5 cards hold a set (with at most two of each of
   three symbols, five cards must show all three), so the demand can always be met.
5. Rewards. ``armies``: two d6, placed on any territory the player holds (the text: "Armies may be
   deployed to any territory held by the player"). ``factory``: one factory, placed at the end of
   the turn. ``ship``: a ship with one d6 of armies aboard. Where the factory or ship may go (one
   factory per territory, a coast on the right ocean, no ship without a coast) is the game
   engine's rule; ``turn_in`` only says what was won. On top of the reward, each turned-in card
   whose territory the player owns puts 2 armies on that territory; a wild shows no territory and
   gives none. Nothing is rolled until the whole turn-in is checked.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from types import MappingProxyType
from typing import Literal, get_args

from combat.dice import Dice
from combat.errors import CombatInputError

Symbol = Literal["infantry", "cavalry", "artillery", "wild"]
Reward = Literal["armies", "factory", "ship"]

#: The three territory symbols, in the order sets and messages list them.
SYMBOLS: tuple[Symbol, ...] = ("infantry", "cavalry", "artillery")
WILD: Symbol = "wild"
REWARDS: tuple[Reward, ...] = get_args(Reward)

#: Armies put on each turned-in card's territory that the player owns.
CARD_TERRITORY_ARMIES = 2


class CardError(CombatInputError):
    """A card move the rules do not allow: ``field`` is where, ``allowed`` lists accepted values.

    The shared resolver error, so the HTTP layer answers it with a 400 naming the field.
    """


@dataclass(frozen=True)
class Card:
    """One Risk card: a territory with its symbol, or a wild card (no territory)."""

    territory: str | None
    symbol: Symbol

    def __post_init__(self) -> None:
        if self.symbol not in (*SYMBOLS, WILD):
            raise CardError("symbol", f"unknown symbol {self.symbol!r}", (*SYMBOLS, WILD))
        if (self.symbol == WILD) != (self.territory is None):
            raise CardError("territory", "a wild card has no territory; every other card has one")

    @property
    def is_wild(self) -> bool:
        return self.symbol == WILD

    def __str__(self) -> str:
        return WILD if self.territory is None else f"{self.territory} ({self.symbol})"


# --- sets -----------------------------------------------------------------------------------------


def is_set(cards: Sequence[Card]) -> bool:
    """True for exactly three cards making a set: three alike, one of each, or any with a wild."""
    if len(cards) != 3:
        return False
    if any(card.is_wild for card in cards):
        return True
    return len({card.symbol for card in cards}) in (1, 3)


def all_sets(hand: Sequence[Card]) -> tuple[tuple[Card, ...], ...]:
    """Every distinct set the hand can form, each once, as cards in hand order (decision 3)."""
    seen: set[frozenset[tuple[Card, int]]] = set()
    found = []
    for combo in combinations(hand, 3):
        key = frozenset(Counter(combo).items())
        if key not in seen and is_set(combo):
            seen.add(key)
            found.append(combo)
    return tuple(found)


# --- turn-in --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TurnInResult:
    """What a turn-in won, and the hand left.

    ``armies`` are the 2d6 armies to place on any held territory (0 for the other rewards),
    ``factories`` is 1 for the factory reward, ``ship_armies`` the armies aboard the new ship (None
    without a ship); ``territory_bonus`` maps each owned card territory to its 2 armies. Where the
    factory and the ship go is the engine's rule (module docstring, decision 5).
    """

    turned_in: tuple[Card, ...]
    reward: Reward
    rolls: tuple[int, ...]
    armies: int
    factories: int
    ship_armies: int | None
    territory_bonus: Mapping[str, int]
    hand: tuple[Card, ...]


def turn_in(
    hand: Sequence[Card],
    chosen: Sequence[Card],
    *,
    reward: Reward,
    owned_territories: Collection[str],
    dice: Dice,
) -> TurnInResult:
    """Turn in ``chosen`` from ``hand`` for ``reward``; CardError before any roll if not allowed."""
    if reward not in REWARDS:
        raise CardError("reward", f"unknown reward {reward!r}", REWARDS)
    remaining = _remove(_checked_hand(hand), chosen)
    if not is_set(chosen):
        shown = ", ".join(card.symbol for card in chosen)
        raise CardError(
            "chosen",
            f"not a set ({shown}): a set is three alike, one of each symbol,"
            " or two cards and a wild",
        )
    rolls = _reward_rolls(reward, dice)
    bonus = {
        card.territory: CARD_TERRITORY_ARMIES
        for card in chosen
        if card.territory is not None and card.territory in owned_territories
    }
    return TurnInResult(
        turned_in=tuple(chosen),
        reward=reward,
        rolls=rolls,
        armies=sum(rolls) if reward == "armies" else 0,
        factories=1 if reward == "factory" else 0,
        ship_armies=rolls[0] if reward == "ship" else None,
        territory_bonus=MappingProxyType(bonus),
        hand=remaining,
    )


def _reward_rolls(reward: Reward, dice: Dice) -> tuple[int, ...]:
    """2d6 for armies, one d6 for the ship's armies, nothing for a factory."""
    count = {"armies": 2, "ship": 1, "factory": 0}[reward]
    return tuple(dice.roll(6) for _ in range(count))


def _checked_hand(hand: Sequence[Card], where: str = "hand") -> tuple[Card, ...]:
    """The hand as a tuple; only wild cards may appear more than once (decision 3)."""
    doubled = sorted(str(card) for card, n in Counter(hand).items() if n > 1 and not card.is_wild)
    if doubled:
        raise CardError(where, f"a territory card appears more than once: {', '.join(doubled)}")
    return tuple(hand)


def _remove(hand: tuple[Card, ...], chosen: Sequence[Card]) -> tuple[Card, ...]:
    """The hand without one copy of each chosen card; CardError if a chosen card is not held."""
    if len(chosen) != 3:
        raise CardError("chosen", f"a set is exactly 3 cards, got {len(chosen)}")
    remaining = list(hand)
    for card in chosen:
        if card not in remaining:
            raise CardError("chosen", f"{card} is not in the hand (or chosen twice)")
        remaining.remove(card)
    return tuple(remaining)
