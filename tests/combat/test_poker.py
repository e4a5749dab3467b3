"""combat.poker: hand values (standard and red queens high) and the five-card-draw hand engine.

Cast: alice (seat 0, the active player), bob and carol, in betting order. Decks are stacked by
hand with ``stacked``: the cards named go on top in the order dealt, the rest follow.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from itertools import combinations, pairwise

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from combat.dice import FixedDice, RandomDice, SeededDice
from combat.poker import (
    CATEGORIES,
    DECK,
    Bet,
    Call,
    Check,
    Choose,
    Draw,
    Entrant,
    Fold,
    HandState,
    IllegalAction,
    Muck,
    PokerInputError,
    Raise,
    Show,
    allowed,
    apply,
    evaluate,
    events_for,
    shuffled_deck,
    start_hand,
    to_act,
    view_for,
)

# --- hand values: the whole deck -------------------------------------------------------------

STANDARD_COUNTS = {
    "straight-flush": 40,
    "four-of-a-kind": 624,
    "full-house": 3_744,
    "flush": 5_108,
    "straight": 10_200,
    "three-of-a-kind": 54_912,
    "two-pair": 123_552,
    "pair": 1_098_240,
    "high-card": 1_302_540,
}
STANDARD_DISTINCT = {
    "straight-flush": 10,
    "four-of-a-kind": 156,
    "full-house": 156,
    "flush": 1_277,
    "straight": 10,
    "three-of-a-kind": 858,
    "two-pair": 858,
    "pair": 2_860,
    "high-card": 1_277,
}


def census(red_queens_high: bool) -> tuple[Counter[str], Counter[str]]:
    """Hands per category and distinct values per category over all C(52,5) hands.

    Also checks that ``describe()`` tells every distinct value apart, as its docstring claims.
    """
    seen: Counter[object] = Counter()
    for hand in combinations(DECK, 5):
        seen[evaluate(hand, red_queens_high=red_queens_high)] += 1
    hands: Counter[str] = Counter()
    distinct: Counter[str] = Counter()
    for value, count in seen.items():
        hands[value.category] += count
        distinct[value.category] += 1
    assert len({value.describe() for value in seen}) == len(seen)
    return hands, distinct


def test_every_hand_of_the_deck_gives_the_standard_counts():
    """All 2,598,960 hands, standard rules: the textbook counts and 7,462 distinct values."""
    started = time.perf_counter()
    hands, distinct = census(red_queens_high=False)
    elapsed = time.perf_counter() - started
    assert dict(hands) == STANDARD_COUNTS
    assert dict(distinct) == STANDARD_DISTINCT
    assert sum(distinct.values()) == 7_462
    assert sum(hands.values()) == 2_598_960
    assert elapsed < 60, f"enumeration took {elapsed:.1f} s"


def test_every_hand_of_the_deck_under_the_red_queen_rule():
    """The same census with red queens high, counted by hand.

    There are now 12 ranks of four cards, the black queens (2 cards) and the red queens (2 cards).
    Quads 12*48; full houses 12*4 trips * (11*6 + 1 + 1) pairs; flushes: clubs and spades keep
    their 1,287 - 10 straights, hearts and diamonds (ranks 2-J, K, A, red Q) lose only the 7
    straights without a queen: 2*1277 + 2*1280; straight flushes 2*10 + 2*7; straights: 7 rank
    runs without a queen (4^5 each) and 3 with one (2 black queens * 4^4), less the 34 straight
    flushes. Trips 12*4 * C2(kickers: 11 ranks of 4, two of 2) = 48*1,060; two pair 66*36*44 +
    12*2*6*46 + 48; pairs 12*6*e3(11x4, 2, 2) + 2*e3(12x4, 2) = 72*14,256 + 2*16,192; high cards
    are the no-pair hands e5(12x4, 2, 2) = 1,374,208 less straights, flushes and straight flushes.
    """
    hands, distinct = census(red_queens_high=True)
    assert dict(hands) == {
        "straight-flush": 34,
        "four-of-a-kind": 576,
        "full-house": 3_264,
        "flush": 5_114,
        "straight": 8_670,
        "three-of-a-kind": 50_880,
        "two-pair": 111_216,
        "pair": 1_058_816,
        "high-card": 1_360_390,
    }
    # Ten straights still exist (those through a queen use a black one); 12 quads x 13 kickers.
    assert distinct["straight"] == distinct["straight-flush"] == 10
    assert distinct["four-of-a-kind"] == distinct["full-house"] == 12 * 13


# --- hand values: comparisons worked by hand -------------------------------------------------


def hand(text: str) -> list[str]:
    return text.split()


def evaluate_standard(cards):
    return evaluate(cards, red_queens_high=False)


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("2c 3d 4h 5s 6c", "Ac 2d 3h 4s 5c"),  # the wheel is the lowest straight
        ("Ac 2d 3h 4s 5c", "Ac Ad Ah 9s 5c"),  # ... but still a straight
        ("Tc Jd Qh Ks Ac", "9c Td Jh Qs Kc"),  # ace-high straight tops king-high
        ("Kc Kd Ah 7s 2c", "Kh Ks Qh Js Tc"),  # kickers decide equal pairs: ace first
        ("Kc Kd Ah 7s 3c", "Kh Ks Ad 7c 2d"),  # ... down to the last kicker
        ("Kc Kd 5h 5s 3c", "Kh Ks 4d 4c Ad"),  # two pair: the second pair before the kicker
        ("Kc Kd 5h 5s 4c", "Kh Ks 5d 5c 3d"),  # two pair: then the kicker
        ("Ac Ad 2h 2s 3c", "Kh Ks Qd Qc Ad"),  # two pair: the top pair first
        ("8c 8d 8h 2s 2c", "7h 7s 7d Ac Ad"),  # full house: trips first
        ("8c 8d 8h 3s 3c", "8c 8d 8h 2s 2c"),  # same trips (from two decks): then the pair
        ("2c 2d 2h 2s 3c", "Ac Ad Ah Ks Kc"),  # quads beat a full house
        ("2c 3c 4c 5c 7c", "Ac Kd Qh Js 9c"),  # any flush beats a high-card hand
        ("2c 3c 4c 5c 7c", "Tc Jd Qh Ks Ac"),  # ... and a straight
        ("Ah Kh 9h 5h 3h", "Ac Kc 9c 5c 2c"),  # flushes compare card by card
        ("Ac 2c 3c 4c 5c", "Ac Ad Ah As Kc"),  # a straight flush (even the wheel) beats quads
    ],
)
def test_hand_comparisons_worked_by_hand(better, worse):
    high, low = evaluate_standard(hand(better)), evaluate_standard(hand(worse))
    assert high > low and low < high and high != low


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Ah Kh 9h 5h 3h", "Ac Kc 9c 5c 3c"),  # equal flushes of different suits tie
        ("2c 3d 4h 5s 6c", "2h 3s 4c 5d 6d"),  # equal straights tie
        ("Kc Kd Ah 7s 2c", "Kh Ks Ad 7c 2d"),  # equal pairs with equal kickers tie
        ("Ac 2d 3h 4s 5c", "Ad 2c 3s 4h 5d"),  # wheels tie
    ],
)
def test_equal_hands_compare_equal_whatever_the_suits(first, second):
    one, two = evaluate_standard(hand(first)), evaluate_standard(hand(second))
    assert one == two and not one < two and not two < one
    assert hash(one) == hash(two) and len({one, two}) == 1


# --- hand values: the red queens -------------------------------------------------------------


def test_red_queens_are_the_highest_pair():
    red_pair = evaluate(hand("Qh Qd 2c 3d 4s"))
    aces = evaluate(hand("Ac As Kd Jh 9c"))
    assert red_pair.category == aces.category == "pair"
    assert red_pair > aces
    assert red_pair.describe() == "pair of red queens, kickers four, three, two"


def test_a_red_and_a_black_queen_are_no_pair():
    """Qh Qc is no pair; the red queen still tops the ace in a high-card hand."""
    value = evaluate(hand("Qh Qc 9d 5s 2h"))
    assert value.category == "high-card"
    assert value > evaluate(hand("As Kd 9c 5h 2c"))
    assert value.describe() == "high card, red queen, queen, nine, five, two"
    assert evaluate(hand("Qh Qc 9d 5s 2h"), red_queens_high=False).category == "pair"


def test_a_red_queen_makes_no_straight_but_a_black_one_does():
    assert evaluate(hand("9c Td Jh Qh Ks")).category == "high-card"
    assert evaluate(hand("9c Td Jh Qh Ks"), red_queens_high=False).category == "straight"
    assert evaluate(hand("9c Td Jh Qc Ks")).category == "straight"
    assert evaluate(hand("Th Jh Qh Kh Ah")).category == "flush"  # not a royal flush
    assert evaluate(hand("Ts Js Qs Ks As")).describe() == "royal flush"


def test_a_flush_with_the_red_queen_beats_the_ace_high_flush():
    """The red queen counts for its suit and ranks above the ace, so its flush is higher."""
    red = evaluate(hand("Qh 9h 7h 4h 2h"))
    ace = evaluate(hand("As 9s 7s 4s 2s"))
    assert red.category == ace.category == "flush"
    assert red > ace


def test_full_houses_compare_trips_first_then_the_red_queen_pair():
    """Aces full of red queens beats aces full of kings: same trips, the pair decides."""
    aces_over_red_queens = evaluate(hand("Qh Qd Ac Ad Ah"))
    aces_over_kings = evaluate(hand("As Ac Ad Kh Ks"))
    assert aces_over_red_queens.describe() == "full house, aces over red queens"
    assert aces_over_red_queens > aces_over_kings
    # Red queens pair with each other only: three queens of which two are red is no trips.
    assert (
        evaluate(hand("Qh Qd Qc 5s 5c")).describe()
        == "two pair, red queens and fives, queen kicker"
    )
    assert (
        evaluate(hand("Qh Qd Qc Qs 5c")).describe()
        == "two pair, red queens and queens, five kicker"
    )


@pytest.mark.parametrize(
    ("cards", "red", "words"),
    [
        ("Kc Kd Kh 5s 5c", False, "full house, kings over fives"),
        ("2c 3d 4h 5s 6c", False, "straight, six high"),
        ("Ac 2d 3h 4s 5c", True, "straight, five high (wheel)"),
        ("Ac 2c 3c 4c 5c", True, "straight flush, five high (wheel)"),
        ("9d Td Jd Qd Kd", False, "straight flush, king high"),
        ("7c 7d 7h 7s Kc", True, "four of a kind, sevens, king kicker"),
        ("8c 8d 8h Ks 2c", True, "three of a kind, eights, kickers king, two"),
        ("Kc Kd 5h 5s Ac", True, "two pair, kings and fives, ace kicker"),
        ("Qh Qd Ac 9s 4c", True, "pair of red queens, kickers ace, nine, four"),
        ("6c 6d Ac 9s 4c", True, "pair of sixes, kickers ace, nine, four"),
        ("Ah Jh 9h 5h 2h", True, "flush, ace, jack, nine, five, two"),
        ("Qd Kc 9h 5s 2c", True, "high card, red queen, king, nine, five, two"),
    ],
)
def test_describe_says_the_hand_in_words(cards, red, words):
    assert evaluate(hand(cards), red_queens_high=red).describe() == words


@pytest.mark.parametrize(
    ("cards", "says"),
    [
        (["Ah", "Kh", "Qh", "Jh"], "exactly 5 cards, got 4"),
        (["Ah", "Kh", "Qh", "Jh", "Th", "9h"], "exactly 5 cards, got 6"),
        (["Ah", "Kh", "Qh", "Jh", "Ah"], "Ah appears more than once"),
        (["Ah", "Kh", "Qh", "Jh", "1h"], "'1h' is not a card"),
        (["Ah", "Kh", "Qh", "Jh", "10h"], "'10h' is not a card"),
        (["ah", "Kh", "Qh", "Jh", "Th"], "'ah' is not a card"),
        (["Ah", "Kh", "Qh", "Jh", "Tx"], "'Tx' is not a card"),
        (["Ah", "Kh", "Qh", "Jh", 5], "5 is not a card"),
        ("AhKhQhJhTh", "expected a list of 5 cards"),
        ("AhKhQ", "expected a list of 5 cards"),
        (None, "expected a list"),
    ],
)
def test_bad_cards_are_refused_naming_the_field_and_what_is_allowed(cards, says):
    with pytest.raises(PokerInputError) as caught:
        evaluate(cards)
    error = caught.value
    assert isinstance(error, ValueError)
    assert error.field == "cards"
    assert says in error.message
    assert "rank" in str(error) or "exactly" in str(error) or "more than once" in str(error)
    if "is not a card" in says:
        assert error.allowed is not None and len(error.allowed) == 52 and "Qh" in error.allowed


# --- hand values: properties against a reference written out plainly --------------------------


def reference_key(cards: list[str], red: bool) -> tuple[int, ...]:
    """The rules as a player would check them, slowly: sort, count, look for runs and suits."""

    def rank(card: str) -> int:
        return 13 if red and card in ("Qh", "Qd") else "23456789TJQKA".index(card[0])

    ranks = sorted((rank(card) for card in cards), reverse=True)
    distinct = sorted(set(ranks), reverse=True)
    flush = len({card[1] for card in cards}) == 1
    high = None
    if len(distinct) == 5 and 13 not in distinct:
        if distinct[0] - distinct[4] == 4:
            high = distinct[0]
        elif distinct == [12, 3, 2, 1, 0]:
            high = 3
    grouped = sorted(distinct, key=lambda r: (ranks.count(r), r), reverse=True)
    shape = sorted((ranks.count(r) for r in distinct), reverse=True)
    if high is not None:
        return (8 if flush else 4, high)
    if flush:
        return (5, *ranks)
    category = {
        (4, 1): 7,
        (3, 2): 6,
        (3, 1, 1): 3,
        (2, 2, 1): 2,
        (2, 1, 1, 1): 1,
        (1, 1, 1, 1, 1): 0,
    }[tuple(shape)]
    return (category, *grouped)


hands = st.lists(st.sampled_from(DECK), min_size=5, max_size=5, unique=True)


@settings(max_examples=300, deadline=None)
@given(st.lists(hands, min_size=2, max_size=8), st.booleans())
def test_evaluate_is_a_total_order_agreeing_with_the_reference(some_hands, red):
    values = [evaluate(cards, red_queens_high=red) for cards in some_hands]
    keys = [reference_key(cards, red) for cards in some_hands]
    for value, key in zip(values, keys, strict=True):
        assert CATEGORIES[key[0]] == value.category
    for (v1, k1), (v2, k2) in combinations(zip(values, keys, strict=True), 2):
        assert (v1 < v2, v1 == v2, v1 > v2) == (k1 < k2, k1 == k2, k1 > k2)
    ordered = sorted(values)
    assert all(a <= b for a, b in pairwise(ordered))
    assert sorted(values, reverse=True)[0] == max(values)


# --- the deck --------------------------------------------------------------------------------


def test_the_shuffle_is_fisher_yates_worked_by_hand():
    """Four cards left; rolls 1,1,1: swap 4<->1, 3<->1, 2<->1 (1-based positions)."""
    others = [card for card in DECK if card not in ("2c", "2d", "2h", "2s")]
    dice = FixedDice([1, 1, 1])
    assert shuffled_deck(dice, exclude=others) == ("2d", "2h", "2s", "2c")
    assert [roll.sides for roll in dice.log] == [4, 3, 2]


def test_the_shuffle_replays_from_the_seed_and_leaves_out_the_stashes():
    first = shuffled_deck(SeededDice("seed", context="poker:1"), exclude=["Qh", "As"])
    again = shuffled_deck(SeededDice("seed", context="poker:1"), exclude=["Qh", "As"])
    assert first == again and len(first) == 50
    assert sorted(first) == sorted(set(DECK) - {"Qh", "As"})
    dice = SeededDice("seed", context="poker:2")
    assert shuffled_deck(dice) != first and len(dice.log) == 51
    with pytest.raises(PokerInputError) as caught:
        shuffled_deck(dice, exclude=["Zz"])
    assert caught.value.field == "exclude"


# --- the hand engine -------------------------------------------------------------------------


def stacked(top: str, *held: list[str]) -> tuple[str, ...]:
    """A deck with ``top`` dealt first (in order) and every other card not held after it."""
    first = top.split()
    taken = set(first).union(*map(set, held))
    return (*first, *(card for card in DECK if card not in taken))


def play(state: HandState, *actions):
    """Apply actions in turn; the final state and all the events."""
    events = []
    for action in actions:
        state, caused = apply(state, action)
        events += caused
    return state, events


def total_armies(state: HandState) -> int:
    return sum(seat.pot for seat in state.seats) + state.on_table


def test_a_two_player_hand_from_ante_to_showdown():
    """Bets, a raise and calls; alice draws from stash and deck; bob, called, shows first."""
    alice_stash, bob_stash = ["Ah", "Kd"], ["7c", "2s", "9h"]
    deck = stacked("As Ks 3c 4d  5h 6s 8c  8d", alice_stash, bob_stash)
    state, events = start_hand(
        [Entrant("alice", alice_stash, 5), Entrant("bob", bob_stash, 6)], deck
    )
    assert [e["type"] for e in events] == ["start", "ante", "ante", "phase"]
    assert state.on_table == 2 and [s.pot for s in state.seats] == [4, 5]

    state, events = play(state, Choose("bob", ["7c", "2s"]), Choose("alice", ["Ah"]))
    assert state.phase == "bet1" and to_act(state) == ("alice",)
    assert state.seats[0].hand == ("Ah", "As", "Ks", "3c", "4d")
    assert state.seats[1].hand == ("7c", "2s", "5h", "6s", "8c")
    assert state.seats[0].stash == ("Kd",) and state.seats[1].stash == ("9h",)

    state, events = play(state, Bet("alice"), Raise("bob"), Call("alice"))
    assert [(e["type"], e.get("amount")) for e in events[:3]] == [
        ("bet", 1),
        ("raise", 2),
        ("call", 1),
    ]
    assert state.phase == "draw" and state.on_table == 6

    state, _ = play(
        state,
        Draw("alice", discard=["3c", "4d"], from_stash=["Kd"]),
        Draw("bob", discard=["2s"], from_stash=["9h"]),
    )
    assert state.seats[0].hand == ("Ah", "As", "Ks", "Kd", "8d")
    assert state.seats[1].hand == ("7c", "5h", "6s", "8c", "9h")
    assert state.phase == "bet2" and state.deck == deck[8:]

    state, events = play(state, Check("alice"), Bet("bob"), Call("alice"))
    assert state.phase == "showdown" and to_act(state) == ("alice",)
    state, more = play(state, Show("alice"))
    events += more
    shows = [e for e in events if e["type"] == "show"]
    assert [e["player"] for e in shows] == ["bob", "alice"]  # the called player shows first
    assert shows[0]["describe"] == "straight, nine high"
    assert shows[1]["describe"] == "two pair, aces and kings, eight kicker"
    assert state.phase == "done"
    result = state.result
    assert result.winners == ("bob",)
    assert result.amounts_won() == {"alice": 0, "bob": 8}
    assert result.pots_after() == {"alice": 1, "bob": 10}  # 5-4 and 6-4+8
    assert total_armies(state) == 11


def three_player_hand(pots=(5, 5, 5), *, bob_card="As", carol_card="Ad", top=None):
    stashes = [["2c"], [bob_card], [carol_card]]
    deck = stacked(top or "4c 5d 8h Js  Kc 9h 7s 3d  Kd 9c 7h 3s", *stashes)
    names = ["alice", "bob", "carol"]
    entrants = [Entrant(n, s, p) for n, s, p in zip(names, stashes, pots, strict=True)]
    state, _ = start_hand(entrants, deck)
    return play(
        state, Choose("alice", ["2c"]), Choose("bob", stashes[1]), Choose("carol", stashes[2])
    )[0]


def stand_pat(state: HandState, *players: str) -> HandState:
    return play(state, *(Draw(player) for player in players))[0]


def test_a_split_pot_gives_the_odd_army_to_the_earliest_seat():
    """bob and carol hold A-K-9-7-3 in different suits; 5 armies split 3 to bob, 2 to carol.

    carol bet last in bet2, so she is called and shows first, yet the odd army goes by seat.
    """
    state = three_player_hand()
    state, _ = play(state, Check("alice"), Check("bob"), Check("carol"))
    state = stand_pat(state, "alice", "bob", "carol")
    state, events = play(state, Check("alice"), Check("bob"), Bet("carol"), Fold("alice"))
    state, events = play(state, Call("bob"), Show("bob"))
    assert [e["player"] for e in events if e["type"] == "show"] == ["carol", "bob"]
    result = state.result
    assert result.winners == ("bob", "carol")
    assert result.amounts_won() == {"alice": 0, "bob": 3, "carol": 2}
    assert result.pots_after() == {"alice": 4, "bob": 6, "carol": 5}
    assert [p.shares for p in result.pots] == [(("bob", 3), ("carol", 2))]


def test_when_everyone_else_folds_the_last_player_wins_without_showing():
    state = three_player_hand()
    state, events = play(state, Bet("alice"), Fold("bob"), Fold("carol"))
    assert state.phase == "done"
    assert not any(e["type"] == "show" for e in events)
    result = state.result
    assert not result.showdown and result.shown == ()
    assert result.winners == ("alice",)
    assert result.amounts_won() == {"alice": 4, "bob": 0, "carol": 0}
    assert result.pots_after() == {"alice": 7, "bob": 4, "carol": 4}  # 5 - 2 + 4
    assert view_for(state, "bob")["players"][0]["shown"] is None
    assert "2c" not in json.dumps(view_for(state, "bob"))


def test_an_all_in_player_contests_only_the_main_pot():
    """bob (2 armies) is all-in after calling alice's bet; carol raises, alice calls.

    Staked: alice 4, bob 2, carol 4. Main pot 3 x 2 = 6 (all three), side pot 2 x 2 = 4 (alice
    and carol). bob's trips take the main pot, alice's pair of kings beats carol for the side pot.
    """
    stashes = [["Kh"], ["5c"], ["2d"]]
    deck = stacked("Kc 9d 7h 3s  5d 5h Jc 8s  Td 6c 4h 3d", *stashes)
    entrants = [
        Entrant("alice", ["Kh"], 10),
        Entrant("bob", ["5c"], 2),
        Entrant("carol", ["2d"], 10),
    ]
    state, _ = start_hand(entrants, deck)
    state, _ = play(state, Choose("alice", ["Kh"]), Choose("bob", ["5c"]), Choose("carol", ["2d"]))
    with pytest.raises(IllegalAction) as caught:
        play(state, Bet("alice"), Raise("bob"))
    assert caught.value.code == "short-pot"
    state, events = play(state, Bet("alice"), Call("bob"), Raise("carol"), Call("alice"))
    assert events[1] == {"type": "call", "player": "bob", "amount": 1, "all_in": True}
    assert state.phase == "draw"
    state = stand_pat(state, "alice", "bob", "carol")
    assert to_act(state) == ("alice",)
    state, events = play(state, Bet("alice"), Call("carol"))  # bob, all-in, is not asked
    assert state.phase == "showdown" and to_act(state) == ("bob",)
    state, events = play(state, Show("bob"), Show("carol"))
    result = state.result
    assert [(p.amount, p.contestants, p.winners) for p in result.pots] == [
        (6, ("alice", "bob", "carol"), ("bob",)),
        (4, ("alice", "carol"), ("alice",)),
    ]
    assert result.pots_after() == {"alice": 10, "bob": 6, "carol": 6}
    assert result.winners == ("alice", "bob")
    assert total_armies(state) == 22


def test_a_player_who_mucks_forfeits_even_with_the_best_hand():
    """alice is called and shows a pair of twos; bob mucks his kings; carol's fives win."""
    stashes = [["2c"], ["Kh"], ["5c"]]
    deck = stacked("2d 9c 7d 4h  Kd Jc 8s 3d  5h Ts 6c 3c", *stashes)
    entrants = [Entrant(n, s, 5) for n, s in zip(["alice", "bob", "carol"], stashes, strict=True)]
    state, _ = start_hand(entrants, deck)
    state, _ = play(state, *(Choose(e.player, e.stash) for e in entrants))
    state, _ = play(state, Check("alice"), Check("bob"), Check("carol"))
    state = stand_pat(state, "alice", "bob", "carol")
    state, events = play(state, Bet("alice"), Call("bob"), Call("carol"))
    assert state.called == 0 and to_act(state) == ("bob",)
    assert allowed(state, "bob") == ("show", "muck")
    state, events = play(state, Muck("bob"), Show("carol"))
    assert [e["type"] for e in events[:2]] == ["muck", "show"]
    result = state.result
    assert result.winners == ("carol",)
    assert result.amounts_won() == {"alice": 0, "bob": 0, "carol": 6}
    assert [name for name, _, _ in result.shown] == ["alice", "carol"]
    seen = view_for(state, "alice")
    assert seen["players"][1]["shown"] is None and "Kh" not in json.dumps(seen)


def test_when_all_but_the_called_player_muck_they_win():
    state = three_player_hand()
    state, _ = play(state, Check("alice"), Check("bob"), Check("carol"))
    state = stand_pat(state, "alice", "bob", "carol")
    state, _ = play(state, Check("alice"), Check("bob"), Check("carol"))
    assert state.phase == "showdown" and state.called == 0  # all checks: the first player in
    state, _ = play(state, Muck("bob"), Muck("carol"))
    assert state.result.amounts_won() == {"alice": 3, "bob": 0, "carol": 0}


@pytest.mark.parametrize(("red", "winner"), [(True, "alice"), (False, "bob")])
def test_the_showdown_uses_the_red_queen_switch(red, winner):
    stashes = [["Qh"], ["Ac"]]
    deck = stacked("Qd 9c 7d 4h  Ad Jc 8s 3d", *stashes)
    entrants = [Entrant("alice", ["Qh"], 3), Entrant("bob", ["Ac"], 3)]
    state, _ = start_hand(entrants, deck, red_queens_high=red)
    state, _ = play(state, Choose("alice", ["Qh"]), Choose("bob", ["Ac"]), Check("alice"))
    state, _ = play(state, Check("bob"), Draw("alice"), Draw("bob"), Check("alice"), Check("bob"))
    state, _ = play(state, Show("bob"))
    assert state.result.winners == (winner,)


def test_an_all_in_ante_runs_the_hand_to_the_showdown():
    """bob's pot is spent on the ante: no betting round can be contested, only draws remain."""
    state = three_player_hand(pots=(5, 1, 5))
    state, _ = play(state, Check("alice"), Check("carol"))
    state = stand_pat(state, "alice", "bob", "carol")
    state, _ = play(state, Bet("alice"), Fold("carol"))
    assert state.phase == "showdown" and state.called == 0
    state, _ = play(state, Show("bob"))
    pots = state.result.pots
    assert [(p.amount, p.winners) for p in pots] == [(3, ("bob",)), (1, ("alice",))]


# --- illegal actions -------------------------------------------------------------------------


ALICE_STASH = ["Ah", "Kd", "Qs", "Jc", "Tc", "9d"]


def two_players(alice=5, bob=5, deck=None):
    stashes = [ALICE_STASH, ["7c", "2s"]]
    entrants = [Entrant("alice", stashes[0], alice), Entrant("bob", stashes[1], bob)]
    return start_hand(entrants, stacked("", *stashes) if deck is None else deck)[0]


def betting():
    return play(two_players(), Choose("alice", ["Ah"]), Choose("bob", ["7c"]))[0]


def refused(state, action):
    with pytest.raises(IllegalAction) as caught:
        apply(state, action)
    return caught.value


@pytest.mark.parametrize(
    ("setup", "action", "code", "says"),
    [
        (two_players, Bet("alice"), "wrong-phase", "no bet in the choose phase"),
        (two_players, Choose("alice", []), "choose-count", "1-5 cards from their stash"),
        (two_players, Choose("alice", ALICE_STASH), "choose-count", "not 6"),
        (two_players, Choose("alice", ["As"]), "not-in-stash", "As not in your stash"),
        (two_players, Choose("alice", ["Ah", "Ah"]), "duplicate-card", "Ah named twice"),
        (two_players, Choose("dave", ["Ah"]), "unknown-player", "'dave' is not in this hand"),
        (betting, Bet("bob"), "not-your-turn", "it is alice's turn"),
        (betting, Call("alice"), "nothing-to-call", "check, or bet"),
        (betting, Raise("alice"), "no-live-bet", "the live bet is zero"),
        (betting, Show("alice"), "wrong-phase", "no show in the bet1 phase"),
        (betting, Draw("alice"), "wrong-phase", "no draw in the bet1 phase"),
        (lambda: play(betting(), Bet("alice"))[0], Check("bob"), "must-call", "1 to call"),
        (lambda: play(betting(), Bet("alice"))[0], Bet("bob"), "live-bet", "live bet is zero"),
        (
            lambda: play(betting(), Check("alice"), Check("bob"))[0],
            Draw("bob"),
            "not-your-turn",
            "",
        ),
        (
            lambda: play(betting(), Check("alice"), Check("bob"))[0],
            Draw("alice", ["As"]),
            "not-in-hand",
            "As not in your hand",
        ),
        (
            lambda: play(betting(), Check("alice"), Check("bob"))[0],
            Draw("alice", ["Ah"], ["Kd", "Qs"]),
            "too-many-from-stash",
            "a drawn card replaces a discard",
        ),
        (
            lambda: play(betting(), Check("alice"), Check("bob"))[0],
            Draw("alice", [], ["Kd"]),
            "too-many-from-stash",
            "0 discarded",
        ),
        (
            lambda: play(betting(), Check("alice"), Check("bob"))[0],
            Draw("alice", ["7c"]),
            "not-in-hand",
            "7c not in your hand",
        ),
        (lambda: play(betting(), Bet("alice"), Fold("bob"))[0], Check("alice"), "hand-over", ""),
    ],
)
def test_illegal_actions_are_refused_with_the_rule(setup, action, code, says):
    state = setup()
    error = refused(state, action)
    assert isinstance(error, ValueError)
    assert error.code == code and says in str(error)


def test_a_raise_beyond_the_pot_is_refused():
    state = play(two_players(alice=5, bob=2), Choose("alice", ["Ah"]), Choose("bob", ["7c"]))[0]
    error = refused(play(state, Bet("alice"))[0], Raise("bob"))
    assert error.code == "short-pot" and "may not bet more than they have" in error.reason


def test_no_bet_or_raise_when_nobody_can_answer():
    state = play(two_players(alice=5, bob=2), Choose("alice", ["Ah"]), Choose("bob", ["7c"]))[0]
    state = play(state, Check("alice"), Bet("bob"))[0]  # bob's last army
    assert refused(state, Raise("alice")).code == "no-one-to-answer"
    assert allowed(state, "alice") == ("call", "fold")


def test_the_deal_and_the_draw_cannot_take_more_cards_than_the_deck_holds():
    """A choice is refused as soon as the deck could no longer fill every hand (decision 3):
    alice choosing 1 card leaves 4 to deal her, and bob's two stash cards leave 3 more."""
    stashes = [ALICE_STASH, ["7c", "2s"]]
    state = two_players(deck=("3c", "3d", "3h", "3s", "4c"))
    error = refused(state, Choose("alice", ["Ah"]))
    assert error.code == "deck-short"
    assert "the deck holds 5 cards but with this choice the deal needs at least 7" in error.reason
    state = apply(state, Choose("alice", ["Ah", "Kd", "Qs"]))[0]  # 2 + 3 = 5: fits
    assert refused(state, Choose("bob", ["7c"])).code == "deck-short"  # 2 + 4 = 6 > 5
    state = apply(state, Choose("bob", stashes[1]))[0]
    assert state.phase == "bet1" and state.deck == ()
    state = two_players(deck=("3c", "3d", "3h", "3s", "4c", "4d"))
    state = play(state, Choose("alice", ["Ah", "Kd"]), Choose("bob", stashes[1]))[0]
    state = play(state, Check("alice"), Check("bob"))[0]
    assert refused(state, Draw("alice", ["Ah"])).code == "deck-short"
    assert apply(state, Draw("alice", ["Ah"], ["Qs"]))[0].phase == "draw"


def _keeping(alice_choice: list[str], keep_stash: bool = True) -> HandState:
    """Two players, both chose and checked: the draw phase, alice to draw. Alice's stash is
    ALICE_STASH, bob's 7c 2s; ``keep_stash`` is the start_hand switch of decision 6."""
    stashes = [ALICE_STASH, ["7c", "2s"]]
    entrants = [Entrant("alice", stashes[0], 5), Entrant("bob", stashes[1], 5)]
    state = start_hand(entrants, stacked("", *stashes), keep_stash=keep_stash)[0]
    state = play(state, Choose("alice", alice_choice), Choose("bob", ["7c"]))[0]
    return play(state, Check("alice"), Check("bob"))[0]


def test_the_draw_must_keep_a_stash_card_in_the_hand():
    """Rule text "Playing Poker": a player 'must use at least one of these cards [their stash]
    in their hand'. With ``keep_stash`` alice, who chose Ah and Kd, may discard one of them,
    not both, unless a stash card (Qs) comes back in the draw; the stash cards in her hand are
    tracked through the draw (decision 6)."""
    state = _keeping(["Ah", "Kd"])
    dealt = state.seats[0].hand[2:]
    assert state.seats[0].stash_cards == ("Ah", "Kd")
    error = refused(state, Draw("alice", ["Ah", "Kd"]))
    assert error.code == "keep-stash-card"
    assert "keep one of Ah, Kd, or take a replacement from the stash" in error.reason
    error = refused(state, Draw("alice", ["Ah", "Kd", *dealt]))
    assert error.code == "keep-stash-card"
    after = apply(state, Draw("alice", ["Ah"]))[0]
    assert after.seats[0].stash_cards == ("Kd",) and after.seats[0].hand[0] == "Kd"
    after = apply(state, Draw("alice", ["Ah", "Kd"], ["Qs"]))[0]
    assert after.seats[0].stash_cards == ("Qs",)
    assert after.seats[0].hand[: len(dealt) + 1] == (*dealt, "Qs")


def test_without_keep_stash_the_draw_may_replace_every_chosen_card():
    """Decision 6 as it was (Risk games of rule revision 1, and the default of start_hand):
    alice's one chosen stash card may be discarded and replaced from the deck."""
    state = _keeping(["Ah"], keep_stash=False)
    after = apply(state, Draw("alice", ["Ah"]))[0]
    assert "Ah" not in after.seats[0].hand and after.seats[0].stash_cards == ()
    assert refused(_keeping(["Ah"]), Draw("alice", ["Ah"])).code == "keep-stash-card"


def test_a_refused_action_leaves_the_state_as_it_was():
    state = betting()
    before = state
    refused(state, Check("bob"))
    assert state == before and state.seats[1].pot == 4


def test_unknown_actions_are_refused():
    assert refused(betting(), "bet").code == "unknown-action"


@pytest.mark.parametrize(
    ("entrants", "deck", "field"),
    [
        ([Entrant("alice", ["Ah"], 3)], (), "players"),
        ([Entrant(f"p{i}", [DECK[i]], 3) for i in range(7)], (), "players"),
        ([Entrant("alice", ["Ah"], 3), Entrant("alice", ["Kh"], 3)], (), "players"),
        ([Entrant("alice", ["Ah"], 0), Entrant("bob", ["Kh"], 3)], (), "pot[alice]"),
        ([Entrant("alice", [], 3), Entrant("bob", ["Kh"], 3)], (), "stash[alice]"),
        ([Entrant("alice", ["Zz"], 3), Entrant("bob", ["Kh"], 3)], (), "stash[alice]"),
        ([Entrant("alice", ["Ah"], 3), Entrant("bob", ["Kh"], 3)], ("Ah", "2c"), "deck"),
        ([Entrant("alice", ["Ah"], 3), Entrant("bob", ["Ah"], 3)], ("2c",), "deck"),
        ([Entrant("alice", ["Ah"], 3), Entrant("bob", ["Kh"], 3)], ("2c", "2c"), "deck"),
        ([Entrant("alice", ["Ah"], 3), Entrant("bob", ["Kh"], 3)], DECK[:7], "deck"),
    ],
)
def test_a_hand_that_cannot_start_is_refused(entrants, deck, field):
    with pytest.raises(PokerInputError) as caught:
        start_hand(entrants, deck)
    assert caught.value.field == field


# --- hidden information ----------------------------------------------------------------------


def test_a_player_sees_their_own_cards_and_only_counts_of_the_others():
    state = betting()
    alice, bob = state.seats[0], state.seats[1]
    seen = view_for(state, "bob")
    assert seen["players"][1]["hand"] == list(bob.hand)
    assert "hand" not in seen["players"][0] and "stash" not in seen["players"][0]
    assert seen["players"][0]["hand_size"] == 5 and seen["players"][0]["stash_size"] == 5
    assert seen["deck_size"] == len(state.deck) and "deck" not in seen
    text = json.dumps(seen)
    assert not any(card in text for card in (*alice.hand, *alice.stash, *state.deck))
    spectator = json.dumps(view_for(state, None))
    assert not any(card in spectator for card in (*alice.hand, *bob.hand, *state.deck))


def test_events_strip_the_cards_dealt_to_others():
    state = two_players()
    state, events = play(state, Choose("alice", ["Ah"]), Choose("bob", ["7c"]))
    mine, theirs = events_for(events, "alice"), events_for(events, "bob")
    dealt_to_alice = next(e for e in mine if e["type"] == "dealt" and e["player"] == "alice")
    assert dealt_to_alice["cards"] == list(state.seats[0].hand[1:])
    assert not any(card in json.dumps(theirs) for card in state.seats[0].hand)
    assert [e["count"] for e in theirs if e["type"] == "dealt"] == [4, 4]


# --- a property over random play -------------------------------------------------------------


def random_action(state: HandState, rng: RandomDice, junk: bool):
    """A random action of a player who may act (sometimes anything at all, to test refusals)."""
    if junk:
        player = state.seats[rng.roll(len(state.seats)) - 1].player
        kind = [Bet, Check, Call, Raise, Fold, Show, Muck][rng.roll(7) - 1]
        return kind(player)
    players = to_act(state)
    player = players[rng.roll(len(players)) - 1] if len(players) > 1 else players[0]
    seat = state.seats[state.seat_of(player)]
    kinds = allowed(state, player)
    kind = kinds[rng.roll(len(kinds)) - 1] if len(kinds) > 1 else kinds[0]
    if kind == "choose":
        count = rng.roll(min(5, len(seat.stash)) + 1) - 1 or 1
        return Choose(player, seat.stash[:count])
    if kind == "draw":
        discard = tuple(card for card in seat.hand if rng.roll(3) == 1)
        from_stash = seat.stash[: rng.roll(len(discard) + 1) - 1] if discard else ()
        return Draw(player, discard, from_stash)
    return {"bet": Bet, "check": Check, "call": Call, "raise": Raise, "fold": Fold,
            "show": Show, "muck": Muck}[kind](player)  # fmt: skip


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, 2**32),
    st.lists(st.tuples(st.integers(1, 7), st.integers(1, 6)), min_size=2, max_size=6),
    st.booleans(),
)
def test_random_play_conserves_armies_and_cards(seed, players, red):
    """Whatever legal (and illegal) actions come, no army and no card appears or vanishes."""
    rng = RandomDice(seed)
    pool = list(shuffled_deck(rng))
    entrants = []
    for number, (cards, pot) in enumerate(players):
        stash, pool = pool[:cards], pool[cards:]
        entrants.append(Entrant(f"p{number}", stash, pot))
    state, _ = start_hand(entrants, pool, red_queens_high=red)
    armies = total_armies(state)
    cards = sorted(DECK)
    for _ in range(1000):
        if state.phase == "done":
            break
        junk = rng.roll(5) == 1
        action = random_action(state, rng, junk=junk)
        try:
            state, _ = apply(state, action)
        except IllegalAction as error:
            # What ``allowed`` offers is refused only when the deck is short for those cards:
            # then take the most from the stash (the deck always covers it) or stand pat.
            assert junk or error.code == "deck-short", error
            if isinstance(action, Choose):
                stash = state.seats[state.seat_of(action.player)].stash
                state, _ = apply(state, Choose(action.player, stash[:5]))
            elif isinstance(action, Draw):
                state, _ = apply(state, Draw(action.player))
        assert total_armies(state) == armies
        assert all(seat.pot >= 0 and len(seat.hand) <= 5 for seat in state.seats)
        held = [c for s in state.seats for c in (*s.hand, *s.stash, *s.discards)]
        assert sorted((*held, *state.deck)) == cards
    assert state.phase == "done"
    result = state.result
    assert sum(result.pots_after().values()) == armies
    assert sum(result.amounts_won().values()) == sum(seat.staked for seat in state.seats)
    assert set(result.winners) <= {seat.player for seat in state.seats if seat.status == "in"}
