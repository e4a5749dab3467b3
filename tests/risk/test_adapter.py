"""risk.adapter: a state saved to rows loads back identical, and ``save`` writes only what changed.

The hand-built state has a bit of everything the rows must carry: an allied seat, captured armies
on land and at sea, factories, ships mid-cruise, both wild cards in hands, both piles of both
decks, a flanking battle and a poker contest. The random game drives the real engine and checks
the rows after every tenth action. The ``services`` copies run the same bodies on PostgreSQL.
"""

from __future__ import annotations

import copy
import hashlib
import random
from dataclasses import fields

import pytest
from django.db import connection

from combat.poker.cards import DECK as POKER_DECK
from risk.adapter import (
    BOARD_COLUMNS,
    HOLDING_COLUMNS,
    ROW_SECTIONS,
    SEAT_COLUMNS,
    SEAT_HANDS,
    SHIP_COLUMNS,
    BoardMismatch,
    load,
    save,
    save_new,
)
from risk.models import Board, Factory, Player, PokerCard, RiskCard, Ship, TerritoryState
from risk.rules.board_map import load_map
from risk.rules.state import (
    ALLIED,
    CAMPAIGN,
    FLANKING,
    LAND,
    PLAYER,
    WILD,
    Battle,
    Contest,
    Deck,
    Flank,
    GameState,
    Holding,
    Options,
    Seat,
    Turn,
    clone,
)
from risk.rules.state import Ship as ShipState

pytestmark = pytest.mark.django_db

ALICE, BOB, ALLY = "alice", "bob", "ally-1"
#: Queries of one ``load``: players, territories, factories, ships, Risk cards, poker cards.
LOAD_QUERIES = 6


def hand_built_state() -> GameState:
    """Three seats (one allied) in the middle of alice's flanking attack on bob's Venezuela."""
    territories = sorted(load_map().territories)
    owners = (ALICE, BOB, ALLY)
    holdings = {
        name: Holding(owner=owners[index % 3], armies=1 + index % 5)
        for index, name in enumerate(territories)
    }
    holdings["Venezuela"] = Holding(owner=BOB, armies=2, captured={ALICE: 1})
    holdings["Egypt"] = Holding(owner=ALLY, armies=4, factory=True, captured={BOB: 2, ALICE: 1})
    holdings["Peru"].factory = True
    holdings["Ukraine"].factory = True
    risk_draw = [t for t in territories if t not in ("Alaska", "Brazil", "Peru", "Egypt", "Congo")]
    random.Random(3).shuffle(risk_draw)
    poker_draw = [c for c in POKER_DECK if c not in ("Qh", "As", "2c", "Td", "Th", "3s")]
    random.Random(4).shuffle(poker_draw)
    return GameState(
        seed="hand-built-seed",
        options=Options(),
        seats=[
            Seat(
                ALICE,
                PLAYER,
                ALICE,
                "red",
                risk_cards=[WILD, "Alaska", "Brazil"],
                poker_cards=["Qh", "As"],
                pot=7,
            ),
            Seat(BOB, PLAYER, BOB, "blue", risk_cards=["Peru", WILD], poker_cards=["2c"]),
            Seat(
                ALLY, ALLIED, None, "green", suits=["c", "h"], poker_cards=["Td", "Th"], set_up=True
            ),
        ],
        territories=holdings,
        ships={
            "S1": ShipState(
                "S1",
                ALICE,
                "Pacific:Alaska",
                3,
                captured={BOB: 2},
                cruises=1,
                moves=4,
                cruising=True,
                ports=["Alaska", "Alberta"],
            ),
            "S2": ShipState("S2", BOB, "Atlantic:Brazil", 1, out_of_action=True),
            "S3": ShipState("S3", ALLY, "Indian:Madagascar", 5, cruises=2),
        },
        risk_deck=Deck(draw=risk_draw, discard=["Egypt", "Congo"]),
        poker_deck=Deck(draw=poker_draw, discard=["3s"]),
        turn=Turn(
            ALICE,
            ALICE,
            phase=CAMPAIGN,
            ships_to_place=[3],
            attacked=[BOB],
            locked=["Peru"],
            took_territory=True,
        ),
        first_seat=BOB,
        round=2,
        turn_number=5,
        actions=17,
        next_ship=4,
        battle=Battle(
            kind=LAND,
            mode=FLANKING,
            attacker=ALICE,
            defender=BOB,
            target="Venezuela",
            flanks=[
                Flank("Central America", ship=False, commitment=4, standing=3, captured=1),
                Flank("S1", ship=True, commitment=2, standing=2),
            ],
            rolls=2,
            last_dice=3,
            mobilization={"cut": "Peru", "dice": [4]},
        ),
        contest=Contest(declarer=BOB, ally=ALLY, answers={ALICE: False}),
        created={"setup": 100, "reinforcements": 9},
        lost={"battle": 4},
    )


def card_rows(model, board: Board) -> dict[int, tuple]:
    rows = model.objects.filter(board=board)
    return {
        pk: tuple(rest)
        for pk, *rest in rows.values_list("pk", "card", "location", "holder", "position")
    }


# --- the mapping covers the state --------------------------------------------------------------


def test_the_adapter_maps_every_field_of_the_state():
    """A field the engine adds to the state must get a column here, not vanish on a save."""
    assert {f.name for f in fields(GameState)} == set(BOARD_COLUMNS) | set(ROW_SECTIONS)
    assert {f.name for f in fields(Seat)} == set(SEAT_COLUMNS) | set(SEAT_HANDS)
    assert {f.name for f in fields(Holding)} == {"owner", "factory", *HOLDING_COLUMNS}
    assert {f.name for f in fields(ShipState)} == {"id", "owner", "station", *SHIP_COLUMNS}


# --- round trip --------------------------------------------------------------------------------


def check_hand_built_round_trip(django_assert_num_queries) -> None:
    state = hand_built_state()
    untouched = clone(state)
    board = save_new(state)
    assert state == untouched  # saving does not change the state
    fresh = Board.objects.get(pk=board.pk)
    with django_assert_num_queries(LOAD_QUERIES):
        loaded = load(fresh)
    assert loaded == state
    assert [seat.id for seat in loaded.seats] == [ALICE, BOB, ALLY]
    assert loaded.seats[0].risk_cards == [WILD, "Alaska", "Brazil"]
    assert loaded.risk_deck.draw == state.risk_deck.draw
    assert loaded.contest is not None and loaded.contest.hand is None
    assert len(loaded.battle.flanks) == 2
    assert Player.objects.filter(board=board).count() == 3
    assert TerritoryState.objects.filter(board=board).count() == 42
    assert sorted(
        Factory.objects.filter(board=board).values_list("territory__name", flat=True)
    ) == ["Egypt", "Peru", "Ukraine"]
    assert RiskCard.objects.filter(board=board).count() == 44
    assert sorted(
        RiskCard.objects.filter(board=board, card=WILD).values_list("copy", flat=True)
    ) == [0, 1]
    assert PokerCard.objects.filter(board=board).count() == 52
    assert board.seed_commitment == hashlib.sha256(b"hand-built-seed").hexdigest()


def check_save_writes_only_what_changed(django_assert_max_num_queries) -> None:
    before = hand_built_state()
    board = save_new(before)
    after = clone(before)
    after.territories["Venezuela"].armies = 1
    after.territories["Brazil"].armies += 2
    del after.ships["S2"]
    after.ships["S4"] = ShipState("S4", BOB, "Atlantic:Iceland", 2)
    after.next_ship = 5
    drawn = after.risk_deck.draw.pop(0)
    after.seat(BOB).risk_cards.append(drawn)
    cards_before = card_rows(RiskCard, board)
    territories_before = dict(
        TerritoryState.objects.filter(board=board).values_list("territory__name", "armies")
    )

    with django_assert_max_num_queries(12):
        written = save(board, before, after)

    # Two territories, the sunk ship, the new ship, the drawn card and the Board (next_ship).
    assert written == 6
    territories_after = dict(
        TerritoryState.objects.filter(board=board).values_list("territory__name", "armies")
    )
    assert {n: a for n, a in territories_after.items() if territories_before[n] != a} == {
        "Venezuela": 1,
        "Brazil": territories_before["Brazil"] + 2,
    }
    assert sorted(Ship.objects.filter(board=board).values_list("ship_id", flat=True)) == [
        "S1",
        "S3",
        "S4",
    ]
    cards_after = card_rows(RiskCard, board)
    moved = {pk: row for pk, row in cards_after.items() if cards_before[pk] != row}
    bob = Player.objects.get(board=board, seat_id=BOB)
    assert list(moved.values()) == [(drawn, "hand", bob.pk, 2)]
    assert card_rows(RiskCard, board).keys() == cards_before.keys()
    assert Board.objects.get(pk=board.pk).next_ship == 5
    with django_assert_max_num_queries(LOAD_QUERIES):
        assert load(board) == after


def test_round_trip_of_a_hand_built_state(django_assert_num_queries):
    check_hand_built_round_trip(django_assert_num_queries)


def test_save_writes_only_the_changed_rows(django_assert_max_num_queries):
    check_save_writes_only_what_changed(django_assert_max_num_queries)


@pytest.mark.services
def test_round_trip_on_postgresql(django_assert_num_queries, django_assert_max_num_queries):
    assert connection.vendor == "postgresql"
    check_hand_built_round_trip(django_assert_num_queries)
    check_save_writes_only_what_changed(django_assert_max_num_queries)


def test_an_unchanged_state_writes_nothing(django_assert_num_queries):
    state = hand_built_state()
    board = save_new(state)
    with django_assert_num_queries(0):
        assert save(board, state, clone(state)) == 0


def test_a_wild_card_played_moves_one_row_and_keeps_the_other():
    before = hand_built_state()
    board = save_new(before)
    after = clone(before)
    after.seat(BOB).risk_cards.remove(WILD)
    after.risk_deck.discard.append(WILD)
    wilds_before = dict(
        RiskCard.objects.filter(board=board, card=WILD).values_list("copy", "location")
    )

    assert save(board, before, after) == 1
    wilds_after = dict(
        RiskCard.objects.filter(board=board, card=WILD).values_list("copy", "location")
    )
    assert sorted(wilds_after.values()) == ["discard", "hand"]
    assert sum(wilds_before[c] != wilds_after[c] for c in (0, 1)) == 1
    assert load(board) == after


def test_a_reshuffle_and_a_ship_taken_over_round_trip():
    before = hand_built_state()
    board = save_new(before)
    after = clone(before)
    after.risk_deck.draw = list(reversed(after.risk_deck.discard)) + after.risk_deck.draw
    after.risk_deck.discard = []
    after.poker_deck.draw.reverse()
    ship = after.ships["S3"]
    ship.owner, ship.station, ship.captured = ALICE, "Arctic:Alaska", {ALLY: 5}
    after.seat(ALLY).alive = False
    after.territories["Egypt"].factory = False
    after.territories["Congo"].factory = True
    after.battle = None
    after.contest.stage = "answer"

    written = save(board, before, after)

    # 2 Risk cards onto the draw pile (the rest keep their bottom-counted positions), the 46
    # poker cards of the reversed draw pile (their positions all change), the ship, the ally,
    # the razed and the built factory, and the Board.
    assert written == 2 + 46 + 1 + 1 + 2 + 1
    assert load(board) == after


def test_save_refuses_a_before_that_is_not_stored():
    state = hand_built_state()
    board = save_new(state)
    before = clone(state)
    before.ships["S9"] = ShipState("S9", ALICE, "Pacific:Alaska", 1)
    after = copy.deepcopy(before)
    after.ships["S9"].armies = 2
    with pytest.raises(BoardMismatch, match="S9"):
        save(board, before, after)


def test_a_game_on_a_map_that_is_not_loaded_is_refused():
    state = hand_built_state()
    state.options = Options(map="atlantis")
    with pytest.raises(BoardMismatch, match=r"manage\.py load_map atlantis"):
        save_new(state)
    assert Board.objects.count() == 0


# --- a real game -------------------------------------------------------------------------------


def play_random_game(django_assert_max_num_queries) -> None:
    from risk.rules import apply, game_dice, new_game, pending_decisions, sample_action

    rng = random.Random(7)
    state = new_game(["alice", "bob", "charlie", "dave"], seed="round-trip-7")
    board = save_new(state)
    assert load(board) == state
    applied = 0
    for step in range(1, 151):
        decisions = pending_decisions(state)
        if not decisions:
            break
        action = sample_action(state, decisions[0].player, rng)
        after, _events = apply(state, action, game_dice(state))
        with django_assert_max_num_queries(25):
            save(board, state, after)
        state, applied = after, step
        if step % 10 == 0:
            with django_assert_max_num_queries(LOAD_QUERIES):
                assert load(board) == state
    assert applied == 150
    assert state.actions == 150
    assert load(Board.objects.get(pk=board.pk)) == state


def test_random_game_round_trip(django_assert_max_num_queries):
    play_random_game(django_assert_max_num_queries)


@pytest.mark.services
def test_random_game_round_trip_on_postgresql(django_assert_max_num_queries):
    assert connection.vendor == "postgresql"
    play_random_game(django_assert_max_num_queries)
