"""Rule-book scenarios: how a game ends -- domination, stranded pirates, conceding, a draw.

Each test quotes the sentence of the rule text or the RULES.md reading (J5-J8) it checks. The
rule text only says how a player drops out ("If all of a pirate's ships are defeated at sea ...
the player is out of the game"); the readings make sure every game can end: a player holding
every territory wins (J5), a pirate that can neither land nor fight is out (J6), a player may
concede (J7), and the players may agree to a draw (J8).
"""

from __future__ import annotations

from risk.rules import legal_actions, pending_decisions
from risk.rules.actions import (
    Answer,
    Attack,
    Challenge,
    Concede,
    EndTurn,
    Leave,
    MoveIn,
    Roll,
    VoteDraw,
)
from risk.rules.engine import ActionSpec, Decision
from risk.rules.state import ALLIED, CAMPAIGN, DOMINATION, END, REINFORCE, GameState, Options
from tests.risk.builders import act, make_state, of_type, refused


def _types(events) -> list[str]:
    return [e["type"] for e in events]


# --- J5: holding every territory ---------------------------------------------------------------


def _beaten_at_sea(options: Options) -> tuple[GameState, list]:
    """Alice takes Kamchatka, bob's last territory (6 5 4 v 1), and with it every territory;
    bob keeps B1 (3) off Iceland."""
    state = make_state(
        players=("alice", "bob"),
        rest="alice",
        territories={"Alaska": ("alice", 10), "Kamchatka": ("bob", 1)},
        ships={"B1": ("bob", "Atlantic:Iceland", 3)},
        options=options,
    )
    state.turn.attacked.append("bob")
    state, _ = act(state, Attack("alice", "Kamchatka", "normal", (("Alaska", 3),)))
    state, _ = act(state, Roll("alice"), 6, 5, 4, 1)
    return act(state, MoveIn("alice", 3))


def test_last_standing_goes_on_while_the_beaten_player_sails():
    """RULES.md J5 (revision 2), design.md 'Winning: last player standing by default': alice
    holds all 42 territories, but bob still sails ('they may continue to play, effectively as a
    pirate'), so the game goes on: nothing ends, nobody is eliminated."""
    state, events = _beaten_at_sea(Options())
    assert of_type(events, "game_over") == [] and of_type(events, "eliminated") == []
    assert not state.over and state.seat("bob").alive and state.ships["B1"].armies == 3
    assert len(state.owned("alice")) == 42


def test_the_domination_option_ends_the_game_while_the_beaten_player_sails_on():
    """RULES.md J5: with **Option** `win="domination"` ('world domination ... [is an option]')
    holding every territory wins at once, bob's ship at sea notwithstanding; bob, alive, ranks
    second."""
    state, events = _beaten_at_sea(Options(win=DOMINATION))
    assert of_type(events, "game_over") == [
        {"type": "game_over", "how": "domination", "winner": "alice",
         "ranking": ["alice", "bob"], "seed": "scenario"}
    ]  # fmt: skip
    assert of_type(events, "eliminated") == []
    assert state.seat("bob").alive and state.ships["B1"].armies == 3
    assert (state.over, state.winner, state.turn) == (True, "alice", None)


def test_revision_1_games_end_on_domination_under_last_standing_as_they_were_played():
    """RULES.md J5, revision 1: a stored game set up with the default 'last player standing' ended
    when one player held every territory, and replays so."""
    state, events = _beaten_at_sea(Options(revision=1, pirate_turns=None))
    assert [(e["how"], e["winner"]) for e in of_type(events, "game_over")] == [
        ("domination", "alice")
    ]
    assert state.over and state.seat("bob").alive


def test_an_allied_army_holding_every_territory_ends_nothing():
    """RULES.md J5: only a PLAYER wins by holding every territory. Green (allied) holds all 42;
    alice and bob are pirates with a ship of 2 each, able to land. Alice ends her turn and bob's
    turn starts as usual."""
    state = make_state(
        players=("alice", "bob"),
        allies=("green",),
        rest="green",
        ships={"A1": ("alice", "Pacific:Japan", 2), "B1": ("bob", "Atlantic:Iceland", 2)},
        phase=END,
    )
    state, events = act(state, EndTurn("alice"))
    assert _types(events) == ["turn_ended", "turn_started"]
    assert not state.over and state.winner is None
    assert (state.turn.seat, state.turn.phase, state.turn.to_place) == ("bob", REINFORCE, 0)


# --- J6: a stranded pirate -----------------------------------------------------------------------


def _pirate_bob(ships: dict[str, tuple[str, str, int]], players=("alice", "bob", "carol"),
                **kwargs) -> GameState:  # fmt: skip
    """Alice's turn is at its end; bob (next) holds no territory, only ``ships``; alice holds
    Alaska, carol (if playing) Iceland, the allied army green the rest of the board."""
    return make_state(
        players=players,
        allies=("green",),
        rest="green",
        territories={
            t: (p, 2) for t, p in (("Alaska", "alice"), ("Iceland", "carol")) if p in players
        },
        ships=ships,
        phase=END,
        **kwargs,
    )


def test_a_stranded_pirate_is_out_at_the_start_of_its_turn():
    """RULES.md J6: 'If all of a pirate's ships are defeated ... the player is out of the game':
    a pirate none of whose ships can land (fewer than 2 armies aboard) nor fight (no other
    seat's ship in its oceans) is out at the start of its turn. Bob's B1 (1, Arctic) and B2 (1,
    Indian) share no ocean with carol's C1 (Pacific): both are scuttled, bob is eliminated by
    nobody, his cards go to the discard piles, and carol plays next, in the same round."""
    state = _pirate_bob(
        {
            "B1": ("bob", "Arctic:Siberia", 1),
            "B2": ("bob", "Indian:India", 1),
            "C1": ("carol", "Pacific:Japan", 3),
        },
        risk_hands={"bob": ["Peru", "wild"]},
        poker_hands={"bob": ["Kd"]},
    )
    state, events = act(state, EndTurn("alice"))
    assert _types(events) == [
        "turn_ended", "stranded", "ship_sunk", "ship_sunk", "eliminated", "turn_started",
    ]  # fmt: skip
    assert of_type(events, "stranded") == [{"type": "stranded", "seat": "bob"}]
    assert of_type(events, "ship_sunk") == [
        {"type": "ship_sunk", "ship": "B1", "owner": "bob", "armies": 1},
        {"type": "ship_sunk", "ship": "B2", "owner": "bob", "armies": 1},
    ]
    assert of_type(events, "eliminated") == [{"type": "eliminated", "seat": "bob", "by": None}]
    assert state.lost == {"scuttled": 2}
    assert not state.seat("bob").alive and state.ships_of("bob") == []
    assert (state.seat("bob").risk_cards, state.seat("bob").poker_cards) == ([], [])
    assert state.risk_deck.discard == ["Peru", "wild"]
    assert state.poker_deck.discard == ["Kd"]
    assert (state.turn.seat, state.turn.phase, state.round) == ("carol", REINFORCE, 1)
    assert not state.over


def test_a_pirate_with_a_ship_of_two_is_not_stranded():
    """RULES.md J6: a ship with 2 armies aboard can still land (a committed landing of 2), so
    bob, alone in the Arctic, plays his turn, with no reinforcements ('They cannot reinforce')."""
    state = _pirate_bob({"B1": ("bob", "Arctic:Siberia", 2)})
    state, events = act(state, EndTurn("alice"))
    assert _types(events) == ["turn_ended", "turn_started"]
    assert state.seat("bob").alive and state.ships["B1"].armies == 2
    assert (state.turn.seat, state.turn.to_place) == ("bob", 0)


def test_captives_aboard_count_towards_the_two_armies():
    """RULES.md J6: 'fewer than 2 armies (captives counted)': B1 carries 1 army and 1 captured
    army of carol's, which becomes bob's at the end of his turn ('Replace any and all captured
    army tokens'), so the ship may land next turn: bob is not out."""
    state = _pirate_bob({"B1": ("bob", "Arctic:Siberia", 1)})
    state.ships["B1"].captured = {"carol": 1}
    state, events = act(state, EndTurn("alice"))
    assert _types(events) == ["turn_ended", "turn_started"]
    assert state.seat("bob").alive and state.turn.seat == "bob"


def test_a_pirate_sharing_an_ocean_with_an_enemy_ship_is_not_stranded():
    """RULES.md J6: 'Pirates may attack other ships': bob's B1 (1) off Kamchatka can still engage
    carol's C1 off Peru, in the same ocean (any distance), so bob plays his turn."""
    state = _pirate_bob({"B1": ("bob", "Pacific:Kamchatka", 1), "C1": ("carol", "Pacific:Peru", 3)})
    state, events = act(state, EndTurn("alice"))
    assert _types(events) == ["turn_ended", "turn_started"]
    assert state.seat("bob").alive and state.turn.seat == "bob"


def test_a_stranded_pirate_leaving_one_player_ends_the_game():
    """RULES.md J6 and J5 ('last player standing'): with bob stranded and out, alice is the only
    player left and wins; the allied army green does not count."""
    state = _pirate_bob({"B1": ("bob", "Arctic:Siberia", 1)}, players=("alice", "bob"))
    state, events = act(state, EndTurn("alice"))
    assert _types(events) == ["turn_ended", "stranded", "ship_sunk", "eliminated", "game_over"]
    over = of_type(events, "game_over")[0]
    assert (over["how"], over["winner"]) == ("last-standing", "alice")
    assert state.over and state.turn is None


def test_a_stranded_allied_army_cannot_be_declared():
    """RULES.md J6: an allied army that is a stranded pirate (one army aboard, alone in the
    Arctic) could never act; it is not offered at the end of alice's turn, and declaring it is
    refused (code "ally")."""
    state = make_state(
        players=("alice", "bob"),
        allies=("green", "grey"),
        rest="grey",
        territories={"Iceland": ("alice", 2), "Peru": ("bob", 2)},
        ships={"G1": ("green", "Arctic:Siberia", 1)},
        phase=END,
    )
    (end_turn,) = [s for s in legal_actions(state, "alice") if s.type == "end_turn"]
    assert end_turn.options["allies"] == ["grey"]
    error = refused(state, EndTurn("alice", ally="green"))
    assert (error.code, error.field) == ("ally", "ally")


# --- J7: conceding -------------------------------------------------------------------------------


def _three(**kwargs) -> GameState:
    """Alice, bob and carol, each with one territory; green holds the rest."""
    settings = {
        "players": ("alice", "bob", "carol"),
        "allies": ("green",),
        "rest": "green",
        "territories": {"Alaska": ("alice", 10), "Kamchatka": ("bob", 3), "Peru": ("carol", 3)},
    }
    return make_state(**{**settings, **kwargs})


def test_a_conceding_player_becomes_an_allied_army():
    """RULES.md J7, as for leaving: 'If a player leaves the game, their army becomes an allied
    army. Any poker cards they have remain with the new allied army.' Bob concedes during
    alice's turn, which goes on; the suits are dealt again over bob and green (RULES.md A10)."""
    state = _three(poker_hands={"bob": ["Kd"]})
    state, events = act(state, Concede("bob"))
    assert list(events) == [{"type": "conceded", "player": "bob", "seat": "bob"}]
    seat = state.seat("bob")
    assert (seat.kind, seat.player, seat.alive, seat.poker_cards) == (ALLIED, None, True, ["Kd"])
    assert (seat.suits, state.seat("green").suits) == (["c", "h"], ["d", "s"])
    assert state.territories["Kamchatka"].owner == "bob"
    assert (state.turn.seat, state.turn.phase) == ("alice", CAMPAIGN)
    assert state.seat_of_actor("bob") is None


def test_conceding_during_ones_own_turn_passes_the_turn():
    """RULES.md J7 (as J2): bob concedes in his own campaign; carol, next, plays."""
    state, events = act(_three(turn="bob"), Concede("bob"))
    assert _types(events) == ["conceded", "turn_started"]
    assert (state.turn.seat, state.round) == ("carol", 1)


def test_no_conceding_in_the_middle_of_ones_battle():
    """RULES.md J7: refused while the player is in a battle (code "busy"), and not offered."""
    state = _three()
    state.turn.attacked.append("bob")
    state, _ = act(state, Attack("alice", "Kamchatka", "normal", (("Alaska", 3),)))
    assert refused(state, Concede("bob")).code == "busy"
    assert refused(state, Concede("alice")).code == "busy"
    assert ActionSpec("concede") not in legal_actions(state, "bob")
    assert ActionSpec("concede") in legal_actions(state, "carol")


def test_no_conceding_in_the_middle_of_a_poker_hand():
    """RULES.md J7: refused while the player is in a poker hand: alice declares green, bob
    contests and alice plays; neither may concede, carol (outside the hand) may."""
    state = _three(poker_hands={"alice": ["Ah"], "bob": ["2c"]}, suits={"green": ["h"]},
                   phase=END)  # fmt: skip
    state, _ = act(state, EndTurn("alice", ally="green"))
    state, _ = act(state, Challenge("bob", contest=True))
    state, _ = act(state, Answer("alice", demur=False))
    assert state.contest.stage == "poker"
    assert refused(state, Concede("bob")).code == "busy"
    assert refused(state, Concede("alice")).code == "busy"
    state, events = act(state, Concede("carol"))
    assert _types(events) == ["conceded"] and state.contest.stage == "poker"


def test_conceding_so_that_one_player_is_left_ends_the_game():
    """RULES.md J7 and J5 ('last player standing'): bob concedes; alice is the only player left
    and wins at once (the allied armies, bob's now among them, do not count)."""
    state = make_state(
        allies=("green",), rest="green",
        territories={"Alaska": ("alice", 10), "Kamchatka": ("bob", 3)},
    )  # fmt: skip
    state, events = act(state, Concede("bob"))
    assert _types(events) == ["conceded", "game_over"]
    over = of_type(events, "game_over")[0]
    assert (over["how"], over["winner"]) == ("last-standing", "alice")
    assert state.over and state.winner == "alice"


def test_only_a_player_may_concede():
    """RULES.md J7: an allied army's AI does not concede (code "not-playing"), nor does somebody
    who plays no army (code "unknown-player")."""
    state = _three()
    error = refused(state, Concede("ai:green"))
    assert (error.code, error.field) == ("not-playing", "player")
    error = refused(state, Concede("zoe"))
    assert (error.code, error.field) == ("unknown-player", "player")


# --- J8: a draw by unanimous vote ----------------------------------------------------------------


def test_any_live_player_may_vote_for_a_draw_at_any_time():
    """RULES.md J8: carol, not the player to move, agrees to a draw during alice's turn; the vote
    is recorded and public, and alice's turn goes on."""
    state, events = act(_three(), VoteDraw("carol", agree=True))
    assert list(events) == [{"type": "draw_vote", "seat": "carol", "agree": True,
                             "votes": ["carol"]}]  # fmt: skip
    assert state.draw_votes == ["carol"] and not state.over
    assert pending_decisions(state) == [Decision("alice", "alice", CAMPAIGN)]
    assert ActionSpec("vote_draw", {"agree": [True, False], "votes": ["carol"]}) in (
        legal_actions(state, "bob")
    )
    state, _ = act(state, VoteDraw("carol", agree=True))
    assert state.draw_votes == ["carol"]  # agreeing twice counts once


def test_the_game_ends_in_a_draw_when_every_live_player_agrees():
    """RULES.md J8: a draw when every live player has agreed -- here bob's vote, the last, comes
    in the middle of alice's attack on him, which is broken off (J11: the block of 3 goes back
    to Alaska) before the game ends. Nobody wins; the ranking is by territories, then armies
    (J12): one territory each, alice with 10 armies in Alaska, bob and carol with 3 each, in
    seat order."""
    state = _three()
    state, _ = act(state, VoteDraw("alice", agree=True))
    state, _ = act(state, VoteDraw("carol", agree=True))
    state.turn.attacked.append("bob")
    state, _ = act(state, Attack("alice", "Kamchatka", "normal", (("Alaska", 3),)))
    state, events = act(state, VoteDraw("bob", agree=True))
    assert _types(events) == ["draw_vote", "battle_called_off", "battle_over", "game_over"]
    over = of_type(events, "game_over")[0]
    assert (over["how"], over["winner"]) == ("draw", None)
    assert over["ranking"] == ["alice", "bob", "carol"]
    assert state.territories["Alaska"].armies == 10
    assert (state.over, state.winner, state.battle, state.turn) == (True, None, None, None)
    assert pending_decisions(state) == []


def test_a_refusal_clears_every_vote():
    """RULES.md J8: 'agree=False clears every vote': alice and bob agreed, carol refuses; when
    carol later agrees, hers is the only vote and the game goes on."""
    state = _three()
    state, _ = act(state, VoteDraw("alice", agree=True))
    state, _ = act(state, VoteDraw("bob", agree=True))
    state, events = act(state, VoteDraw("carol", agree=False))
    assert list(events) == [{"type": "draw_vote", "seat": "carol", "agree": False, "votes": []}]
    assert state.draw_votes == []
    state, _ = act(state, VoteDraw("carol", agree=True))
    assert state.draw_votes == ["carol"] and not state.over


def test_only_live_players_vote():
    """RULES.md J8: an allied army's AI cannot vote (code "not-playing"), nor an eliminated
    player (the same), nor a stranger (code "unknown-player")."""
    state = _three()
    state.territories["Peru"].owner = "green"
    state.seat("carol").alive = False
    for voter, code in (("ai:green", "not-playing"), ("carol", "not-playing"),
                        ("zoe", "unknown-player")):  # fmt: skip
        error = refused(state, VoteDraw(voter, agree=True))
        assert (error.code, error.field) == (code, "player")


def test_a_player_who_leaves_is_removed_from_the_votes():
    """RULES.md J8: bob agreed, then leaves; his vote goes with him (his army is an allied army
    now and cannot vote): alice's agreement alone does not end the game, carol's then does."""
    state = _three()
    state, _ = act(state, VoteDraw("bob", agree=True))
    state, _ = act(state, Leave("bob"))
    assert state.draw_votes == []
    state, _ = act(state, VoteDraw("alice", agree=True))
    assert not state.over and state.draw_votes == ["alice"]
    state, events = act(state, VoteDraw("carol", agree=True))
    assert of_type(events, "game_over")[0]["how"] == "draw"


def test_the_holdout_leaving_makes_the_remaining_votes_unanimous_at_once():
    """RULES.md J8, what happens when the one player who has not agreed leaves: alice and bob
    agreed, carol leaves. The votes of the players left are then unanimous, and the sweep at
    the end of carol's own Leave ends the game in a draw; no further action is needed."""
    state = _three(turn="alice")
    state, _ = act(state, VoteDraw("alice", agree=True))
    state, _ = act(state, VoteDraw("bob", agree=True))
    state, events = act(state, Leave("carol"))
    assert _types(events) == ["left", "game_over"]
    assert (of_type(events, "game_over")[0]["how"], state.winner) == ("draw", None)
    assert state.over


def test_eliminating_the_holdout_ends_the_game_in_a_draw():
    """RULES.md J8 with J4: alice and bob agreed; alice then takes carol's last territory, Peru
    (6 5 4 v 1). Carol is out (and off the votes); the live players left have all agreed, so the
    conquest ends the game in a draw rather than letting alice and bob play on."""
    state = _three(territories={"Alaska": ("alice", 10), "Kamchatka": ("bob", 3),
                                "Peru": ("carol", 1), "Venezuela": ("alice", 10)})  # fmt: skip
    state, _ = act(state, VoteDraw("alice", agree=True))
    state, _ = act(state, VoteDraw("bob", agree=True))
    state.turn.attacked.append("carol")
    state, _ = act(state, Attack("alice", "Peru", "normal", (("Venezuela", 3),)))
    state, _ = act(state, Roll("alice"), 6, 5, 4, 1)
    state, events = act(state, MoveIn("alice", 3))
    assert _types(events)[-2:] == ["eliminated", "game_over"]
    assert of_type(events, "game_over")[0]["how"] == "draw"
    assert state.winner is None
