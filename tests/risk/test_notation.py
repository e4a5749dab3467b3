"""The Fast Risk move notation: the documented examples, the errors, the round trip.

The examples are worked by hand on small states built with ``make_state`` (what matters named,
the rest filler); the round trip ``parse_action(state, p, format_action(state, a)) == a`` is
checked at every step of seeded games for the sampled action and for every action built from
every spec ``legal_actions`` offers (``spec_actions.actions_from_spec``), so no action type the
engine offers escapes it.
"""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

import pytest

from risk import rules
from risk.rules import IllegalAction, InvalidAction, apply, game_dice, legal_actions
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
    PlaceShip,
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
    Battle,
    Flank,
    GameState,
    Options,
)
from risk.rules.vocabulary import Refusal
from tests.depth import seed_count
from tests.risk.builders import act, make_state
from tests.risk.spec_actions import actions_from_spec

# --- the eight examples -----------------------------------------------------------------


def _front(phase: str = "campaign", allies: str = "green", **kwargs) -> GameState:
    """Alice holds Alaska (9), Ukraine (7) and Ural (6); bob holds Kamchatka (3) and
    Afghanistan (4); the allied army (``allies``, green) holds the rest, and its ships S1-S11
    (one army each, off Madagascar). Alice's ship S12 (3 armies) is in the Pacific off Alaska."""
    territories = {"Alaska": ("alice", 9), "Ukraine": ("alice", 7), "Ural": ("alice", 6),
                   "Kamchatka": ("bob", 3), "Afghanistan": ("bob", 4)}  # fmt: skip
    ships = {f"S{i}": (allies, "Indian:Madagascar", 1) for i in range(1, 12)}
    ships["S12"] = ("alice", "Pacific:Alaska", 3)
    return make_state(allies=(allies,), territories=territories, ships=ships, phase=phase,
                      **kwargs)  # fmt: skip


def test_place_3_alaska() -> None:
    state = _front(REINFORCE)
    state.turn.to_place = 5
    action = parse_action(state, "alice", "place 3 Alaska")
    assert action == Place("alice", territory="Alaska", armies=3)
    after, _ = apply(state, action, game_dice(state))
    assert after.territories["Alaska"].armies == 12


def test_attack_committed() -> None:
    """Alaska's 9 armies: 8 committed (all but one) against Kamchatka; the engine opens it."""
    state = _front()
    action = parse_action(state, "alice", "attack Alaska > Kamchatka committed 8")
    assert action == Attack("alice", target="Kamchatka", mode="committed", flanks=(("Alaska", 8),))
    after, _ = apply(state, action, game_dice(state))
    assert after.territories["Alaska"].armies == 1
    assert after.battle is not None and after.battle.flanks[0].commitment == 8


def test_flanking_attack_with_two_sources() -> None:
    """The issue's example reads as written; flanks of 6 and 5 are then the engine's to refuse
    (flanks start "of equal size"): parsing reads, it does not judge."""
    state = _front()
    action = parse_action(state, "alice", "flank Ukraine 6 + Ural 5 > Afghanistan")
    assert action == Attack(
        "alice", target="Afghanistan", mode="flanking", flanks=(("Ukraine", 6), ("Ural", 5))
    )
    with pytest.raises(IllegalAction) as caught:
        apply(state, action, game_dice(state))
    assert caught.value.code == Refusal.UNEQUAL_FLANKS


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


def test_mail_habits() -> None:
    """A full stop ending the line and an arrow ``->`` are read as a person means them."""
    state = _front()
    assert parse_action(state, "alice", "Attack Alaska -> Kamchatka normal 4.") == Attack(
        "alice", target="Kamchatka", mode="normal", flanks=(("Alaska", 4),)
    )


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
    board_form = NavalAttack("alice", ships=("S12",), target="S3", mode="normal", targets=("S3",))
    assert format_action(state, board_form) == "naval S12 on S3"
    assert parse_action(state, "alice", "naval S12 on S3") == board_form
    assert parse_action(state, "bob", "support S4 > S2") == JoinDefence("bob", ("S4",), ("S2",))
    assert parse_action(state, "bob", "support S4") == JoinDefence("bob", ("S4",))
    assert parse_action(state, "alice", "sail S12 to Arctic : Alaska").station == "Arctic:Alaska"
    assert parse_action(state, "alice", "place ship brazil") == PlaceShip(
        "alice", "Atlantic:Brazil"
    )
    assert parse_action(state, "alice", "prefer defense 1 reveal all") == Prefer(
        "alice", defence_dice=1, reveal=REVEAL_ALL
    )


def test_mobilize_reveals_by_name_or_number() -> None:
    """Bob, attacked on Kamchatka, reveals his first hand card and a wild card; his two wild
    dice go to Kamchatka and Afghanistan."""
    state = _front(risk_hands={"bob": ("Kamchatka", "wild", "Peru")})
    state.battle = Battle(kind="land", mode="normal", attacker="alice", defender="bob",
                          target="Kamchatka", flanks=[Flank("Alaska", False, 3, 3)],
                          stage="mobilize")  # fmt: skip
    action = parse_action(state, "bob", "mobilize reveal 1, wild to Kamchatka Afghanistan")
    assert action == Mobilize("bob", reveal=("Kamchatka", "wild"),
                              wild_territories=("Kamchatka", "Afghanistan"))  # fmt: skip
    assert format_action(state, action) == (
        "mobilize reveal Kamchatka, wild to Kamchatka, Afghanistan"
    )


# --- the documented examples -------------------------------------------------------------------

DOC = Path(__file__).resolve().parents[2] / "docs" / "notation.md"


def _doc_examples() -> list[str]:
    """The Example column of docs/notation.md's table of every action."""
    section = DOC.read_text().split("## Every action")[1].split("\n## ")[0]
    rows = [line for line in section.splitlines() if line.startswith("| ")]
    return [m.group(1) for row in rows if (m := re.search(r"\| `([^`|]+)` \|$", row))]


def test_every_documented_example_is_read_and_written_back() -> None:
    """Each example of the table parses; written back, it is the same line (the canonical form),
    except ``turn in 2 9 wild``, whose hand numbers come back as the cards' names."""
    examples = _doc_examples()
    assert len(examples) == 49
    state = _front(REINFORCE, allies="ally-1", risk_hands={"alice": HAND})
    for line in examples:
        written = format_action(state, parse_action(state, "alice", line))
        if line == "turn in 2 9 wild":
            assert written == "turn in Brazil, Iceland, wild"
        else:
            assert written == line


# --- errors name the word at fault and what was expected -----------------------------------------


def _refusal(line: str, state: GameState | None = None) -> str:
    with pytest.raises(InvalidAction) as caught:
        parse_action(state or _front(), "alice", line)
    return str(caught.value)


def test_unknown_verb() -> None:
    message = _refusal("atack Alaska > Kamchatka 3")
    assert message.startswith("word 1 'atack': expected an action, one of: arrange, attack, ")
    assert message.endswith("(did you mean 'attack'?)")


#: (line, the refusal's text): each names the word at fault and what was expected. The state is
#: ``_front()``: alice campaigning, an empty hand, her ship S12 off Alaska, green's S1-S11.
REFUSALS = [
    # a misspelt territory, with the nearest names as the example
    ("place 3 Alaskaa", "word 3 'Alaskaa': expected a territory name, e.g. Alaska"),
    ("place 3 Westren United States", "word 3 'Westren': expected a territory name, "
     "e.g. Western United States or Eastern United States"),
    ("place 3 North", "word 3 'North': expected a territory name, e.g. North Africa or "
     "Northern Europe"),
    ("attack Alaska > Kamchatkka committed 8",
     "word 4 'Kamchatkka': expected a territory name, e.g. Kamchatka"),
    # a missing number
    ("place Alaska", "word 2 'Alaska': expected a number of armies, 'ship' or 'factory'"),
    ("attack Alaska > Kamchatka committed", "word 6 (end of line): expected a number of armies"),
    ("arrange Alaska 9, Ukraine 6, Ural 6",
     "word 8 (end of line): expected a territory name or 'factory'"),
    # trailing words
    ("roll now", "word 2 'now': expected the end of the line"),
    ("place 3 Alaska please", "word 4 'please': expected the end of the line"),
    # ships, stations, cards, seats
    ("cruise S99", "word 2 'S99': expected a ship on the board, e.g. S1"),
    ("bet 2", "word 2 '2': expected 1 or nothing (every bet and raise is one army)"),
    ("place ship Pacifik:Alaska",
     "word 3 'Pacifik': expected an ocean (a station is written Ocean:Territory), e.g. Pacific"),
    ("place ship Arctic:Peru", "word 3 'Arctic': expected a station of the map; Peru has "
     "Pacific:Peru"),
    ("sail S12 to Alaska", "word 4 'Alaska': expected a station written Ocean:Territory; "
     "Alaska has Pacific:Alaska, Arctic:Alaska"),
    ("place ship Afghanistan", "word 3 'Afghanistan': expected a station written "
     "Ocean:Territory; Afghanistan has no coast"),
    ("turn in 1 2 wild", "word 3 '1': expected a territory name or wild: the hand is empty"),
    ("flank Ukraine 6 Ural 5 > Afghanistan",
     "word 4 'Ural': expected '+' and another flank, or '>' and the target"),
    ("end turn declare grean", "word 4 'grean': expected an allied army, e.g. green"),
]  # fmt: skip


@pytest.mark.parametrize(("line", "expected"), REFUSALS)
def test_refusal_names_the_word_and_what_was_expected(line: str, expected: str) -> None:
    assert _refusal(line) == expected


def test_refusals_that_need_their_state() -> None:
    assert _refusal("turn in 2 11 wild", _front(REINFORCE, risk_hands={"alice": HAND})) == (
        "word 4 '11': expected a card number from 1 to 10 (the hand)"
    )
    assert _refusal("end", _front(turn="bob")) == (
        "word 1 'end': expected 'end campaign', 'end turn' or 'end cruise <ship>': "
        "no phase of yours to end"
    )


def test_an_empty_line_lists_the_openings() -> None:
    assert _refusal("") == (
        "word 1 (end of line): expected an action, one of: arrange, attack, bet, board, call, "
        "challenge, check, choose, concede, cruise, demur, deploy, discard, disembark, draw, "
        "embark, end, flank, fold, join, leave, let pass, mobilize, move in, muck, naval, place, "
        "play poker, prefer, raise, retreat, roll, sail, show, sink, support, transfer, turn in, "
        "vote draw"
    )
    assert _refusal("tunr in 1 2 3").endswith("(did you mean 'turn in'?)")


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
    """S12 cruising off Alaska with 8 boat lengths reaches 47 stations: the 12 nearest are
    listed with their boat lengths (Arctic:Alaska round the coast, Alberta and Kamchatka along
    the Pacific, 1 each; then five at 2; then the first of those at 3 by name), the other 35
    counted."""
    state = _front()
    ship = state.ships["S12"]
    ship.cruising, ship.moves, ship.cruises = True, 8, 0
    sail = next(line for line in legal_moves_text(state, "alice") if line.startswith("sail"))
    assert sail == (
        "sail S12 to <station>   Arctic:Alaska (1), Pacific:Alberta (1), Pacific:Kamchatka (1), "
        "Arctic:Kamchatka (2), Arctic:Northwest Territory (2), Pacific:Japan (2), "
        "Pacific:Mongolia (2), Pacific:Western United States (2), Arctic:Greenland (3), "
        "Arctic:Yakutsk (3), Atlantic:Northwest Territory (3), Pacific:Central America (3), "
        "... and 35 more"
    )


def test_legal_moves_text_of_a_transfer() -> None:
    """The end phase: Alaska (9) reaches no other own territory; Ukraine (7) and Ural (6)
    border each other, so each may send all but one to the other."""
    lines = legal_moves_text(_front(END), "alice")
    assert lines[0] == (
        "transfer <from> > <to> <armies>   from: Ukraine (up to 6, to Ural), "
        "Ural (up to 5, to Ukraine)"
    )
    assert lines[1] == "end turn [declare <ally>]   allies: green"


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
    """Play one seeded game; round-trip every action at every step (and write the legal moves
    as text). Returns (offered, checked) action types."""
    names = [f"p{i}" for i in range(players)]
    state = rules.new_game(names, seed=f"notation-{seed}", options=options)
    rng = random.Random(seed)
    newcomers = [f"late{i}" for i in range(3)]
    offered: set[str] = set()
    checked: set[str] = set()
    for _ in range(steps):
        if state.over:
            break
        actor = rules.pending_decisions(state)[0].player
        bystander = rng.choice([*names, *newcomers])
        for person in dict.fromkeys((actor, bystander)):
            specs = legal_actions(state, person)
            assert len(legal_moves_text(state, person)) == len(specs)  # one line a spec
            for spec in specs:
                offered.add(spec.type)
                for action in actions_from_spec(spec, person):
                    _round_trip(state, person, action)
                    checked.add(action.type)
        action = None
        if rng.random() < 0.02:
            action = rules.join_or_leave(state, bystander, rng)
            playing = sum(s.kind == "player" and s.alive for s in state.seats)
            if action is not None and action.type == "leave" and playing <= 2:
                action = None
            if action is not None and action.type == "join":
                names.append(bystander)
        if action is None:
            action = rules.sample_action(state, actor, rng)
        _round_trip(state, action.player, action)
        checked.add(action.type)
        state, _ = apply(state, action, game_dice(state))
    return offered, checked


#: The action types these three short games check (``deploy`` built from the ``place`` offers):
#: all but discard, join_defence and prize, which the long sweep reaches.
QUICK_TYPES = [
    "answer", "arrange", "attack", "challenge", "concede", "cruise", "deploy", "disembark",
    "embark", "end_campaign", "end_cruise", "end_turn", "join", "leave", "mobilize", "move_in",
    "naval_attack", "place", "place_factory", "place_ship", "poker", "prefer", "retreat", "roll",
    "sail", "transfer", "turn_in", "vote_draw",
]  # fmt: skip


def test_round_trip_quick() -> None:
    started = time.monotonic()
    offered: set[str] = set()
    checked: set[str] = set()
    for seed, options in enumerate(OPTIONS):
        more_offered, more_checked = _play(seed, 3 + seed, options, steps=250)
        offered |= more_offered
        checked |= more_checked
    assert offered <= checked, sorted(offered - checked)
    assert sorted(checked) == QUICK_TYPES
    assert time.monotonic() - started < 20


#: Every action type the long sweep must have checked: all of them.
ALL_TYPES = set(ACTION_TYPES)
#: Types never offered on their own: a ``deploy`` (the board's draft of placements) is built
#: from a ``place`` offer (the catalog's ``BUILT_FROM``); ``spec_actions`` builds one from it.
BUILT_FROM_OFFERS = {"deploy"}


@pytest.mark.slow
def test_round_trip_sweep() -> None:
    """Many seeds, 2-6 players, each option set; every offered type checked, all the types of
    ``ACTION_TYPES`` offered (``deploy`` built from ``place``) and checked over the sweep."""
    offered: set[str] = set()
    checked: set[str] = set()
    for seed in range(seed_count(24, 12)):  # tests/depth.py
        more_offered, more_checked = _play(100 + seed, 2 + seed % 5, OPTIONS[seed % 3], 500)
        offered |= more_offered
        checked |= more_checked
    assert sorted(offered) == sorted(ALL_TYPES - BUILT_FROM_OFFERS)
    assert sorted(checked) == sorted(ALL_TYPES)


# --- a damaged line is refused, never a crash -----------------------------------------------------

NOISE = ["1", "0", ">", "+", ":", "S1", "S999", "wild", "North", "Pacific", "for", "to",
         "from", "stash", "Qh", "committed", "dice", "until", "declare",
         ]  # fmt: skip


def test_damaged_lines_raise_invalid_action_or_parse() -> None:
    """Every offered action's line with a word dropped, added, replaced or the tail cut: the
    parser returns an action (the engine judges it) or raises ``InvalidAction``, nothing else."""
    rng = random.Random(7)
    state = rules.new_game(["p0", "p1", "p2"], seed="notation-damage")
    refused = 0
    for _ in range(120):
        actor = rules.pending_decisions(state)[0].player
        for spec in legal_actions(state, actor):
            for action in actions_from_spec(spec, actor)[:3]:
                words = format_action(state, action).split()
                at = rng.randrange(len(words))
                noise = rng.choice(NOISE)
                damaged = rng.choice([
                    [*words[:at], *words[at + 1:]], [*words[:at], noise, *words[at:]],
                    [*words[:at], noise, *words[at + 1:]], words[:at],
                ])  # fmt: skip
                try:
                    parse_action(state, actor, " ".join(damaged))
                except InvalidAction as error:
                    assert str(error).startswith("word "), error
                    refused += 1
        action = rules.sample_action(state, actor, rng)
        state, _ = apply(state, action, game_dice(state))
    assert refused > 500
