"""combat.cards: Risk card sets, turn-in rewards, the deck, the cut and the mobilization bonus.

Expected values are worked by hand from the rule text (Nautical-but-Nice Fast Risk, "Card
Turn-in", "Mobilization Bonus at Start of Campaign") and design.md section 5.
"""

from __future__ import annotations

import copy
import json
import re
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from combat.cards import (
    DATA_FILE,
    WILD_CARD,
    Card,
    CardDataError,
    CardError,
    Deck,
    all_sets,
    cut,
    discard,
    draw,
    holds_set,
    is_set,
    mobilization_bonus,
    must_turn_in,
    new_deck,
    risk_deck,
    shuffled,
    territory_card,
    turn_in,
    validate_card_data,
)
from combat.dice import FixedDice, RandomDice

# Symbols as the map file gives them.
ALASKA = Card("Alaska", "infantry")
PERU = Card("Peru", "infantry")
VENEZUELA = Card("Venezuela", "infantry")
GREENLAND = Card("Greenland", "cavalry")
ALBERTA = Card("Alberta", "cavalry")
NW_TERRITORY = Card("Northwest Territory", "artillery")
BRAZIL = Card("Brazil", "artillery")
W = WILD_CARD


def raw_map() -> dict:
    with DATA_FILE.open(encoding="utf-8") as handle:
        return json.load(handle)


# --- the deck as data -----------------------------------------------------------------------------


def test_the_deck_is_42_territory_cards_and_2_wilds():
    deck = risk_deck()
    assert len(deck) == 44
    assert Counter(card.symbol for card in deck) == {
        "infantry": 14,
        "cavalry": 14,
        "artillery": 14,
        "wild": 2,
    }
    assert len({card.territory for card in deck if not card.is_wild}) == 42
    assert deck[-2:] == (W, W)


def test_territory_cards_carry_the_files_symbols():
    assert territory_card("Alaska") == ALASKA
    assert territory_card("Northwest Territory") == NW_TERRITORY
    assert territory_card("Greenland") == GREENLAND
    with pytest.raises(CardError, match="territory: no card for unknown territory 'Atlantis'"):
        territory_card("Atlantis")


def test_the_test_cards_match_the_data_file():
    for card in (ALASKA, PERU, VENEZUELA, GREENLAND, ALBERTA, NW_TERRITORY, BRAZIL):
        assert territory_card(card.territory) == card


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda raw: raw["territories"]["Alaska"].update(card="Navy"),
            "territories.Alaska.card: 'Navy' is not one of Infantry, Cavalry, Artillery",
        ),
        (
            lambda raw: raw["territories"]["Alaska"].update(card="Cavalry"),
            "territories.*.card: expected 14 Infantry cards, found 13",
        ),
        (
            lambda raw: raw["territories"].pop("Alaska"),
            "territories: expected 42 territories, found 41",
        ),
        (lambda raw: raw.update(wild_cards=3), "wild_cards: expected 2, found 3"),
        (lambda raw: raw.pop("territories"), "territories: missing or not an object"),
    ],
)
def test_a_broken_map_file_names_the_file_and_key(change, message):
    raw = copy.deepcopy(raw_map())
    change(raw)
    with pytest.raises(CardDataError, match=re.escape(f"map.json: {message}")):
        validate_card_data(raw, "map.json")


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
        ((GREENLAND, ALBERTA, territory_card("Ontario")), True),  # three cavalry
        ((NW_TERRITORY, BRAZIL, territory_card("Japan")), True),  # three artillery
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
    assert holds_set(hand)


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
    assert not holds_set(hand)


def test_a_turn_in_is_due_at_five_cards_not_four():
    assert not must_turn_in((ALASKA, PERU, GREENLAND, ALBERTA))
    assert must_turn_in((ALASKA, PERU, GREENLAND, ALBERTA, BRAZIL))
    assert must_turn_in((ALASKA, PERU, GREENLAND, ALBERTA, BRAZIL, W))


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


# --- the deck -------------------------------------------------------------------------------------

A, B, C, D = ALASKA, GREENLAND, NW_TERRITORY, PERU


def test_shuffle_is_fisher_yates_worked_by_hand():
    """[A, B, C, D] with rolls 2, 3, 1:
    i=4, j=2: swap positions 4 and 2 -> [A, D, C, B]
    i=3, j=3: no change            -> [A, D, C, B]
    i=2, j=1: swap positions 2 and 1 -> [D, A, C, B]
    """
    dice = FixedDice([2, 3, 1])
    assert shuffled((A, B, C, D), dice) == (D, A, C, B)
    assert [roll.sides for roll in dice.log] == [4, 3, 2]


def test_shuffling_rolls_once_fewer_than_the_cards():
    assert shuffled((), FixedDice([])) == ()
    assert shuffled((A,), FixedDice([])) == (A,)
    assert shuffled((A, B), FixedDice([1])) == (B, A)
    assert shuffled((A, B), FixedDice([2])) == (A, B)


def test_a_new_deck_is_the_44_cards_shuffled():
    dice = RandomDice(7)
    deck = new_deck(dice)
    assert Counter(deck.draw_pile) == Counter(risk_deck())
    assert deck.discard == ()


def test_draw_takes_the_top_card():
    card, deck = draw(Deck((A, B), (C,)), FixedDice([]))
    assert card == A
    assert deck == Deck((B,), (C,))


def test_draw_reshuffles_the_discard_pile_when_the_draw_pile_is_out():
    """Discard [B, C, D], rolls 1, 2: i=3, j=1 -> [D, C, B]; i=2, j=2 -> [D, C, B]; top is D."""
    dice = FixedDice([1, 2])
    card, deck = draw(Deck((A,), (B, C, D)), dice)
    assert (card, deck) == (A, Deck((), (B, C, D)))
    assert dice.log == []  # no reshuffle while a card was left
    card, deck = draw(deck, dice)
    assert card == D
    assert deck == Deck((C, B), ())
    assert [roll.sides for roll in dice.log] == [3, 2]


def test_drawing_from_no_cards_at_all_is_an_error():
    with pytest.raises(CardError) as caught:
        draw(Deck((), ()), FixedDice([]))
    assert caught.value.field == "deck"
    assert caught.value.message == "no card to draw: the draw and discard piles are both empty"


def test_discard_adds_to_the_discard_pile():
    assert discard(Deck((A,), (B,)), (C, W)) == Deck((A,), (B, C, W))


def test_the_cut_reveals_the_card_at_the_rolled_position_and_leaves_the_deck():
    deck = Deck((A, B, C, D, W), (BRAZIL,))
    before = copy.deepcopy(deck)
    dice = FixedDice([4])
    assert cut(deck, dice) == D
    assert [roll.sides for roll in dice.log] == [5]
    assert deck == before
    assert draw(deck, FixedDice([]))[0] == A  # the cut changed nothing for the next draw


def test_cutting_small_and_empty_piles():
    assert cut(Deck((A,), (B, C)), FixedDice([])) == A  # one card: no roll
    assert cut(Deck((), (B, C)), FixedDice([2])) == C  # no draw pile: cut the discard
    with pytest.raises(CardError, match="deck: nothing to cut"):
        cut(Deck((), ()), FixedDice([]))


# --- mobilization bonus ---------------------------------------------------------------------------


def test_cut_of_an_owned_territory_gives_a_die_there():
    bonus = mobilization_bonus(ALASKA, {"Alaska"}, (), FixedDice([5]))
    assert bonus.by_territory == {"Alaska": 5}
    assert bonus.free_placement == ()
    assert bonus.total == 5
    assert bonus.dice[0].source == "cut"


def test_cut_of_an_unowned_territory_gives_nothing():
    dice = FixedDice([])
    bonus = mobilization_bonus(ALASKA, {"Peru"}, (), dice)
    assert bonus.dice == ()
    assert bonus.total == 0
    assert dice.log == []


def test_revealed_cards_still_count_when_the_cut_misses():
    """design.md: the revealed hand cards give a die each whatever the cut showed."""
    bonus = mobilization_bonus(ALASKA, {"Peru", "Brazil"}, (PERU, BRAZIL), FixedDice([2, 6]))
    assert bonus.by_territory == {"Peru": 2, "Brazil": 6}
    assert [die.source for die in bonus.dice] == ["hand", "hand"]


def test_wild_cut_and_revealed_wild_are_free_placements():
    bonus = mobilization_bonus(W, {"Peru"}, (PERU, W), FixedDice([3, 1, 4]))
    assert [(d.source, d.territory, d.armies) for d in bonus.dice] == [
        ("cut", None, 3),
        ("hand", "Peru", 1),
        ("hand", None, 4),
    ]
    assert bonus.by_territory == {"Peru": 1}
    assert bonus.free_placement == (3, 4)
    assert bonus.total == 8


def test_no_cut_possible_and_nothing_revealed_gives_no_bonus():
    assert mobilization_bonus(None, {"Peru"}, (), FixedDice([])).total == 0


def test_revealing_an_unowned_card_is_refused_before_any_roll():
    dice = FixedDice([])
    with pytest.raises(CardError) as caught:
        mobilization_bonus(ALASKA, {"Alaska"}, (PERU,), dice)
    assert caught.value.field == "revealed_hand_cards"
    assert caught.value.message == (
        "Peru (infantry): only cards of owned territories (or wild cards) may be revealed"
    )
    assert dice.log == []


def test_revealing_the_same_card_twice_is_refused():
    with pytest.raises(CardError, match="revealed_hand_cards: a territory card appears more"):
        mobilization_bonus(None, {"Peru"}, (PERU, PERU), FixedDice([]))


# --- properties -----------------------------------------------------------------------------------

DECK = risk_deck()
seeds = st.integers(min_value=0, max_value=2**32)


@given(seed=seeds, size=st.integers(min_value=0, max_value=len(DECK)))
def test_shuffle_is_a_permutation_using_n_minus_one_rolls(seed, size):
    source = RandomDice(seed)
    cards = DECK[:size]
    dice = FixedDice([source.roll(i) for i in range(size, 1, -1)])
    result = shuffled(cards, dice)
    assert Counter(result) == Counter(cards)
    assert dice.remaining == 0


@given(positions=st.lists(st.integers(0, len(DECK) - 1), min_size=5, max_size=8, unique=True))
def test_every_hand_that_must_turn_in_holds_a_set(positions):
    """Pigeonhole: five cards with at most two of each of three symbols show all three."""
    hand = [DECK[i] for i in positions]
    assert must_turn_in(hand)
    assert holds_set(hand)
    assert all(is_set(s) for s in all_sets(hand))


@given(seed=seeds, moves=st.lists(st.integers(min_value=0, max_value=3), max_size=120))
def test_draw_and_discard_conserve_the_44_cards(seed, moves):
    """0-2: draw a card into the held pile; 3: discard every held card."""
    dice = RandomDice(seed)
    deck, held = new_deck(dice), []
    for move in moves:
        if move < 3:
            if not deck.draw_pile and not deck.discard:
                with pytest.raises(CardError):
                    draw(deck, dice)
                continue
            card, deck = draw(deck, dice)
            held.append(card)
        else:
            deck, held = discard(deck, held), []
        assert Counter(deck.draw_pile + deck.discard + tuple(held)) == Counter(DECK)
