"""Battle requests in notation (combat.battle_notation): the issue's examples, the errors, the
canonical line's round trip, and resolutions worked out by hand from the seed and the rule text."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from combat.axis_allies.editions import available_editions, load_edition
from combat.axis_allies.rules import RULES
from combat.axis_allies.setup import build_setup
from combat.battle_notation import (
    BattleNotationError,
    BattleRequest,
    format_battle,
    parse_battle,
    resolve_battle,
)
from combat.battle_notation import axis_allies as notation_aa
from combat.battle_notation.axis_allies import fight_arguments
from combat.crt.france_1944 import france_1944_odds
from combat.crt.wif import TERRAINS, WEATHERS, wif_land_odds
from combat.dice import SeededDice, derive_roll
from combat.errors import CombatInputError

SEED = "battle-notation-test"


def roll(context: str, counter: int, sides: int) -> int:
    return derive_roll(SEED, context, counter, sides)


# --- the issue's examples, parsed by hand ----------------------------------------------------


def test_the_issue_aa_example():
    request = parse_battle("3 inf 1 art 2 arm vs 4 inf 1 ftr lowluck")
    assert request == BattleRequest(
        "axis_allies",
        {
            "attacker": {"infantry": 3, "artillery": 1, "armor": 2},
            "defender": {"infantry": 4, "fighter": 1},
            "rules": "lowluck",
            "edition": "revised",
        },
    )
    assert format_battle(request) == "a&a revised 3 inf 1 art 2 arm vs 4 inf 1 ftr lowluck"


def test_the_issue_wif_example_reads_winter_as_snow():
    request = parse_battle("wif 18 vs 6 blitz +2 winter")
    assert request == BattleRequest(
        "wif",
        {
            "attack": 18,
            "defense": 6,
            "column": "blitz",
            "drm": 2,
            "modifiers": {"weather": "snow"},
            "fractional_odds": False,
        },
    )
    assert format_battle(request) == "wif 18 vs 6 blitz +2 snow"


def test_a_france_1944_line():
    request = parse_battle("f44 12 vs 4 assault morale 4 vs 3 units 5 terrain +1 other -3")
    assert request == BattleRequest(
        "france_1944",
        {
            "attack": 12,
            "defense": 4,
            "combat": "set-piece",
            "attacker_morale": 4,
            "defender_morale": 3,
            "attacking_units": 5,
            "terrain_morale": 1,
            "other_morale": -3,
        },
    )
    assert (
        format_battle(request) == "f44 12 vs 4 set-piece morale 4 vs 3 units 5 terrain +1 other -3"
    )


@pytest.mark.parametrize(
    ("line", "attacker", "defender"),
    [
        (
            "3 infantry 2 armour vs 1 tank 1 fighter",
            {"infantry": 3, "armor": 2},
            {"armor": 1, "fighter": 1},
        ),
        (
            "2 tanks 1 bomber vs 2 infantries 1 aa",
            {"armor": 2, "bomber": 1},
            {"infantry": 2, "aa_gun": 1},
        ),
        ("1 bmb 1 arms 1 armor vs inf", {"bomber": 1, "armor": 2}, {"infantry": 1}),
        (
            "2 sub 1 des 1 bb 1 car 1 tra vs 1 bat 1 ac 1 trn 2 subs",
            {"submarine": 2, "destroyer": 1, "battleship": 1, "carrier": 1, "transport": 1},
            {"battleship": 1, "carrier": 1, "transport": 1, "submarine": 2},
        ),
        (
            "1 destroyer 2 battleships vs 1 carrier 2 fighters",
            {"destroyer": 1, "battleship": 2},
            {"carrier": 1, "fighter": 2},
        ),
    ],
)
def test_unit_words_singular_plural_and_full(line, attacker, defender):
    request = parse_battle(line)
    assert (request.arguments["attacker"], request.arguments["defender"]) == (attacker, defender)


def test_aa_options_spelled_out():
    request = parse_battle(
        "aa classic 2 inf 1 arm 1 bb vs 3 inf 1 aa chess-cof rounds 2 amphibious "
        "tech heavy-bombers defender-tech jets attacker-order inf,arm defender-order inf"
    )
    assert request.arguments == {
        "attacker": {"infantry": 2, "armor": 1, "battleship": 1},
        "defender": {"infantry": 3, "aa_gun": 1},
        "rules": "chess-cof",
        "edition": "classic",
        "rounds": 2,
        "amphibious": True,
        "techs": {"attacker": ["heavy_bombers"], "defender": ["jet_fighters"]},
        "attacker_order": ["infantry", "armor"],
        "defender_order": ["infantry"],
    }
    assert format_battle(request) == (
        "a&a classic 2 inf 1 arm 1 bb vs 3 inf 1 aa chess-cof rounds 2 amphibious "
        "tech heavy_bombers defender-tech jet_fighters attacker-order inf,arm defender-order inf"
    )


def test_low_luck_submarine_and_bombardment_options():
    request = parse_battle(
        "ll 3 sub 1 ftr vs 1 bb 1 des attacker-first-strike-subs 2 defender-first-strike-subs 0"
    )
    assert request.arguments["rules"] == "lowluck"
    assert request.arguments["options"] == {"attacker_first_strike_subs": 2}
    amphibious = parse_battle("2 inf 1 bb vs 2 inf lowluck amphibious bombard-separately")
    assert amphibious.arguments["options"] == {"bombard_separately": True}


def test_wif_modifiers_by_name():
    request = parse_battle(
        "wif 7.3 vs 2 assault -1.5 forest city river rain fractional dif-2 "
        "attacking_arm=1 face-down-defenders=2 divisions.face_down_defenders=1"
    )
    assert request.arguments == {
        "attack": 7.3,
        "defense": 2,
        "column": "assault",
        "drm": -1.5,
        "modifiers": {
            "terrain": "forest",
            "city": True,
            "all_across_river_or_invading": True,
            "weather": "rain",
            "options": ["dif-2"],
            "attacking_arm": 1,
            "face_down_defenders": 2,
            "divisions": {"face_down_defenders": 1},
        },
        "fractional_odds": True,
    }
    assert format_battle(request) == (
        "wif 7.3 vs 2 assault -1.5 rain forest city river fractional dif-2 attacking_arm=1 "
        "face_down_defenders=2 divisions.face_down_defenders=1"
    )


def test_defaults_are_left_out_so_equal_battles_are_equal_requests():
    assert parse_battle("wif 12 vs 4 assault fine clear attacking_major_powers=1") == parse_battle(
        "wif 12 vs 4"
    )
    assert parse_battle("2 inf 1 inf vs inf") == parse_battle("a&a revised 3 inf vs 1 inf dice")


# --- rooms: the system and the variant --------------------------------------------------------


def test_a_room_knows_its_system():
    wif_room = parse_battle("18 vs 6 blitz", system="wif")
    assert wif_room == parse_battle("wif 18 vs 6 blitz")
    f44_room = parse_battle("6 vs 4 morale 3 vs 3 units 2", system="france_1944")
    assert f44_room.arguments["attack"] == 6


def test_a_system_word_of_another_system_is_refused_in_a_room():
    with pytest.raises(BattleNotationError) as error:
        parse_battle("wif 18 vs 6", system="axis_allies")
    assert (error.value.word, error.value.position) == ("wif", 0)
    assert "this room plays a&a" in str(error.value)


def test_the_room_variant_fills_in_and_may_not_be_contradicted():
    variant = {"edition": "classic", "rules": "chess"}
    request = parse_battle("3 inf vs 2 inf", system="axis_allies", variant=variant)
    assert (request.arguments["edition"], request.arguments["rules"]) == ("classic", "chess")
    # The canonical line repeats the room's settings, and parses in the room.
    assert parse_battle(format_battle(request), system="axis_allies", variant=variant) == request
    with pytest.raises(BattleNotationError) as error:
        parse_battle("3 inf vs 2 inf lowluck", system="axis_allies", variant=variant)
    assert (error.value.word, error.value.position) == ("lowluck", 5)
    assert "this room plays rules chess" in str(error.value)
    with pytest.raises(BattleNotationError) as error:
        parse_battle("wif 9 vs 3 dif-3", variant={"options": ["dif-2"]})
    assert error.value.word == "dif-3"
    wif = parse_battle("wif 9 vs 3", variant={"options": ["dif-2"], "fractional_odds": True})
    assert wif.arguments["fractional_odds"] is True
    assert wif.arguments["modifiers"] == {"options": ["dif-2"]}


def test_a_bad_variant_names_its_key():
    with pytest.raises(CombatInputError) as error:
        parse_battle("3 inf vs 2 inf", variant={"weather": "snow"})
    assert error.value.field == "variant.weather"


# --- the editions of issue 32 ----------------------------------------------------------------


def test_the_issues_example_in_global_1940():
    request = parse_battle("global-1940-2e 2 mech 1 tac vs 3 inf 1 aaa")
    assert request.arguments["edition"] == "global-1940-2e"
    assert request.arguments["attacker"] == {"mech_infantry": 2, "tactical_bomber": 1}
    assert request.arguments["defender"] == {"infantry": 3, "aaa": 1}


@pytest.mark.parametrize("edition", available_editions())
def test_every_unit_of_every_edition_has_a_word(edition):
    """Each unit's abbreviation and its full name both parse, in a room of that edition (as
    the defender, against a fighter, which may attack land and sea alike)."""
    for name in load_edition(edition).units:
        assert name in notation_aa.AA_UNITS, f"{edition}: {name} has no word"
        for word in (notation_aa.AA_UNITS[name][0], name):
            request = parse_battle(
                f"1 ftr vs 1 {word}", system="axis_allies", variant={"edition": edition}
            )
            assert request.arguments["defender"] == {name: 1}
            assert request.arguments["edition"] == edition


def test_a_rooms_edition_refuses_a_unit_it_does_not_have_by_name():
    with pytest.raises(BattleNotationError) as error:
        parse_battle("2 mech 1 art vs 3 inf", system="axis_allies", variant={"edition": "revised"})
    assert "Revised has no mech_infantry" in str(error.value)
    assert (error.value.word, error.value.position) == ("mech", 1)
    request = parse_battle(
        "2 mech 1 art vs 3 inf", system="axis_allies", variant={"edition": "global-1940-2e"}
    )
    assert request.arguments["attacker"] == {"mech_infantry": 2, "artillery": 1}


# --- errors name the word ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "word", "position", "expected"),
    [
        ("3 inf 1 art vs", None, None, "expected the defender's units"),
        ("3 inf 2 foo vs 2 inf", "foo", 3, "expected a unit after the count"),
        ("3 inf 2 inf 2 inf", None, None, "expected a unit (e.g. 3 inf) or vs"),
        ("classic 1 art vs 1 inf", "art", 2, "Classic has no artillery"),
        ("revised 2 mech 1 tac vs 3 inf", "mech", 2, "Revised has no mech_infantry"),
        ("1942-2e 2 mech 1 tac vs 3 inf", "mech", 2, "1942-2e has no mech_infantry"),
        ("1942-2e 2 inf 1 tac vs 3 inf", "tac", 4, "1942-2e has no tactical_bomber"),
        ("anniversary 1 inf vs 1 inf 1 aaa", "aaa", 7, "Anniversary has no aaa"),
        ("global-1940-2e 1 mar vs 1 inf", "mar", 2, "Global-1940-2e has no marine"),
        ("3 inf vs 2 inf dice lowluck", "lowluck", 6, "rules is already given (dice)"),
        ("3 inf vs 2 inf rounds x", "x", 6, "expected the number of rounds"),
        ("3 inf vs 2 inf blitz", "blitz", 5, "expected an option"),
        ("1 inf 1 bb vs 1 inf", "bb", 3, "attacker.battleship: ships take part in a land battle"),
        ("1 aa vs 1 inf", "aa", 1, "attacker.aa_gun: AA guns do not attack"),
        ("3 inf vs 2 inf tech lasers", "lasers", 6, "techs: unknown technology 'lasers'"),
        ("wif 18 vs 0", "0", 3, "defense: must be more than 0"),
        ("wif 18 vs 6 blurb", "blurb", 4, "expected a WiF modifier"),
        ("wif 18 against", None, None, "expected the defence factors"),
        ("wif 18 vs 6 +0.25", "+0.25", 4, "drm: at most one decimal"),
        ("wif 18 vs 6 ftr=2", "ftr=2", 4, "'ftr' is not a count of the WiF modifiers"),
        ("wif 18 vs 6 dif-3 defending_at=1 defending_aa=x", "defending_aa=x", 6, "whole number"),
        ("wif 18 vs 6 defending_at=1", "defending_at=1", 4, "needs dif-3"),
        ("f44 1 vs 8 morale 4 vs 3 units 5", "1", 1, "is below 1-4 odds"),
        ("f44 6 vs 4 morale 4 vs 3", None, None, "missing: units N"),
        ("f44 6 vs 4 units 3", None, None, "missing: morale A vs D"),
        ("f44 6 vs 4 morale 7 vs 3 units 3", "7", 5, "attacker_morale: 7 is not within 1..6"),
        ("f44 6 vs 4 morale 4 vs 3 units 3 terrain +3", "+3", 11, "never a sum"),
        ("f44 6 vs 4 morale 4 to 3 units 3", "to", 6, "expected vs between the two morales"),
        ("", None, None, "empty"),
    ],
)
def test_errors_name_the_word_and_what_was_expected(line, word, position, expected):
    with pytest.raises(BattleNotationError) as error:
        parse_battle(line)
    assert (error.value.word, error.value.position) == (word, position)
    assert error.value.field == "notation"
    assert expected in str(error.value)
    assert isinstance(error.value, CombatInputError)


# --- the round trip ---------------------------------------------------------------------------

_TECHS = st.lists(st.sampled_from(sorted(load_edition("revised").techs)), unique=True, max_size=2)


@st.composite
def aa_requests(draw) -> BattleRequest:
    edition = draw(st.sampled_from(available_editions()))
    units = load_edition(edition).units
    sea = draw(st.booleans())
    fighters = [n for n, u in units.items() if u.casualty and (u.kind == "sea") == sea]
    fighters += [n for n, u in units.items() if u.kind == "air"] if sea else []
    amphibious = not sea and draw(st.booleans())

    def force(names, extra=()):
        chosen = draw(st.dictionaries(st.sampled_from(names + list(extra)), st.integers(1, 4)))
        return chosen

    attacker = force(fighters, ["battleship"] if amphibious else ())
    defender = force(fighters, [] if sea else ["aa_gun"])
    arguments = {
        "attacker": attacker,
        "defender": defender,
        "rules": draw(st.sampled_from(sorted(RULES))),
        "edition": edition,
    }
    rounds = draw(st.none() | st.integers(1, 4))
    if rounds is not None:
        arguments["rounds"] = rounds
    if amphibious:
        arguments["amphibious"] = True
    techs = sorted(t for t in draw(_TECHS) if t in load_edition(edition).techs)
    defender_techs = sorted(t for t in draw(_TECHS) if t in load_edition(edition).techs)
    if defender_techs:
        arguments["techs"] = {"attacker": techs, "defender": defender_techs}
    elif techs:
        arguments["techs"] = techs
    casualties = sorted(n for n, u in units.items() if u.casualty)
    for key in ("attacker_order", "defender_order"):
        order = draw(st.lists(st.sampled_from(casualties), unique=True, max_size=3))
        if order:
            arguments[key] = order
    options = {}
    for key in ("attacker_first_strike_subs", "defender_first_strike_subs"):
        subs = draw(st.integers(0, 3))
        if subs:
            options[key] = subs
    if draw(st.booleans()):
        options["bombard_separately"] = True
    if options:
        arguments["options"] = options
    try:
        build_setup(**fight_arguments(arguments))
    except CombatInputError:
        assume(False)
    return BattleRequest("axis_allies", arguments)


def _decimal(low: int, high: int, places: int = 1):
    whole = st.integers(low, high)
    tenths = st.integers(low * 10**places, high * 10**places).map(lambda n: n / 10**places)
    return whole | tenths


_COUNTS = (
    "attacking_hqa",
    "attacking_arm",
    "attacking_mech",
    "defending_hqa",
    "defending_arm",
    "face_down_defenders",
    "printed_factories",
    "winterised_defenders",
)


@st.composite
def wif_requests(draw) -> BattleRequest:
    modifiers = {}
    terrain = draw(st.sampled_from(TERRAINS))
    if terrain != "clear":
        modifiers["terrain"] = terrain
    weather = draw(st.sampled_from(WEATHERS))
    if weather != "fine":
        modifiers["weather"] = weather
    for flag in ("city", "all_across_river_or_invading"):
        if draw(st.booleans()):
            modifiers[flag] = True
    for name in draw(st.lists(st.sampled_from(_COUNTS), unique=True, max_size=3)):
        modifiers[name] = draw(st.integers(1, 5))
    majors = draw(st.integers(1, 3))
    if majors != 1:
        modifiers["attacking_major_powers"] = majors
    if draw(st.booleans()):
        modifiers["attacking_land_units"] = draw(st.integers(15, 20))
    options = draw(st.lists(st.sampled_from(["dif-2", "dif-14", "option-13"]), unique=True))
    if options:
        modifiers["options"] = sorted(options)
        if draw(st.booleans()) and modifiers.get("face_down_defenders"):
            modifiers["divisions"] = {"face_down_defenders": 1}
    arguments = {
        "attack": draw(_decimal(0, 60, 2)),
        "defense": draw(_decimal(1, 20, 2)),
        "column": draw(st.sampled_from(["assault", "blitz"])),
        "drm": draw(_decimal(-5, 5)),
        "modifiers": modifiers,
        "fractional_odds": draw(st.booleans()),
    }
    try:
        wif_land_odds(**arguments)
    except CombatInputError:
        assume(False)
    return BattleRequest("wif", arguments)


@st.composite
def france_requests(draw) -> BattleRequest:
    arguments = {
        "attack": draw(_decimal(1, 40)),
        "defense": draw(_decimal(1, 12)),
        "combat": draw(st.sampled_from(["set-piece", "mobile"])),
        "attacker_morale": draw(st.integers(1, 6)),
        "defender_morale": draw(st.integers(1, 6)),
        "attacking_units": draw(st.integers(1, 8)),
        "terrain_morale": draw(st.integers(0, 2)),
        "other_morale": draw(st.integers(-6, 6)),
    }
    args = dict(arguments)
    try:
        france_1944_odds(args.pop("attack"), args.pop("defense"), **args)
    except CombatInputError:
        assume(False)
    return BattleRequest("france_1944", arguments)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(aa_requests() | wif_requests() | france_requests())
def test_the_canonical_line_parses_back_to_the_request(request):
    line = format_battle(request)
    assert parse_battle(line) == request
    assert format_battle(parse_battle(line)) == line
    # And in a room of the system, without the system word.
    assert parse_battle(line.split(" ", 1)[1], system=request.system) == request


def _with_defaults_spelled_out(request: BattleRequest) -> BattleRequest:
    """The same battle with the defaults a JSON body may carry written out (and zero counts)."""
    arguments = dict(request.arguments)
    if request.system == "axis_allies":
        arguments = {"rounds": None, "amphibious": False, "techs": [], **arguments}
        arguments["attacker"] = {"transport": 0, **arguments["attacker"]}
    elif request.system == "wif":
        arguments["modifiers"] = {"terrain": "clear", "attacking_major_powers": 1} | dict(
            arguments["modifiers"]
        )
    else:
        arguments = {k: v for k, v in arguments.items() if v not in (0, "set-piece")}
    return BattleRequest(request.system, arguments)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(aa_requests() | wif_requests() | france_requests())
def test_defaults_written_out_by_hand_give_the_same_line(request):
    spelled_out = _with_defaults_spelled_out(request)
    assert format_battle(spelled_out) == format_battle(request)
    assert parse_battle(format_battle(spelled_out)) == request


# --- resolution, worked by hand ----------------------------------------------------------------


def test_a_wif_roll_worked_by_hand():
    # 12:4 is 3:1, +6 (the Odds Modifiers table); clear, fine, no units named: nothing else.
    context = "room:3"
    assert (roll(context, 0, 10), roll(context, 1, 10)) == (5, 6)
    answer = resolve_battle(parse_battle("wif 12 vs 4"), SeededDice(SEED, context))
    # 5 + 6 + 6 = row 17, Assault column: "1/1". Row 17 needs a dice total of 11: 10 of the
    # 100 pairs of d10.
    assert answer["result"]["rolls"] == [
        {"counter": 0, "sides": 10, "value": 5},
        {"counter": 1, "sides": 10, "value": 6},
    ]
    assert (answer["result"]["row"], answer["result"]["code"]) == (17, "1/1")
    assert answer["odds"]["distribution"]["1/1"] == pytest.approx(0.10)
    assert answer["summary"] == ("1/1 on row 17: attacker loses 1; defender loses 1 (10.0% odds)")
    assert answer["system"] == "wif"
    assert answer["notation"] == "wif 12 vs 4 assault"


def test_a_france_1944_roll_worked_by_hand():
    # 6 vs 4 = 1.5: the 3-2 column. Morale 4 - (3 + 1 terrain) = 0; morale 4's control limit
    # is 6 (Table 2), 7 units: -1. One shift left: 1-1, mobile: E E E B B B.
    context = "room:3"
    assert roll(context, 0, 6) == 1
    line = "f44 6 vs 4 mobile morale 4 vs 3 units 7 terrain +1"
    answer = resolve_battle(parse_battle(line), SeededDice(SEED, context))
    assert answer["odds"]["column"] == "1-1"
    assert answer["odds"]["distribution"] == {
        "A": 0.0,
        "B": 0.5,
        "C": 0.0,
        "D": 0.0,
        "E": 0.5,
        "F": 0.0,
    }
    assert answer["result"]["rolls"] == [{"counter": 0, "sides": 6, "value": 1}]
    assert (answer["result"]["row"], answer["result"]["code"]) == (1, "E")
    assert answer["summary"] == "result E: die 1, row 1 on the 1-1 mobile column (50.0% odds)"


def test_an_aa_dice_battle_worked_by_hand():
    # Armor attacks at 3, infantry defends at 2. Each round the attacker hits with 1/2 and the
    # defender with 1/3; the battle ends with the first round that hits: attacker alone
    # 1/2 x 2/3, defender alone 1/2 x 1/3, both 1/2 x 1/3, out of 2/3 -> 1/2, 1/4, 1/4.
    context = "room:1"
    faces = [roll(context, n, 6) for n in range(6)]
    answer = resolve_battle(parse_battle("1 arm vs 1 inf"), SeededDice(SEED, context))
    odds = answer["odds"]
    assert (odds["attacker_wins"], odds["defender_wins"], odds["draw"]) == pytest.approx(
        (0.5, 0.25, 0.25)
    )
    rolls = [r for rnd in answer["result"]["rounds"] for f in rnd["fire"] for r in f["rolls"]]
    # The attacker rolls first each round; the battle goes on until a round has a hit.
    expected_rounds = 0
    for n in range(0, 6, 2):
        expected_rounds += 1
        if faces[n] <= 3 or faces[n + 1] <= 2:
            break
    assert [(r["side"], r["value"], r["counter"]) for r in rolls] == [
        ("attacker" if n % 2 == 0 else "defender", faces[n], n) for n in range(2 * expected_rounds)
    ]
    assert faces[:4] == [5, 3, 4, 1]  # miss, miss; miss, the infantry hits (1 <= 2)
    assert answer["result"]["winner"] == "defender"
    assert answer["summary"] == "defender wins with 1 inf left (25.0% odds)"


def test_an_aa_chess_battle_worked_by_hand():
    # A&A Chess: hits = total // 6, one more on a remainder of 5+ (attacker) or 4+ (defender).
    # Round 1: 3 armor = 9 -> 1 hit; 2 infantry = 4 -> 0 + 1. Round 2: 2 armor = 6 -> 1 hit;
    # 1 infantry = 2 -> none. No die is rolled.
    answer = resolve_battle(parse_battle("3 arm vs 2 inf chess"), SeededDice(SEED, "room:9"))
    result = answer["result"]
    assert [(r["attacker_hits"], r["defender_hits"]) for r in result["rounds"]] == [(1, 1), (1, 0)]
    assert result["attacker_survivors"] == {"armor": 2}
    assert answer["summary"] == "attacker wins with 2 arm left (100.0% odds)"


def test_the_same_dice_give_the_same_answer_and_it_is_json():
    request = parse_battle("3 inf 1 art 2 arm vs 4 inf 1 ftr lowluck")
    first = resolve_battle(request, SeededDice(SEED, "room:5"))
    again = resolve_battle(request, SeededDice(SEED, "room:5"))
    assert first == again
    assert json.loads(json.dumps(first)) == first
    other = resolve_battle(request, SeededDice(SEED, "room:6"))
    counters = [r["counter"] for rnd in other["result"]["rounds"] for f in rnd["fire"]
                for r in f["rolls"]]  # fmt: skip
    assert counters == list(range(len(counters)))


def test_a_battle_past_the_exact_solver_is_estimated_with_a_fixed_seed():
    # 200 v 200 infantry for 3 rounds: 201 x 201 states > the round solver's 25,000.
    request = parse_battle("200 inf vs 200 inf rounds 3 lowluck")
    odds = resolve_battle(request, SeededDice(SEED, "room:1"))["odds"]
    assert odds["method"] == "monte-carlo"
    again = resolve_battle(request, SeededDice(SEED, "room:2"))["odds"]
    assert odds == again


# --- the odds are the odds APIs' --------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("line", "url"),
    [
        ("3 inf 1 art 2 arm vs 4 inf 1 ftr lowluck", "/api/combat/aa/odds"),
        ("2 ftr 1 bmb vs 3 inf 1 aa", "/api/combat/aa/odds"),
        ("wif 18 vs 6 blitz +2 winter", "/api/combat/wif/land"),
        ("wif 7.3 vs 2 fractional forest attacking_arm=1", "/api/combat/wif/land"),
        (
            "f44 12 vs 4 assault morale 4 vs 3 units 5 terrain +1 other -3",
            "/api/combat/france-1944",
        ),
    ],
)
def test_the_odds_equal_the_odds_api(client, line, url):
    request = parse_battle(line)
    answer = resolve_battle(request, SeededDice(SEED, "room:1"))
    response = client.post(url, request.arguments, content_type="application/json")
    assert response.status_code == 200, response.json()
    assert answer["odds"] == response.json()


# --- requests built by hand, as a room may store them ------------------------------------------


def test_commas_between_units_are_spaces():
    assert parse_battle("3 inf, 1 art, 2 arm vs 4 inf, 1 ftr") == parse_battle(
        "3 inf 1 art 2 arm vs 4 inf 1 ftr"
    )


def test_a_string_variant_is_the_aa_rooms_rules():
    request = parse_battle("3 inf vs 2 inf", system="axis_allies", variant="lowluck")
    assert request.arguments["rules"] == "lowluck"
    with pytest.raises(BattleNotationError) as error:
        parse_battle("3 inf vs 2 inf dice", system="axis_allies", variant="lowluck")
    assert error.value.word == "dice"


def test_a_request_built_by_hand_is_written_and_rolled_in_its_canonical_form():
    by_hand = BattleRequest(
        "axis_allies",
        {
            "attacker": {"infantry": 2, "armor": 0},
            "defender": {"infantry": 1},
            "techs": {"attacker": ["jet_fighters"], "defender": []},
            "rounds": None,
            "options": {"bombard_separately": False},
        },
    )
    line = format_battle(by_hand)
    assert line == "a&a revised 2 inf vs 1 inf dice tech jet_fighters"
    assert parse_battle(line).arguments == {
        "attacker": {"infantry": 2},
        "defender": {"infantry": 1},
        "rules": "dice",
        "edition": "revised",
        "techs": ["jet_fighters"],
    }
    wif = BattleRequest("wif", {"attack": 12, "defense": 4})
    answer = resolve_battle(wif, SeededDice(SEED, "room:3"))
    assert answer == resolve_battle(parse_battle("wif 12 vs 4"), SeededDice(SEED, "room:3"))
    assert answer["notation"] == "wif 12 vs 4 assault"


@pytest.mark.parametrize(
    ("system", "arguments", "field"),
    [
        ("france_1944", {"attack": 6, "defense": 4, "attacking_units": 2}, "attacker_morale"),
        ("wif", {"attack": 6, "defense": 4, "weather": "snow"}, "weather"),
        ("axis_allies", {"attacker": {"infantry": 1}}, "defender"),
        ("axis_allies", ["infantry"], "arguments"),
    ],
)
def test_a_request_built_by_hand_names_a_missing_or_unknown_argument(system, arguments, field):
    with pytest.raises(CombatInputError) as error:
        resolve_battle(BattleRequest(system, arguments), SeededDice(SEED, "room:1"))
    assert error.value.field == field


def test_counts_written_together_with_the_unit():
    assert parse_battle("3inf 1art 2arm vs 4inf ftr") == parse_battle(
        "3 inf 1 art 2 arm vs 4 inf 1 ftr"
    )
    with pytest.raises(BattleNotationError) as error:
        parse_battle("classic 3inf 1art vs 4inf")
    assert (error.value.word, error.value.position) == ("1art", 2)


def test_a_line_cut_short_says_what_was_expected():
    with pytest.raises(BattleNotationError) as error:
        parse_battle("3 inf vs 2 inf tech")
    assert "the line ends: expected a technology" in str(error.value)


def test_a_large_dice_battle_off_the_fast_path_is_estimated(monkeypatch):
    # Submarines keep the solver off its fast path. Hit points: 2 sub + 1 des = 3 against
    # 1 des + 1 ftr = 2: (3 + 1) x (2 + 1) states x 5 hit points = 60.
    request = parse_battle("2 sub 1 des vs 1 des 1 ftr")
    monkeypatch.setattr(notation_aa, "MAX_EXACT_DICE_WORK", 60)
    assert resolve_battle(request, SeededDice(SEED, "room:1"))["odds"]["method"] == "exact"
    monkeypatch.setattr(notation_aa, "MAX_EXACT_DICE_WORK", 59)
    odds = resolve_battle(request, SeededDice(SEED, "room:1"))["odds"]
    assert (odds["method"], sum(o["probability"] for o in odds["outcomes"])) == (
        "monte-carlo",
        pytest.approx(1),
    )


def test_a_huge_battle_on_the_fast_path_is_estimated(monkeypatch):
    # 3 v 2 infantry, no submarines: the fast path, (3 + 1) x (2 + 1) = 12 cells x 5 hit points.
    request = parse_battle("3 inf vs 2 inf")
    monkeypatch.setattr(notation_aa, "MAX_EXACT_CHAIN_WORK", 60)
    assert resolve_battle(request, SeededDice(SEED, "room:1"))["odds"]["method"] == "exact"
    monkeypatch.setattr(notation_aa, "MAX_EXACT_CHAIN_WORK", 59)
    assert resolve_battle(request, SeededDice(SEED, "room:1"))["odds"]["method"] == "monte-carlo"


def test_france_1944_morale_written_as_a_pair():
    expected = parse_battle("f44 6 vs 4 morale 4 vs 3 units 2")
    assert parse_battle("f44 6 vs 4 morale 4/3 units 2") == expected
    assert parse_battle("f44 6 vs 4 units 2 morale 4 / 3") == expected
    with pytest.raises(BattleNotationError) as error:
        parse_battle("f44 6 vs 4 morale 4/7 units 2")
    assert (error.value.word, error.value.position) == ("4/7", 5)
    assert "defender_morale: 7 is not within 1..6" in str(error.value)


DOCS = Path(__file__).resolve().parents[2] / "docs" / "battle_notation.md"


def test_every_example_of_the_documentation_gives_its_canonical_line_which_is_its_own():
    """The page's examples are doctests (tests/docs runs them); here each canonical line must
    also read back as itself, so what the journal shows can be pasted in again."""
    examples = re.findall(
        r"^>>> format_battle\(parse_battle\(\"([^\"]+)\"\)\)\n'(.+)'$",
        DOCS.read_text(encoding="utf-8"),
        re.M,
    )
    assert len(examples) == 10
    for line, canonical in examples:
        assert format_battle(parse_battle(line)) == canonical, line
        assert format_battle(parse_battle(canonical)) == canonical, canonical
