"""Rule-book scenarios: "Play Allied Army" and "Playing Poker" (the game's side of the hand).

Each test quotes the sentence of the rule text (or design.md section 5) it checks. The poker hand
itself is ``combat.poker.draw`` (tested on its own); these tests play it through
``Poker(move=...)`` actions and check what the game does around it: who is asked, the betting
pots, the cards, and who plays next. The poker draw pile is stacked so every deal is known.
"""

from __future__ import annotations

from combat.poker.cards import DECK as POKER_DECK
from risk.rules import pending_decisions
from risk.rules.actions import (
    Answer,
    Attack,
    Challenge,
    EndCampaign,
    EndTurn,
    Leave,
    MoveIn,
    Place,
    Poker,
    Roll,
    Transfer,
)
from risk.rules.engine import Decision
from risk.rules.state import END, GameState, Options
from tests.risk.builders import act, make_state, of_type, refused

ALICE = ["Eastern Australia", "Western Australia", "New Guinea", "Indonesia"]  # 3 + Australia 2
BOB = ["North Africa", "Egypt", "East Africa", "Congo", "South Africa", "Madagascar"]  # 3 + 3
CAROL = ["Iceland", "Great Britain"]  # 3
DEALT = ["Ad", "As", "Ac", "Kh", "3d", "7s", "9c", "Jd", "4h", "5h"]  # alice's 4, bob's 4, draws


def table(
    *,
    alice: tuple[str, ...] = ("Ah",),
    bob: tuple[str, ...] = ("2c",),
    green: tuple[str, ...] = (),
    dealt: list[str] = DEALT,
) -> GameState:
    """The end of alice's turn. Players alice, bob, carol; the allied army green (hearts) holds
    every territory not named above; alice has a factory on Indonesia (not staked at poker)."""
    territories = {t: ("alice", 2) for t in ALICE}
    territories |= {t: ("bob", 2) for t in BOB}
    territories |= {t: ("carol", 2) for t in CAROL}
    held = set(alice) | set(bob) | set(green) | set(dealt)
    return make_state(
        players=("alice", "bob", "carol"),
        allies=("green",),
        territories=territories,
        factories=["Indonesia"],
        poker_hands={"alice": alice, "bob": bob, "green": green},
        suits={"green": ["h"]},
        poker_draw=list(dealt) + [c for c in POKER_DECK if c not in held],
        phase=END,
    )


def declared(state: GameState) -> GameState:
    state, _ = act(state, EndTurn("alice", ally="green"))
    return state


def challenged(state: GameState) -> GameState:
    state = declared(state)
    state, _ = act(state, Challenge("bob", contest=True))
    return state


def to_showdown(state: GameState, alice_chooses: str = "Ah") -> GameState:
    """Bob challenges, alice plays; both choose one stash card; alice bets, bob calls; alice
    stands pat, bob draws two; both check; alice (the called player) is shown, bob shows."""
    state = challenged(state)
    state, _ = act(state, Answer("alice", demur=False))
    state, _ = act(state, Poker("alice", "choose", cards=(alice_chooses,)))
    state, _ = act(state, Poker("bob", "choose", cards=("2c",)))
    state, _ = act(state, Poker("alice", "bet"))
    state, _ = act(state, Poker("bob", "call"))
    state, _ = act(state, Poker("alice", "draw"))
    state, _ = act(state, Poker("bob", "draw", cards=("3d", "7s")))
    state, _ = act(state, Poker("alice", "check"))
    state, _ = act(state, Poker("bob", "check"))
    return state


# --- declaring and playing an ally ----------------------------------------------------------------


def test_unchallenged_declarer_plays_the_ally_at_once():
    """'A player declares they want to play an allied army, and which one. One or more other
    players may contest this, provided they hold at least one poker card': with nobody able to
    contest, alice plays green's turn straight away."""
    state, events = act(table(bob=()), EndTurn("alice", ally="green"))
    turn = state.turn
    assert (turn.seat, turn.for_seat, turn.controller) == ("green", "alice", "alice")
    assert [e["type"] for e in events][:3] == ["turn_ended", "ally_declared", "ally_played"]
    assert pending_decisions(state) == [Decision("alice", "green", "reinforce")]
    assert state.contest is None


def test_the_ally_gets_all_the_bonuses_of_a_player():
    """'An allied army gets all of the same army bonuses as a player': green holds Australia (4
    territories: 3, the continent: 2) and a factory on Indonesia (2 armies there)."""
    state = make_state(
        allies=("green",),
        territories={t: ("green", 1) for t in ALICE} | {"Iceland": ("alice", 1)},
        rest="bob",
        factories=["Indonesia"],
        phase=END,
    )
    state, events = act(state, EndTurn("alice", ally="green"))
    assert state.turn.to_place == 5
    assert state.territories["Indonesia"].armies == 3
    started = of_type(events, "turn_started")[0]
    assert (started["reinforcements"], started["factory_armies"]) == (5, 2)


def test_the_declarer_seizes_the_allys_poker_cards():
    """'Any poker cards they have remain with the new allied army and may be seized by the first
    player who manages to play the allied army (by a poker win or if unchallenged)'."""
    state, events = act(table(bob=(), green=("Kc", "2h")), EndTurn("alice", ally="green"))
    assert state.seat("alice").poker_cards == ["Ah", "Kc", "2h"]
    assert state.seat("green").poker_cards == []
    assert of_type(events, "poker_cards_seized")[0]["count"] == 2


def test_the_ally_gets_its_own_troop_transfer_then_the_next_player_plays():
    """'The allied army gets a troop transfer.' After the allied turn the player after the
    declarer (bob) plays, in the same round."""
    state = make_state(
        players=("alice", "bob", "carol"),
        allies=("green",),
        territories={t: ("green", 1) for t in ALICE}
        | {"Iceland": ("alice", 1), "Great Britain": ("carol", 1)},
        rest="bob",
        factories=["Indonesia"],
        phase=END,
    )
    state = declared(state)
    state, _ = act(state, Place("alice", "Indonesia", 5))
    state, _ = act(state, EndCampaign("alice"))
    state, _ = act(state, Transfer("alice", "Indonesia", "Eastern Australia", 6))
    assert state.territories["Eastern Australia"].armies == 7
    assert refused(state, Transfer("alice", "New Guinea", "Eastern Australia", 1)).code == (
        "transferred"
    )
    state, _ = act(state, EndTurn("alice"))
    assert (state.turn.seat, state.turn.controller, state.round) == ("bob", "bob", 1)


def test_an_allied_turn_does_not_declare_another_ally():
    """'After their turn, a player may choose to play an allied army': a player's own turn only."""
    state = declared(table(bob=()))
    state, _ = act(state, Place("alice", state.owned("green")[0], state.turn.to_place))
    state, _ = act(state, EndCampaign("alice"))
    error = refused(state, EndTurn("alice", ally="green"))
    assert (error.code, error.field) == ("ally", "ally")


def test_only_a_live_allied_army_may_be_declared():
    """'A player declares they want to play an allied army, and which one': bob is no allied
    army, and an allied army with nothing left is not in play."""
    state = table()
    assert refused(state, EndTurn("alice", ally="bob")).code == "ally"
    state.seat("green").alive = False
    assert refused(state, EndTurn("alice", ally="green")).code == "ally"


def _ally_takes_siam(options: Options | None = None) -> GameState:
    """Alice plays green, which takes Siam from bob (6 5 4 v 3), up to the end of its campaign."""
    state = make_state(
        allies=("green",),
        territories={"Indonesia": ("green", 4), "Siam": ("bob", 1), "Iceland": ("alice", 1)},
        rest="bob",
        poker_hands={"alice": ("Ah",)},
        phase=END,
        options=options,
    )
    state = declared(state)
    state, _ = act(state, Place("alice", "Indonesia", 3))
    state.turn.attacked.append("bob")
    state, _ = act(state, Attack("alice", "Siam", "normal", (("Indonesia", 3),)))
    state, _ = act(state, Roll("alice"), 6, 5, 4, 3)
    state, _ = act(state, MoveIn("alice", 3))
    assert state.territories["Siam"].owner == "green"
    return state


def test_taking_territory_with_the_ally_draws_the_allys_card_and_the_declarers_extra_ones():
    """'An allied army gets all of the same army bonuses as a player' and 'If a player takes
    territory using an allied army, they get an additional Risk card and poker card for
    themself' (RULES.md A8): green draws its own Risk card (the top one), then alice the
    additional Risk card and poker card."""
    state = _ally_takes_siam()
    first, second = state.risk_deck.draw[:2]
    poker_top = state.poker_deck.draw[0]
    state, events = act(state, EndCampaign("alice"))
    assert [e["seat"] for e in of_type(events, "cards_drawn")] == ["green", "alice"]
    assert (state.seat("green").risk_cards, state.seat("green").poker_cards) == ([first], [])
    assert state.seat("alice").risk_cards == [second]
    assert state.seat("alice").poker_cards == ["Ah", poker_top]


def test_with_the_declarer_only_option_the_ally_draws_nothing():
    """Option ``ally_cards="declarer"`` (RULES.md A8, the earlier reading: the cards of 'End of
    Player Turn' are a player's): only alice draws, a card of each kind."""
    state = _ally_takes_siam(Options(ally_cards="declarer"))
    risk_top, poker_top = state.risk_deck.draw[0], state.poker_deck.draw[0]
    state, events = act(state, EndCampaign("alice"))
    assert of_type(events, "cards_drawn")[0]["seat"] == "alice"
    assert state.seat("alice").risk_cards == [risk_top]
    assert state.seat("alice").poker_cards == ["Ah", poker_top]
    assert (state.seat("green").risk_cards, state.seat("green").poker_cards) == ([], [])


# --- who may contest --------------------------------------------------------------------------


def test_only_players_holding_a_poker_card_are_asked():
    """'One or more other players may contest this, provided they hold at least one poker card':
    bob holds one and is asked; carol holds none and is not."""
    state = declared(table())
    assert state.turn is None and state.contest.stage == "asking"
    assert pending_decisions(state) == [Decision("bob", "bob", "challenge")]
    assert refused(state, Challenge("carol", contest=True)).code == "not-your-turn"


def test_a_player_with_an_empty_betting_pot_is_not_asked():
    """'Each player antes up one army' (design.md: 'ante 1'): bob, who lost his whole pot at an
    earlier hand, cannot ante, so alice plays green at once."""
    state = table()
    state.seat("bob").pot = 0
    state = declared(state)
    assert state.contest is None and state.turn.seat == "green"


def test_everyone_lets_it_pass_and_the_declarer_plays_the_ally():
    """'One or more other players may contest this': when none does, the declarer plays."""
    state = declared(table())
    state, events = act(state, Challenge("bob", contest=False))
    assert (state.turn.seat, state.turn.for_seat) == ("green", "alice")
    assert of_type(events, "ally_played") == [
        {"type": "ally_played", "seat": "green", "by": "alice"}
    ]


def test_challenged_declarer_without_a_poker_card_cannot_answer():
    """'The active player cannot answer a challenge without at least one poker card in their
    possession. ... they may elect to play an allied army, but if contested, they cannot.' The
    turn passes to the player after alice."""
    state = challenged(table(alice=()))
    assert state.contest is None
    assert (state.turn.seat, state.turn.for_seat) == ("bob", None)


def test_the_declarer_may_demur():
    """'... in which case a poker game is played (see below), or the declaring player may demur.'
    Only alice answers; after she demurs bob plays."""
    state = challenged(table())
    assert pending_decisions(state) == [Decision("alice", "alice", "answer")]
    assert refused(state, Answer("bob", demur=False)).code == "not-your-turn"
    state, events = act(state, Answer("alice", demur=True))
    assert of_type(events, "demurred") == [{"type": "demurred", "seat": "alice"}]
    assert state.contest is None and state.turn.seat == "bob"
    assert state.seat("alice").poker_cards == ["Ah"] and state.seat("alice").pot is None


# --- the poker hand -------------------------------------------------------------------------------


def test_betting_pots_are_next_turns_territory_and_continent_bonus():
    """'The active player and all players contesting them count out their "betting pots." They
    count out all of the armies they stand to get at their next turns' (design.md: 'territory +
    continent bonus ... (factory armies are not staked)'); 'Each player antes up one army.'
    Alice: 3 + Australia 2 = 5 (her factory not counted); bob: 3 + Africa 3 = 6."""
    state = challenged(table())
    state, events = act(state, Answer("alice", demur=False))
    hand = state.contest.hand
    assert [(s.player, s.pot, s.staked) for s in hand.seats] == [("alice", 4, 1), ("bob", 5, 1)]
    assert [(e["player"], e["amount"]) for e in of_type(events, "ante")] == [
        ("alice", 1),
        ("bob", 1),
    ]
    assert pending_decisions(state) == [
        Decision("alice", "alice", "poker"),
        Decision("bob", "bob", "poker"),
    ]


def test_a_pot_already_counted_is_not_counted_again():
    """'If a player has already counted out their betting pot for a previous poker game, and has
    not had a turn since, they do not count out their pot again but use the pot they have left
    from before': alice kept 9 from an earlier hand."""
    state = table()
    state.seat("alice").pot = 9
    state = challenged(state)
    state, _ = act(state, Answer("alice", demur=False))
    assert [s.pot for s in state.contest.hand.seats] == [8, 5]


def test_poker_moves_go_through_the_hand():
    """'The game is five-card draw. Each player must take at least one card from their stash and
    be dealt the rest': a move out of its phase, an unknown move, and a player outside the hand
    are refused."""
    state = challenged(table())
    state, _ = act(state, Answer("alice", demur=False))
    assert refused(state, Poker("alice", "check")).code == "wrong-phase"
    assert refused(state, Poker("alice", "shove")).code == "move"
    assert refused(state, Poker("carol", "choose", cards=("Ah",))).code == "not-your-turn"
    state, _ = act(state, Poker("alice", "choose", cards=("Ah",)))
    state, _ = act(state, Poker("bob", "choose", cards=("2c",)))
    hand = state.contest.hand
    assert hand.seats[0].hand == ("Ah", "Ad", "As", "Ac", "Kh")
    assert hand.seats[1].hand == ("2c", "3d", "7s", "9c", "Jd")
    assert pending_decisions(state) == [Decision("alice", "alice", "poker")]


def test_declarer_wins_with_a_card_of_the_allys_suit_and_plays_the_ally():
    """'If the active player wins, and their winning hand contains at least one card in the suit
    of the allied army they wanted to play, they may play that army'; 'The player who wins the
    pot ... keeps them to use for their next turn'. Four aces with Ah and Kh beat bob's hand;
    alice's pot: 5 - ante - bet + the 4 on the table = 7; bob's: 6 - 2 = 4."""
    state = to_showdown(table())
    state, events = act(state, Poker("bob", "show"))
    settled = of_type(events, "poker_settled")[0]
    assert (settled["declarer_won"], settled["in_suit"]) == (True, True)
    assert (state.seat("alice").pot, state.seat("bob").pot) == (7, 4)
    assert (state.turn.seat, state.turn.for_seat, state.turn.controller) == (
        "green",
        "alice",
        "alice",
    )
    assert state.contest is None


def test_declarer_wins_without_the_allys_suit_and_only_collects():
    """'... otherwise they just collect the pot and their turn ends.' Alice chooses As instead and
    is dealt Ad Ac Kd Ks: a full house without a heart. Bob plays next, from his pot of 4
    instead of his bonus of 6 ('they will not get these armies on their turn')."""
    dealt = ["Ad", "Ac", "Kd", "Ks", "3d", "7s", "9c", "Jd", "4h", "5h"]
    state = to_showdown(table(alice=("As",), dealt=dealt), alice_chooses="As")
    state, events = act(state, Poker("bob", "show"))
    settled = of_type(events, "poker_settled")[0]
    assert (settled["declarer_won"], settled["in_suit"]) == (True, False)
    assert state.seat("alice").pot == 7
    assert (state.turn.seat, state.turn.to_place, state.seat("bob").pot) == ("bob", 4, None)
    assert of_type(events, "turn_started")[0]["from_pot"] is True


def test_challenger_wins_and_the_declarer_does_not_play_the_ally():
    """'The best poker hand wins the pot': bob draws a pair of red queens (Qh Qd) and beats
    alice's jack high (7h 2d 5c 9s Jc). Bob's pot: 6 - 2 + 4 = 8, which he plays at once, his
    turn being next; alice keeps 3 and green is not played."""
    dealt = ["2d", "5c", "9s", "Jc", "3d", "7s", "9c", "Jd", "Qh", "Qd"]
    state = table(alice=("7h",), dealt=dealt)
    state = to_showdown(state, alice_chooses="7h")
    assert state.contest.hand.seats[1].hand == ("2c", "9c", "Jd", "Qh", "Qd")
    state, events = act(state, Poker("bob", "show"))
    settled = of_type(events, "poker_settled")[0]
    assert settled["declarer_won"] is False
    assert settled["pots"] == {"alice": 3, "bob": 8}
    assert state.turn.seat == "bob" and state.turn.to_place == 8


def test_raised_and_called_then_the_declarer_mucks():
    """'Raising is where a player adds another army on top of the "live bet"'; 'If a player has
    been called, they must show their hand first. All other players have the option of showing
    their cards, or mucking.' Alice bets, bob raises (2), alice calls; after the draw alice
    checks, bob bets, alice calls: 4 each on the table. Bob, called, is shown first; alice
    mucks. Bob's pot: 6 - 4 + 8 = 10, played at once (his turn is next); alice keeps 1."""
    state = challenged(table())
    state, _ = act(state, Answer("alice", demur=False))
    state, _ = act(state, Poker("alice", "choose", cards=("Ah",)))
    state, _ = act(state, Poker("bob", "choose", cards=("2c",)))
    for seat, move in (("alice", "bet"), ("bob", "raise"), ("alice", "call")):
        state, _ = act(state, Poker(seat, move))
    state, _ = act(state, Poker("alice", "draw"))
    state, _ = act(state, Poker("bob", "draw"))
    for seat, move in (("alice", "check"), ("bob", "bet")):
        state, _ = act(state, Poker(seat, move))
    state, events = act(state, Poker("alice", "call"))
    assert [e["player"] for e in of_type(events, "show")] == ["bob"]
    assert [s.staked for s in state.contest.hand.seats] == [4, 4]
    state, events = act(state, Poker("alice", "muck"))
    settled = of_type(events, "poker_settled")[0]
    assert (settled["declarer_won"], settled["pots"]) == (False, {"alice": 1, "bob": 10})
    assert (state.turn.seat, state.turn.to_place) == ("bob", 10)


def test_everyone_else_folds_and_the_declarer_wins_without_showing():
    """'If all players but one have folded, the remaining player wins the pot': bob folds to
    alice's bet; her hand holds hearts, so she plays green. Pots: alice 5 - 2 + 3 = 6, bob 5."""
    state = challenged(table())
    state, _ = act(state, Answer("alice", demur=False))
    state, _ = act(state, Poker("alice", "choose", cards=("Ah",)))
    state, _ = act(state, Poker("bob", "choose", cards=("2c",)))
    state, _ = act(state, Poker("alice", "bet"))
    state, events = act(state, Poker("bob", "fold"))
    assert of_type(events, "poker_settled")[0]["in_suit"] is True
    assert (state.seat("alice").pot, state.seat("bob").pot) == (6, 5)
    assert state.turn.seat == "green"


def test_cards_played_in_the_hand_are_discarded():
    """'Each player must take at least one card from their stash and be dealt the rest' (RULES.md:
    the hands and discards go to the poker discard pile; unused stash cards stay). Alice keeps
    the Kc she did not play."""
    state = to_showdown(table(alice=("Ah", "Kc")))
    state, _ = act(state, Poker("bob", "show"))
    assert state.seat("alice").poker_cards == ["Kc"]
    assert state.seat("bob").poker_cards == []
    assert sorted(state.poker_deck.discard) == sorted(
        ["Ah", "Ad", "As", "Ac", "Kh", "2c", "9c", "Jd", "4h", "5h", "3d", "7s"]
    )


def test_a_player_who_lost_the_whole_pot_gets_only_factory_armies():
    """'Note that if a player loses everything at poker, they shall have no armies to play with at
    their next turn, except for factory bonuses, if any.'"""
    state = make_state(
        territories={t: ("alice", 2) for t in ALICE},
        factories=["Indonesia"],
        turn="bob",
        phase=END,
    )
    state.seat("alice").pot = 0
    state, events = act(state, EndTurn("bob"))
    started = of_type(events, "turn_started")[0]
    assert (started["seat"], started["reinforcements"], started["from_pot"]) == ("alice", 0, True)
    assert started["factory_armies"] == 2 and state.territories["Indonesia"].armies == 4
    assert state.seat("alice").pot is None


def test_a_challenger_leaving_before_answering_does_not_stall_the_declaration():
    """'One or more other players may contest this': bob declines, carol leaves the game before
    answering, so nobody contests and alice plays the allied army at once."""
    state = make_state(
        players=("alice", "bob", "carol"),
        allies=("ally-1",),
        suits={"ally-1": ["h"]},
        territories={"Alaska": ("alice", 3), "Peru": ("bob", 3), "Iceland": ("carol", 3)},
        poker_hands={"bob": ["2c"], "carol": ["3c"]},
        phase=END,
    )
    state, _ = act(state, EndTurn("alice", ally="ally-1"))
    assert {d.player for d in pending_decisions(state)} == {"bob", "carol"}
    state, _ = act(state, Challenge("bob", contest=False))
    state, events = act(state, Leave("carol"))
    assert state.contest is None
    assert (state.turn.seat, state.turn.controller, state.turn.for_seat) == (
        "ally-1",
        "alice",
        "alice",
    )
    assert of_type(events, "ally_played") == [{"type": "ally_played", "seat": "ally-1",
                                               "by": "alice"}]  # fmt: skip
