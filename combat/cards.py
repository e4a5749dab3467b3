"""Risk cards of Nautical-but-Nice Fast Risk: sets, turn-in rewards, the deck and the "cut".

Pure rules (design.md section 1): standard library only, every value immutable, every random
number from an injected ``Dice`` (``combat.dice``), so a game replays card for card from its seed
and players can check each shuffle against the dice log.

The cards are data: the 42 territories with their symbols and the number of wild cards are read
from ``data/classic-risk-map.json`` (keys ``territories.<name>.card`` and ``wild_cards``) and
validated on first use; a broken file fails with its name and the key at fault.

Decisions where the rule text (and design.md section 5) is silent:

1. Symbols. The file writes ``Infantry``, ``Cavalry``, ``Artillery``; the code uses the same words
   in lower case plus ``wild``. The file holds only a count of wild cards, so a wild card is
   ``Card(territory=None, symbol="wild")``.
2. Sets. Three cards are a set when they show three of one symbol, one of each symbol, or include a
   wild. A wild with two alike makes three alike and a wild with two different makes one of each,
   so *any* three cards with a wild are a set - two wilds and any card too (standard Risk).
3. Hands are tuples of ``Card``. Territory cards are unique, but the two wild cards are equal
   values, so a hand is a multiset: ``all_sets`` lists every *distinct* set once (two wilds with
   Alaska is one set, not two), as tuples of cards in hand order, and ``turn_in`` takes the
   chosen cards themselves (not indexes) and removes one copy of each. A hand holding the same
   territory card twice is rejected.
4. A turn-in is due when a hand holds 5 or more cards at the start of the turn. Any 5 cards hold a
   set (with at most two of each of three symbols, five cards must show all three), so the demand
   can always be met. Whether a hand of 8 owes a second set in the same turn is the engine's call;
   these functions allow any number of turn-ins.
5. Rewards. ``armies``: two d6, placed on any territory the player holds (the text: "Armies may be
   deployed to any territory held by the player"). ``factory``: one factory, placed at the end of
   the turn. ``ship``: a ship with one d6 of armies aboard. Where the factory or ship may go (one
   factory per territory, a coast on the right ocean, no ship without a coast) is the game
   engine's rule; ``turn_in`` only says what was won. On top of the reward, each turned-in card
   whose territory the player owns puts 2 armies on that territory; a wild shows no territory and
   gives none. Nothing is rolled until the whole turn-in is checked.
6. The deck. ``draw_pile[0]`` is the top card. The discard pile is reshuffled into a new draw pile
   only when a draw finds the draw pile empty (so no die is spent early); a draw with both piles
   empty (every card is in a hand) raises ``CardError`` and the engine gives no card. Turned-in
   cards go to the discard pile through ``discard``.
7. Shuffle. Fisher-Yates from the end: for ``i`` from ``n`` down to 2, ``j = dice.roll(i)`` and the
   cards at positions ``i`` and ``j`` (1-based) swap. ``n - 1`` rolls, all in the dice log, so
   anyone can replay a shuffle by hand.
8. The cut (mobilization bonus). It reveals the card at position ``dice.roll(len(draw_pile))`` of
   the draw pile; the cut is then restacked as it was, so the deck is unchanged and a cut never
   changes who draws what. A one-card pile needs no roll. With an empty draw pile the cut is made
   in the discard pile (the cards the next draw would shuffle); with both empty it raises.
9. The mobilization bonus. Following design.md, the cut and the revealed hand cards count
   independently (the text can also be read as "reveal only if the cut hit"): one d6 on the cut
   territory if owned, one d6 per revealed card of an owned territory, and one d6 placed at the
   player's free choice for a cut or revealed wild. Revealing a card of a territory the player does
   not own is an error. Revealed cards stay in the hand; checking that they are in the hand, and
   that this is the first attack on the player this turn, is the engine's job. Dice are rolled in
   order: the cut first, then the revealed cards as given.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal, get_args

from combat.dice import Dice, shuffle
from combat.errors import CombatInputError

DATA_FILE = Path(__file__).resolve().parent / "data" / "classic-risk-map.json"

Symbol = Literal["infantry", "cavalry", "artillery", "wild"]
Reward = Literal["armies", "factory", "ship"]

#: The three territory symbols, in the order sets and messages list them.
SYMBOLS: tuple[Symbol, ...] = ("infantry", "cavalry", "artillery")
WILD: Symbol = "wild"
REWARDS: tuple[Reward, ...] = get_args(Reward)

TERRITORY_COUNT = 42
CARDS_PER_SYMBOL = 14
WILD_COUNT = 2
#: A hand this large must turn in a set at the start of the turn (design.md section 5).
MUST_TURN_IN_AT = 5
#: Armies put on each turned-in card's territory that the player owns.
CARD_TERRITORY_ARMIES = 2

_FILE_SYMBOLS: Mapping[str, Symbol] = MappingProxyType(
    {"Infantry": "infantry", "Cavalry": "cavalry", "Artillery": "artillery"}
)


class CardError(CombatInputError):
    """A card move the rules do not allow: ``field`` is where, ``allowed`` lists accepted values.

    The shared resolver error, so the HTTP layer answers it with a 400 naming the field.
    """


class CardDataError(ValueError):
    """The map data file is malformed; raised at load time, naming the file and the key."""


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


WILD_CARD = Card(None, WILD)


# --- the data file ------------------------------------------------------------------------------


def validate_card_data(raw: Any, source: str) -> tuple[Card, ...]:
    """The 42 territory cards and the wild cards of a parsed map file, or CardDataError.

    Only what the cards use is checked (the territories' ``card`` symbols and ``wild_cards``);
    separated from the loading so a test can feed it a broken table.
    """

    def fail(key: str, message: str) -> CardDataError:
        return CardDataError(f"{source}: {key}: {message}")

    territories = raw.get("territories") if isinstance(raw, dict) else None
    if not isinstance(territories, dict):
        raise fail("territories", "missing or not an object")
    if len(territories) != TERRITORY_COUNT:
        raise fail(
            "territories", f"expected {TERRITORY_COUNT} territories, found {len(territories)}"
        )
    cards = []
    for name, spec in territories.items():
        symbol = _FILE_SYMBOLS.get(spec.get("card", "")) if isinstance(spec, dict) else None
        if symbol is None:
            found = spec.get("card") if isinstance(spec, dict) else spec
            raise fail(
                f"territories.{name}.card", f"{found!r} is not one of {', '.join(_FILE_SYMBOLS)}"
            )
        cards.append(Card(name, symbol))
    counts = Counter(card.symbol for card in cards)
    for file_name, symbol in _FILE_SYMBOLS.items():
        if counts[symbol] != CARDS_PER_SYMBOL:
            raise fail(
                "territories.*.card",
                f"expected {CARDS_PER_SYMBOL} {file_name} cards, found {counts[symbol]}",
            )
    if raw.get("wild_cards") != WILD_COUNT:
        raise fail("wild_cards", f"expected {WILD_COUNT}, found {raw.get('wild_cards')!r}")
    return (*cards, *([WILD_CARD] * WILD_COUNT))


@cache
def _deck_from_file() -> tuple[Card, ...]:
    with DATA_FILE.open(encoding="utf-8") as handle:
        raw = json.load(handle)
    return validate_card_data(raw, DATA_FILE.name)


def risk_deck() -> tuple[Card, ...]:
    """The full deck, unshuffled: the 42 territory cards in file order, then the 2 wild cards."""
    return _deck_from_file()


def territory_card(territory: str) -> Card:
    """The card of ``territory``; CardError if the map has no such territory."""
    for card in _deck_from_file():
        if card.territory == territory:
            return card
    raise CardError("territory", f"no card for unknown territory {territory!r}")


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


def holds_set(hand: Sequence[Card]) -> bool:
    """True when some three cards of the hand are a set."""
    return any(is_set(combo) for combo in combinations(hand, 3))


def must_turn_in(hand: Sequence[Card]) -> bool:
    """True when a hand held at the start of the turn forces a turn-in (5 or more cards)."""
    return len(hand) >= MUST_TURN_IN_AT


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


# --- the deck -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Deck:
    """The cards not in any hand: the draw pile (index 0 is the top) and the discard pile."""

    draw_pile: tuple[Card, ...]
    discard: tuple[Card, ...] = ()


def shuffled(cards: Sequence[Card], dice: Dice) -> tuple[Card, ...]:
    """The cards in Fisher-Yates order (``combat.dice.shuffle``)."""
    return shuffle(cards, dice)


def new_deck(dice: Dice) -> Deck:
    """The 44-card deck shuffled into a draw pile, with an empty discard pile."""
    return Deck(draw_pile=shuffled(risk_deck(), dice))


def draw(deck: Deck, dice: Dice) -> tuple[Card, Deck]:
    """The top card and the rest; an empty draw pile is first refilled by shuffling the discard."""
    if not deck.draw_pile:
        if not deck.discard:
            raise CardError("deck", "no card to draw: the draw and discard piles are both empty")
        deck = Deck(draw_pile=shuffled(deck.discard, dice))
    return deck.draw_pile[0], Deck(draw_pile=deck.draw_pile[1:], discard=deck.discard)


def discard(deck: Deck, cards: Iterable[Card]) -> Deck:
    """The deck with ``cards`` put on the discard pile (turned-in cards go here)."""
    return Deck(draw_pile=deck.draw_pile, discard=(*deck.discard, *cards))


def cut(deck: Deck, dice: Dice) -> Card:
    """The card revealed by a cut at position dice.roll(len(pile)); the deck is not changed.

    The pile is the draw pile, or the discard pile when the draw pile is empty (decision 8).
    """
    pile = deck.draw_pile or deck.discard
    if not pile:
        raise CardError("deck", "nothing to cut: the draw and discard piles are both empty")
    if len(pile) == 1:
        return pile[0]
    return pile[dice.roll(len(pile)) - 1]


# --- mobilization bonus ---------------------------------------------------------------------------


@dataclass(frozen=True)
class BonusDie:
    """One die of mobilization armies: from the cut or a revealed card, on a territory or free."""

    source: Literal["cut", "hand"]
    card: Card
    territory: str | None
    armies: int


@dataclass(frozen=True)
class MobilizationBonus:
    """The dice of one mobilization bonus, in the order rolled."""

    dice: tuple[BonusDie, ...] = ()

    @property
    def by_territory(self) -> Mapping[str, int]:
        """Armies to place on named territories (a territory can appear once per card)."""
        placed: dict[str, int] = {}
        for die in self.dice:
            if die.territory is not None:
                placed[die.territory] = placed.get(die.territory, 0) + die.armies
        return MappingProxyType(placed)

    @property
    def free_placement(self) -> tuple[int, ...]:
        """Dice of armies (from wild cards) the player places on any territory they own."""
        return tuple(die.armies for die in self.dice if die.territory is None)

    @property
    def total(self) -> int:
        return sum(die.armies for die in self.dice)


def mobilization_bonus(
    cut_card: Card | None,
    owned_territories: Collection[str],
    revealed_hand_cards: Sequence[Card],
    dice: Dice,
) -> MobilizationBonus:
    """The dice of armies a first-attacked player places (module docstring, decision 9).

    ``cut_card`` is None when no cut could be made. Revealed cards must be wild or show an owned
    territory; they are checked before anything is rolled.
    """
    _check_revealed(revealed_hand_cards, owned_territories)
    rolled = []
    if cut_card is not None and (cut_card.is_wild or cut_card.territory in owned_territories):
        rolled.append(BonusDie("cut", cut_card, cut_card.territory, dice.roll(6)))
    for card in revealed_hand_cards:
        rolled.append(BonusDie("hand", card, card.territory, dice.roll(6)))
    return MobilizationBonus(tuple(rolled))


def _check_revealed(cards: Sequence[Card], owned_territories: Collection[str]) -> None:
    _checked_hand(cards, "revealed_hand_cards")
    for card in cards:
        if not card.is_wild and card.territory not in owned_territories:
            raise CardError(
                "revealed_hand_cards",
                f"{card}: only cards of owned territories (or wild cards) may be revealed",
            )
