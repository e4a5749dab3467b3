"""Rule-book scenarios: an allied army attacked (who decides for it) and an army beaten by a
player who was playing an allied army (who takes its cards).

Each test quotes the sentence of the rule text or the RULES.md reading (M4, J4) it checks. The
seats sit alice, bob, carol, then the allied armies green and grey, in that turn order. Dice are
stated with ``FixedDice``: a cruise rolls two dice, a battle roll the attacker's dice then the
defender's.
"""

from __future__ import annotations

from risk.rules import pending_decisions
from risk.rules.actions import (
    Attack,
    Challenge,
    Cruise,
    EndTurn,
    JoinDefence,
    Leave,
    MoveIn,
    NavalAttack,
    Place,
    Prize,
    Roll,
)
from risk.rules.engine import Decision, defending_actor
from risk.rules.state import END, JOIN, ROLLING, GameState, Options
from tests.risk.builders import act, decision_specs, make_state, of_type, refused

PLAYERS = ("alice", "bob", "carol")


def _green_at_sea(turn: str, options: Options | None = None) -> GameState:
    """``turn``'s campaign: their ship X1 (4) off Japan is cruising; green's G1 (2) off Kamchatka
    and G2 (2) off Alaska lie in the Pacific too, G3 (3) in the Arctic. Alice holds Japan, bob
    Peru, carol Iceland; green the rest. Green has had its mobilization bonus this turn."""
    state = make_state(
        players=PLAYERS,
        allies=("green",),
        rest="green",
        territories={"Japan": ("alice", 3), "Peru": ("bob", 3), "Iceland": ("carol", 3)},
        ships={
            "X1": (turn, "Pacific:Japan", 4),
            "G1": ("green", "Pacific:Kamchatka", 2),
            "G2": ("green", "Pacific:Alaska", 2),
            "G3": ("green", "Arctic:Alaska", 3),
        },
        turn=turn,
        options=options,
    )
    state.turn.attacked.append("green")
    state, _ = act(state, Cruise(turn, "X1"), 3, 3)
    return state


# --- M4: who decides for an attacked allied army ----------------------------------------------


def test_the_next_player_after_the_attacker_sends_in_the_allys_other_ships():
    """'the defender is free to send in any other unattacked ships in the same ocean as desired',
    and for an allied army 'by the player rolling the defending dice in the case of an allied
    army' (RULES.md M4): the next live player after the attacking person. Alice engages G1;
    bob decides whether G2 (Pacific) joins -- not alice, not green's AI; G3 (Arctic) may not."""
    state = _green_at_sea("alice")
    state, _ = act(state, NavalAttack("alice", ("X1",), "G1", "normal"))
    assert state.battle.stage == JOIN
    assert pending_decisions(state) == [Decision("bob", "green", "join_defence")]
    (spec,) = decision_specs(state, "bob")
    assert (spec.type, spec.options["ships"]) == ("join_defence", ["G2"])
    assert decision_specs(state, "alice") == []
    for speaker in ("alice", "ai:green", "carol"):
        error = refused(state, JoinDefence(speaker, ("G2",)))
        assert (error.code, error.field) == ("not-your-turn", "player")
    state, events = act(state, JoinDefence("bob", ("G2",)))
    assert of_type(events, "defence_joined") == [
        {"type": "defence_joined", "defender": "green", "ships": ["G2"], "behind": ["G1"]}
    ]
    assert (state.battle.stage, state.battle.defending_ships) == (ROLLING, ["G1", "G2"])


def test_the_next_player_is_found_round_the_table_past_allied_armies():
    """RULES.md M4: 'the next live player in turn order after the attacking person'. Carol
    attacks; after her sits green (allied, skipped), then alice, round the table."""
    state = _green_at_sea("carol")
    state, _ = act(state, NavalAttack("carol", ("X1",), "G1", "normal"))
    assert pending_decisions(state) == [Decision("alice", "green", "join_defence")]


def test_a_player_who_left_is_skipped():
    """RULES.md M4 with J2 ('their army becomes an allied army'): carol has left, so when bob
    attacks, the next live player after him is alice (past carol's seat and green's)."""
    state = _green_at_sea("bob")
    state, _ = act(state, Leave("carol"))
    state, _ = act(state, NavalAttack("bob", ("X1",), "G1", "normal"))
    assert pending_decisions(state) == [Decision("alice", "green", "join_defence")]


def test_with_the_ai_option_the_allys_ai_sends_in_its_ships():
    """Option ``ally_defender="ai"`` (RULES.md M4): the allied army's own AI, speaking as
    ``ai:green``, decides; it may keep G2 out, and the battle opens."""
    state = _green_at_sea("alice", Options(ally_defender="ai"))
    state, _ = act(state, NavalAttack("alice", ("X1",), "G1", "normal"))
    assert pending_decisions(state) == [Decision("ai:green", "green", "join_defence")]
    assert refused(state, JoinDefence("bob", ())).code == "not-your-turn"
    state, events = act(state, JoinDefence("ai:green", ()))
    assert (state.battle.stage, state.battle.defending_ships) == (ROLLING, ["G1"])
    assert of_type(events, "defence_joined")[0]["ships"] == []


def _declared(**kwargs) -> GameState:
    """Alice ends her turn declaring green; nobody can contest (no poker cards), so she plays it.
    Green holds Japan (3 armies to place: 3 there) and a ship G1 (4) off Japan; grey, the other
    allied army, holds the rest of the board; bob Peru, carol Iceland; alice Alaska."""
    settings = {
        "players": PLAYERS,
        "allies": ("green", "grey"),
        "rest": "grey",
        "territories": {
            "Alaska": ("alice", 3), "Japan": ("green", 3), "Peru": ("bob", 3),
            "Iceland": ("carol", 3),
        },
        "ships": {"G1": ("green", "Pacific:Japan", 4)},
        "phase": END,
    }  # fmt: skip
    state = make_state(**{**settings, **kwargs})
    state, _ = act(state, EndTurn("alice", ally="green"))
    assert (state.turn.seat, state.turn.controller, state.turn.for_seat) == (
        "green",
        "alice",
        "alice",
    )
    state, _ = act(state, Place("alice", "Japan", 3))
    return state


def test_when_a_player_plays_an_allied_army_the_attacking_person_is_that_player():
    """RULES.md M4: the attacking person is the player playing the allied army. Alice plays green
    and engages grey's Y1; grey's Y2 may join. Bob, the next player after alice, decides -- not
    alice herself, who would come next after green's seat (grey being an allied army)."""
    ships = {"G1": ("green", "Pacific:Japan", 4), "Y1": ("grey", "Pacific:Kamchatka", 2),
             "Y2": ("grey", "Pacific:Peru", 2)}  # fmt: skip
    state = _declared(ships=ships)
    state.turn.attacked.append("grey")
    state, _ = act(state, Cruise("alice", "G1"), 3, 3)
    state, _ = act(state, NavalAttack("alice", ("G1",), "Y1", "normal"))
    assert defending_actor(state, "grey") == "bob"
    assert pending_decisions(state) == [Decision("bob", "grey", "join_defence")]
    assert refused(state, JoinDefence("alice", ("Y2",))).code == "not-your-turn"
    state, _ = act(state, JoinDefence("bob", ("Y2",)))
    assert state.battle.defending_ships == ["Y1", "Y2"]


# --- J4: the cards of a beaten army ------------------------------------------------------------


def test_poker_cards_go_to_the_player_playing_the_ally_risk_cards_to_the_ally():
    """RULES.md J4: 'the seat that beat it takes its Risk and poker cards' (design.md), read as:
    its Risk cards go to the army that beat it, its poker cards to the PERSON who beat it, also
    when that person was playing an allied army. Alice plays green, bob letting it pass; green
    takes Indonesia, bob's last territory (6 5 4 v 1). Green gets bob's Peru and wild; alice,
    who played green, bob's Kd."""
    state = make_state(
        players=PLAYERS,
        allies=("green", "grey"),
        rest="grey",
        territories={"Alaska": ("alice", 3), "Siam": ("green", 4), "Indonesia": ("bob", 1),
                     "Iceland": ("carol", 3)},
        risk_hands={"bob": ["Peru", "wild"]},
        poker_hands={"bob": ["Kd"]},
        phase=END,
    )  # fmt: skip
    state, _ = act(state, EndTurn("alice", ally="green"))
    state, _ = act(state, Challenge("bob", contest=False))
    state, _ = act(state, Place("alice", "Siam", 3))
    state.turn.attacked.append("bob")
    state, _ = act(state, Attack("alice", "Indonesia", "normal", (("Siam", 3),)))
    state, _ = act(state, Roll("alice"), 6, 5, 4, 1)
    state, events = act(state, MoveIn("alice", 3))
    assert of_type(events, "eliminated") == [
        {"type": "eliminated", "seat": "bob", "by": "green", "risk_cards": 2, "poker_cards": 1,
         "poker_to": "alice"}
    ]  # fmt: skip
    assert state.seat("green").risk_cards == ["Peru", "wild"]
    assert (state.seat("green").poker_cards, state.seat("alice").poker_cards) == ([], ["Kd"])
    assert state.seat("alice").risk_cards == []
    assert (state.seat("bob").risk_cards, state.seat("bob").poker_cards) == ([], [])
    assert not state.over and state.turn.seat == "green"


def test_an_allied_pirate_sunk_by_a_played_ally_gives_its_poker_cards_to_the_player():
    """RULES.md J4 at sea ('If all of a pirate's ships are defeated at sea'): grey, an allied
    army with no territory, holds Egypt and Qs (a leaver's cards stay with the army: 'Any poker
    cards they have remain with the new allied army ... may be seized ... if the new allied army
    is completely defeated by another player'). Alice plays green; G1 (4) empties grey's last
    ship Y1 (1) with 6 5 4 v 3 (grey has no land: no cut) and lets the prize sink."""
    ships = {"G1": ("green", "Pacific:Japan", 4), "Y1": ("grey", "Pacific:Kamchatka", 1)}
    state = _declared(
        ships=ships,
        rest="carol",
        risk_hands={"grey": ["Egypt"]},
        poker_hands={"grey": ["Qs"]},
    )
    state, _ = act(state, Cruise("alice", "G1"), 3, 3)
    state, _ = act(state, NavalAttack("alice", ("G1",), "Y1", "normal"))
    state, _ = act(state, Roll("alice"), 6, 5, 4, 3)
    state, events = act(state, Prize("alice", "Y1"))
    assert of_type(events, "eliminated") == [
        {"type": "eliminated", "seat": "grey", "by": "green", "risk_cards": 1, "poker_cards": 1,
         "poker_to": "alice"}
    ]  # fmt: skip
    assert state.seat("green").risk_cards == ["Egypt"]
    assert state.seat("alice").poker_cards == ["Qs"]
    assert not state.seat("grey").alive
