"""The AI (``risk.ai``): sensible choices in worked positions, legal play, and no peeking.

Each position is small and built with ``tests/risk/builders.py``; the expected choice is worked
out by hand in the test's docstring. Whole games check that every action the bots return is one
``apply`` accepts, and that a decision does not change when only cards the bot may not see do.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import replace

import pytest

from combat.risk_dice import battle_odds
from risk.ai import LEVELS, GreedyBot, StrategicBot
from risk.ai import odds as exact
from risk.ai.board_sense import ALLY_ARMY, ENEMY_ARMY, side_for
from risk.ai.poker_sense import keep_for_choice, plan_draw
from risk.ai.strategic import _Turn
from risk.rules import apply, game_dice, new_game, pending_decisions
from risk.rules.actions import (
    ActionSpec,
    Answer,
    Attack,
    Challenge,
    Cruise,
    Disembark,
    EndCampaign,
    EndTurn,
    Mobilize,
    NavalAttack,
    Retreat,
    Roll,
    Sail,
    TurnIn,
)
from risk.rules.bots import Bot, bot_view, decide, redacted_state
from risk.rules.engine import legal_actions
from risk.rules.state import (
    COMMITTED,
    FLANKING,
    LAND,
    NORMAL,
    REINFORCE,
    ROLLING,
    Battle,
    Contest,
    Flank,
    GameState,
    Options,
)
from tests.risk.builders import act, make_state


def hard(seed: int = 0) -> StrategicBot:
    return StrategicBot(random.Random(seed), "hard")


# --- the levels ---------------------------------------------------------------------------------


def test_the_levels_are_easy_normal_and_hard() -> None:
    assert LEVELS == ("easy", "normal", "hard")
    for level in LEVELS:
        assert StrategicBot(random.Random(0), level).level == level
    assert StrategicBot(random.Random(0)).level == "hard"


def test_an_unknown_level_is_a_value_error_naming_the_levels() -> None:
    with pytest.raises(ValueError, match="easy, normal, hard"):
        StrategicBot(random.Random(0), "grandmaster")


# --- the odds it attacks on ---------------------------------------------------------------------


def test_a_refilled_committed_block_has_the_exact_committed_odds() -> None:
    """A block of 2 refilled from the reserve is ``combat.risk_dice``'s committed attack of 2
    with the rest as reserves (it refills losses from them the same way)."""
    for available, defenders in ((2, 1), (5, 3), (12, 9)):
        ours = exact.block(available, defenders, flanking=False)
        theirs = battle_odds(2, defenders, mode="committed", reserves=available - 2)
        assert ours.win == pytest.approx(theirs.attacker_wins, abs=1e-12)
        assert ours.attacker_losses == pytest.approx(theirs.expected_attacker_losses, abs=1e-9)


def test_two_flanks_of_two_against_one_army_by_hand() -> None:
    """4 armies in two flanks of 2 against 1: each roll is 2 dice with the +1 against 1 die,
    lost only when both dice are below the defender's (55/216), until 2 armies are left; then
    1 die with the +1 (lost 15/36); the last army alone rolls 1 die against 1 (lost 21/36).
    The attack fails only if all four rolls fail."""
    lose_all = (55 / 216) ** 2 * (15 / 36) * (21 / 36)
    odds = exact.block(4, 1, flanking=True)
    assert odds.win == pytest.approx(1 - lose_all)
    # The defender is captured unless the last army, alone (no +1, no capture), wins it.
    last_alone_wins = (55 / 216) ** 2 * (15 / 36) * (15 / 36)
    assert odds.captures == pytest.approx(odds.win - last_alone_wins)


# --- attacking ----------------------------------------------------------------------------------


def _lone_border(alaska: int, kamchatka: int) -> GameState:
    """Alice holds every territory but Kamchatka, bob's only one (no ship, no cards); only
    Alaska has armies to spare, so Kamchatka is the only target."""
    return make_state(
        territories={"Alaska": ("alice", alaska), "Kamchatka": ("bob", kamchatka)},
        rest="alice",
    )


def test_with_10_against_2_on_a_lone_border_the_hard_bot_attacks_with_two_flanks() -> None:
    """9 armies to spare against 2: two flanks of 2 refilled from Alaska win 99.9% (the
    defender rolls one die, the attacker two with the +1) and it is bob's last territory."""
    state = _lone_border(10, 2)
    action = decide(hard(), state, "alice")
    assert action == Attack(
        "alice", target="Kamchatka", mode=FLANKING, flanks=(("Alaska", 2), ("Alaska", 2))
    )
    apply(state, action, game_dice(state))  # and the engine takes it


def test_it_refuses_a_1_against_5_attack() -> None:
    """Alaska has 2 armies: one to spare, so only a normal attack with 1 die, which must win
    four rolls against 2 dice (55/216 each) and one against 1 die (15/36): 0.2%."""
    state = _lone_border(2, 5)
    for level in LEVELS:
        assert decide(StrategicBot(random.Random(1), level), state, "alice") == EndCampaign("alice")


def test_the_easy_bot_attacks_with_normal_attacks_only() -> None:
    state = _lone_border(10, 2)
    action = decide(StrategicBot(random.Random(3), "easy"), state, "alice")
    assert isinstance(action, Attack)
    assert action.mode == NORMAL and action.flanks == (("Alaska", 9),)


def test_on_an_allied_turn_it_never_attacks_the_player_who_plays_the_ally() -> None:
    """Alice plays ally-1's turn. Ally-1's Alaska (10) borders alice's Kamchatka (1) and bob's
    Alberta (2): it attacks bob (rule reading AI1: the ally is the player's tool)."""
    state = make_state(
        allies=("ally-1",),
        territories={
            "Alaska": ("ally-1", 10),
            "Kamchatka": ("alice", 1),
            "Alberta": ("bob", 2),
            "Northwest Territory": ("ally-1", 1),
        },
        rest="ally-1",
        turn="ally-1",
    )
    assert state.turn is not None
    state.turn.controller, state.turn.for_seat = "alice", "alice"
    action = decide(hard(), state, "alice")
    assert isinstance(action, Attack) and action.target == "Alberta"


# --- battles ------------------------------------------------------------------------------------


def _battle(state: GameState, mode: str, standing: int, commitment: int) -> GameState:
    state.battle = Battle(
        kind=LAND,
        mode=mode,
        attacker="alice",
        defender="bob",
        target="Kamchatka",
        flanks=[Flank("Alaska", False, commitment=commitment, standing=standing)],
        stage=ROLLING,
    )
    state.territories["Alaska"].armies -= standing
    return state


def test_it_refills_a_committed_block_before_rolling() -> None:
    """A committed block of 2 is down to 1 with 7 armies behind it against 3: refill the
    loss (the defender keeps rolling one die only while the block stays at 2)."""
    state = _battle(_lone_border(9, 3), COMMITTED, standing=1, commitment=2)
    action = decide(hard(), state, "alice")
    assert action == Roll("alice", add=1)
    apply(state, action, game_dice(state))


def test_it_stops_feeding_a_lost_committed_attack() -> None:
    """One army left in the block and one behind against 30: the attack is lost (the block
    model gives under 1%), so it rolls on without adding and keeps its last reserve."""
    state = _battle(_lone_border(3, 30), COMMITTED, standing=1, commitment=2)
    assert decide(hard(), state, "alice") == Roll("alice", add=0)


def test_an_overwhelming_stack_raises_its_block_past_the_defenders_under_normal_dice() -> None:
    """AI14 (C3 "or increase it", C11 ``normal``): 400 armies in Alaska against 60, a block of 2
    standing. Where the defender rolls two dice against it, a block of 2 can be destroyed in
    one roll, so the block is raised to the defenders plus one: 2 + 59 = 61 (the defender then
    rolls 60 dice against 61). Under the text's dice (one fewer than the block) a block of 2
    loses one army a roll at most and is refilled: no raise."""
    normal = _battle(_lone_border(400, 60), COMMITTED, standing=2, commitment=2)
    normal.options = dataclasses.replace(normal.options, defender_dice="normal")
    action = decide(hard(), normal, "alice")
    assert action == Roll("alice", add=59)
    apply(normal, action, game_dice(normal))  # and the engine takes it
    text = _battle(_lone_border(400, 60), COMMITTED, standing=2, commitment=2)
    assert decide(hard(), text, "alice") == Roll("alice", add=0)


def test_a_normal_attack_goes_on_when_ahead_and_retreats_when_lost() -> None:
    """8 armies rolling against 2 win 99%; 1 army against 6 has under 1%."""
    ahead = _battle(_lone_border(10, 2), NORMAL, standing=8, commitment=8)
    assert decide(hard(), ahead, "alice") == Roll("alice")
    behind = _battle(_lone_border(3, 6), NORMAL, standing=1, commitment=1)
    assert decide(hard(), behind, "alice") == Retreat("alice")


# --- cards, mobilization, declarations ----------------------------------------------------------


def test_it_turns_in_a_set_when_it_must() -> None:
    """Five cards at the start of the turn: a turn-in is due. Alaska, Argentina and Congo (all
    infantry, all alice's) give 2 armies on each: 6, more than any other set (a mixed set has
    one infantry card at most, so at most 2 from her territories)."""
    hand = ["Alaska", "Argentina", "Congo", "Alberta", "Brazil"]
    state = make_state(
        territories={"Alaska": ("alice", 3), "Argentina": ("alice", 3), "Congo": ("alice", 3)},
        rest="bob",
        risk_hands={"alice": hand},
        phase=REINFORCE,
    )
    assert state.turn is not None
    state.turn.to_place = 3
    for level in LEVELS:
        action = decide(StrategicBot(random.Random(0), level), state, "alice")
        assert isinstance(action, TurnIn)
        assert sorted(action.cards) == ["Alaska", "Argentina", "Congo"]
        apply(state, action, game_dice(state))


def test_with_four_cards_it_keeps_them_and_places() -> None:
    """Four cards, no turn-in due: the cards are worth a mobilization die each when attacked,
    so the bot places its reinforcements instead."""
    state = make_state(
        territories={"Alaska": ("alice", 3), "Argentina": ("alice", 3), "Congo": ("alice", 3)},
        rest="bob",
        risk_hands={"alice": ["Alaska", "Argentina", "Congo", "Alberta"]},
        phase=REINFORCE,
    )
    assert state.turn is not None
    state.turn.to_place = 3
    assert decide(hard(), state, "alice").type == "place"


def test_when_attacked_it_reveals_its_cards_and_puts_wild_dice_on_the_attacked_territory() -> None:
    """Bob, attacked at Kamchatka, holds Kamchatka's card and a wild: he reveals both (a die
    each, the cards stay in hand) and the wild's die goes where the battle is."""
    state = make_state(
        allies=("ally-1",),
        territories={"Alaska": ("alice", 10), "Kamchatka": ("bob", 3), "Peru": ("bob", 1)},
        rest="ally-1",
        risk_hands={"bob": ["Kamchatka", "wild"]},
    )
    attack = Attack("alice", target="Kamchatka", mode=NORMAL, flanks=(("Alaska", 9),))
    state, _ = apply(state, attack, game_dice(state))
    assert pending_decisions(state)[0].player == "bob"
    action = decide(hard(), state, "bob")
    assert isinstance(action, Mobilize)
    assert sorted(action.reveal) == ["Kamchatka", "wild"]
    assert set(action.wild_territories) == {"Kamchatka"}
    apply(state, action, game_dice(state))


def test_the_hard_bot_contests_a_declaration_and_answers_a_challenge() -> None:
    """An allied turn is a second turn for the declarer: hard contests it whatever its stash
    (the declarer then plays the ally only on a win with a card of the ally's suit), and when
    contested itself it plays the hand rather than give the turn up."""
    state = make_state(
        allies=("ally-1",),
        territories={"Alaska": ("alice", 3), "Peru": ("bob", 3)},
        rest="ally-1",
        poker_hands={"alice": ["2c"], "bob": ["3d"]},
        suits={"ally-1": ["c", "d", "h", "s"]},
        turn=None,
    )
    state.contest = Contest(declarer="alice", ally="ally-1")
    assert decide(hard(), state, "bob") == Challenge("bob", contest=True)
    state.contest = Contest(declarer="alice", ally="ally-1", answers={"bob": True}, stage="answer")
    assert decide(hard(), state, "alice") == Answer("alice", demur=False)


def test_it_declares_an_allied_army_at_the_end_of_its_turn() -> None:
    """Alice (30 armies on Alaska) may declare ally-1 (39 territories of 1, nothing to attack
    with) or ally-2 (Peru, 3 armies; about 3 more next turn), neither next to bob. With bob
    the only enemy player their growth costs nothing (AI5: bob may declare them as well); both
    are worth 0, and ally-1 comes first."""
    state = make_state(
        allies=("ally-1", "ally-2"),
        territories={"Alaska": ("alice", 30), "Alberta": ("bob", 3), "Peru": ("ally-2", 3)},
        rest="ally-1",
        phase="end",
    )
    assert state.turn is not None
    state.turn.transferred = True
    action = decide(hard(), state, "alice")
    assert action == EndTurn("alice", ally="ally-1")


def test_of_allies_worth_alike_it_declares_one_whose_suit_it_holds() -> None:
    """A6: a contested declaration plays the ally only when the winning hand holds a card of
    its suit. The position above (both allies worth 0 to alice), ally-1 clubs and ally-2 hearts,
    alice's poker card the king of hearts: ally-2, whose suit is sure to be in her hand."""
    state = make_state(
        allies=("ally-1", "ally-2"),
        territories={"Alaska": ("alice", 30), "Alberta": ("bob", 3), "Peru": ("ally-2", 3)},
        rest="ally-1",
        phase="end",
        suits={"ally-1": ["c"], "ally-2": ["h"]},
        poker_hands={"alice": ["Kh"]},
    )
    assert state.turn is not None
    state.turn.transferred = True
    assert decide(hard(), state, "alice") == EndTurn("alice", ally="ally-2")


def test_an_enemy_army_destroyed_is_worth_a_whole_army_against_one_enemy_player() -> None:
    """With one enemy player left its every army lost is ours to gain (1.0); with two, the
    third player gains from it too (``ENEMY_ARMY``, 0.5). An ally's army stays ``ALLY_ARMY``."""
    two = make_state(allies=("ally-1",), rest="ally-1")
    three = make_state(players=("alice", "bob", "carol"), allies=("ally-1",), rest="ally-1")
    assert side_for(two, "alice").army_weight("bob") == 1.0
    assert side_for(three, "alice").army_weight("bob") == ENEMY_ARMY == 0.5
    assert side_for(two, "alice").army_weight("ally-1") == ALLY_ARMY


def test_moving_second_it_puts_no_deterrence_where_it_would_be_flanked() -> None:
    """AI11 (``normal``; ``hard`` goes further, AI13): in game "s2" alice plays first. Bob's
    Great Britain borders three of her territories (Iceland, Northern Europe, Scandinavia):
    flanked before bob's first turn, 2 more armies there would be captured, so it keeps 1.
    India borders one (Middle East): its 2 more deter a lone attack. The mass goes to Southern
    Europe, whose attacks pay most."""
    state = new_game(["alice", "bob"], seed="s2")
    assert state.first_seat == "alice"
    arrangement = dict(decide(StrategicBot(random.Random(0), "normal"), state, "bob").arrangement)
    assert arrangement["Great Britain"] == 1
    assert arrangement["India"] == 3
    assert max(arrangement, key=lambda t: arrangement[t]) == "Southern Europe"


def test_moving_second_the_hard_bot_masses_where_the_first_mover_cannot_reach() -> None:
    """AI13, "Decide who plays first by die roll" and "they may be reärranged freely": in game "s2"
    alice plays first and has not arranged yet, so she may stack her 21 armies' 14 spare on any of
    her territories and add her 3 reinforcements: 17 armies in two flanks take a stack of 15 99.9%
    of the time (the defender rolls one die), capturing it. Great Britain, India and Southern Europe
    border her territories; Alaska, New Guinea, Siam and Venezuela do not. So bob gives no
    deterrence anywhere and masses all 15 spare armies on the safe base whose attacks pay most:
    Alaska."""
    state = new_game(["alice", "bob"], seed="s2")
    assert state.first_seat == "alice" and not state.seat("alice").set_up
    turn = _turn(state, "bob")
    assert turn._enemy_reach("Southern Europe") == 14 + 3
    assert turn._taken_chance("Southern Europe", 15) == pytest.approx(
        exact.block(17, 15, flanking=True).win
    )
    assert turn._taken_chance("Southern Europe", 15) > 0.99
    assert {t: turn._enemy_reach(t) for t in ("Alaska", "New Guinea", "Siam", "Venezuela")} == {
        "Alaska": 0, "New Guinea": 0, "Siam": 0, "Venezuela": 0,
    }  # fmt: skip
    arrangement = dict(decide(hard(), state, "bob").arrangement)
    assert arrangement == {
        "Alaska": 15, "Great Britain": 1, "India": 1, "New Guinea": 1, "Siam": 1,
        "Southern Europe": 1, "Venezuela": 1,
    }  # fmt: skip


def test_the_hard_bot_opens_a_war_of_attrition_on_a_stack_it_cannot_take() -> None:
    """AI12, "If the defender suffers a total defeat on a dice roll then one of their defeated
    armies is captured by the attacking flank": 8 armies to spare against bob's 30 take Kamchatka
    only 12.8% of the time, under the 65% hard opens attacks at, but two flanks of 2 refilled from
    Alaska destroy 19.0 of bob's armies, 18.3 of them captured, for 7.6 of alice's (``odds.block``):
    worth far more than the 3 armies (``ATTRITION``) that opens an attack whatever its chance.
    ``normal`` keeps to its 60% and ends its campaign."""
    odds = exact.block(8, 30, flanking=True)
    assert odds.win == pytest.approx(0.128, abs=0.001)
    assert (odds.defender_losses, odds.captures, odds.attacker_losses) == pytest.approx(
        (19.0, 18.3, 7.6), abs=0.05
    )
    state = _lone_border(9, 30)
    action = decide(hard(), state, "alice")
    assert action == Attack(
        "alice", target="Kamchatka", mode=FLANKING, flanks=(("Alaska", 2), ("Alaska", 2))
    )
    apply(state, action, game_dice(state))
    normal = StrategicBot(random.Random(0), "normal")
    assert decide(normal, _lone_border(9, 30), "alice") == EndCampaign("alice")


def test_it_feeds_flanks_that_will_not_win_while_they_destroy_and_capture() -> None:
    """AI12, "Flanks fail when all but one army are committed and destroyed" and "The attacker may
    reinforce this group from reserves": two flanks of 2 (the first down to 1) with 5 armies behind
    them against 30: the battle takes Kamchatka 12.8% of the time, under the 15% below which a lost
    block is no longer fed, but the 8 armies still destroy 19.0 and capture 18.3 for the 7.6 they
    lose: refill the first flank."""
    state = _lone_border(9, 30)
    state.battle = Battle(
        kind=LAND,
        mode=FLANKING,
        attacker="alice",
        defender="bob",
        target="Kamchatka",
        flanks=[
            Flank("Alaska", False, commitment=2, standing=1),
            Flank("Alaska", False, commitment=2, standing=2),
        ],
        stage=ROLLING,
    )
    state.territories["Alaska"].armies -= 3
    action = decide(hard(), state, "alice")
    assert action == Roll("alice", add=1)
    apply(state, action, game_dice(state))


# --- poker --------------------------------------------------------------------------------------


def test_poker_keeps_a_pair_and_draws_three() -> None:
    discard, from_stash = plan_draw(["Ah", "Ad", "7c", "4s", "2h"], ["9c"], deck=20)
    assert sorted(discard) == ["2h", "4s", "7c"] and from_stash == ()
    assert plan_draw(["2c", "3c", "4d", "5s", "6h"], [], deck=20) == ((), ())  # a straight


def test_poker_chooses_its_pair_from_the_stash_and_a_card_of_the_allys_suit() -> None:
    assert sorted(keep_for_choice(["Kd", "Ks", "3c", "7h"], 1, 4)) == ["Kd", "Ks"]
    assert sorted(keep_for_choice(["Kd", "Ks", "3c", "7h"], 1, 4, suits=["c"])) == [
        "3c",
        "Kd",
        "Ks",
    ]


# --- the greedy benchmark bot -------------------------------------------------------------------


def test_the_greedy_bot_attacks_only_when_twice_as_strong() -> None:
    """9 armies to spare against 4 (>= 2x): a normal attack with all 9. 7 against 4: no."""
    state = _lone_border(10, 4)
    assert decide(GreedyBot(random.Random(0)), state, "alice") == Attack(
        "alice", target="Kamchatka", mode=NORMAL, flanks=(("Alaska", 9),)
    )
    assert decide(GreedyBot(random.Random(0)), _lone_border(8, 4), "alice") == EndCampaign("alice")


# --- whole games --------------------------------------------------------------------------------


def _play(bots: dict[str, Bot], seed: str, round_cap: int) -> GameState:
    """Play to the end or the cap; every decision through ``decide``; ``apply`` raises on an
    action the rules refuse, which fails the test."""
    state = new_game(list(bots), seed=seed)
    neutral = GreedyBot(random.Random(0))
    for _ in range(30_000):
        if state.over or state.round > round_cap:
            break
        actor = pending_decisions(state)[0].player
        seat = state.seat_of_actor(actor)
        bot = bots.get(seat.id, neutral) if seat is not None else neutral
        state, _ = apply(state, decide(bot, state, actor), game_dice(state))
    return state


def test_each_level_plays_a_whole_game_of_legal_actions() -> None:
    bots: dict[str, Bot] = {
        level: StrategicBot(random.Random(i), level) for i, level in enumerate(LEVELS)
    }
    state = _play(bots, "ai-legal", round_cap=20)
    assert state.over or state.round > 20
    assert state.actions > 200


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(8))
def test_every_level_plays_only_legal_actions_over_seeded_games(seed: int) -> None:
    """2-6 players of every level and the greedy bot, to the end or 25 rounds."""
    kinds = ["hard", "normal", "easy", "greedy", "hard", "normal"][: 2 + seed % 5]
    bots: dict[str, Bot] = {
        f"{kind}{i}": GreedyBot(random.Random(i))
        if kind == "greedy"
        else StrategicBot(random.Random(i), kind)
        for i, kind in enumerate(kinds)
    }
    state = _play(bots, f"ai-legal-{seed}", round_cap=25)
    assert state.actions > 100


# --- no peeking ---------------------------------------------------------------------------------


def _with_other_hidden_cards(state: GameState, viewer: str, rng: random.Random) -> GameState:
    """``state`` with every card ``viewer`` may not see dealt differently: other seats' Risk
    and poker cards swapped with the draw piles, and the piles shuffled."""
    from risk.rules.state import clone
    from risk.rules.views import controls_turn_of

    other = clone(state)
    me = other.seat_of_actor(viewer)
    for seat in other.seats:
        if me is not None and seat.id == me.id:
            continue
        if not controls_turn_of(state, viewer, seat.id):
            pile = other.risk_deck.draw
            for i in range(len(seat.risk_cards)):
                if pile:
                    j = rng.randrange(len(pile))
                    seat.risk_cards[i], pile[j] = pile[j], seat.risk_cards[i]
        pile = other.poker_deck.draw
        for i in range(len(seat.poker_cards)):
            if pile:
                j = rng.randrange(len(pile))
                seat.poker_cards[i], pile[j] = pile[j], seat.poker_cards[i]
    rng.shuffle(other.risk_deck.draw)
    rng.shuffle(other.poker_deck.draw)
    contest = other.contest
    if contest is not None and contest.hand is not None:  # others' cards inside a poker hand
        hand = contest.hand
        deck = list(hand.deck)
        seats = []
        for poker_seat in hand.seats:
            cards = list(poker_seat.hand)
            visible = me is not None and poker_seat.player == me.id
            if not visible and not (poker_seat.shown and poker_seat.status != "mucked"):
                for i in range(len(cards)):
                    if deck:
                        j = rng.randrange(len(deck))
                        cards[i], deck[j] = deck[j], cards[i]
            seats.append(replace(poker_seat, hand=tuple(cards)))
        rng.shuffle(deck)
        other.contest = replace(contest, hand=replace(hand, seats=tuple(seats), deck=tuple(deck)))
    return other


def test_it_decides_only_from_what_its_seat_may_see() -> None:
    """At every decision of a game, the state with all hidden cards dealt otherwise (the same
    redacted state) gets the same decision from a bot with the same seed."""
    bots: dict[str, Bot] = {"p0": hard(1), "p1": StrategicBot(random.Random(2), "normal")}
    state = new_game(list(bots), seed="no-peeking")
    rng = random.Random(5)
    compared = poker = 0
    for step in range(1500):
        if state.over:
            break
        actor = pending_decisions(state)[0].player
        seat = state.seat_of_actor(actor)
        level = "hard" if seat is not None and seat.id == "p0" else "normal"
        other = _with_other_hidden_cards(state, actor, rng)
        if other != state:
            assert redacted_state(other, actor) == redacted_state(state, actor)
            first = decide(StrategicBot(random.Random(step), level), state, actor)
            second = decide(StrategicBot(random.Random(step), level), other, actor)
            assert first == second
            compared += 1
            poker += first.type == "poker"
        bot = bots[seat.id] if seat is not None and seat.id in bots else GreedyBot(random.Random(0))
        state, _ = apply(state, decide(bot, state, actor), game_dice(state))
    assert compared > 100
    assert poker > 0, "the game reaches a poker hand (checked above)"


def test_a_larger_block_table_is_built_aside_never_refilled_in_place() -> None:
    """Two threads of one server (task threads, a hint in a request) share the tables: one
    reading while another grew it in place crashed with IndexError. A grown table is a new
    one; the one a reader holds stays whole, with the same values."""
    small = exact._grown([], 3, 3, True)
    before = [list(row) for row in small]
    large = exact._grown(small, 9, 9, True)
    assert large is not small and small == before
    assert (len(small), len(small[0]), len(large), len(large[0])) == (4, 4, 10, 10)
    assert large[3][3] == small[3][3]
    assert exact._grown(large, 5, 5, True) is large  # big enough already: kept


# --- playing like a Risk player (rule readings AI5-AI9) ------------------------------------------


def _ally_position(players: tuple[str, ...], indonesia: int) -> GameState:
    """Alice holds the 36 (or 37) territories left, 1 army each; bob Siam (3), carol Peru (3);
    ally-1 Australia: Indonesia (``indonesia``), next to bob's Siam, and 3 territories of 1."""
    territories = {
        "Siam": ("bob", 3),
        "Indonesia": ("ally-1", indonesia),
        "New Guinea": ("ally-1", 1),
        "Western Australia": ("ally-1", 1),
        "Eastern Australia": ("ally-1", 1),
    }
    if "carol" in players:
        territories["Peru"] = ("carol", 3)
    state = make_state(
        players=players, allies=("ally-1",), territories=territories, rest="alice", phase="end"
    )
    assert state.turn is not None
    state.turn.transferred = True
    return state


def _turn(state: GameState, player: str = "alice") -> _Turn:
    view = bot_view(state, player)
    specs: dict[str, list[ActionSpec]] = {}
    for spec in legal_actions(view.state, player):
        specs.setdefault(spec.type, []).append(spec)
    return _Turn(hard(), view, specs)


def test_an_ally_is_declared_when_its_turn_outweighs_its_growth() -> None:
    """AI5, worked: ally-1 (Indonesia 10, 13 armies) plays next to bob's Siam (3), bob the
    leading enemy (tied with carol, first by name). Gain: half its 9 spare armies, at most the
    3 defenders, 3 x ``ENEMY_ARMY`` 0.5 x 1.5 (the leader) = 2.25, and a ``CARD`` (3.0): it can
    take Siam (9 >= 3 + 2): 5.25. Cost: its growth, 3 (4 territories / 3, at least 3) + 2
    (Australia) = 5, of which bob and carol play 2 turns in 3 against us and we 1: 5 x (2 - 1)
    / 3 = 1.67; 13 + 5 = 18 is not the board's largest (alice 36). 5.25 > 1.67: declared."""
    state = _ally_position(("alice", "bob", "carol"), 10)
    turn = _turn(state)
    assert turn.ally_gain("ally-1") == pytest.approx(5.25)
    assert turn.ally_cost("ally-1") == pytest.approx(5 / 3)
    assert decide(hard(), state, "alice") == EndTurn("alice", ally="ally-1")


def test_an_ally_that_would_become_the_largest_army_costs_its_growth_in_full() -> None:
    """AI5, worked: the same with Indonesia 31: ally-1 holds 34, and 34 + 5 = 39 >= alice's
    36 would make it the board's largest army. Its growth then counts in full besides: cost
    5 / 3 + 5 = 6.67 > gain 5.25 (the same hit and card): not declared. Refusing does stop
    growth here, since we would play 1 of its 3 turns."""
    state = _ally_position(("alice", "bob", "carol"), 31)
    turn = _turn(state)
    assert turn.ally_too_strong("ally-1")
    assert turn.ally_gain("ally-1") == pytest.approx(5.25)
    assert turn.ally_cost("ally-1") == pytest.approx(5 / 3 + 5)
    assert decide(hard(), state, "alice") == EndTurn("alice")


def test_against_one_enemy_player_the_strongest_ally_is_still_declared() -> None:
    """AI5, worked: with bob the only enemy player (Peru is alice's: 37 territories), bob may
    declare ally-1 after each of his turns (A1) whatever alice does: refusing stops none of its
    growth against her and gives up her allied turn. Cost 5 x (1 - 1) / (1 + 1) = 0 (and the
    board's-largest cost needs another enemy player to feed it), gain 5.25: declared, though
    ally-1 (34 + 5 = 39) would be the board's largest army, which the former cutoff refused."""
    state = _ally_position(("alice", "bob"), 31)
    turn = _turn(state)
    assert turn.ally_too_strong("ally-1")
    assert turn.ally_cost("ally-1") == 0.0
    assert decide(hard(), state, "alice") == EndTurn("alice", ally="ally-1")


def test_on_an_allied_turn_it_attacks_the_leading_enemy() -> None:
    """AI5: alice (60 on Madagascar) plays ally-1, whose Ontario (10) borders bob's Quebec (2)
    and carol's Eastern United States (2). Bob and carol hold three territories each, alike but
    for one: the leader's Peru or Egypt holds 30. The allied turn hurts the leader."""

    def position(leader: str) -> GameState:
        big = {"bob": 1, "carol": 1, leader: 30}
        state = make_state(
            players=("alice", "bob", "carol"),
            allies=("ally-1",),
            territories={
                "Ontario": ("ally-1", 10),
                "Quebec": ("bob", 2),
                "Peru": ("bob", big["bob"]),
                "Argentina": ("bob", 1),
                "Eastern United States": ("carol", 2),
                "Egypt": ("carol", big["carol"]),
                "Congo": ("carol", 1),
                "Madagascar": ("alice", 60),
            },
            rest="ally-1",
            turn="ally-1",
        )
        assert state.turn is not None
        state.turn.controller = "alice"
        state.turn.attacked += ["bob", "carol"]
        return state

    for leader, target in (("bob", "Quebec"), ("carol", "Eastern United States")):
        action = decide(hard(), position(leader), "alice")
        assert isinstance(action, Attack) and action.target == target


def _naval_position(enemy: str, enemy_ship: int, *, enemy_land: bool) -> GameState:
    """Alice holds Alaska, Alberta and Kamchatka (1 each: nothing to land on near her ship)
    and ship S1 with 6 aboard off Alaska; ``enemy``'s ship S2 lies off Japan, same ocean."""
    territories = {t: ("alice", 1) for t in ("Alaska", "Alberta", "Kamchatka")}
    if enemy_land:
        territories["Peru"] = (enemy, 3)
    return make_state(
        allies=("ally-1",),
        territories=territories,
        rest="ally-1",
        ships={"S1": ("alice", "Pacific:Alaska", 6), "S2": (enemy, "Pacific:Japan", enemy_ship)},
    )


def test_a_6_army_ship_facing_a_1_army_ship_attacks_committed_with_its_whole_crew() -> None:
    """AI6, rule text "if a ship suffers a 'total defeat' ... both sides roll a die" (H11):
    a normal attack rolls 3 dice against 1 and loses the comparison 441/1296 = 34% of rolls,
    each then a sink roll; committing all 6 rolls 6 dice against 1 (commitment - 1 = 5, but
    one army) and loses only 67171/279936 = 24% of rolls. So: committed, 6 armies."""
    assert exact.naval(6, 1, True, None, 6).win > exact.naval(6, 1, False).win
    state = _naval_position("bob", 1, enemy_land=True)
    assert decide(hard(), state, "alice") == Cruise("alice", ship="S1")
    state, _ = act(state, Cruise("alice", ship="S1"), 1, 1)
    action = decide(hard(), state, "alice")
    assert action == NavalAttack("alice", ships=("S1",), target="S2", mode=COMMITTED, armies=6)
    apply(state, action, game_dice(state))  # and the engine takes it


def test_when_only_pirates_are_left_it_cruises_after_the_ship_and_attacks_it() -> None:
    """AI7, rule text "If all of a pirate's ships are defeated at sea ... the player is out":
    bob holds no territory, only S2 (2 armies) off Japan. Alice's ship sets out (it would end
    its turn otherwise) and attacks S2 at once, committing its whole crew."""
    state = _naval_position("bob", 2, enemy_land=False)
    assert decide(hard(), state, "alice") == Cruise("alice", ship="S1")
    state, _ = act(state, Cruise("alice", ship="S1"), 1, 1)
    action = decide(hard(), state, "alice")
    assert action == NavalAttack("alice", ships=("S1",), target="S2", mode=COMMITTED, armies=6)


def test_a_hunting_ship_sails_towards_a_pirate_in_another_ocean() -> None:
    """AI7: bob's last ship lies off Brazil (Atlantic), 6 boat lengths from Alaska; with 6
    lengths to sail alice's ship goes there rather than ending its cruise."""
    state = _naval_position("bob", 2, enemy_land=False)
    state.ships["S2"].station = "Atlantic:Brazil"
    assert decide(hard(), state, "alice") == Cruise("alice", ship="S1")
    state, _ = act(state, Cruise("alice", ship="S1"), 3, 3)
    assert decide(hard(), state, "alice") == Sail("alice", ship="S1", station="Atlantic:Brazil")


def test_a_pirate_lands_to_get_a_territory_back() -> None:
    """AI7: alice has no territory, only S1 with 3 aboard off Alaska; Kamchatka and Alberta
    (ally-1, 3 each) and Alaska (bob, 4) are in reach. A committed block of 2 refilled from the
    third army wins against 3 only 56% of the time (below the 65% hard opens with), but a
    territory back is her cards and her reinforcements: she lands."""
    assert exact.block(3, 3, False).win == pytest.approx(0.5616, abs=1e-4)
    state = make_state(
        allies=("ally-1",),
        territories={
            "Alaska": ("bob", 4),
            "Kamchatka": ("ally-1", 3),
            "Alberta": ("ally-1", 3),
        },
        rest="bob",
        ships={"S1": ("alice", "Pacific:Alaska", 3)},
    )
    state, _ = act(state, Cruise("alice", ship="S1"), 1, 1)
    action = decide(hard(), state, "alice")
    assert isinstance(action, Attack) and action.flanks[0][0] == "S1"
    assert action.target in ("Kamchatka", "Alberta")


def test_a_loaded_ship_with_nothing_to_attack_drops_its_armies_at_the_front() -> None:
    """AI9, rule text "drop them off at any other friendly territory": S1 carries 8 armies
    off Alaska with no landing worth making (bob's Kamchatka holds 30); Alaska faces bob's 30,
    so the 7 that may leave the ship go ashore there (one stays aboard, H5)."""
    state = make_state(
        allies=("ally-1",),
        territories={
            "Alaska": ("alice", 1),
            "Alberta": ("alice", 1),
            "Kamchatka": ("bob", 30),
        },
        rest="ally-1",
        ships={"S1": ("alice", "Pacific:Alaska", 8)},
    )
    state, _ = act(state, Cruise("alice", ship="S1"), 1, 1)
    assert decide(hard(), state, "alice") == Disembark(
        "alice", ship="S1", territory="Alaska", armies=7
    )


def test_in_a_long_three_player_game_it_takes_the_factory_reward() -> None:
    """AI8, rule text (a factory adds 2 armies a turn): alice 30, bob 30, carol 40 (the
    filler): nobody is about to fall or far ahead, so the game will last and 2 armies a turn
    beat 2d6 (7) now after four turns. Against one player (the same armies, carol gone) the
    game is a race: armies."""

    def position(players: tuple[str, ...]) -> GameState:
        state = make_state(
            players=players,
            territories={"Alaska": ("alice", 30), "Peru": ("bob", 30)},
            rest=players[-1],
            risk_hands={"alice": ["Alaska", "Argentina", "Congo", "Alberta", "Brazil"]},
            phase=REINFORCE,
        )
        assert state.turn is not None
        state.turn.to_place = 3
        return state

    three = decide(hard(), position(("alice", "bob", "carol")), "alice")
    assert isinstance(three, TurnIn) and three.reward == "factory"
    two = decide(hard(), position(("alice", "bob")), "alice")
    assert isinstance(two, TurnIn) and two.reward == "armies"


def test_the_block_odds_take_the_defender_dice_option() -> None:
    """AI6: with ``defender_dice="normal"`` a block of 2 meets 2 dice. 2 against 2: the
    defender loses both 295/1296, each side one 420/1296, the attacker both 581/1296; after a
    split, 1 die against 1 wins 15/36. Against the commitment's one die the same block wins
    far more often."""
    normal = exact.block(2, 2, False, Options(defender_dice="normal"))
    assert normal.win == pytest.approx(295 / 1296 + 420 / 1296 * 15 / 36, abs=1e-12)
    assert exact.block(2, 2, False).win > normal.win


def test_with_a_least_commitment_of_3_it_flanks_with_blocks_of_3() -> None:
    """AI6: the loophole's host option (a committed block or flank holds at least 3): the AI
    reads it from the game's options and attacks with two flanks of 3, whose odds it takes
    with the defender rolling 2 dice."""
    state = make_state(
        territories={"Alaska": ("alice", 10), "Kamchatka": ("bob", 2)},
        rest="alice",
        options=Options(min_commitment=3),
    )
    action = decide(hard(), state, "alice")
    assert action == Attack(
        "alice", target="Kamchatka", mode=FLANKING, flanks=(("Alaska", 3), ("Alaska", 3))
    )


def test_a_battle_past_the_odds_cap_keeps_its_ratio() -> None:
    """The odds are worked out at most 150 a side: a larger battle is shrunk in proportion and
    its losses scaled back, so 1,981 against 171 is taken as 150 against 13 (13.2 times fewer),
    not as 150 against 150 (each side clipped alone, which made the two look alike)."""
    big = exact.normal(1981, 171)
    small = exact.normal(150, 13)
    assert big.win == pytest.approx(small.win) and big.win > 0.999
    assert big.attacker_losses == pytest.approx(small.attacker_losses * 1981 / 150)
    assert big.defender_losses == pytest.approx(13 * 1981 / 150)
    assert exact.normal(150, 150).win < 0.9  # what the clipped battle used to report


def test_an_overwhelming_stack_attacks_even_at_easy() -> None:
    """Seed 6 of the soak never ended: an easy bot with 1,982 armies beside 171 never attacked
    (a normal attack trades about one army for one, and the conquest's bounded worth never paid
    for 171 armies). Own losses now count in proportion for a stack over 4 times the defenders:
    it attacks (counted in full, it ends its campaign)."""
    bob = {name: ("bob", 171) for name in ("Kamchatka", "Northwest Territory", "Alberta")}
    state = make_state(
        players=("alice", "bob", "carol"),
        territories={"Alaska": ("alice", 1982), **bob},
        rest="carol",
    )
    action = decide(StrategicBot(random.Random(0), "easy"), state, "alice")
    assert isinstance(action, Attack) and action.target in bob
