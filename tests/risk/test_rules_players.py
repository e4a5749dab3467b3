"""Rule-book scenarios: "Joining and Leaving Mid-Game" and how the game is won.

Each test quotes the sentence of the rule text (or design.md section 5) it checks.
"""

from __future__ import annotations

from risk.rules import new_game, view_for
from risk.rules.actions import Arrange, Attack, EndTurn, Join, Leave, MoveIn, Roll
from risk.rules.state import ALLIED, END, PLAYER, REINFORCE, GameState, Options
from tests.risk.builders import act, make_state, of_type, refused


def _refused(state: GameState, action, *rolls: int) -> str:
    return refused(state, action, *rolls).code


def _table(turn: str = "alice", phase: str = END, **kwargs) -> GameState:
    """alice, bob and carol with two allied armies; ally-2 holds the rest of the board."""
    options = {
        "players": ("alice", "bob", "carol"),
        "allies": ("ally-1", "ally-2"),
        "territories": {
            "Alaska": ("alice", 10),
            "Kamchatka": ("bob", 3),
            "Peru": ("carol", 3),
            "Japan": ("ally-1", 4),
        },
        "suits": {"ally-1": ["c", "h"], "ally-2": ["d", "s"]},
        "risk_hands": {"alice": ["Egypt"], "bob": ["Iceland"]},
        "poker_hands": {"alice": ["2c"], "bob": ["Ah", "Kd"]},
        "risk_draw": ["Ural", "China", "Brazil"],
        "poker_draw": ["Qh", "Jc"],
        "turn": turn,
        "phase": phase,
    }
    return make_state(**{**options, **kwargs})


# --- joining -------------------------------------------------------------------------------------


def test_latecomer_takes_over_an_allied_army_and_draws_cards():
    """'If a player turns up late and wants to join the game, they pick an allied army to take
    over. They immediately draw two Risk cards and one poker card.'"""
    state, events = act(_table(), Join("dave", ally="ally-1"))
    seat = state.seat("ally-1")
    assert (seat.kind, seat.player) == (PLAYER, "dave")
    assert (seat.risk_cards, seat.poker_cards) == (["Ural", "China"], ["Qh"])
    assert (state.risk_deck.draw, state.poker_deck.draw) == (["Brazil"], ["Jc"])
    assert of_type(events, "joined") == [{"type": "joined", "player": "dave", "seat": "ally-1"}]
    # The suits are dealt again over the allied armies left: ally-2 has them all.
    assert (seat.suits, state.seat("ally-2").suits) == ([], ["c", "d", "h", "s"])
    assert state.turn.seat == "alice"  # alice's turn goes on


def test_latecomer_takes_turns_in_seat_order():
    """'... they pick an allied army to take over': from then on the army is the joiner's and
    plays its turns (after carol, the last of the first players, comes ally-1's seat)."""
    state, _ = act(_table(turn="carol"), Join("dave", ally="ally-1"))
    state, _ = act(state, EndTurn("carol"))
    assert (state.turn.seat, state.turn.controller, state.turn.phase) == (
        "ally-1",
        "dave",
        REINFORCE,
    )
    assert state.round == 1


def test_join_only_a_live_allied_army():
    """'... they pick an allied army to take over': not a player's army, nor one that is gone."""
    state = _table()
    assert _refused(state, Join("dave", ally="bob")) == "ally"
    assert _refused(state, Join("dave", ally="ally-9")) == "ally"
    state.territories["Japan"].owner = "ally-2"
    state.seat("ally-1").alive = False
    assert _refused(state, Join("dave", ally="ally-1")) == "ally"


def test_join_refused_to_a_player_already_playing():
    """'If a player turns up late ...': someone playing an army cannot take a second one."""
    assert _refused(_table(), Join("bob", ally="ally-1")) == "already-playing"


def test_join_refused_while_the_allied_army_is_in_battle():
    """'... they pick an allied army to take over': not in the middle of its battle (join after
    it)."""
    state = _table(phase="campaign")
    state.turn.attacked.append("ally-1")
    state.territories["Kamchatka"].owner = "ally-1"
    state, _ = act(state, Attack("alice", "Kamchatka", "normal", (("Alaska", 3),)))
    assert _refused(state, Join("dave", ally="ally-1")) == "ally-busy"


def test_join_waits_for_the_end_of_the_set_up():
    """'Joining and Leaving Mid-Game': a join is a mid-game event, after the set-up."""
    state = new_game(["p1", "p2"], seed="join")
    assert _refused(state, Join("dave", ally="ally-1")) == "setting-up"


def test_eliminated_player_may_join_a_live_allied_army():
    """'If all of a pirate's ships are defeated ..., the player is out of the game and may choose
    to play a still-active allied army, if any' (design.md: 'joining takes over an allied
    army'). bob is out; he takes over ally-1 and draws his cards."""
    state = _table()
    state.territories["Kamchatka"].owner = "ally-2"
    state.seat("bob").alive = False
    state.seat("bob").risk_cards, state.seat("bob").poker_cards = [], []
    state, _ = act(state, Join("bob", ally="ally-1"))
    assert (state.seat("ally-1").kind, state.seat("ally-1").player) == (PLAYER, "bob")
    assert state.seat("bob").player is None  # the old seat is nobody's now
    assert state.seat_of_actor("bob").id == "ally-1"
    assert state.seat("ally-1").risk_cards == ["Ural", "China"]


# --- leaving -------------------------------------------------------------------------------------


def test_leaving_player_becomes_an_allied_army_keeping_its_poker_cards():
    """'If a player leaves the game, their army becomes an allied army. Any poker cards they have
    remain with the new allied army.'"""
    state, events = act(_table(), Leave("bob"))
    seat = state.seat("bob")
    assert (seat.kind, seat.player, seat.alive) == (ALLIED, None, True)
    assert seat.poker_cards == ["Ah", "Kd"]
    assert state.territories["Kamchatka"].owner == "bob"
    assert of_type(events, "left") == [{"type": "left", "player": "bob", "seat": "bob"}]
    # Suits are dealt again, round-robin over the allied armies in seat order (bob's first).
    assert [state.seat(s).suits for s in ("bob", "ally-1", "ally-2")] == [
        ["c", "s"],
        ["d"],
        ["h"],
    ]
    assert state.turn.seat == "alice"


def test_leaving_during_own_turn_passes_the_turn_to_the_next_player():
    """'If a player leaves the game, their army becomes an allied army': bob leaves during his
    own turn; carol, next in turn order, plays, in the same round."""
    state, events = act(_table(turn="bob", phase="campaign"), Leave("bob"))
    assert (state.turn.seat, state.turn.phase, state.round) == ("carol", REINFORCE, 1)
    assert [e["type"] for e in events] == ["left", "turn_started"]


def test_last_player_leaving_during_own_turn_starts_a_new_round():
    """'If a player leaves the game ...': carol was the last in the round; alice starts the
    next round."""
    state, _ = act(_table(turn="carol", phase="campaign"), Leave("carol"))
    assert (state.turn.seat, state.round) == ("alice", 2)


def test_first_player_leaving_during_the_set_up_does_not_start_the_game():
    """'If a player leaves the game, their army becomes an allied army': when the first player
    (p2 for this seed) leaves before the game starts, the next player, p3, opens it -- an allied
    army never takes a turn of its own. Like every allied army it gets a factory "placed on a
    territory selected at random" (a die of 7: 3 puts it on p2's third territory)."""
    state = new_game(["p1", "p2", "p3"], seed="seed-7")
    assert state.first_seat == "p2"
    state, _ = act(state, Leave("p2"), 3)
    third = sorted(state.owned("p2"))[2]
    assert [t for t in state.owned("p2") if state.territories[t].factory] == [third]
    for seat_id in ("p1", "p3"):
        owned = sorted(state.owned(seat_id))
        state, _ = act(state, Arrange(seat_id, tuple((t, 3) for t in owned), owned[0]))
    assert (state.turn.seat, state.turn.controller, state.round) == ("p3", "p3", 1)
    assert state.seat("p2").kind == ALLIED


def test_no_leaving_in_the_middle_of_ones_battle():
    """'If a player leaves the game ...': a battle in progress is finished first."""
    state = _table(phase="campaign")
    state.turn.attacked.append("bob")
    state, _ = act(state, Attack("alice", "Kamchatka", "normal", (("Alaska", 3),)))
    assert _refused(state, Leave("bob")) == "busy"


def test_allied_army_cannot_leave():
    """'If a player leaves the game': only a player's army can leave."""
    state = _table()
    ai = state.seat("ally-1").actor
    assert _refused(state, Leave(ai)) == "not-playing"


# --- winning -------------------------------------------------------------------------------------


def _duel(options: Options | None = None, **kwargs) -> GameState:
    """alice attacks bob's last territory, Kamchatka (1 army); ally-1 holds the rest."""
    settings = {
        "players": ("alice", "bob"),
        "allies": ("ally-1",),
        "territories": {"Alaska": ("alice", 10), "Kamchatka": ("bob", 1)},
        "options": options,
    }
    state = make_state(**{**settings, **kwargs})
    state.turn.attacked.append("bob")
    return state


def _conquer_kamchatka(state: GameState) -> tuple[GameState, list]:
    state, _ = act(state, Attack("alice", "Kamchatka", "normal", (("Alaska", 3),)))
    state, _ = act(state, Roll("alice"), 6, 5, 4, 1)
    return act(state, MoveIn("alice", 3))


def test_last_player_standing_wins_allied_armies_do_not_count():
    """design.md: 'Winning: last player standing by default': bob's last territory falls; the
    allied army still holding most of the board does not keep the game going."""
    state, events = _conquer_kamchatka(_duel())
    assert state.over and state.winner == "alice"
    (over,) = of_type(events, "game_over")
    assert (over["how"], over["winner"], over["seed"]) == ("last-standing", "alice", "scenario")
    assert state.seat("ally-1").alive
    assert state.turn is None
    assert _refused(state, EndTurn("alice")) == "game-over"


def test_a_pirate_is_still_standing():
    """'... they may continue to play, effectively as a pirate': bob keeps a ship, the game
    goes on."""
    state, _ = _conquer_kamchatka(_duel(ships={"S1": ("bob", "Atlantic:Iceland", 2)}))
    assert not state.over and state.seat("bob").alive


def _world(options: Options | None = None) -> GameState:
    """alice holds the whole world but Kamchatka (bob's last); carol roams the seas."""
    state = make_state(
        players=("alice", "bob", "carol"),
        rest="alice",
        territories={"Alaska": ("alice", 10), "Kamchatka": ("bob", 1)},
        ships={"S1": ("carol", "Pacific:Japan", 2)},
        options=options,
    )
    state.turn.attacked.append("bob")
    return state


def test_world_domination_option_wins_with_every_territory():
    """design.md: 'world domination and a round limit with a ranking (territories, then
    armies) are options': holding all 42 territories wins although carol's ship sails on."""
    state, events = _conquer_kamchatka(_world(Options(win="domination")))
    assert state.over and state.winner == "alice"
    assert of_type(events, "game_over")[0]["how"] == "domination"
    assert state.seat("carol").alive


def test_holding_every_territory_does_not_end_last_standing_while_a_pirate_sails_on():
    """RULES.md J5 (revision 2): under 'last player standing' (the default) holding every
    territory ends nothing while carol still sails ('they may continue to play, effectively as
    a pirate'); bob, beaten, is out. Revision 1 games ended here by domination."""
    state, events = _conquer_kamchatka(_world())
    assert not state.over and of_type(events, "game_over") == []
    assert not state.seat("bob").alive and state.seat("carol").alive
    state, events = _conquer_kamchatka(_world(Options(revision=1, pirate_turns=None)))
    assert state.over and state.winner == "alice"
    assert of_type(events, "game_over")[0]["how"] == "domination"


def test_an_allied_army_holding_every_territory_ends_nothing():
    """RULES.md J5: only a player wins by holding every territory; an allied army that holds
    them all may still be fought by the pirates alice and carol (ships of 2 can land)."""
    state = make_state(
        players=("alice", "bob", "carol"),
        allies=("green",),
        rest="green",
        territories={"Kamchatka": ("bob", 1), "Alaska": ("green", 10)},
        ships={"S1": ("alice", "Pacific:Japan", 2), "S2": ("carol", "Atlantic:Iceland", 2)},
        turn="green",
    )
    state.turn.attacked.append("bob")
    attack = Attack("ai:green", "Kamchatka", "normal", (("Alaska", 3),))
    state, _ = act(state, attack)
    state, _ = act(state, Roll("ai:green"), 6, 5, 4, 1)
    state, events = act(state, MoveIn("ai:green", 3))
    assert not state.over and of_type(events, "game_over") == []
    assert not state.seat("bob").alive


def _last_round(round_number: int) -> GameState:
    """carol, last in the round, ends her turn. alice and bob hold 3 territories each (alice 6
    armies plus a ship of 5 = 11, bob 10), carol 1; ally-1 the rest."""
    state = make_state(
        players=("alice", "bob", "carol"),
        allies=("ally-1",),
        territories={
            "Alaska": ("alice", 2), "Alberta": ("alice", 2), "Ontario": ("alice", 2),
            "Peru": ("bob", 4), "Brazil": ("bob", 3), "Venezuela": ("bob", 3),
            "Japan": ("carol", 20),
        },
        ships={"S1": ("alice", "Pacific:Alaska", 5)},
        turn="carol",
        phase=END,
        options=Options(win="round-limit", round_limit=2),
    )  # fmt: skip
    state.round = round_number
    return state


def test_round_limit_ends_the_game_ranked_by_territories_then_armies():
    """design.md: 'a round limit with a ranking (territories, then armies)': after round 2 the
    game ends; alice and bob hold 3 territories each, alice has more armies (ship crews
    included), carol holds 1."""
    state, events = act(_last_round(2), EndTurn("carol"))
    assert state.over
    assert state.ranking == ["alice", "bob", "carol"]
    assert state.winner == "alice"
    (over,) = of_type(events, "game_over")
    assert (over["how"], over["ranking"]) == ("round-limit", ["alice", "bob", "carol"])


def test_round_limit_not_reached_play_goes_on():
    """design.md: 'a round limit': round 2 of 2 starts and is played."""
    state, _ = act(_last_round(1), EndTurn("carol"))
    assert not state.over
    assert (state.turn.seat, state.round) == ("alice", 2)


def test_view_reveals_the_seed_only_after_the_end():
    """design.md section 2: 'the seed itself stays secret until the game ends ... After the end
    the seed is revealed'."""
    state = _duel()
    view = view_for(state, "bob")
    assert "seed" not in view and view["seed_commitment"]
    state, _ = _conquer_kamchatka(state)
    for viewer in ("alice", "bob", None):
        assert view_for(state, viewer)["seed"] == "scenario"
    assert view_for(state, "alice")["winner"] == "alice"
