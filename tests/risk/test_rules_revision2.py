"""Rule revision 2: the engine's deviations from the rule text found in an audit, and the host
options against the flanking loophole (risk/RULES.md A11, A12, H2b, H13, R8, C10, C11).

Each test quotes the sentence of the rule text it checks, and shows the reading of rule
revision 1 (stored games, ``Options(revision=1)``) where that one plays differently. Every die
is stated with ``FixedDice`` (a land roll: the attacker's dice, then the defender's).
"""

from __future__ import annotations

from risk.ai import odds as exact
from risk.rules import legal_actions, to_dict
from risk.rules.actions import (
    Answer,
    Attack,
    Cruise,
    NavalAttack,
    PlaceShip,
    Poker,
    Roll,
    TurnIn,
)
from risk.rules.bots import HIDDEN, redacted_state
from risk.rules.notation_moves import legal_moves_text
from risk.rules.state import CAMPAIGN, END, REINFORCE, ROLLING, GameState, Options
from risk.rules.upcast import stored_options, upcast
from tests.risk.builders import act, kamchatka_front, make_state, of_type, refused
from tests.risk.test_rules_allies import challenged, table


def spec(state: GameState, player: str, kind: str) -> dict | None:
    """The options of ``player``'s ``kind`` spec, or None when it is not offered."""
    found = [s.options for s in legal_actions(state, player) if s.type == kind]
    return found[0] if found else None


# --- A11: an allied army does not attack the player playing it -----------------------------------


def allied_turn(*, options: Options | None = None, alice_ship: bool = True) -> GameState:
    """Alice plays the allied army green this turn (its campaign). Green holds Kamchatka (10)
    with its ship G1 (3) cruising off it; alice holds Japan (3), bob Alaska (3), both bordering
    Kamchatka; alice's A1 (2) and bob's B1 (2) are in the Pacific with G1. Both players had
    their mobilization cut this turn already."""
    ships = {"G1": ("green", "Pacific:Kamchatka", 3), "B1": ("bob", "Pacific:New Guinea", 2)}
    if alice_ship:
        ships["A1"] = ("alice", "Pacific:Japan", 2)
    state = make_state(
        allies=("green",),
        territories={"Kamchatka": ("green", 10), "Japan": ("alice", 3), "Alaska": ("bob", 3)},
        ships=ships,
        turn="green",
        options=options,
    )
    state.turn.controller, state.turn.for_seat = "alice", "alice"
    state.turn.attacked += ["alice", "bob"]
    state.ships["G1"].cruising = True
    return state


def test_an_allied_army_does_not_attack_the_player_playing_it():
    """Rule text "Play Allied Army": a player 'may choose to play an allied army' and 'If a
    player takes territory using an allied army, they get an additional Risk card and poker
    card for themself': the army is the player's tool against the others. Alice's Japan is no
    target of green's (refused 'controller', not offered); bob's Alaska is."""
    state = allied_turn()
    error = refused(state, Attack("alice", "Japan", "normal", (("Kamchatka", 3),)))
    assert (error.code, error.field) == ("controller", "target")
    assert "alice, who plays this allied army this turn" in error.reason
    targets = spec(state, "alice", "attack")["targets"]
    assert "Japan" not in targets and targets["Alaska"] == ["Kamchatka"]
    state, _ = act(state, Attack("alice", "Alaska", "normal", (("Kamchatka", 3),)))
    assert (state.battle.defender, state.battle.stage) == ("bob", ROLLING)


def test_an_allied_army_does_not_land_on_the_player_playing_it():
    """The same reading for a landing: G1, one boat length from Japan (alice's, no ship of hers
    patrols the Pacific here), may not land there."""
    state = allied_turn(alice_ship=False)
    error = refused(state, Attack("alice", "Japan", "committed", (("G1", 2),)))
    assert (error.code, error.field) == ("controller", "target")
    assert "Japan" not in spec(state, "alice", "attack")["targets"]


def test_an_allied_army_does_not_engage_the_ships_of_the_player_playing_it():
    """The same reading at sea: G1 may engage bob's B1, not alice's A1 (both in its ocean)."""
    state = allied_turn()
    error = refused(state, NavalAttack("alice", ("G1",), "A1", "normal"))
    assert (error.code, error.field) == ("controller", "target")
    assert spec(state, "alice", "naval_attack")["defenders"] == {"bob": {"G1": ["B1"]}}


def test_revision_1_games_let_the_ally_attack_its_controller():
    """Stored games replay as they were played: before revision 2 nothing stopped it."""
    state = allied_turn(options=Options(revision=1))
    state, _ = act(state, Attack("alice", "Japan", "normal", (("Kamchatka", 3),)))
    assert state.battle.defender == "alice"
    assert "Japan" in spec(allied_turn(options=Options(revision=1)), "alice", "attack")["targets"]


# --- H13: captives already aboard commandeer the ship ----------------------------------------


def flanking_landing(options: Options | None = None) -> GameState:
    """Alice's A1 (2 aboard, and 1 of bob's armies held captive from an earlier landing this
    turn) and Kamchatka (5) each commit 2 to a flanking attack on bob's Japan (6)."""
    state = make_state(
        territories={"Japan": ("bob", 6), "Kamchatka": ("alice", 5)},
        ships={"A1": ("alice", "Pacific:Kamchatka", 2)},
        options=options,
    )
    state.turn.attacked.append("bob")
    state.ships["A1"].captured = {"bob": 1}
    state, _ = act(state, Cruise("alice", "A1"), 3, 3)
    state, _ = act(state, Attack("alice", "Japan", "flanking", (("A1", 2), ("Kamchatka", 2))))
    return state


def test_captives_already_aboard_commandeer_the_ship_for_the_defender():
    """'Captured armies on a ship do not count as crew, but they can serve to commandeer the
    ship for the defending player.' The ship's flank loses 1 1 v 6, Kamchatka's 1 1 v 6, the
    ship's last army 1 v 6: none captured in this battle, but bob's army captive aboard takes
    the ship for bob as its crew of 1."""
    state = flanking_landing()
    for rolls in ((1, 1, 6), (1, 1, 6), (1, 6)):
        state, events = act(state, Roll("alice"), *rolls)
    ship = state.ships["A1"]
    assert (ship.owner, ship.armies, ship.captured) == ("bob", 1, {})
    assert of_type(events, "commandeered") == [
        {"type": "commandeered", "ship": "A1", "by": "bob", "armies": 1}
    ]
    assert of_type(events, "ship_sunk") == []
    assert state.territories["Japan"].armies == 6


def test_revision_1_sinks_a_ship_holding_only_earlier_captives():
    """Revision 1 counted only the armies captured in the battle itself: the ship sank with
    bob's captive aboard."""
    state = flanking_landing(Options(revision=1))
    for rolls in ((1, 1, 6), (1, 1, 6), (1, 6)):
        state, events = act(state, Roll("alice"), *rolls)
    assert "A1" not in state.ships
    assert of_type(events, "ship_sunk") == [
        {"type": "ship_sunk", "ship": "A1", "owner": "alice", "armies": 1}
    ]


# --- H2b: a ship launched this turn may cruise ---------------------------------------------


def turn_in_state(hand: list[str], options: Options | None = None) -> GameState:
    """Alice's reinforcement: she holds Alaska (3), China (2) and Peru (1) and ``hand``."""
    return make_state(
        territories={"Alaska": ("alice", 3), "China": ("alice", 2), "Peru": ("alice", 1)},
        risk_hands={"alice": hand},
        phase=REINFORCE,
        options=options,
    )


def test_a_ship_launched_in_the_reinforcement_may_cruise_this_turn():
    """'A player may take action with each of their ships at least once per turn': the ship
    won by a turn-in (a die of 4) and launched off Alaska is offered a cruise, and sails 2 + 3
    boat lengths."""
    state = turn_in_state(["Alaska", "Argentina", "China"])
    state, _ = act(state, TurnIn("alice", ("Alaska", "Argentina", "China"), "ship"), 4)
    state, _ = act(state, PlaceShip("alice", "Arctic:Alaska"))
    assert state.ships["S1"].cruises == 1
    assert spec(state, "alice", "cruise") == {"ships": ["S1"]}
    state, _ = act(state, Cruise("alice", "S1"), 2, 3)
    ship = state.ships["S1"]
    assert (ship.cruising, ship.moves, ship.cruises, state.turn.phase) == (True, 5, 0, CAMPAIGN)


def test_revision_1_launches_the_ship_without_a_cruise():
    state = turn_in_state(["Alaska", "Argentina", "China"], Options(revision=1))
    state, _ = act(state, TurnIn("alice", ("Alaska", "Argentina", "China"), "ship"), 4)
    state, _ = act(state, PlaceShip("alice", "Arctic:Alaska"))
    assert state.ships["S1"].cruises == 0 and spec(state, "alice", "cruise") is None
    assert refused(state, Cruise("alice", "S1"), 2, 3).code == "no-cruise"


# --- R8: one turn-in a turn, more only while 5 or more cards are held ------------------------

INFANTRY = ["Alaska", "Argentina", "China", "Congo", "East Africa", "Egypt", "Iceland", "Peru"]


def test_eight_cards_turn_in_twice():
    """'A player gets either: ...' one reward a turn, but a hand of 5 or more must be turned in
    before the campaign (RULES.md R4): 8 cards -> 5 after the first set, so a second is
    allowed (and offered); then 2 are left and the campaign may start."""
    state = turn_in_state(INFANTRY)
    state, _ = act(state, TurnIn("alice", ("Alaska", "Argentina", "China"), "armies"), 1, 2)
    assert len(state.seat("alice").risk_cards) == 5 and state.turn.turned_in == 1
    assert spec(state, "alice", "turn_in") is not None
    state, _ = act(state, TurnIn("alice", ("Congo", "East Africa", "Egypt"), "armies"), 3, 4)
    assert (state.turn.turned_in, state.turn.to_place) == (2, 1 + 2 + 3 + 4)
    assert state.seat("alice").risk_cards == ["Iceland", "Peru"]


def test_six_cards_turn_in_once_then_the_three_left_wait():
    """'A player gets either: ...': 6 cards -> 3 after the first set; a second set is refused
    ('one-turn-in') and not offered, and the campaign may start with the 3 in hand."""
    hand = INFANTRY[:6]
    state = turn_in_state(hand)
    state, _ = act(state, TurnIn("alice", ("Alaska", "Argentina", "China"), "armies"), 1, 1)
    error = refused(state, TurnIn("alice", ("Congo", "East Africa", "Egypt"), "armies"), 1, 1)
    assert (error.code, error.field) == ("one-turn-in", "cards")
    assert "you hold 3" in error.reason
    assert spec(state, "alice", "turn_in") is None
    assert spec(state, "alice", "place") == {"territories": ["Alaska", "China", "Peru"],
                                             "min": 1, "max": 2}  # fmt: skip


def test_revision_1_turns_in_any_number_of_sets():
    state = turn_in_state(INFANTRY[:6], Options(revision=1))
    state, _ = act(state, TurnIn("alice", ("Alaska", "Argentina", "China"), "armies"), 1, 1)
    assert spec(state, "alice", "turn_in") is not None
    state, _ = act(state, TurnIn("alice", ("Congo", "East Africa", "Egypt"), "armies"), 1, 1)
    assert state.seat("alice").risk_cards == [] and state.turn.to_place == 4


# --- A12: the poker stash card stays in the hand ----------------------------------------------


def at_the_draw(options: Options | None = None) -> GameState:
    """Alice declared green and bob contests; alice chose her one stash card Ah (dealt Ad As Ac
    Kh), bob his 2c; both checked: alice draws."""
    state = table()
    if options is not None:
        state.options = options
    state, _ = act(challenged(state), Answer("alice", demur=False))
    for move in (Poker("alice", "choose", cards=("Ah",)), Poker("bob", "choose", cards=("2c",)),
                 Poker("alice", "check"), Poker("bob", "check")):  # fmt: skip
        state, _ = act(state, move)
    return state


def test_the_draw_keeps_the_stash_card_in_the_hand():
    """Rule text "Playing Poker": 'In order to take part in a poker game, a player must be
    holding at least one poker card in their "stash," and must use at least one of these cards
    in their hand.' Alice may not discard Ah, her only stash card; the draw spec says so
    (keep, keep_one) and her other cards may go."""
    state = at_the_draw()
    draw = spec(state, "alice", "poker")["draw"]
    assert (draw["keep"], draw["keep_one"]) == (["Ah"], True)
    assert legal_moves_text(state, "alice")[0].endswith(
        "keep one of Ah unless replaced from the stash"
    )
    error = refused(state, Poker("alice", "draw", cards=("Ah",)))
    assert error.code == "keep-stash-card"
    state, _ = act(state, Poker("alice", "draw", cards=("Kh",)))
    assert state.contest.hand.seats[0].hand == ("Ah", "Ad", "As", "Ac", "4h")
    # which cards of alice's hand came from her stash is hers to know
    seen = redacted_state(state, "bob").contest.hand.seats[0]
    assert seen.stash_cards == (HIDDEN,)


def test_revision_1_lets_the_draw_replace_the_stash_card():
    state = at_the_draw(Options(revision=1))
    assert "keep" not in spec(state, "alice", "poker")["draw"]
    state, _ = act(state, Poker("alice", "draw", cards=("Ah",)))
    assert state.contest.hand.seats[0].hand == ("Ad", "As", "Ac", "Kh", "4h")


# --- C10, C11: host options against the flanking loophole -----------------------------------


def test_min_commitment_raises_the_least_block():
    """Option ``min_commitment`` (C10) departs from 'the attacker commits two separate blocks
    of troops' with no least size (the engine's least was 2, C2): with 3, a committed block of
    2 is refused and the room offered starts at 3; flanks of 3 and 3 are accepted."""
    state = kamchatka_front(5, options=Options(min_commitment=3))
    error = refused(state, Attack("alice", "Kamchatka", "committed", (("Alaska", 2),)))
    assert (error.code, error.field) == ("armies", "flanks")
    assert "at least 3 armies" in error.reason
    room = spec(state, "alice", "attack")["room"]
    assert room["Alaska"] == {"normal": [1, 9], "committed": [3, 9]}
    flanks = (("Alaska", 3), ("Japan", 3))
    state, _ = act(state, Attack("alice", "Kamchatka", "flanking", flanks))
    assert [f.commitment for f in state.battle.flanks] == [3, 3]


def test_min_commitment_narrows_the_flanks_of_one_source():
    """Two flanks of ``min_commitment`` from one source need twice that to spare: Alaska (7,
    6 to spare) alone may flank Kamchatka with a least of 3, not of 4."""
    for least, flanking in ((3, True), (4, False)):
        state = make_state(territories={"Alaska": ("alice", 7), "Kamchatka": ("bob", 2)},
                           options=Options(min_commitment=least))  # fmt: skip
        modes = spec(state, "alice", "attack")["modes"]["Kamchatka"]
        assert ("flanking" in modes) is flanking


def test_min_commitment_at_sea():
    """The same least for a naval block: A1 (3) may not commit 2 against B1 with a least of 3;
    the naval spec's committed and flanking limits say 3."""
    state = make_state(
        territories={"Kamchatka": ("alice", 2)},
        ships={"A1": ("alice", "Pacific:Kamchatka", 3), "B1": ("bob", "Pacific:Japan", 2)},
        options=Options(min_commitment=3),
    )
    state.turn.attacked.append("bob")
    state.ships["A1"].cruising = True
    error = refused(state, NavalAttack("alice", ("A1",), "B1", "committed", armies=2))
    assert (error.code, error.field) == ("armies", "armies")
    assert spec(state, "alice", "naval_attack")["modes"]["committed"]["min_armies"] == 3


def test_defender_dice_normal_rolls_two_against_a_block_of_two():
    """Option ``defender_dice="normal"`` (C11) departs from 'the defender rolls one less number
    of dice than the number of attacking troops committed ... every time': against a committed
    block of 2 Kamchatka (5) rolls 2 dice, as against a normal attack. 6 5 v 4 3: two
    defenders fall. By the text's rule the same block meets 1 die (6 5 v 4): one falls."""
    block = Attack("alice", "Kamchatka", "committed", (("Alaska", 2),))
    state, _ = act(kamchatka_front(5, options=Options(defender_dice="normal")), block)
    state, events = act(state, Roll("alice"), 6, 5, 4, 3)
    roll = of_type(events, "roll")[0]
    assert (roll["attacker"], roll["defender"]) == ([6, 5], [4, 3])
    assert state.territories["Kamchatka"].armies == 3
    state, _ = act(kamchatka_front(5), block)
    state, _ = act(state, Roll("alice"), 6, 5, 4)
    assert state.territories["Kamchatka"].armies == 4


def test_defender_dice_normal_against_flanks():
    """Flanks of 2 and 2 on Kamchatka (5): the defender rolls 2 dice; 6 6 v 5 5 (with the +1)
    is a total defeat, two fall and one is captured. With one army left it rolls 1 die."""
    flanks = (("Alaska", 2), ("Japan", 2))
    state = kamchatka_front(5, options=Options(defender_dice="normal"))
    state, _ = act(state, Attack("alice", "Kamchatka", "flanking", flanks))
    state, events = act(state, Roll("alice"), 6, 6, 5, 5)
    assert of_type(events, "roll")[0]["captured"] == 1
    assert (state.territories["Kamchatka"].armies, state.battle.flanks[0].captured) == (3, 1)
    state = kamchatka_front(1, options=Options(defender_dice="normal"))
    state, _ = act(state, Attack("alice", "Kamchatka", "flanking", flanks))
    state, _ = act(state, Roll("alice"), 6, 6, 5)
    assert state.battle.stage == "won"


def test_the_ai_odds_follow_the_defender_dice_option():
    """``risk.ai.odds.block`` with the game's options: a block of 2 (no reserves) against 2
    defenders rolling 2 dice. 2 v 2: both defenders fall 295/1296, one each 420/1296; then 1
    die against 1 wins 15/36. Win = 295/1296 + 420/1296 * 15/36."""
    odds = exact.block(2, 2, False, Options(defender_dice="normal"))
    assert abs(odds.win - (295 / 1296 + 420 / 1296 * 15 / 36)) < 1e-12
    # The text's dice: 2 against 1 while the block stands at 2 (the defender loses a roll
    # 125/216), 1 against 1 (15/36) once it is down to 1.
    p, q = 125 / 216, 15 / 36
    by_text = p * (p + (1 - p) * q) + (1 - p) * q * q
    assert abs(exact.block(2, 2, False).win - by_text) < 1e-12
    assert abs(exact.block(2, 2, False, Options()).win - by_text) < 1e-12


def test_options_and_turn_counts_of_older_saves():
    """Games stored before the options played by the text: ``V2_OPTIONS`` gives them
    min_commitment 2 and defender_dice "commitment"; a turn under way counts no turn-in."""
    data = to_dict(make_state(phase=END))
    data["version"] = 2
    for name in ("revision", "min_commitment", "defender_dice"):
        del data["options"][name]
    del data["turn"]["turned_in"]
    data = upcast(data)
    assert data["turn"]["turned_in"] == 0
    assert (data["options"]["min_commitment"], data["options"]["defender_dice"]) == (
        2,
        "commitment",
    )
    assert stored_options(Options().to_dict()) == Options()
