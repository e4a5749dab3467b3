"""``risk.rules.invariants.violations``: each check finds its broken state, and names the culprit.

Every test starts from a sound game in progress (alice holds Alaska with 5 armies and Japan with
3, bob the other 40 territories with 1 army each: 48 armies, all set up) and breaks one thing;
the expected sentences are written out in full.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from combat.poker.draw import HandState
from combat.poker.draw import Seat as PokerSeat
from risk.rules import invariants, load_map
from risk.rules.invariants import violations
from risk.rules.state import (
    LAND,
    NORMAL,
    PLAYER,
    ROLLING,
    ROUND_LIMIT,
    WON,
    Battle,
    Contest,
    Flank,
    GameState,
    Options,
    Seat,
    Ship,
)
from tests.risk.builders import make_state

ALICE = {"Alaska": ("alice", 5), "Japan": ("alice", 3)}


def sound(**kwargs) -> GameState:
    kwargs.setdefault("territories", ALICE)
    return make_state(**kwargs)


def over(state: GameState, winner: str | None, ranking: list[str]) -> GameState:
    state.over, state.turn, state.winner, state.ranking = True, None, winner, ranking
    return state


def test_a_sound_game_in_progress_breaks_nothing() -> None:
    assert violations(sound()) == []


# --- the board ----------------------------------------------------------------------------------


def test_a_territory_missing_from_the_board() -> None:
    state = sound()
    del state.territories["Peru"]
    state.created["setup"] -= 1
    assert violations(state) == ["territories missing from the board: Peru"]


def test_a_territory_owned_by_nobody_seated() -> None:
    state = sound()
    state.territories["Peru"].owner = "zed"
    assert violations(state) == ["territory Peru is owned by 'zed', who has no seat"]


def test_an_owned_territory_without_an_army() -> None:
    state = sound()
    state.territories["Peru"].armies = 0
    state.created["setup"] -= 1
    assert violations(state) == ["territory Peru of bob has 0 armies (at least 1)"]


def _battle(stage: str, standing: int) -> Battle:
    flank = Flank(source="Alaska", ship=False, commitment=3, standing=standing)
    return Battle(LAND, NORMAL, "alice", "bob", "Kamchatka", [flank], stage=stage)


def test_the_territory_just_conquered_may_stand_empty_while_its_battle_is_won() -> None:
    state = sound()
    state.territories["Kamchatka"].armies = 0  # its army lost: 1 lost, 0 left
    state.lost["battle"] = 1
    state.territories["Alaska"].armies = 2  # 3 of alice's 5 fight in the battle
    state.battle = _battle(WON, 3)
    assert violations(state) == []
    state.battle.stage = ROLLING  # before the defender is beaten, an empty territory is wrong
    assert violations(state) == ["territory Kamchatka of bob has 0 armies (at least 1)"]


# --- the army ledger ----------------------------------------------------------------------------


def test_armies_from_nowhere_break_the_ledger() -> None:
    state = sound()
    state.territories["Alaska"].armies += 2
    assert violations(state) == [
        "army ledger: 48 created - 0 lost = 48, but 50 on the board (-2 unaccounted for)"
    ]


def test_armies_fighting_in_a_battle_count_until_it_is_over() -> None:
    state = sound()
    state.territories["Alaska"].armies = 2
    state.battle = _battle(ROLLING, 3)
    assert violations(state) == []
    state.battle = None  # the battle dropped with its block still standing: 3 armies vanish
    assert violations(state) == [
        "army ledger: 48 created - 0 lost = 48, but 45 on the board (+3 unaccounted for)"
    ]


# --- the cards ----------------------------------------------------------------------------------


def test_a_risk_card_twice() -> None:
    state = sound()
    state.seat("alice").risk_cards = ["Peru"]
    assert violations(state) == [
        "Risk card 'Peru' is there 2 times, not 1 (found in: the Risk draw pile, alice's hand)"
    ]


def test_a_wild_card_lost() -> None:
    state = sound()
    state.risk_deck.draw.remove("wild")
    assert violations(state) == [
        "Risk card 'wild' is there 1 times, not 2 (found in: the Risk draw pile)"
    ]


def test_the_risk_cards_are_counted_from_the_games_map(monkeypatch: pytest.MonkeyPatch) -> None:
    """A map with three wild cards: the classic deck of two wilds is one short."""
    asked: list[tuple[str, int]] = []

    def three_wilds(name: str = "classic", version: int = 1):
        asked.append((name, version))
        return replace(load_map(name, version), wild_cards=3)

    monkeypatch.setattr(invariants, "load_map", three_wilds)
    assert violations(sound()) == [
        "Risk card 'wild' is there 2 times, not 3 (found in: the Risk draw pile, "
        "the Risk draw pile)"
    ]
    assert set(asked) == {("classic", 1)}


def test_a_revealed_card_not_in_the_hand() -> None:
    state = sound(risk_hands={"alice": ["Peru"]})
    assert violations(state) == []
    state.seat("alice").revealed = ["Peru", "Egypt"]
    assert violations(state) == ["alice has revealed cards not in its hand: ['Egypt']"]


def test_a_poker_card_lost_and_one_doubled() -> None:
    state = sound(poker_hands={"alice": ["Ah"]})
    assert violations(state) == []
    state.poker_deck.draw.remove("2c")
    state.poker_deck.discard.append("Ah")
    assert violations(state) == [
        "poker card '2c' is there 0 times, not 1 (found in: nowhere)",
        "poker card 'Ah' is there 2 times, not 1 (found in: the poker discard pile, "
        "alice's poker cards)",
    ]


def test_the_poker_cards_of_a_hand_on_the_table_are_counted() -> None:
    """During a poker hand its deck and each player's stash, hand and discards hold cards."""
    state = sound()
    for card in ("Ah", "Kd", "2c", "3c", "Qs"):
        state.poker_deck.draw.remove(card)
    hand = HandState(
        seats=(
            PokerSeat("alice", stash=("Ah",), pot=3, hand=("Kd",)),
            PokerSeat("bob", stash=(), pot=2, discards=("Qs",)),
        ),
        deck=("2c", "3c"),
    )
    state.contest = Contest(declarer="alice", ally="bob", stage="poker", hand=hand)
    assert violations(state) == []
    state.contest.hand = replace(hand, deck=("2c",))  # a card dropped from the hand's deck
    assert violations(state) == ["poker card '3c' is there 0 times, not 1 (found in: nowhere)"]


# --- ships and seats ----------------------------------------------------------------------------


def test_an_empty_ship_outside_a_battle() -> None:
    state = sound(ships={"S1": ("alice", "Pacific:Alaska", 0)})
    assert violations(state) == ["ship S1 of alice at Pacific:Alaska is empty outside a battle"]


def test_a_ship_with_only_captives_aboard_sails_on() -> None:
    """RULES.md H8: a ship emptied in a landing may sail on with the armies it captured."""
    state = sound(ships={"S1": ("alice", "Pacific:Alaska", 0)})
    state.ships["S1"].captured = {"bob": 1}
    state.created["setup"] += 1
    assert violations(state) == []


def test_a_ship_at_no_station() -> None:
    state = sound(ships={"S1": ("alice", "Arctic:Peru", 2)})
    assert violations(state) == ["ship S1 of alice is at 'Arctic:Peru', no station"]


def test_an_eliminated_seat_holds_nothing() -> None:
    state = sound(players=("alice", "bob", "carol"), rest="bob")
    carol = state.seat("carol")
    carol.alive = False
    assert violations(state) == []
    state.territories["Peru"].owner = "carol"
    state.ships["S1"] = Ship(id="S1", owner="carol", station="Pacific:Japan", armies=2)
    state.created["setup"] += 2
    state.seat("bob").poker_cards, carol.poker_cards = [], []
    state.risk_deck.draw.remove("Egypt")
    carol.risk_cards = ["Egypt"]
    state.poker_deck.draw.remove("Ah")
    carol.poker_cards = ["Ah"]
    carol.pot = 4
    assert violations(state) == [
        "eliminated carol still holds territories Peru; ships S1; 1 Risk cards; 1 poker cards; "
        "a pot of 4"
    ]


def test_a_live_seat_holds_something() -> None:
    state = sound(players=("alice", "bob", "carol"), rest="bob")
    assert violations(state) == ["carol is alive with no territory and no ship"]


def test_a_seat_seated_twice() -> None:
    state = sound()
    state.seats.append(Seat(id="bob", kind=PLAYER, player="bob2", colour="grey"))
    assert violations(state) == ["seat bob is seated 2 times"]


# --- in progress, and over ----------------------------------------------------------------------


def test_a_game_in_progress_waits_on_somebody() -> None:
    state = sound()
    state.contest = Contest(declarer="alice", ally="bob", stage="poker", hand=None)
    state.contest.hand = HandState(seats=(), deck=())
    assert violations(state) == ["the game is not over but waits on nobody"]


def test_a_game_with_one_player_left_should_have_ended() -> None:
    state = sound(players=("alice",), allies=("bob",), rest="bob")
    assert violations(state) == ["the game is not over with one player or none left (alice)"]


def test_a_player_holding_every_territory_should_have_won_where_that_wins() -> None:
    """RULES.md J5: with ``win="domination"`` (and in every game of revision 1) "a player
    holding every territory wins at once even while pirates sail on"; by default (last player
    standing) the pirate sails on."""
    state = sound(territories={}, ships={"S1": ("alice", "Pacific:Alaska", 2)})
    assert violations(state) == []
    state.options = replace(state.options, win="domination")
    assert violations(state) == ["the game is not over though player bob holds every territory"]
    state.options = replace(state.options, win="last-standing", revision=1)
    assert violations(state) == ["the game is not over though player bob holds every territory"]


def test_a_finished_game_has_nothing_in_progress() -> None:
    state = over(sound(territories={}), "bob", ["bob", "alice"])
    state.seat("alice").alive = False
    assert violations(state) == []
    state.turn = make_state().turn
    state.battle = _battle(ROLLING, 0)
    assert violations(state) == [
        "the game is over with a battle still in progress",
        "the game is over with a turn still in progress",
    ]


def test_a_finished_game_ranks_every_player_seat_once() -> None:
    state = over(sound(territories={}, allies=("ally-1",), rest="bob"), "bob", ["bob", "bob"])
    state.seat("alice").alive = False
    state.seat("ally-1").alive = False
    assert violations(state) == [
        "the ranking ['bob', 'bob'] does not name each player seat (alice, bob) exactly once"
    ]


def test_the_winner_is_the_last_player_standing() -> None:
    state = sound(players=("alice", "bob", "carol"), rest="bob")
    state = over(state, "alice", ["alice", "carol", "bob"])
    state.seat("carol").alive = False
    assert violations(state) == [
        "the winner alice is neither the last player standing (left: alice, bob), nor holds "
        "every territory where that wins, nor heads the ranking after the round limit or a "
        "stalemate"
    ]
    state.seat("bob").kind, state.seat("bob").player = "allied", None  # bob left: alice won
    state.ranking = ["alice", "carol"]
    assert violations(state) == []


def test_after_a_round_limit_the_ranking_decides() -> None:
    options = Options(win=ROUND_LIMIT, round_limit=5)
    state = over(sound(options=options), "bob", ["bob", "alice"])
    state.round = 6
    assert violations(state) == []
    state.round = 5  # the limit was not reached: nothing explains bob's win
    assert violations(state) == [
        "the winner bob is neither the last player standing (left: alice, bob), nor holds "
        "every territory where that wins, nor heads the ranking after the round limit or a "
        "stalemate"
    ]


def test_no_winner_only_in_an_agreed_draw_or_with_nobody_left() -> None:
    state = over(sound(), None, ["bob", "alice"])
    assert violations(state) == [
        "the game ended with no winner, no agreed draw and players left: alice, bob"
    ]
    state.draw_votes = ["bob", "alice"]
    assert violations(state) == []


def test_a_stalemate_is_won_by_the_head_of_the_ranking() -> None:
    """RULES.md J10: when no live player holds land, the game ends as a stalemate ranked like
    the round limit, and the first of that ranking wins; with land in a player's hands the
    same result is unexplained."""
    ships = {"S1": ("alice", "Pacific:Alaska", 3), "S2": ("bob", "Atlantic:Iceland", 1)}
    state = over(sound(territories={}, rest="green", allies=("green",), ships=ships), "alice",
                 ["alice", "bob"])  # fmt: skip
    assert violations(state) == []
    state.territories["Alaska"].owner = "bob"
    assert violations(state) == [
        "the winner alice is neither the last player standing (left: alice, bob), nor holds "
        "every territory where that wins, nor heads the ranking after the round limit or a "
        "stalemate"
    ]
