"""combat.cards: Risk card sets and turn-in rewards.

Expected values are worked by hand from the rule text (Nautical-but-Nice Fast Risk, "Card
Turn-in") and design.md section 5.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from combat.cards import Card, CardError, all_sets, is_set, turn_in
from combat.dice import FixedDice
from risk.rules.board import MUST_TURN_IN_AT
from risk.rules.board_map import load_map

# Symbols as the map file gives them.
ALASKA = Card("Alaska", "infantry")
PERU = Card("Peru", "infantry")
VENEZUELA = Card("Venezuela", "infantry")
GREENLAND = Card("Greenland", "cavalry")
ALBERTA = Card("Alberta", "cavalry")
NW_TERRITORY = Card("Northwest Territory", "artillery")
BRAZIL = Card("Brazil", "artillery")
ONTARIO = Card("Ontario", "cavalry")
JAPAN = Card("Japan", "artillery")
W = Card(None, "wild")


def test_the_test_cards_carry_the_maps_symbols():
    territories = load_map("classic").territories
    for card in (ALASKA, PERU, VENEZUELA, GREENLAND, ALBERTA, NW_TERRITORY, BRAZIL, ONTARIO, JAPAN):
        assert card.territory is not None
        assert territories[card.territory].card == card.symbol


def test_a_card_is_a_territory_with_a_symbol_or_a_wild():
    with pytest.raises(CardError, match="territory: a wild card has no territory"):
        Card(None, "infantry")
    with pytest.raises(CardError, match="territory: a wild card has no territory"):
        Card("Alaska", "wild")
    with pytest.raises(CardError, match=r"symbol: unknown symbol 'navy' \(allowed: artillery"):
        Card("Alaska", "navy")  # type: ignore[arg-type]


# --- sets -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ((ALASKA, PERU, VENEZUELA), True),  # three infantry
        ((GREENLAND, ALBERTA, ONTARIO), True),  # three cavalry
        ((NW_TERRITORY, BRAZIL, JAPAN), True),  # three artillery
        ((ALASKA, GREENLAND, NW_TERRITORY), True),  # one of each
        ((ALASKA, PERU, W), True),  # two alike + wild
        ((ALASKA, GREENLAND, W), True),  # two different + wild
        ((ALASKA, W, W), True),  # two wilds + any card
        ((ALASKA, PERU, GREENLAND), False),  # two infantry + one cavalry
        ((GREENLAND, ALBERTA, BRAZIL), False),  # two cavalry + one artillery
        ((ALASKA, GREENLAND), False),  # too few
        ((ALASKA, GREENLAND, NW_TERRITORY, PERU), False),  # too many
        ((), False),
    ],
)
def test_set_recognition(cards, expected):
    assert is_set(cards) is expected


def test_five_cards_two_infantry_two_cavalry_one_artillery_form_four_sets():
    """C(5,3) = 10 triples; none is three alike; one of each = 2 x 2 x 1 = 4."""
    hand = (ALASKA, PERU, GREENLAND, ALBERTA, NW_TERRITORY)
    assert all_sets(hand) == (
        (ALASKA, GREENLAND, NW_TERRITORY),
        (ALASKA, ALBERTA, NW_TERRITORY),
        (PERU, GREENLAND, NW_TERRITORY),
        (PERU, ALBERTA, NW_TERRITORY),
    )


def test_a_wild_makes_every_triple_it_is_in_a_set():
    """Hand I, I, C, A, wild: the 6 triples with the wild, plus I-C-A twice = 8."""
    hand = (ALASKA, PERU, GREENLAND, NW_TERRITORY, W)
    sets = all_sets(hand)
    assert len(sets) == 8
    assert sum(W in s for s in sets) == 6
    assert (ALASKA, GREENLAND, NW_TERRITORY) in sets
    assert (PERU, GREENLAND, NW_TERRITORY) in sets


def test_two_wilds_count_each_distinct_set_once():
    """Hand I, C, wild, wild: 4 index triples, but I-C-wild appears twice; 3 distinct sets."""
    hand = (ALASKA, GREENLAND, W, W)
    assert all_sets(hand) == ((ALASKA, GREENLAND, W), (ALASKA, W, W), (GREENLAND, W, W))


def test_no_set_in_two_pairs():
    hand = (ALASKA, PERU, GREENLAND, ALBERTA)
    assert all_sets(hand) == ()


# --- turn-in --------------------------------------------------------------------------------------

HAND = (ALASKA, GREENLAND, NW_TERRITORY, PERU, W)
ONE_OF_EACH = (ALASKA, GREENLAND, NW_TERRITORY)
OWNED = frozenset({"Alaska", "Northwest Territory", "Brazil"})


def test_armies_reward_is_two_dice_plus_two_per_owned_card_territory():
    dice = FixedDice([3, 5])
    result = turn_in(HAND, ONE_OF_EACH, reward="armies", owned_territories=OWNED, dice=dice)
    assert result.rolls == (3, 5)
    assert result.armies == 8
    assert result.factories == 0
    assert result.ship_armies is None
    # Greenland is not owned: no bonus there.
    assert result.territory_bonus == {"Alaska": 2, "Northwest Territory": 2}
    assert result.turned_in == ONE_OF_EACH
    assert result.hand == (PERU, W)
    assert [roll.sides for roll in dice.log] == [6, 6]


def test_ship_reward_carries_one_die_of_armies():
    dice = FixedDice([4])
    result = turn_in(HAND, ONE_OF_EACH, reward="ship", owned_territories=OWNED, dice=dice)
    assert result.reward == "ship"
    assert result.rolls == (4,)
    assert result.ship_armies == 4
    assert result.armies == 0
    assert result.factories == 0
    assert result.territory_bonus == {"Alaska": 2, "Northwest Territory": 2}


def test_factory_reward_rolls_nothing():
    dice = FixedDice([])
    result = turn_in(HAND, ONE_OF_EACH, reward="factory", owned_territories=OWNED, dice=dice)
    assert result.factories == 1
    assert result.rolls == ()
    assert result.armies == 0
    assert result.ship_armies is None
    assert dice.log == []


def test_a_wild_gives_no_territory_bonus_and_unowned_cards_none_either():
    result = turn_in(
        HAND, (ALASKA, PERU, W), reward="factory", owned_territories={"Peru"}, dice=FixedDice([])
    )
    assert result.territory_bonus == {"Peru": 2}
    assert result.hand == (GREENLAND, NW_TERRITORY)


def test_owning_no_card_territory_gives_no_bonus():
    result = turn_in(
        HAND, ONE_OF_EACH, reward="armies", owned_territories=set(), dice=FixedDice([6, 6])
    )
    assert result.territory_bonus == {}
    assert result.armies == 12


def test_one_of_two_wilds_is_removed():
    hand = (ALASKA, W, W, GREENLAND)
    result = turn_in(
        hand, (ALASKA, GREENLAND, W), reward="factory", owned_territories=(), dice=FixedDice([])
    )
    assert result.hand == (W,)


@pytest.mark.parametrize(
    ("hand", "chosen", "reward", "field", "message"),
    [
        (
            HAND,
            (ALASKA, PERU, GREENLAND),
            "armies",
            "chosen",
            "not a set (infantry, infantry, cavalry): a set is three alike, one of each symbol,"
            " or two cards and a wild",
        ),
        (HAND, (ALASKA, GREENLAND), "armies", "chosen", "a set is exactly 3 cards, got 2"),
        (
            HAND,
            (ALASKA, GREENLAND, BRAZIL),
            "armies",
            "chosen",
            "Brazil (artillery) is not in the hand (or chosen twice)",
        ),
        (
            HAND,
            (ALASKA, W, W),
            "armies",
            "chosen",
            "wild is not in the hand (or chosen twice)",
        ),
        (
            (ALASKA, ALASKA, GREENLAND, NW_TERRITORY),
            ONE_OF_EACH,
            "armies",
            "hand",
            "a territory card appears more than once: Alaska (infantry)",
        ),
    ],
)
def test_illegal_turn_ins_name_the_field_and_the_rule(hand, chosen, reward, field, message):
    dice = FixedDice([])  # any roll would raise DiceError: nothing is rolled before the checks
    with pytest.raises(CardError) as caught:
        turn_in(hand, chosen, reward=reward, owned_territories=OWNED, dice=dice)
    assert caught.value.field == field
    assert caught.value.message == message
    assert dice.log == []


def test_an_unknown_reward_lists_the_allowed_ones():
    with pytest.raises(CardError) as caught:
        turn_in(HAND, ONE_OF_EACH, reward="gold", owned_territories=OWNED, dice=FixedDice([]))
    assert caught.value.field == "reward"
    assert caught.value.allowed == ["armies", "factory", "ship"]
    assert str(caught.value) == "reward: unknown reward 'gold' (allowed: armies, factory, ship)"


# --- properties -----------------------------------------------------------------------------------

#: The 44 cards: the map's 42 territories with their symbols, then the 2 wild cards.
DECK = (
    *(Card(name, t.card) for name, t in load_map("classic").territories.items()),
    *([W] * load_map("classic").wild_cards),
)


def test_the_deck_is_14_of_each_symbol_and_2_wilds():
    assert len(DECK) == 44
    assert Counter(card.symbol for card in DECK) == {
        "infantry": 14, "cavalry": 14, "artillery": 14, "wild": 2,
    }  # fmt: skip


@given(
    positions=st.lists(
        st.integers(0, len(DECK) - 1), min_size=MUST_TURN_IN_AT, max_size=8, unique=True
    )
)
def test_every_hand_that_must_turn_in_holds_a_set(positions):
    """Pigeonhole: five cards with at most two of each of three symbols show all three."""
    hand = [DECK[i] for i in positions]
    sets = all_sets(hand)
    assert sets
    assert all(is_set(s) for s in sets)
