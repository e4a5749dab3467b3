"""Rule-book scenarios: "Set-Up", "Allied Armies Set-up" and "Player Set-up".

Each test quotes the sentence of the rule text (or design.md section 5) it checks. The set-up is
dealt from the game's seed (``new_game``); where a single die matters (the first player's roll)
the function is called with ``FixedDice`` so every roll is stated.
"""

from __future__ import annotations

from collections import Counter

import pytest

from combat.dice import FixedDice
from combat.poker.cards import DECK as POKER_DECK
from risk.rules import IllegalAction, apply, load_map, new_game, pending_decisions
from risk.rules.actions import Arrange
from risk.rules.board import coastal_stations
from risk.rules.setup import _first_player
from risk.rules.state import ALLIED, PLAYER, REINFORCE, WILD, GameState
from tests.risk.builders import act, make_state, of_type

SEED = "setup-scenario"


def _game(count: int = 2, seed: str = SEED) -> GameState:
    return new_game([f"p{k + 1}" for k in range(count)], seed=seed)


def _armies(state: GameState, seat_id: str) -> int:
    return sum(state.territories[t].armies for t in state.owned(seat_id))


def _as_is(state: GameState, seat_id: str) -> Arrange:
    """The player's arrangement left as dealt (3 on each), factory on the first territory."""
    owned = sorted(state.owned(seat_id))
    return Arrange(seat_id, tuple((t, 3) for t in owned), owned[0])


# --- "Set-Up": six piles --------------------------------------------------------------------------


@pytest.mark.parametrize("count", [2, 3, 4, 5, 6])
def test_six_piles_of_seven_one_per_player_rest_allied(count):
    """'Deal out the 42 Risk cards into six piles. Each player gets one pile, the rest go to
    "allied armies"' (design.md: 'dealt into six piles of 7')."""
    state = _game(count)
    assert [s.kind for s in state.seats] == [PLAYER] * count + [ALLIED] * (6 - count)
    assert [len(state.owned(s.id)) for s in state.seats] == [7] * 6
    assert sorted(state.territories) == sorted(load_map("classic").territories)


def test_all_colours_on_the_board_from_the_start():
    """'In other words, all colors of armies go onto the board from the start.'"""
    state = _game(3)
    assert len({s.colour for s in state.seats}) == 6
    assert {h.owner for h in state.territories.values()} == {s.id for s in state.seats}


# --- "Allied Armies Set-up" -----------------------------------------------------------------------


def test_allied_army_two_per_territory_plus_three_on_three():
    """'Place 2 allied armies on each Risk card territory plus 3 more on three random Territories
    ... Allies are now set up (with 23 armies each).'"""
    state = _game(2)
    for ally in state.seats[2:]:
        armies = sorted(state.territories[t].armies for t in state.owned(ally.id))
        assert armies == [2, 2, 2, 2, 5, 5, 5]
        assert _armies(state, ally.id) == 23


def test_allied_army_has_one_factory_on_its_own_territory():
    """'Each allied army gets one factory placed on a territory selected at random from the
    ally's cards.'"""
    state = _game(3)
    for ally in state.seats[3:]:
        factories = [t for t in state.owned(ally.id) if state.territories[t].factory]
        assert len(factories) == 1


def test_allied_ship_with_one_die_of_armies_off_its_own_coast():
    """'Each allied army gets one ship placed next to the shore of a randomly selected territory
    with one die roll worth of armies on board.'"""
    state = _game(2)
    for ally in state.seats[2:]:
        ships = state.ships_of(ally.id)
        assert len(ships) == 1
        assert 1 <= ships[0].armies <= 6
        assert ships[0].station in coastal_stations(state, state.owned(ally.id))


@pytest.mark.parametrize(
    ("count", "suits_each"),
    [(2, [["c"], ["d"], ["h"], ["s"]]), (4, [["c", "h"], ["d", "s"]]), (5, [["c", "d", "h", "s"]])],
)
def test_poker_suits_dealt_round_robin_over_allied_armies(count, suits_each):
    """'Each allied army is assigned one or more poker card suits' (design.md: 'Poker suits are
    dealt round-robin over the allied armies')."""
    state = _game(count)
    assert [s.suits for s in state.seats if s.kind == ALLIED] == suits_each
    assert all(s.suits == [] for s in state.seats if s.kind == PLAYER)


def test_six_players_leave_no_allied_army_and_no_suits():
    """'Each player gets one pile, the rest go to "allied armies"': six players take all six."""
    state = _game(6)
    assert all(s.kind == PLAYER and s.suits == [] for s in state.seats)


# --- "Player Set-up" -----------------------------------------------------------------------------


def test_player_gets_three_armies_per_territory_21_in_all():
    """'Place three armies on each Risk card territory. Each player now has 21 armies.'"""
    state = _game(3)
    for seat in state.seats[:3]:
        assert [state.territories[t].armies for t in state.owned(seat.id)] == [3] * 7
        assert _armies(state, seat.id) == 21
        assert seat.set_up is False


def test_player_ship_with_one_die_of_armies():
    """'Each player gets one ship with one die roll worth of armies on board, to be placed by the
    shoreline of one of the player's coastal territories.'"""
    state = _game(4)
    for seat in state.seats[:4]:
        (ship,) = state.ships_of(seat.id)
        assert 1 <= ship.armies <= 6
        assert ship.station in coastal_stations(state, state.owned(seat.id))


def test_player_dealt_two_risk_cards_and_one_poker_card():
    """'Each player gets 2 Risk cards and one poker card to start.'"""
    state = _game(4)
    for seat in state.seats:
        expected = (2, 1) if seat.kind == PLAYER else (0, 0)
        assert (len(seat.risk_cards), len(seat.poker_cards)) == expected


@pytest.mark.parametrize("count", [2, 6])
def test_all_44_risk_cards_and_52_poker_cards_accounted_for(count):
    """'Shuffle the Risk cards and poker cards' (design.md: 'The Risk deck is then the 42 cards
    + 2 wild cards. Poker deck: 52 cards.')."""
    state = _game(count)
    risk = state.risk_deck.draw + state.risk_deck.discard
    poker = state.poker_deck.draw + state.poker_deck.discard
    for seat in state.seats:
        risk += seat.risk_cards
        poker += seat.poker_cards
    expected = Counter([*sorted(load_map("classic").territories), WILD, WILD])
    assert Counter(risk) == expected and len(risk) == 44
    assert sorted(poker) == sorted(POKER_DECK) and len(poker) == 52
    assert len(state.risk_deck.draw) == 44 - 2 * count
    assert len(state.poker_deck.draw) == 52 - count


def test_same_seed_same_set_up():
    """design.md section 2: 'Roll n of a game = derived from HMAC-SHA256(server_seed, ...)': the
    whole set-up replays from the seed."""
    assert _game(3, "x") == _game(3, "x")
    assert _game(3, "x") != _game(3, "y")


# --- the first player ----------------------------------------------------------------------------


def test_first_player_by_die_roll_highest_wins():
    """'Decide who plays first by die roll.'"""
    dice = FixedDice([2, 6, 4])
    assert _first_player(["alice", "bob", "carol"], dice) == "bob"
    assert dice.remaining == 0


def test_first_player_tie_for_highest_rolls_again():
    """'Decide who plays first by die roll': a tie for the highest rolls again, among the tied
    only (bob and carol tie on 6; alice, with 4, is out; carol wins the re-roll 5 to 2)."""
    dice = FixedDice([4, 6, 6, 2, 5])
    assert _first_player(["alice", "bob", "carol"], dice) == "carol"
    assert dice.remaining == 0


def test_first_player_second_tie_rolls_yet_again():
    """'Decide who plays first by die roll': ties are re-rolled until one is highest."""
    dice = FixedDice([3, 3, 4, 4, 1, 6])
    assert _first_player(["alice", "bob"], dice) == "bob"
    assert dice.remaining == 0


def test_first_player_need_not_be_the_first_seat():
    """'Decide who plays first by die roll': the roll, not the seat order, picks who starts
    (with seed "seed-7" the die picks p2, the second seat, and the game opens with p2's turn)."""
    state = _game(3, "seed-7")
    assert state.first_seat == "p2"
    for seat_id in ("p1", "p2", "p3"):
        state, _ = act(state, _as_is(state, seat_id))
    assert state.turn is not None and state.turn.seat == "p2"


# --- bad player lists ----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [["solo"], [f"p{k}" for k in range(7)], []])
def test_two_to_six_players(players):
    """design.md: '2-6 players.'"""
    with pytest.raises(IllegalAction) as error:
        new_game(players, seed=SEED)
    assert error.value.code == "player-count"


@pytest.mark.parametrize("players", [["alice", "alice"], ["alice", ""], ["ally-1", "bob"]])
def test_bad_player_names_refused(players):
    """Player names must differ and may not pass for an allied army ('ally-...')."""
    with pytest.raises(IllegalAction) as error:
        new_game(players, seed=SEED)
    assert error.value.code == "player-name"


# --- Arrange: the free rearrangement, factory and ship -------------------------------------------


def test_rearrangement_moves_armies_freely_keeping_21():
    """'Once all are placed, they may be reärranged freely.' 15 on one territory, 1 on each of
    the six others, the factory on another one and the ship off a coast of the player."""
    state = _game(2)
    owned = sorted(state.owned("p1"))
    stations = coastal_stations(state, owned)
    arrangement = ((owned[0], 15), *tuple((t, 1) for t in owned[1:]))
    state, events = act(state, Arrange("p1", arrangement, owned[1], stations[-1]))
    assert [state.territories[t].armies for t in owned] == [15, 1, 1, 1, 1, 1, 1]
    assert [t for t in owned if state.territories[t].factory] == [owned[1]]
    assert state.ships_of("p1")[0].station == stations[-1]
    assert of_type(events, "arranged") == [
        {"type": "arranged", "seat": "p1", "factory": owned[1], "ship_station": stations[-1]}
    ]
    assert state.seat("p1").set_up is True
    assert state.turn is None  # p2 has not arranged yet


def test_rearrangement_must_keep_the_sum_of_21():
    """'Each player now has 21 armies. Once all are placed, they may be reärranged freely': no
    more and no fewer than 21."""
    state = _game(2)
    owned = sorted(state.owned("p1"))
    for extra in (1, -1):
        arrangement = ((owned[0], 3 + extra), *tuple((t, 3) for t in owned[1:]))
        with pytest.raises(IllegalAction) as error:
            apply(state, Arrange("p1", arrangement, owned[0]), FixedDice([]))
        assert error.value.code == "arrangement"


def test_rearrangement_keeps_an_army_on_every_territory():
    """'Place three armies on each Risk card territory ... they may be reärranged freely': a
    territory stays held, so at least 1 army stays on it."""
    state = _game(2)
    owned = sorted(state.owned("p1"))
    arrangement = ((owned[0], 6), (owned[1], 0), *tuple((t, 3) for t in owned[2:]))
    with pytest.raises(IllegalAction) as error:
        apply(state, Arrange("p1", arrangement, owned[0]), FixedDice([]))
    assert error.value.code == "arrangement"


def test_rearrangement_only_on_own_territories():
    """'Place three armies on each Risk card territory': the rearrangement lists the player's own
    seven territories, not another's."""
    state = _game(2)
    owned = sorted(state.owned("p1"))
    foreign = sorted(state.owned("p2"))[0]
    arrangement = ((foreign, 3), *tuple((t, 3) for t in owned[1:]))
    with pytest.raises(IllegalAction) as error:
        apply(state, Arrange("p1", arrangement, owned[1]), FixedDice([]))
    assert error.value.code == "arrangement"


def test_factory_on_an_own_territory():
    """'Each player gets one factory to place on any of their territories.'"""
    state = _game(2)
    owned = sorted(state.owned("p1"))
    foreign = sorted(state.owned("p2"))[0]
    with pytest.raises(IllegalAction) as error:
        apply(state, Arrange("p1", tuple((t, 3) for t in owned), foreign), FixedDice([]))
    assert error.value.code == "factory"


def test_ship_station_off_an_own_coast():
    """'... to be placed by the shoreline of one of the player's coastal territories.'"""
    state = _game(2)
    owned = sorted(state.owned("p1"))
    foreign = coastal_stations(state, state.owned("p2"))
    mine = set(coastal_stations(state, owned))
    station = next(s for s in foreign if s not in mine)
    action = Arrange("p1", tuple((t, 3) for t in owned), owned[0], station)
    with pytest.raises(IllegalAction) as error:
        apply(state, action, FixedDice([]))
    assert error.value.code == "ship_station"


def test_no_ship_station_without_a_ship():
    """'... by the shoreline of one of the player's coastal territories': a player without a coast
    has no ship to station (here: Afghanistan and Irkutsk, both inland)."""
    state = make_state(
        players=("alice", "bob"),
        territories={"Afghanistan": ("alice", 10), "Irkutsk": ("alice", 11)},
        turn=None,
    )
    for seat in state.seats:
        seat.set_up = False  # both still to arrange: the game does not start yet
    arrangement = (("Afghanistan", 1), ("Irkutsk", 20))
    with pytest.raises(IllegalAction) as error:
        apply(state, Arrange("alice", arrangement, "Irkutsk", "Pacific:China"), FixedDice([]))
    assert error.value.code == "ship_station"
    state, _ = act(state, Arrange("alice", arrangement, "Irkutsk"))
    assert (state.territories["Afghanistan"].armies, state.territories["Irkutsk"].armies) == (1, 20)
    assert state.territories["Irkutsk"].factory


def test_arranging_twice_is_refused():
    """'Once all are placed, they may be reärranged freely': once, at the set-up."""
    state = _game(2)
    state, _ = act(state, _as_is(state, "p1"))
    with pytest.raises(IllegalAction) as error:
        apply(state, _as_is(state, "p1"), FixedDice([]))
    assert error.value.code == "not-your-turn"


def test_allied_armies_do_not_arrange():
    """'Allies are now set up': only players are waited for at the set-up."""
    state = _game(3)
    assert [(d.player, d.kind) for d in pending_decisions(state)] == [
        ("p1", "arrange"),
        ("p2", "arrange"),
        ("p3", "arrange"),
    ]


def test_game_starts_when_the_last_player_has_arranged():
    """'The game is ready to begin.' Once every player has arranged, the first player's turn
    starts in its reinforcement phase ('At the start of every turn, including the first')."""
    state = _game(3)
    first = state.first_seat
    for seat_id in ("p1", "p2"):
        state, events = act(state, _as_is(state, seat_id))
        assert state.turn is None and of_type(events, "turn_started") == []
    state, events = act(state, _as_is(state, "p3"))
    assert state.turn is not None
    assert (state.turn.seat, state.turn.phase, state.round) == (first, REINFORCE, 1)
    (started,) = of_type(events, "turn_started")
    assert started["seat"] == first
    # The first player's factory territory got its 2 armies at once (3 dealt + 2).
    factory = sorted(state.owned(first))[0]
    assert state.territories[factory].armies == 5
    assert started["factory_armies"] == 2
