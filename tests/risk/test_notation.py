"""The Fast Risk move notation (issue 18): the issue's examples, the errors, the round trip.

The examples are worked by hand on small states built with ``make_state`` (what matters named,
the rest filler); the round trip ``parse_action(state, p, format_action(state, a)) == a`` is
checked at every step of seeded games for the sampled action and for every action built from
every spec ``legal_actions`` offers (``spec_actions.actions_from_spec``), so no action type the
engine offers escapes it.
"""

from __future__ import annotations

import random
import time

import pytest

from risk.rules import (
    InvalidAction,
    apply,
    game_dice,
    join_or_leave,
    legal_actions,
    new_game,
    pending_decisions,
    sample_action,
)
from risk.rules.actions import (
    ACTION_TYPES,
    Action,
    Answer,
    Attack,
    Challenge,
    Cruise,
    EndCampaign,
    EndTurn,
    JoinDefence,
    Mobilize,
    NavalAttack,
    Place,
    Poker,
    Prefer,
    Roll,
    TurnIn,
)
from risk.rules.notation import format_action, legal_moves_text, parse_action
from risk.rules.state import (
    AI,
    DECLARER_ONLY,
    END,
    REINFORCE,
    REVEAL_ALL,
    GameState,
    Options,
)
from tests.risk.builders import act, make_state
from tests.risk.spec_actions import actions_from_spec

# --- the eight examples -----------------------------------------------------------------


def _front(phase: str = "campaign", **kwargs) -> GameState:
    """Alice holds Alaska (9), Ukraine (7) and Ural (6); bob holds Kamchatka and Afghanistan;
    the allied army green holds the rest. Alice's ship S12 is in the Pacific off Alaska."""
    territories = {"Alaska": ("alice", 9), "Ukraine": ("alice", 7), "Ural": ("alice", 6),
                   "Kamchatka": ("bob", 3), "Afghanistan": ("bob", 4)}  # fmt: skip
    ships = {f"S{i}": ("green", "Indian:Madagascar", 1) for i in range(1, 12)}
    ships["S12"] = ("alice", "Pacific:Alaska", 3)
    return make_state(allies=("green",), territories=territories, ships=ships, phase=phase,
                      **kwargs)  # fmt: skip


def test_place_3_alaska() -> None:
    state = _front(REINFORCE)
    state.turn.to_place = 5
    action = parse_action(state, "alice", "place 3 Alaska")
    assert action == Place("alice", territory="Alaska", armies=3)
    after, _ = apply(state, action, game_dice(state))
    assert after.territories["Alaska"].armies == 12


def test_attack_committed() -> None:
    action = parse_action(_front(), "alice", "attack Alaska > Kamchatka committed 8")
    assert action == Attack("alice", target="Kamchatka", mode="committed", flanks=(("Alaska", 8),))


def test_flanking_attack_with_two_sources() -> None:
    action = parse_action(_front(), "alice", "flank Ukraine 6 + Ural 5 > Afghanistan")
    assert action == Attack(
        "alice", target="Afghanistan", mode="flanking", flanks=(("Ukraine", 6), ("Ural", 5))
    )


def test_roll() -> None:
    assert parse_action(_front(), "alice", "roll") == Roll("alice")


def test_cruise_ship() -> None:
    state = _front()
    action = parse_action(state, "alice", "cruise S12")
    assert action == Cruise("alice", ship="S12")
    after, _ = apply(state, action, game_dice(state))
    assert after.ships["S12"].cruising


HAND = ("Peru", "Brazil", "Siam", "Egypt", "Congo", "Japan", "Ural", "Alberta", "Iceland", "wild")


def test_turn_in_by_hand_numbers() -> None:
    """``turn in 2 9 wild``: the 2nd and 9th cards of the hand as listed, counted from 1, and a
    wild card: Brazil, Iceland, wild, for armies (the default reward)."""
    state = _front(REINFORCE, risk_hands={"alice": HAND})
    action = parse_action(state, "alice", "turn in 2 9 wild")
    assert action == TurnIn("alice", cards=("Brazil", "Iceland", "wild"), reward="armies")
    assert format_action(state, action) == "turn in Brazil, Iceland, wild"


def test_bet_1_in_a_poker_hand() -> None:
    """Alice declares green, bob contests, alice plays; each chooses a card; alice bets."""
    state = make_state(players=("alice", "bob"), allies=("green",), phase=END,
                       territories={"Alaska": ("alice", 2), "Peru": ("bob", 2)},
                       poker_hands={"alice": ["Ah"], "bob": ["2c"]},
                       suits={"green": ["h"]})  # fmt: skip
    for action in (EndTurn("alice", ally="green"), Challenge("bob", contest=True),
                   Answer("alice", demur=False), Poker("alice", "choose", cards=("Ah",)),
                   Poker("bob", "choose", cards=("2c",))):  # fmt: skip
        state, _ = act(state, action)
    action = parse_action(state, "alice", "bet 1")
    assert action == Poker("alice", move="bet")
    assert "bet 1" in legal_moves_text(state, "alice")[0]
    _, events = apply(state, action, game_dice(state))
    assert any(e.type == "bet" for e in events), [e.type for e in events]


def test_end_closes_the_phase_pending() -> None:
    """``end`` is ``end campaign`` while campaigning and ``end turn`` in the end phase."""
    assert parse_action(_front(), "alice", "end") == EndCampaign("alice")
    assert parse_action(_front(END), "alice", "end") == EndTurn("alice")
    assert parse_action(_front(END), "alice", "END TURN declare Green") == EndTurn("alice", "green")


# --- names, synonyms ----------------------------------------------------------------------------


def test_names_are_case_insensitive_and_multi_word() -> None:
    state = _front(REINFORCE)
    assert parse_action(state, "alice", "PLACE 2 western united  states") == Place(
        "alice", territory="Western United States", armies=2
    )
    assert parse_action(state, "alice", "place 1 North Africa") == Place("alice", "North Africa", 1)


def test_bare_attack_sends_every_spare_army() -> None:
    """``attack Alaska>Kamchatka``: a normal attack with all but one of Alaska's 9 armies."""
    action = parse_action(_front(), "alice", "attack Alaska>Kamchatka")
    assert action == Attack("alice", target="Kamchatka", mode="normal", flanks=(("Alaska", 8),))
    assert format_action(_front(), action) == "attack Alaska > Kamchatka 8"


def test_stations_ships_and_seats() -> None:
    state = _front()
    assert format_action(state, NavalAttack("alice", ships=("S12",), target="S3", mode="normal"))\
        == "naval S12 > S3"  # fmt: skip
    assert parse_action(state, "alice", "naval s12 + S4 > s3 committed 2") == NavalAttack(
        "alice", ships=("S12", "S4"), target="S3", mode="committed", armies=2
    )
    assert parse_action(state, "alice", "naval S12 > S3, S4 > S5") == NavalAttack(
        "alice", ships=("S12", "S4"), target="S3", mode="normal", targets=("S3", "S5")
    )
    assert parse_action(state, "bob", "support S4 > S2") == JoinDefence("bob", ("S4",), ("S2",))
    assert parse_action(state, "bob", "support S4") == JoinDefence("bob", ("S4",))
    assert parse_action(state, "alice", "sail S12 to Arctic : Alaska").station == "Arctic:Alaska"
    assert parse_action(state, "alice", "prefer defense 1 reveal all") == Prefer(
        "alice", defence_dice=1, reveal=REVEAL_ALL
    )


def test_mobilize_reveals_by_name_or_number() -> None:
    state = _front(risk_hands={"bob": ("Kamchatka", "wild", "Peru")})
    from risk.rules.state import Battle, Flank

    state.battle = Battle(kind="land", mode="normal", attacker="alice", defender="bob",
                          target="Kamchatka", flanks=[Flank("Alaska", False, 3, 3)],
                          stage="mobilize")  # fmt: skip
    action = parse_action(state, "bob", "mobilize reveal 1, wild to Kamchatka Afghanistan")
    assert action == Mobilize("bob", reveal=("Kamchatka", "wild"),
                              wild_territories=("Kamchatka", "Afghanistan"))  # fmt: skip
    assert format_action(state, action) == (
        "mobilize reveal Kamchatka, wild to Kamchatka, Afghanistan"
    )


# --- errors name the word at fault and what was expected -----------------------------------------


def _refusal(line: str, state: GameState | None = None) -> str:
    with pytest.raises(InvalidAction) as caught:
        parse_action(state or _front(), "alice", line)
    return str(caught.value)


def test_unknown_verb() -> None:
    message = _refusal("atack Alaska > Kamchatka 3")
    assert message.startswith("word 1 'atack': expected an action, one of: arrange, attack, ")
    assert message.endswith("(did you mean 'attack'?)")


def test_misspelt_territory() -> None:
    assert _refusal("place 3 Alaskaa") == "word 3 'Alaskaa': expected a territory name, e.g. Alaska"
    assert _refusal("attack Alaska > Kamchatkka committed 8") == (
        "word 4 'Kamchatkka': expected a territory name, e.g. Kamchatka"
    )


def test_missing_number() -> None:
    assert _refusal("place Alaska") == (
        "word 2 'Alaska': expected a number of armies, 'ship' or 'factory'"
    )
    assert _refusal("attack Alaska > Kamchatka committed") == (
        "word 6 (end of line): expected a number of armies"
    )


def test_trailing_words() -> None:
    assert _refusal("roll now") == "word 2 'now': expected the end of the line"
    assert _refusal("place 3 Alaska please") == "word 4 'please': expected the end of the line"


def test_other_refusals() -> None:
    assert _refusal("") == (
        "word 1 (end of line): expected an action, one of: " + _refusal("").split("one of: ")[1]
    )
    assert _refusal("cruise S99") == "word 2 'S99': expected a ship on the board, e.g. S1"
    assert _refusal("turn in 2 11 wild", _front(REINFORCE, risk_hands={"alice": HAND})) == (
        "word 4 '11': expected a card number from 1 to 10 (the hand)"
    )
    assert (
        _refusal("bet 2") == "word 2 '2': expected 1 or nothing (every bet and raise is one army)"
    )
    assert _refusal("place ship Pacifik:Alaska") == (
        "word 3 'Pacifik': expected an ocean (a station is written Ocean:Territory), e.g. Pacific"
    )
    assert _refusal("place ship Arctic:Peru") == (
        "word 3 'Arctic': expected a station of the map; Peru has Pacific:Peru"
    )
    assert _refusal("end", _front(turn="bob")) == (
        "word 1 'end': expected 'end campaign', 'end turn' or 'end cruise <ship>': "
        "no phase of yours to end"
    )


def test_an_error_is_the_api_error_kind() -> None:
    """``InvalidAction`` carries the word as its field, so the API's 400 names the word."""
    with pytest.raises(InvalidAction) as caught:
        parse_action(_front(), "alice", "place 3 Alaskaa")
    assert caught.value.field == "word 3 'Alaskaa'"
    assert caught.value.message == "expected a territory name, e.g. Alaska"


# --- the legal moves as text --------------------------------------------------------------------


def test_legal_moves_text_on_a_hand_checked_state() -> None:
    """Alice reinforcing: 5 armies to place on her three territories, and a hand of Alaska, Ural
    and a wild card, whose one set (any two cards and a wild) she may turn in for any reward
    (Alaska has a coast, so a ship too). The hand is numbered as ``turn in 1 2 3`` counts it."""
    state = _front(REINFORCE, risk_hands={"alice": ("Alaska", "Ural", "wild")})
    state.turn.to_place = 5
    lines = legal_moves_text(state, "alice")
    assert lines[0] == (
        "turn in <card> <card> <card> [for armies|factory|ship]   "
        "hand: 1 Alaska, 2 Ural, 3 wild; sets: Alaska, Ural, wild"
    )
    assert lines[1] == "place <1-5> <territory>   territories: Alaska, Ukraine, Ural"
    assert lines[-4:] == [
        "leave",
        "concede",
        "vote draw yes | vote draw no",
        "prefer [defence 1|2] [reveal ask|all]   now: defence 2, reveal ask",
    ]


def test_legal_moves_text_caps_long_lists() -> None:
    """S12 cruising off Alaska with 8 boat lengths reaches 47 stations: the first 12 (sorted)
    are listed, the other 35 counted."""
    state = _front()
    ship = state.ships["S12"]
    ship.cruising, ship.moves, ship.cruises = True, 8, 0
    sail = next(line for line in legal_moves_text(state, "alice") if line.startswith("sail"))
    assert sail == (
        "sail S12 to <station>   Arctic:Alaska, Arctic:Greenland, Arctic:Kamchatka, "
        "Arctic:Northwest Territory, Arctic:Scandinavia, Arctic:Siberia, Arctic:Ukraine, "
        "Arctic:Ural, Arctic:Yakutsk, Atlantic:Argentina, Atlantic:Brazil, "
        "Atlantic:Central America, ... and 35 more"
    )


# --- the round trip over seeded games -----------------------------------------------------------

OPTIONS = [
    Options(),
    Options(ally_defender=AI, ally_cards=DECLARER_ONLY, reveal_once=True),
    Options(reveal_needs_cut=True, red_queens_high=False),
]


def _round_trip(state: GameState, player: str, action: Action) -> None:
    line = format_action(state, action)
    back = parse_action(state, player, line)
    assert back == action, f"{line!r} read back as {back!r}, not {action!r}"


def _play(seed: int, players: int, options: Options, steps: int) -> tuple[set[str], set[str]]:
    """Play one seeded game; round-trip every action at every step. Returns (offered, checked)
    action types."""
    names = [f"p{i}" for i in range(players)]
    state = new_game(names, seed=f"notation-{seed}", options=options)
    rng = random.Random(seed)
    newcomers = [f"late{i}" for i in range(3)]
    offered: set[str] = set()
    checked: set[str] = set()
    for _ in range(steps):
        if state.over:
            break
        actor = pending_decisions(state)[0].player
        bystander = rng.choice([*names, *newcomers])
        for person in dict.fromkeys((actor, bystander)):
            for spec in legal_actions(state, person):
                offered.add(spec.type)
                for action in actions_from_spec(spec, person):
                    _round_trip(state, person, action)
                    checked.add(action.type)
        action = None
        if rng.random() < 0.02:
            action = join_or_leave(state, bystander, rng)
            playing = sum(s.kind == "player" and s.alive for s in state.seats)
            if action is not None and action.type == "leave" and playing <= 2:
                action = None
            if action is not None and action.type == "join":
                names.append(bystander)
        if action is None:
            action = sample_action(state, actor, rng)
        _round_trip(state, action.player, action)
        checked.add(action.type)
        state, _ = apply(state, action, game_dice(state))
    return offered, checked


def test_round_trip_quick() -> None:
    started = time.monotonic()
    offered: set[str] = set()
    checked: set[str] = set()
    for seed, options in enumerate(OPTIONS):
        more_offered, more_checked = _play(seed, 3 + seed, options, steps=250)
        offered |= more_offered
        checked |= more_checked
    assert offered <= checked, sorted(offered - checked)
    assert {"arrange", "place", "attack", "roll", "move_in", "end_turn", "poker"} <= checked
    assert time.monotonic() - started < 20


#: Every action type the long sweep must have checked: all of them.
ALL_TYPES = set(ACTION_TYPES)


@pytest.mark.slow
def test_round_trip_sweep() -> None:
    """Many seeds, 2-6 players, each option set; every offered type checked, and all 30 types
    of ``ACTION_TYPES`` were offered and checked over the sweep."""
    offered: set[str] = set()
    checked: set[str] = set()
    for seed in range(24):
        more_offered, more_checked = _play(100 + seed, 2 + seed % 5, OPTIONS[seed % 3], 500)
        offered |= more_offered
        checked |= more_checked
    assert offered <= checked, sorted(offered - checked)
    assert sorted(ALL_TYPES - checked) == []
