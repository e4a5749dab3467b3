"""Rule-book scenarios: the choices a player makes -- dice in a normal attack (C1b), the standing
answers to a mobilization (M3), the ``reveal_once`` option, and joining during a declaration.

Each test quotes the sentence of the rule text or the RULES.md reading it checks. Dice are
stated in the order the engine rolls them: the cut of the Risk deck (a roll of the pile's size,
for a pile of 2+ cards) and its die when it hits, a die per revealed card, then for each battle
roll the attacker's dice and the defender's.

The board (as in test_rules_campaign): alice holds Alaska and Japan (10 each), both bordering
bob's Kamchatka; bob also holds Peru; the allied army ally-1 holds everything else.
"""

from __future__ import annotations

from risk.rules import events_for, legal_actions, new_game, pending_decisions, view_for
from risk.rules.actions import (
    Answer,
    Attack,
    Challenge,
    EndCampaign,
    EndTurn,
    Join,
    Mobilize,
    MoveIn,
    Place,
    Poker,
    Prefer,
    Retreat,
    Roll,
    TurnIn,
)
from risk.rules.engine import ActionSpec, Decision
from risk.rules.state import (
    ALLIED,
    END,
    MOBILIZE,
    PLAYER,
    REINFORCE,
    ROLLING,
    WON,
    GameState,
    Options,
)
from tests.risk.builders import act, decision_specs, make_state, of_type, refused
from tests.risk.builders import kamchatka_front as _state

MISS = ["Egypt", "Iceland"]  # a cut of 1 shows Egypt, ally-1's: no bonus for bob


def _normal(armies: int = 9) -> Attack:
    return Attack("alice", "Kamchatka", "normal", (("Alaska", armies),))


def _committed(armies: int) -> Attack:
    return Attack("alice", "Kamchatka", "committed", (("Alaska", armies),))


def _spec(state: GameState, player: str, kind: str) -> ActionSpec:
    (spec,) = [s for s in decision_specs(state, player) if s.type == kind]
    return spec


# --- C1b: dice in a normal attack -----------------------------------------------------------------


def test_the_attacker_chooses_how_many_dice_to_roll():
    """'Normal battles are conducted as in normal Risk, i.e., the attacker rolls up to three
    dice' (RULES.md C1b): alice rolls one die (6 v 4 3: one comparison, bob loses 1), then one
    again (6 v 2, bob's last army). Having rolled one die last, she may move in just one."""
    state, _ = act(_state(), _normal())
    state, events = act(state, Roll("alice", dice=1), 6, 4, 3)
    roll = of_type(events, "roll")[0]
    assert (roll["attacker"], roll["defender"], roll["defender_losses"]) == ([6], [4, 3], 1)
    assert state.territories["Kamchatka"].armies == 1
    state, _ = act(state, Roll("alice", dice=1), 6, 2)
    assert state.battle.stage == WON
    assert decision_specs(state, "alice") == [ActionSpec("move_in", {"min": 1, "max": 9})]


def test_the_dice_chosen_are_capped_by_the_block():
    """'the attacker rolls up to three dice' -- and no more than the armies in the block: a block
    of 2 asked to roll 3 rolls 2 (6 5 v 4 3)."""
    state, _ = act(_state(), _normal(2))
    state, events = act(state, Roll("alice", dice=3), 6, 5, 4, 3)
    assert of_type(events, "roll")[0]["attacker"] == [6, 5]
    assert state.battle.stage == WON


def test_dice_outside_one_to_three_are_refused():
    """'the attacker rolls up to three dice' (RULES.md C1b: 1-3)."""
    state, _ = act(_state(), _normal())
    for dice in (4, -1):
        error = refused(state, Roll("alice", dice=dice), 6, 6, 6, 6, 1, 1)
        assert (error.code, error.field) == ("dice", "dice")


def test_no_dice_choice_in_a_committed_attack():
    """'This determines how many dice the attacker will roll': a committed block rolls one die
    per army, so a choice of dice is refused."""
    state, _ = act(_state(5), _committed(4))
    error = refused(state, Roll("alice", dice=2), 6, 6, 1, 1)
    assert (error.code, error.field) == ("dice", "dice")


def test_the_roll_spec_offers_the_dice_up_to_the_block():
    """RULES.md C1b: the ``roll`` spec lists the dice choices, 1-3 capped by the block: [1, 2, 3]
    for a block of 9, [1, 2] for a block of 2, none for a committed block."""
    state, _ = act(_state(), _normal())
    assert _spec(state, "alice", "roll").options["dice"] == [1, 2, 3]
    state, _ = act(_state(), _normal(2))
    assert _spec(state, "alice", "roll").options["dice"] == [1, 2]
    state, _ = act(_state(5), _committed(4))
    assert _spec(state, "alice", "roll").options.get("dice", []) == []


def test_a_defender_may_prefer_to_roll_one_die():
    """'the defender rolls up to two dice' (RULES.md C1b): bob's standing preference, set during
    alice's turn, makes him roll one die although he has 2 armies: 6 5 4 v 3."""
    state = _state()
    state, events = act(state, Prefer("bob", defence_dice=1))
    assert list(events) == [
        {"type": "preferences", "seat": "bob", "defence_dice": 1, "reveal": "ask"}
    ]
    state, _ = act(state, _normal())
    state, events = act(state, Roll("alice"), 6, 5, 4, 3)
    roll = of_type(events, "roll")[0]
    assert (roll["defender"], roll["defender_losses"]) == ([3], 1)
    assert state.territories["Kamchatka"].armies == 1


def test_the_defence_preference_does_not_touch_committed_attacks():
    """'The defender rolls one less number of dice. Both sides must roll this number of dice':
    against a commitment of 4 bob rolls 3 dice whatever his preference."""
    state, _ = act(_state(5), Prefer("bob", defence_dice=1))
    state, _ = act(state, _committed(4))
    state, events = act(state, Roll("alice"), 6, 6, 6, 6, 1, 1, 1)
    assert of_type(events, "roll")[0]["defender"] == [1, 1, 1]


def test_a_defence_of_three_dice_is_refused():
    """'the defender rolls up to two dice': a preference of 3 (or 0) is refused."""
    for dice in (3, 0):
        error = refused(_state(), Prefer("bob", defence_dice=dice))
        assert (error.code, error.field) == ("defence_dice", "defence_dice")
    error = refused(_state(), Prefer("bob", reveal="never"))
    assert (error.code, error.field) == ("reveal", "reveal")


def test_preferences_are_public():
    """RULES.md M3: 'whether the game waits for a mobilization decision never depends on hidden
    cards', only on public facts, the standing preferences among them (state.py: 'Standing
    preferences (public ...)'). Alice sees bob's preferences in her view of his seat."""
    state, _ = act(_state(), Prefer("bob", defence_dice=1, reveal="reveal-all"))
    (seat,) = [s for s in view_for(state, "alice")["seats"] if s["id"] == "bob"]
    assert (seat.get("defence_dice"), seat.get("reveal")) == (1, "reveal-all")


# --- M3: when the defender is asked --------------------------------------------------------------


def _attacked(hand: list[str], **kwargs) -> tuple[GameState, list]:
    """Alice's normal attack on Kamchatka, bob's first this turn; the cut (1 of 2) misses."""
    state = _state(mobilized=False, risk_draw=MISS, risk_hands={"bob": hand}, **kwargs)
    return act(state, _normal(), 1)


def test_a_player_holding_cards_is_asked_even_with_none_eligible():
    """'optionally reveal one or more cards from their hand showing owned territories' (RULES.md
    M3: the game waits on public facts only -- the preference "ask" and a non-empty hand --
    never on which cards are held). Holding Japan (alice's) or Peru (his own), bob is asked
    alike; only the cards offered differ, and he sees them alone."""
    state, _ = _attacked(["Japan"])
    other, _ = _attacked(["Peru"])
    for s in (state, other):
        assert s.battle.stage == MOBILIZE
        assert s.battle.mobilization == {"cut": "Egypt", "wild_rolls": [], "may_reveal": True}
        assert pending_decisions(s) == [Decision("bob", "bob", "mobilize")]
    assert _spec(state, "bob", "mobilize").options == {
        "cards": [], "wild_dice": 0, "territories": ["Kamchatka", "Peru"],
    }  # fmt: skip
    assert _spec(other, "bob", "mobilize").options["cards"] == ["Peru"]
    state, events = act(state, Mobilize("bob"))
    assert of_type(events, "mobilized") == [
        {"type": "mobilized", "seat": "bob", "revealed": [], "placed": {}}
    ]
    assert state.battle.stage == ROLLING


def test_a_player_with_an_empty_hand_is_not_asked():
    """RULES.md M3: with no card in hand (a public count) and a cut that missed, bob has nothing
    to decide: the battle opens at once."""
    state, events = _attacked([])
    assert of_type(events, "cut")[0]["armies"] is None
    assert (state.battle.stage, state.battle.mobilization) == (ROLLING, None)
    assert pending_decisions(state) == [Decision("alice", "alice", "battle:rolling")]


def test_a_player_with_an_empty_hand_is_asked_where_a_wild_cut_goes():
    """'If the cut shows a wild card ... the mobilization bonus may be placed at the attacked
    player's free choice': bob, with no card, is asked only where the die (4) goes."""
    state = _state(mobilized=False, risk_draw=["Egypt", "wild"])
    state, _ = act(state, _normal(), 2, 4)
    assert state.battle.mobilization == {"cut": "wild", "wild_rolls": [4], "may_reveal": False}
    assert _spec(state, "bob", "mobilize").options["wild_dice"] == 1
    state, _ = act(state, Mobilize("bob", wild_territories=("Peru",)))
    assert state.territories["Peru"].armies == 5


def test_reveal_all_reveals_every_eligible_card_at_once_in_public():
    """'optionally reveal one or more cards from their hand showing owned territories and place a
    mobilization bonus on each' (RULES.md M3, ``Prefer(reveal="reveal-all")``): bob's Kamchatka
    (a die of 4 there) and wild (a die of 5) are revealed at once in a public event, Japan
    (alice's) is not; bob is asked only where the wild die goes."""
    state = _state(mobilized=False, risk_draw=MISS,
                   risk_hands={"bob": ["Kamchatka", "wild", "Japan"]})  # fmt: skip
    state, _ = act(state, Prefer("bob", reveal="reveal-all"))
    state, events = act(state, _normal(), 1, 4, 5)
    revealed = {"type": "revealed", "seat": "bob", "cards": ["Kamchatka", "wild"],
                "placed": {"Kamchatka": 4}, "wild_rolls": [5]}  # fmt: skip
    assert of_type(events, "revealed") == [revealed]
    assert revealed in events_for(state, events, "alice")  # nothing stripped: public
    assert state.territories["Kamchatka"].armies == 6
    assert state.battle.mobilization == {"cut": "Egypt", "wild_rolls": [5], "may_reveal": False}
    assert _spec(state, "bob", "mobilize").options["cards"] == []
    error = refused(state, Mobilize("bob", reveal=("Kamchatka",), wild_territories=("Peru",)))
    assert (error.code, error.field) == ("reveal", "reveal")
    state, _ = act(state, Mobilize("bob", wild_territories=("Peru",)))
    assert state.territories["Peru"].armies == 6 and state.battle.stage == ROLLING
    assert state.seat("bob").risk_cards == ["Kamchatka", "wild", "Japan"]  # they stay in hand


def test_reveal_all_without_a_wild_opens_the_battle_at_once():
    """RULES.md M3: with ``reveal-all`` and no wild die to place, bob has nothing left to decide:
    Peru is revealed (a die of 2 there) and the battle opens."""
    state = _state(mobilized=False, risk_draw=MISS, risk_hands={"bob": ["Peru"]})
    state, _ = act(state, Prefer("bob", reveal="reveal-all"))
    state, _ = act(state, _normal(), 1, 2)
    assert (state.battle.stage, state.territories["Peru"].armies) == (ROLLING, 3)


# --- the reveal_once option ----------------------------------------------------------------------


def _next_attack(state: GameState, *rolls: int) -> tuple[GameState, list]:
    """Alice retreats and ends her turn; bob plays a quiet turn (his 3 armies on Peru); alice
    places hers (3) and attacks Kamchatka again: bob's first attack of this turn (``rolls``)."""
    state, _ = act(state, Retreat("alice"))
    state, _ = act(state, EndCampaign("alice"))
    state, _ = act(state, EndTurn("alice"))
    state, _ = act(state, Place("bob", "Peru", 3))
    state, _ = act(state, EndCampaign("bob"))
    state, _ = act(state, EndTurn("bob"))
    state, _ = act(state, Place("alice", "Japan", 3))
    return act(state, _normal(), *rolls)


def test_with_reveal_once_a_revealed_card_is_not_eligible_again():
    """Option ``reveal_once``: a card revealed for a mobilization bonus is not shown again until
    it is turned in. Bob reveals Kamchatka (a die of 3); at alice's next turn he is asked again
    (he holds a card) but may not reveal it (code "reveal")."""
    state, _ = _attacked(["Kamchatka"], options=Options(reveal_once=True))
    assert _spec(state, "bob", "mobilize").options["cards"] == ["Kamchatka"]
    state, _ = act(state, Mobilize("bob", reveal=("Kamchatka",)), 3)
    assert state.seat("bob").revealed == ["Kamchatka"]
    state, _ = _next_attack(state, 1)
    assert state.battle.stage == MOBILIZE
    assert _spec(state, "bob", "mobilize").options["cards"] == []
    error = refused(state, Mobilize("bob", reveal=("Kamchatka",)), 3)
    assert (error.code, error.field) == ("reveal", "reveal")


def test_without_reveal_once_a_card_may_be_revealed_turn_after_turn():
    """'optionally reveal one or more cards from their hand' (the default: revealed cards stay in
    the hand and may be shown again): at alice's next turn bob reveals Kamchatka again (3, 2)."""
    state, _ = _attacked(["Kamchatka"])
    state, _ = act(state, Mobilize("bob", reveal=("Kamchatka",)), 3)
    assert state.seat("bob").revealed == []
    state, _ = _next_attack(state, 1)
    assert _spec(state, "bob", "mobilize").options["cards"] == ["Kamchatka"]
    before = state.territories["Kamchatka"].armies
    state, _ = act(state, Mobilize("bob", reveal=("Kamchatka",)), 2)
    assert state.territories["Kamchatka"].armies == before + 2


def test_with_reveal_once_a_card_turned_in_and_drawn_again_is_eligible_again():
    """Option ``reveal_once``: '... until it is turned in'. Bob revealed Kamchatka earlier; he
    turns it in (with Peru and a wild: armies 3 + 4, 2 more each on Kamchatka and Peru), takes
    Yakutsk (6 5 4 v 1), and at the end of his campaign draws from the empty pile: the discards
    are shuffled (rolls 3 and 2 leave Kamchatka on top) and he draws Kamchatka again. At
    alice's next attack it is eligible once more (the cut, 1 of 2, shows Peru: a die of 2)."""
    state = make_state(
        allies=("ally-1",),
        territories={"Alaska": ("alice", 10), "Japan": ("alice", 10),
                     "Kamchatka": ("bob", 10), "Peru": ("bob", 1), "Yakutsk": ("ally-1", 1)},
        risk_hands={"bob": ["Kamchatka", "Peru", "wild"]},
        risk_draw=[],
        turn="bob",
        phase=REINFORCE,
        options=Options(reveal_once=True),
    )  # fmt: skip
    state.seat("bob").revealed = ["Kamchatka"]
    state, _ = act(state, TurnIn("bob", ("Kamchatka", "Peru", "wild"), "armies"), 3, 4)
    assert state.seat("bob").revealed == []
    assert state.risk_deck.discard == ["Kamchatka", "Peru", "wild"]
    state, _ = act(state, Place("bob", "Kamchatka", 7))
    state.turn.attacked.append("ally-1")
    state, _ = act(state, Attack("bob", "Yakutsk", "normal", (("Kamchatka", 3),)))
    state, _ = act(state, Roll("bob"), 6, 5, 4, 1)
    state, _ = act(state, MoveIn("bob", 3))
    state, _ = act(state, EndCampaign("bob"), 3, 2)
    assert state.seat("bob").risk_cards == ["Kamchatka"]
    state, _ = act(state, EndTurn("bob"))
    state, _ = act(state, Place("alice", "Alaska", state.turn.to_place))
    state, _ = act(state, _normal(), 1, 2)
    assert state.battle.stage == MOBILIZE
    assert _spec(state, "bob", "mobilize").options["cards"] == ["Kamchatka"]


# --- joining while an allied army is being declared ----------------------------------------------


def _declaring(**kwargs) -> GameState:
    """Alice ends her turn declaring green (hearts); bob, holding 2c, may contest. Purple, the
    other allied army, holds the rest of the board."""
    settings = {
        "players": ("alice", "bob", "carol"),
        "allies": ("green", "purple"),
        "rest": "purple",
        "territories": {"Alaska": ("alice", 3), "Peru": ("bob", 3), "Iceland": ("carol", 3),
                        "Japan": ("green", 3)},
        "suits": {"green": ["h"], "purple": ["c", "d", "s"]},
        "poker_hands": {"alice": ["Ah"], "bob": ["2c"]},
        "risk_draw": ["Ural", "China", "Brazil"],
        "phase": END,
    }  # fmt: skip
    state = make_state(**{**settings, **kwargs})
    state, _ = act(state, EndTurn("alice", ally="green"))
    assert state.turn is None and state.contest.ally == "green"
    return state


def test_a_latecomer_may_join_another_ally_during_a_declaration():
    """'If a player turns up late and wants to join the game, they pick an allied army to take
    over. They immediately draw two Risk cards and one poker card' (RULES.md J1: at any time
    after set-up, except for an ally being played). While bob is asked, dave takes purple. Dave
    now holds a poker card and a pot, so he too is asked whether to contest ('One or more
    other players may contest this, provided they hold at least one poker card')."""
    state = _declaring()
    assert legal_actions(state, "dave") == [ActionSpec("join", {"allies": ["purple"]})]
    poker_top = state.poker_deck.draw[0]
    state, events = act(state, Join("dave", ally="purple"))
    assert of_type(events, "joined") == [{"type": "joined", "player": "dave", "seat": "purple"}]
    seat = state.seat("purple")
    assert (seat.kind, seat.player) == (PLAYER, "dave")
    assert (seat.risk_cards, seat.poker_cards) == (["Ural", "China"], [poker_top])
    assert state.turn is None and (state.contest.ally, state.contest.stage) == ("green", "asking")
    assert pending_decisions(state) == [
        Decision("bob", "bob", "challenge"),
        Decision("dave", "purple", "challenge"),
    ]


def test_the_declared_ally_cannot_be_joined_during_the_declaration():
    """RULES.md J1: 'except for an ally being played or fighting right now': green is being
    declared; the refusal says to join another allied army or wait for the declaration."""
    error = refused(_declaring(), Join("dave", ally="green"))
    assert (error.code, error.field) == ("ally-busy", "ally")
    assert "join another allied army" in error.reason
    assert "after the declaration" in error.reason


def test_a_latecomer_may_join_during_the_poker_hand():
    """RULES.md J1 during the poker hand (stage "poker"): dave takes purple and draws his two
    Risk cards at once ('They immediately draw two Risk cards and one poker card'); the poker
    deck is on the table for the hand, so his poker card is owed and dealt from the top of the
    deck when the hand is over (alice folds: the 9th card of the hand's deck, after 4 each)."""
    state = _declaring()
    state, _ = act(state, Challenge("bob", contest=True))
    state, _ = act(state, Answer("alice", demur=False))
    deck = state.contest.hand.deck
    state, events = act(state, Join("dave", ally="purple"))
    assert state.seat("purple").risk_cards == ["Ural", "China"]
    assert state.seat("purple").poker_cards == []
    assert of_type(events, "cards_drawn")[0]["poker"] == 0
    assert state.contest.owed == ["purple"]
    assert pending_decisions(state) == [
        Decision("alice", "alice", "poker"),
        Decision("bob", "bob", "poker"),
    ]
    state, _ = act(state, Poker("alice", "choose", ("Ah",)))
    state, _ = act(state, Poker("bob", "choose", ("2c",)))
    state, events = act(state, Poker("alice", "fold"))
    assert state.contest is None
    assert state.seat("purple").poker_cards == [deck[8]]
    assert of_type(events, "cards_drawn")[-1]["seat"] == "purple"


def test_no_joining_during_the_set_up():
    """'Joining and Leaving Mid-Game': the set-up is not mid-game (code "setting-up")."""
    state = new_game(["p1", "p2"], seed="join")
    assert state.seat("ally-1").kind == ALLIED
    assert refused(state, Join("dave", ally="ally-1")).code == "setting-up"
