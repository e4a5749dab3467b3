"""Rule-book scenarios: the last moments of a game -- the final ranking (RULES.md J12), landless
players (J10) and what is still in play when the game ends (J11).

The rule text says only how a player drops out ("If all of a pirate's ships are defeated at sea
... the player is out of the game") and design.md how the round limit ranks ("a ranking
(territories, then armies)"); the readings rank the eliminated by when they went out, put a
player that stays landless out, and settle a battle or poker hand the end of the game cuts off.
"""

from __future__ import annotations

from collections import Counter

import pytest

from combat.poker.cards import DECK as POKER_DECK
from risk.rules.actions import (
    Answer,
    Attack,
    Challenge,
    Concede,
    Cruise,
    EndTurn,
    MoveIn,
    Poker,
    Roll,
    VoteDraw,
)
from risk.rules.state import ALLIED, END, REINFORCE, GameState, Options, to_dict
from risk.rules.turns import ranking
from risk.rules.upcast import load_state, stored_options
from tests.risk.builders import act, make_state, of_type


def _types(events) -> list[str]:
    return [e["type"] for e in events]


def _ledger_holds(state: GameState) -> bool:
    return state.armies_on_board() == sum(state.created.values()) - sum(state.lost.values())


# --- J12: the final ranking ----------------------------------------------------------------------

#: The four players of the table; each holds one territory while alive (the allied army green
#: the rest). ``alive`` the players still in (with their armies), ``out`` in elimination order,
#: ``left`` those who left or conceded; ``winner`` as the game's end names it.
RANKINGS = [
    # The report: bob out first, then bot:3, then bot:4; the last out ranks best of the beaten.
    ({"alice": 5}, ["bob", "bot:3", "bot:4"], [], "alice", ["alice", "bot:4", "bot:3", "bob"]),
    ({"alice": 5}, ["bot:4", "bot:3", "bob"], [], "alice", ["alice", "bob", "bot:3", "bot:4"]),
    ({"bot:4": 2}, ["alice", "bob", "bot:3"], [], "bot:4", ["bot:4", "bot:3", "bob", "alice"]),
    # The winner is first even when another live player is stronger (a pirate under domination).
    ({"alice": 1, "bob": 9}, ["bot:4", "bot:3"], [], "alice", ["alice", "bob", "bot:3", "bot:4"]),
    # No winner (a draw, the round limit): the live by armies (one territory each), then the out.
    ({"alice": 3, "bob": 7, "bot:3": 5}, ["bot:4"], [], None,
     ["bob", "bot:3", "alice", "bot:4"]),
    # A tie among the living keeps seat order.
    ({"alice": 4, "bot:4": 4}, ["bot:3", "bob"], [], None, ["alice", "bot:4", "bob", "bot:3"]),
    # Those who left or conceded are not ranked (ratings and tournaments: last, together).
    ({"alice": 5}, ["bot:3"], ["bob", "bot:4"], "alice", ["alice", "bot:3"]),
    ({"alice": 5, "bot:4": 2}, [], ["bob", "bot:3"], "alice", ["alice", "bot:4"]),
]  # fmt: skip


@pytest.mark.parametrize(("alive", "out", "left", "winner", "expected"), RANKINGS)
def test_the_ranking_puts_the_last_eliminated_first_among_the_beaten(
    alive: dict[str, int], out: list[str], left: list[str], winner: str | None,
    expected: list[str],
) -> None:  # fmt: skip
    """RULES.md J12: 'the player is out of the game': the winner, the other live players by
    territories then armies (design.md's round-limit ranking), then the eliminated players, the
    last out first; a player who left or conceded (an allied army now) is not ranked."""
    players = ("alice", "bob", "bot:3", "bot:4")
    homes = dict(zip(players, ("Alaska", "Peru", "Egypt", "Japan"), strict=True))
    state = make_state(
        players=players,
        allies=("green",),
        rest="green",
        territories={homes[p]: (p, armies) for p, armies in alive.items()},
    )
    for seat_id in out:
        state.seat(seat_id).alive = False
    state.eliminated = list(out)
    for seat_id in left:
        state.seat(seat_id).kind, state.seat(seat_id).player = ALLIED, None
        if seat_id not in alive:
            state.territories[homes[seat_id]].owner = seat_id
    assert ranking(state, winner) == expected


def test_three_eliminations_in_one_turn_rank_in_reverse_order():
    """RULES.md J12, the case reported: alice takes bob's Kamchatka, then bot:3's Greenland, then
    bot:4's Ontario (each 6 5 4 against a lone 1); each loses its last territory and is out, in
    that order ('the player is out of the game'). The game ends by 'last player standing' with
    the ranking alice, bot:4, bot:3, bob (it read alice, bob, bot:3, bot:4: seat order)."""
    state = make_state(
        players=("alice", "bob", "bot:3", "bot:4"),
        allies=("green",),
        rest="green",
        territories={
            "Alaska": ("alice", 10), "Northwest Territory": ("alice", 10),
            "Alberta": ("alice", 10), "Kamchatka": ("bob", 1), "Greenland": ("bot:3", 1),
            "Ontario": ("bot:4", 1),
        },
    )  # fmt: skip
    state.turn.attacked += ["bob", "bot:3", "bot:4"]
    events: list = []
    for target, source in (("Kamchatka", "Alaska"), ("Greenland", "Northwest Territory"),
                           ("Ontario", "Alberta")):  # fmt: skip
        state, _ = act(state, Attack("alice", target, "normal", ((source, 3),)))
        state, _ = act(state, Roll("alice"), 6, 5, 4, 1)
        state, more = act(state, MoveIn("alice", 3))
        events += more
    assert [e["seat"] for e in of_type(events, "eliminated")] == ["bob", "bot:3", "bot:4"]
    assert state.eliminated == ["bob", "bot:3", "bot:4"]
    (over,) = of_type(events, "game_over")
    assert (over["how"], over["winner"]) == ("last-standing", "alice")
    assert over["ranking"] == state.ranking == ["alice", "bot:4", "bot:3", "bob"]


def test_a_player_who_concedes_is_not_ranked():
    """RULES.md J7, J12: bob is out first (alice takes Kamchatka), then carol concedes and alice
    is the last player standing. Carol's army, allied now, is not ranked: ratings and tournament
    places give her the last place, below bob (a resignation is a loss)."""
    state = make_state(
        players=("alice", "bob", "carol"),
        allies=("green",),
        rest="green",
        territories={"Alaska": ("alice", 10), "Kamchatka": ("bob", 1), "Peru": ("carol", 4)},
    )
    state.turn.attacked.append("bob")
    state, _ = act(state, Attack("alice", "Kamchatka", "normal", (("Alaska", 3),)))
    state, _ = act(state, Roll("alice"), 6, 5, 4, 1)
    state, _ = act(state, MoveIn("alice", 3))
    state, events = act(state, Concede("carol"))
    assert _types(events) == ["conceded", "game_over"]
    assert (state.winner, state.ranking, state.eliminated) == ("alice", ["alice", "bob"], ["bob"])


def test_a_stored_state_gets_the_seats_already_out_in_seat_order():
    """RULES.md J12: a state stored before the order was recorded (schema 2) gets the seats
    already out in seat order, the best known; no landless counts, and the options it was
    played by (revision 1, no ``pirate_turns``)."""
    state = make_state(players=("alice", "bob", "carol", "dave"), allies=("green",), rest="green",
                       territories={"Alaska": ("alice", 5), "Peru": ("carol", 2)})  # fmt: skip
    state.seat("dave").alive = state.seat("bob").alive = False
    data = to_dict(state)
    del data["eliminated"], data["landless"], data["options"]["pirate_turns"]
    data["options"].pop("revision")
    loaded = load_state({**data, "version": 2})
    assert (loaded.eliminated, loaded.landless) == (["bob", "dave"], {})
    assert (loaded.options.revision, loaded.options.pirate_turns) == (1, None)
    assert ranking(loaded) == ["alice", "carol", "dave", "bob"]
    assert load_state(to_dict(state)).eliminated == []  # recorded: kept as it is
    assert stored_options({"win": "last-standing"}).pirate_turns is None
    assert stored_options(Options().to_dict()).pirate_turns == 10


# --- J10: landless players -----------------------------------------------------------------------


def _landless_bob(begun: int, options: Options | None = None, **kwargs) -> GameState:
    """Alice's turn is at its end; bob (next) holds no territory, only B1 (2, can still land),
    and began ``begun`` turns in a row without one; alice holds Alaska, carol Iceland, the
    allied army green the rest."""
    state = make_state(
        players=("alice", "bob", "carol"),
        allies=("green",),
        rest="green",
        territories={"Alaska": ("alice", 2), "Iceland": ("carol", 2)},
        ships={"B1": ("bob", "Arctic:Siberia", 2)},
        risk_hands={"bob": ["Peru"]},
        phase=END,
        options=options,
        **kwargs,
    )
    state.landless = {"bob": begun}
    return state


def test_a_player_landless_for_ten_turns_is_out_at_the_start_of_the_next():
    """RULES.md J10 (**Option** `pirate_turns`, default 10): 'they may continue to play,
    effectively as a pirate' -- for a while. Bob began his last 10 turns without a territory:
    at the start of the 11th he is out, his ship (2) is scuttled, he is eliminated by nobody
    (his card to the discards, as J6) and carol, who holds Iceland, plays next."""
    state, events = act(_landless_bob(10), EndTurn("alice"))
    assert _types(events) == ["turn_ended", "landless", "ship_sunk", "eliminated", "turn_started"]
    assert of_type(events, "landless") == [
        {"type": "landless", "seat": "bob", "turns": 10, "out": True}
    ]
    assert of_type(events, "eliminated") == [{"type": "eliminated", "seat": "bob", "by": None}]
    assert state.lost == {"scuttled": 2} and state.ships == {}
    assert state.risk_deck.discard == ["Peru"]
    assert (state.turn.seat, state.turn.phase) == ("carol", REINFORCE)
    assert state.eliminated == ["bob"] and state.landless == {}
    assert _ledger_holds(state)


def test_a_landless_player_plays_its_tenth_turn_and_landing_resets_the_count():
    """RULES.md J10: after 9 landless turns bob plays the 10th (counted: 10); a turn that starts
    with a territory wipes the count."""
    state, events = act(_landless_bob(9), EndTurn("alice"))
    assert _types(events) == ["turn_ended", "turn_started"]
    assert (state.turn.seat, state.landless) == ("bob", {"bob": 10})
    state = _landless_bob(10)
    state.territories["Peru"].owner = "bob"  # bob landed
    state, _ = act(state, EndTurn("alice"))
    assert (state.turn.seat, state.landless) == ("bob", {})


@pytest.mark.parametrize(
    "options",
    [Options(pirate_turns=None), Options(revision=1, pirate_turns=None)],
    ids=["option-off", "revision-1"],
)
def test_without_the_option_a_landless_player_sails_on(options: Options):
    """RULES.md J10: `pirate_turns=None` (and every game stored before the option) keeps the
    pirate in play however long it stays at sea."""
    state, events = act(_landless_bob(50, options), EndTurn("alice"))
    assert _types(events) == ["turn_ended", "turn_started"]
    assert state.turn.seat == "bob" and state.seat("bob").alive


def test_when_every_player_is_landless_the_game_ends_in_a_stalemate():
    """RULES.md J10: the allied army green holds all 42 territories; alice (A1, 4) and bob (B1,
    3) sail, carol is out. Bob began 10 turns in a row without land and no live player holds a
    territory: the game ends in a stalemate, ranked as at the round limit (territories: none,
    then armies: alice's 4 before bob's 3, then carol), won by alice."""
    state = make_state(
        players=("alice", "bob", "carol"),
        allies=("green",),
        rest="green",
        ships={"A1": ("alice", "Pacific:Japan", 4), "B1": ("bob", "Atlantic:Iceland", 3)},
        phase=END,
    )
    state.seat("carol").alive = False
    state.eliminated = ["carol"]
    state.landless = {"alice": 4, "bob": 10}
    state, events = act(state, EndTurn("alice"))
    assert _types(events) == ["turn_ended", "landless", "game_over"]
    assert of_type(events, "landless") == [
        {"type": "landless", "seat": "bob", "turns": 10, "out": False}
    ]
    assert of_type(events, "game_over") == [
        {"type": "game_over", "how": "stalemate", "winner": "alice",
         "ranking": ["alice", "bob", "carol"], "seed": "scenario"}
    ]  # fmt: skip
    assert state.over and state.turn is None and state.ships["B1"].armies == 3


@pytest.mark.parametrize("turns", [0, -1, 101, True, 2.5, "10"])
def test_pirate_turns_is_a_whole_number_of_turns_or_none(turns):
    """RULES.md J10: the option is 1 to 100 turns, or None (never)."""
    with pytest.raises(ValueError, match="pirate_turns"):
        Options(pirate_turns=turns)
    assert Options(pirate_turns=1).pirate_turns == 1 and Options().pirate_turns == 10


# --- J11: what is in play when the game ends -----------------------------------------------------


def _flanking_against_green() -> GameState:
    """Alice attacks green's Kamchatka (6) in flanks from Alaska (3 of 10) and her ship A1 (3 of
    5, off Kamchatka): 5-3-2 against 5-1, the +1 turns the 5 into a 6, green loses both armies
    and one is captured by the first flank. Bob, the only other player, watches."""
    state = make_state(
        players=("alice", "bob"),
        allies=("green",),
        rest="green",
        territories={"Alaska": ("alice", 10), "Kamchatka": ("green", 6), "Peru": ("bob", 3)},
        ships={"A1": ("alice", "Pacific:Kamchatka", 5)},
    )
    state.turn.attacked.append("green")
    state, _ = act(state, Cruise("alice", "A1"), 1, 1)
    attack = Attack("alice", "Kamchatka", "flanking", (("Alaska", 3), ("A1", 3)))
    state, _ = act(state, attack)
    state, _ = act(state, Roll("alice"), 5, 3, 2, 5, 1)
    return state


def test_a_concession_in_the_middle_of_a_battle_settles_it_before_the_game_ends():
    """RULES.md J11: bob concedes while alice's flanking attack on green is being fought; alice
    is the last player standing, and the battle is broken off first: the Alaska flank (3) goes
    home with its captive, held there ('Replace any and all captured army tokens' comes only at
    the end of a turn), the ship's flank (3) goes back aboard A1. Nothing vanishes: 10 + 5 + 6 +
    3 + 39 (the other territories) = 63 set up; green lost 2, 1 destroyed and 1 captured:
    62 on the board."""
    state = _flanking_against_green()
    flanks = [(f.source, f.standing, f.captured) for f in state.battle.flanks]
    assert flanks == [("Alaska", 3, 1), ("A1", 3, 0)]
    assert (state.territories["Alaska"].armies, state.ships["A1"].armies) == (7, 2)
    state, events = act(state, Concede("bob"))
    assert _types(events) == ["conceded", "battle_called_off", "battle_over", "game_over"]
    assert (state.over, state.winner, state.battle, state.ranking) == (
        True, "alice", None, ["alice"],
    )  # fmt: skip
    alaska = state.territories["Alaska"]
    assert (alaska.owner, alaska.armies, alaska.captured) == ("alice", 10, {"green": 1})
    assert (state.ships["A1"].armies, state.ships["A1"].captured) == (5, {})
    assert state.territories["Kamchatka"].armies == 4
    assert state.lost == {"battle": 1}
    assert state.created == {"setup": 63}
    assert state.armies_on_board() == 62 and _ledger_holds(state)


def test_a_battle_won_and_waiting_for_the_move_in_is_occupied():
    """RULES.md J11: alice's normal attack of 3 from Alaska took green's Kamchatka (6 5 4 v 1)
    and waits for her move-in when bob concedes: the three standing armies move in (the legal
    move-in leaving nothing to choose), so no territory is left empty."""
    state = make_state(
        players=("alice", "bob"),
        allies=("green",),
        rest="green",
        territories={"Alaska": ("alice", 10), "Kamchatka": ("green", 1), "Peru": ("bob", 3)},
    )
    state.turn.attacked.append("green")
    state, _ = act(state, Attack("alice", "Kamchatka", "normal", (("Alaska", 3),)))
    state, _ = act(state, Roll("alice"), 6, 5, 4, 1)
    state, events = act(state, Concede("bob"))
    assert _types(events) == ["conceded", "conquered", "battle_over", "game_over"]
    assert (state.territories["Kamchatka"].owner, state.territories["Kamchatka"].armies) == (
        "alice", 3,
    )  # fmt: skip
    assert state.territories["Alaska"].armies == 7
    assert state.winner == "alice" and _ledger_holds(state)


def test_revision_1_games_still_drop_the_battle():
    """RULES.md J11: games stored before revision 2 end as they were played and verified: the
    battle is dropped with its blocks (the 6 armies of the two flanks and the captive)."""
    state = _flanking_against_green()
    state.options = Options(revision=1, pirate_turns=None)
    state, events = act(state, Concede("bob"))
    assert _types(events) == ["conceded", "game_over"]
    assert state.armies_on_board() == 62 - 7 and not _ledger_holds(state)


def test_a_draw_agreed_during_a_poker_hand_calls_the_hand_off():
    """RULES.md J11 with J8: alice declared green, bob challenged, the hand is dealt (ante 1
    each from pots of 3) and alice chose her Ah; carol's vote then makes the draw unanimous. The
    hand is called off: the stakes go back (pots of 3), Kh stays in alice's stash and bob's 2c,
    3c in his, the Ah alice put in her hand goes to the discard pile and the 48 cards of the
    hand's deck back on the draw pile: all 52 poker cards are accounted for."""
    state = make_state(
        players=("alice", "bob", "carol"),
        allies=("green",),
        rest="green",
        territories={"Alaska": ("alice", 10), "Kamchatka": ("bob", 3), "Peru": ("carol", 3)},
        poker_hands={"alice": ["Ah", "Kh"], "bob": ["2c", "3c"]},
        suits={"green": ["h"]},
        phase=END,
    )
    for voter in ("alice", "bob"):
        state, _ = act(state, VoteDraw(voter, agree=True))
    state, _ = act(state, EndTurn("alice", ally="green"))
    state, _ = act(state, Challenge("bob", contest=True))
    state, _ = act(state, Answer("alice", demur=False))
    state, _ = act(state, Poker("alice", "choose", cards=("Ah",)))
    draw_pile = list(state.contest.hand.deck)
    assert len(draw_pile) == 48 and state.poker_deck.draw == []
    state, events = act(state, VoteDraw("carol", agree=True))
    assert _types(events) == ["draw_vote", "poker_called_off", "game_over"]
    assert of_type(events, "poker_called_off")[0]["seats"] == ["alice", "bob"]
    assert (state.seat("alice").poker_cards, state.seat("bob").poker_cards) == (
        ["Kh"], ["2c", "3c"],
    )  # fmt: skip
    assert (state.seat("alice").pot, state.seat("bob").pot) == (3, 3)
    assert (state.poker_deck.draw, state.poker_deck.discard) == (draw_pile, ["Ah"])
    held = [c for s in state.seats for c in s.poker_cards]
    assert Counter(held + state.poker_deck.draw + state.poker_deck.discard) == Counter(POKER_DECK)
    assert state.contest is None and state.winner is None
