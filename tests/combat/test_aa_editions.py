"""1942 Second Edition, Global 1940 Second Edition (and its variants) and Anniversary.

Each expected value is worked by hand in the test's docstring (notation of test_aa_dice_odds: a
round where the attacker hits with probability a and the defender with d leaves with "attacker
only" a(1-d), "both" ad, "defender only" (1-a)d, and stays with (1-a)(1-d)). The unit values are
those of the data files, whose comments cite the rulebooks and TripleA's game files.

The rulebooks' own worked examples are not here: their text was not available (see the report
of issue 32, section 1); every case below is worked from the rules as the data files cite them.
"""

from __future__ import annotations

from dataclasses import replace
from math import comb, sqrt
from pathlib import Path

import pytest

from combat.axis_allies import battle_odds, editions, fight
from combat.axis_allies.anti_aircraft import aa_loss_outcomes
from combat.axis_allies.editions import _parse_edition, load_edition
from combat.axis_allies.errors import EditionDataError
from combat.axis_allies.rules import EXACT, get_rules
from combat.dice import FixedDice

NEW_EDITIONS = ("1942-2e", "global-1940-2e", "anniversary")


def stats(edition: str, unit: str) -> tuple[int, int, int, int]:
    u = load_edition(edition).units[unit]
    return u.attack, u.defense, u.cost, u.hits


# --- the unit tables ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("unit", "expected"),
    [
        ("infantry", (1, 2, 3, 1)),
        ("artillery", (2, 2, 4, 1)),
        ("armor", (3, 3, 6, 1)),
        ("fighter", (3, 4, 10, 1)),
        ("bomber", (4, 1, 12, 1)),
        ("submarine", (2, 1, 6, 1)),
        ("transport", (0, 0, 7, 1)),
        ("destroyer", (2, 2, 8, 1)),
        ("cruiser", (3, 3, 12, 1)),
        ("carrier", (0, 2, 14, 1)),
        ("battleship", (4, 4, 20, 2)),
        ("aaa", (0, 0, 5, 1)),
    ],
)
def test_1942_second_edition_units_are_the_issues_values(unit, expected):
    """Issue 32's list for 1942 2E (checked against TripleA's WW2v5_1942_2nd.xml and AlliesCalc)."""
    assert stats("1942-2e", unit) == expected


@pytest.mark.parametrize(
    ("unit", "expected"),
    [
        ("mech_infantry", (1, 2, 4, 1)),
        ("tactical_bomber", (3, 3, 11, 1)),
        ("carrier", (0, 2, 16, 2)),
        ("armor", (3, 3, 6, 1)),
        ("battleship", (4, 4, 20, 2)),
        ("aaa", (0, 0, 5, 1)),
    ],
)
def test_global_1940_adds_mech_tactical_bombers_and_two_hit_carriers(unit, expected):
    assert stats("global-1940-2e", unit) == expected


def test_anniversary_has_cheaper_tanks_attacking_carriers_and_the_old_aa_gun():
    """TripleA WW2v3-1941.xml: armour 5 IPC, carrier A1 D2 14 IPC, one AA gun (6 IPC, not a
    casualty); no mech infantry, tactical bombers or AAA."""
    ed = load_edition("anniversary")
    assert stats("anniversary", "armor") == (3, 3, 5, 1)
    assert stats("anniversary", "carrier") == (1, 2, 14, 1)
    assert ed.units["aa_gun"].cost == 6 and not ed.units["aa_gun"].casualty
    assert {"mech_infantry", "tactical_bomber", "aaa"}.isdisjoint(ed.units)


def test_variants_extend_global_1940():
    """Balanced Mod adds marines (A1, A2 in an amphibious assault, D2, 5 IPC) and makes bombers
    cost 14 (BM4), and changes no other unit; Path to Victory (rules text not found) plays
    battles as the base edition."""
    base, bm = load_edition("global-1940-2e"), load_edition("global-1940-2e-balanced-mod")
    ptv = load_edition("global-1940-2e-path-to-victory")
    assert bm.extends == ptv.extends == "global-1940-2e"
    assert bm.units["bomber"] == replace(base.units["bomber"], cost=14)
    others = {n: u for n, u in bm.units.items() if n not in ("marine", "bomber")}
    assert others == {n: u for n, u in base.units.items() if n != "bomber"}
    assert dict(ptv.units) == dict(base.units)
    marine = bm.units["marine"]
    assert (marine.attack, marine.defense, marine.cost, marine.amphibious_attack_bonus) == (
        1,
        2,
        5,
        1,
    )


# --- the loader -----------------------------------------------------------------------------------


def _minimal(**extra):
    return {
        "sub_first_strike": "both",
        "units": {"infantry": {"kind": "land", "attack": 1, "defense": 2, "cost": 3}},
        **extra,
    }


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (_minimal(air_vs_subs=True), r"x.toml: air_vs_subs: unknown key"),
        (_minimal(bombard_casualties_fire_back="yes"), r"bombard_casualties_fire_back: must be"),
        (_minimal(two_hit_repair="never"), r"two_hit_repair: must be one of end_of_turn"),
        (
            _minimal(
                units={
                    "aaa": {"kind": "land", "attack": 0, "defense": 0, "cost": 5, "aa_shots": "3"}
                }
            ),
            r"units.aaa.aa_shots: must be a non-negative integer",
        ),
        (
            _minimal(
                units={
                    "tr": {"kind": "sea", "attack": 0, "defense": 0, "cost": 7, "defenceless": 1}
                }
            ),
            r"units.tr.defenceless: must be true or false",
        ),
        (
            _minimal(units={"tac": {"kind": "air", "attack": 3, "defense": 3}}),
            r"units.tac: missing 'cost'",
        ),
        (_minimal(units={"tac": 3}), r"units.tac: must be a table"),
    ],
)
def test_the_loader_names_file_and_key(raw, message):
    with pytest.raises(EditionDataError, match=message):
        _parse_edition("x", raw, "x.toml")


def test_extends_must_name_an_edition(tmp_path: Path, monkeypatch):
    (tmp_path / "base.toml").write_text(
        'sub_first_strike = "both"\n[units.infantry]\nkind = "land"\nattack = 1\ndefense = 2\n'
        "cost = 3\n"
    )
    (tmp_path / "good.toml").write_text('extends = "base"\n[units.infantry]\ncost = 4\n')
    (tmp_path / "bad.toml").write_text('extends = "nowhere"\n')
    (tmp_path / "loop.toml").write_text('extends = "loop"\n')
    monkeypatch.setattr(editions, "DATA_DIR", tmp_path)
    editions._load_edition.cache_clear()
    try:
        good = editions.load_edition("good")
        assert (good.units["infantry"].attack, good.units["infantry"].cost) == (1, 4)
        with pytest.raises(EditionDataError, match=r"bad.toml: extends: unknown edition"):
            editions.load_edition("bad")
        with pytest.raises(EditionDataError, match=r"loop.toml: extends: 'loop' extends itself"):
            editions.load_edition("loop")
    finally:
        editions._load_edition.cache_clear()


# --- pairing ------------------------------------------------------------------------------------


def test_tactical_bomber_with_a_tank_first_round_by_hand():
    """G40: the tank raises the tactical bomber to 4. Round 1: the attacker misses with
    (2/6)(3/6) = 1/6, so the infantry is gone with 5/6; it can take one unit, never both.
    Alone the tactical bomber hits with 1/2, and wins only if the infantry misses: (1/2)(2/3)."""
    odds = battle_odds(
        {"tactical_bomber": 1, "armor": 1}, {"infantry": 1}, edition="global-1940-2e", rounds=1
    )
    assert odds.attacker_wins == pytest.approx(5 / 6)
    alone = battle_odds({"tactical_bomber": 1}, {"infantry": 1}, edition="global-1940-2e", rounds=1)
    assert (alone.attacker_wins, alone.draw) == pytest.approx((1 / 3, 1 / 6))


def test_tactical_bomber_with_a_tank_to_the_end_by_hand():
    """a = 5/6, d = 1/3 from tac + tank v inf; the tac is lost first (3 < tank's 3 + 1 for the
    pairing it gives). Leave (stay 1/9): win (5/9 + 5/18) / (8/9) = 15/16, to tank v inf
    (1/18) / (8/9) = 1/16. Tank v inf: win 1/2, draw 1/4. Win 15/16 + 1/32 = 31/32,
    draw 1/64."""
    odds = battle_odds(
        {"tactical_bomber": 1, "armor": 1}, {"infantry": 1}, edition="global-1940-2e"
    )
    assert (odds.attacker_wins, odds.draw) == pytest.approx((31 / 32, 1 / 64))


def test_one_artillery_raises_one_infantry_or_mech_not_both():
    """G40 Low Luck, one round: artillery 2 + one paired foot soldier 2 + the other 1 = 5: no
    sure hit, one die hitting on <= 5. The defender's 3 infantry total 6: one sure hit."""
    odds = battle_odds(
        {"artillery": 1, "infantry": 1, "mech_infantry": 1},
        {"infantry": 3},
        edition="global-1940-2e",
        rules="lowluck",
        rounds=1,
    )
    assert odds.expected_defender_survivors["infantry"] == pytest.approx(3 - 5 / 6)
    assert sum(odds.expected_attacker_survivors.values()) == pytest.approx(2)


def test_fighter_and_tank_each_raise_their_own_tactical_bomber():
    """Two supporters, two tactical bombers: both at 4. LL total 4 + 4 + 3 + 3 = 14: two sure
    hits and a die hitting on <= 2 against four infantry."""
    odds = battle_odds(
        {"tactical_bomber": 2, "fighter": 1, "armor": 1},
        {"infantry": 4},
        edition="global-1940-2e",
        rules="lowluck",
        rounds=1,
    )
    assert odds.expected_defender_survivors["infantry"] == pytest.approx(4 - 2 - 2 / 6)


# --- AAA ----------------------------------------------------------------------------------------


def test_aaa_fires_three_dice_per_gun_at_most_one_per_plane():
    """1942 2E: two AAA (6 shots) at four planes roll four dice: P(k) = C(4, k) (1/6)^k (5/6)^(4-k);
    the attacker loses the planes his order gives up first (fighters before the bomber)."""
    out = aa_loss_outcomes(
        get_rules("dice"), {"fighter": 3, "bomber": 1}, 1, ["fighter", "bomber"], EXACT, shots=6
    )
    got = {sum(lost.values()): (p, lost) for p, lost in out}
    for k in range(5):
        assert got[k][0] == pytest.approx(comb(4, k) * (1 / 6) ** k * (5 / 6) ** (4 - k))
    assert got[4][1] == {"fighter": 3, "bomber": 1} and got[3][1] == {"fighter": 3}


def test_one_aaa_shoots_three_of_five_planes():
    """One AAA: min(3, 5) = 3 dice: no plane lost with (5/6)^3."""
    out = aa_loss_outcomes(get_rules("dice"), {"fighter": 5}, 1, ["fighter"], EXACT, shots=3)
    assert dict((sum(lost.values()), p) for p, lost in out)[0] == pytest.approx((5 / 6) ** 3)
    assert max(sum(lost.values()) for _p, lost in out) == 3


def test_low_luck_aaa_rolls_its_dice_as_a_total():
    """Low Luck: 2 AAA at 5 planes: 5 dice at 1 -> total 5: one die hitting on <= 5."""
    out = aa_loss_outcomes(get_rules("lowluck"), {"fighter": 5}, 1, ["fighter"], EXACT, shots=6)
    got = {sum(lost.values()): p for p, lost in out}
    assert got == pytest.approx({0: 1 / 6, 1: 5 / 6})


def test_aaa_in_a_battle_by_hand():
    """1942 2E, 1 fighter v 1 AAA + 1 infantry, one round. The AAA shoots the fighter down with
    1/6; a surviving fighter hits with 1/2 and the AAA is taken first (defence 0). The infantry
    can only be left alone, so the attacker never wins in one round; the fighter is still there
    after the round with (5/6)(1 - 1/3) = 5/9."""
    odds = battle_odds({"fighter": 1}, {"aaa": 1, "infantry": 1}, edition="1942-2e", rounds=1)
    assert odds.expected_attacker_survivors["fighter"] == pytest.approx(5 / 9)
    assert odds.expected_defender_survivors["aaa"] == pytest.approx(1 - 5 / 6 * 1 / 2)


def test_aaa_alone_is_destroyed_without_firing():
    """AAA text: a territory with AAA and no combat units is taken, its AAA destroyed; they never
    fire, so the fighter always survives."""
    odds = battle_odds({"fighter": 1}, {"aaa": 2}, edition="1942-2e")
    assert odds.attacker_wins == 1.0
    assert odds.expected_attacker_survivors["fighter"] == 1.0


def test_aaa_left_alone_after_the_infantry_falls_is_destroyed():
    """Tank v infantry + AAA, the defender losing the infantry first: tank v infantry is
    1/2 win, 1/4 draw, 1/4 loss; a "draw" leaves the AAA alone with no attacker: the defender
    holds. The AAA never decides anything else (no planes)."""
    odds = battle_odds(
        {"armor": 1},
        {"infantry": 1, "aaa": 1},
        edition="1942-2e",
        defender_order=["infantry", "aaa"],
    )
    assert (odds.attacker_wins, odds.defender_wins, odds.draw) == pytest.approx((1 / 2, 1 / 2, 0))


# --- sea rules ----------------------------------------------------------------------------------


def test_aircraft_cannot_hit_a_submarine_without_a_destroyer():
    """Fighter v submarine: neither can hit the other (subs never hit aircraft): a stalemate
    when the sub stays (submerge "never"). By default it submerges at once (it could hit
    nothing): the attacker is left alone in the zone, the sub survives. In Revised the fighter
    can hit it: the battle ends."""
    never = {"defender_submerge": "never"}
    odds = battle_odds({"fighter": 1}, {"submarine": 1}, edition="1942-2e", options=never)
    assert odds.stalemate == 1.0
    dived = battle_odds({"fighter": 1}, {"submarine": 1}, edition="1942-2e")
    assert dived.attacker_wins == 1.0
    assert dived.expected_defender_survivors["submarine"] == 1.0
    assert dived.expected_ipc_swing == 0.0
    assert battle_odds({"fighter": 1}, {"submarine": 1}, edition="revised").stalemate == 0.0


def test_a_destroyer_lets_aircraft_hit_submarines():
    """Fighter + destroyer v submarine, one round: the destroyer cancels the surprise strike and
    lets the fighter hit the sub: it survives (1/2)(2/3) = 1/3."""
    odds = battle_odds(
        {"fighter": 1, "destroyer": 1}, {"submarine": 1}, edition="1942-2e", rounds=1
    )
    assert odds.expected_defender_survivors["submarine"] == pytest.approx(1 / 3)


def test_aircraft_hits_go_to_the_transport_never_the_submarine():
    """Two fighters v submarine + transport (G40): the planes' hits can fall only on the
    transport, the sub's only on... nothing (aircraft). The transport is lost, the sub stays:
    a stalemate with the submarine left, every time, when it stays (submerge "never"). By
    default the sub submerges at the start of round 1 (only aircraft to shoot at); the lone
    transport is then destroyed without a roll: the attacker wins, the sub survives, the swing
    is the transport's 7 IPC."""
    never = {"defender_submerge": "never"}
    odds = battle_odds(
        {"fighter": 2}, {"submarine": 1, "transport": 1}, edition="global-1940-2e", options=never
    )
    assert odds.stalemate == pytest.approx(1.0)
    assert odds.expected_defender_survivors == pytest.approx({"submarine": 1.0, "transport": 0.0})
    dived = battle_odds({"fighter": 2}, {"submarine": 1, "transport": 1}, edition="global-1940-2e")
    assert dived.attacker_wins == 1.0
    assert dived.expected_defender_survivors == pytest.approx({"submarine": 1.0, "transport": 0.0})
    assert dived.expected_ipc_swing == pytest.approx(7.0)


def test_transports_alone_are_destroyed_without_a_roll():
    """A destroyer against two transports: defenseless, removed; in Revised they defend at 1."""
    odds = battle_odds({"destroyer": 1}, {"transport": 2}, edition="anniversary")
    assert odds.attacker_wins == 1.0 and odds.expected_attacker_survivors["destroyer"] == 1.0
    assert battle_odds({"destroyer": 1}, {"transport": 2}).attacker_wins < 1.0


def test_transports_are_taken_last_whatever_the_order():
    """Destroyer v destroyer + transport, one round, the defender asking to lose the transport
    first: it is lost last. A hit (1/3) sinks the destroyer; the lone transport then goes too,
    unless the defender's destroyer sank the attacker (1/3) in the same round: the transport
    survives with 2/3 + (1/3)(1/3) = 7/9."""
    odds = battle_odds(
        {"destroyer": 1},
        {"destroyer": 1, "transport": 1},
        edition="1942-2e",
        rounds=1,
        defender_order=["transport", "destroyer"],
    )
    assert odds.expected_defender_survivors["destroyer"] == pytest.approx(2 / 3)
    assert odds.expected_defender_survivors["transport"] == pytest.approx(7 / 9)


def test_two_hit_carriers_stay_damaged():
    """G40: a fighter at a carrier, one round: a hit (1/2) damages it, nothing sinks it."""
    report_odds = battle_odds({"fighter": 1}, {"carrier": 1}, edition="global-1940-2e", rounds=1)
    assert report_odds.expected_defender_survivors["carrier"] == 1.0
    report = fight(
        {"fighter": 1}, {"carrier": 1}, edition="global-1940-2e", rounds=1, dice=FixedDice([1, 6])
    )
    assert report.defender_damaged == {"carrier": 1}


# --- bombardment ----------------------------------------------------------------------------------


def test_bombarded_units_fire_back_in_the_new_editions():
    """Infantry + battleship v infantry, amphibious, one round. Revised: the battleship fires
    first; the defender survives it with 1/3 and then hits with 1/3: the attacker's infantry is
    lost with 1/9. 1942 2E: the defender fires anyway: lost with 1/3."""
    args = ({"infantry": 1, "battleship": 1}, {"infantry": 1})
    revised = battle_odds(*args, amphibious=True, rounds=1)
    new = battle_odds(*args, edition="1942-2e", amphibious=True, rounds=1)
    assert revised.expected_attacker_survivors["infantry"] == pytest.approx(8 / 9)
    assert new.expected_attacker_survivors["infantry"] == pytest.approx(2 / 3)


def test_cruisers_bombard():
    """A cruiser bombards at 3 (1/2); with the infantry's 1/6 the defender survives round 1 with
    (1/2)(5/6) = 5/12."""
    odds = battle_odds(
        {"infantry": 1, "cruiser": 1}, {"infantry": 1}, edition="1942-2e", amphibious=True, rounds=1
    )
    assert odds.expected_defender_survivors["infantry"] == pytest.approx(5 / 12)


def test_balanced_mod_marines_attack_at_two_in_an_amphibious_assault():
    """Marine v infantry, one round: the marine hits with 2/6 amphibious, 1/6 otherwise, and
    wins the round if the infantry (2/6) misses: 2/9 and 1/9."""
    ed = "global-1940-2e-balanced-mod"
    amph = battle_odds({"marine": 1}, {"infantry": 1}, edition=ed, amphibious=True, rounds=1)
    land = battle_odds({"marine": 1}, {"infantry": 1}, edition=ed, rounds=1)
    assert amph.attacker_wins == pytest.approx(2 / 9) and land.attacker_wins == pytest.approx(1 / 9)


# --- exact against rolled -------------------------------------------------------------------------

BATTLES = [
    (
        {"infantry": 2, "mech_infantry": 2, "artillery": 3, "tactical_bomber": 2, "fighter": 1},
        {"infantry": 4, "aaa": 2},
        {},
    ),
    ({"fighter": 4, "bomber": 1, "infantry": 2}, {"infantry": 3, "aaa": 1}, {}),
    ({"submarine": 2, "fighter": 2}, {"destroyer": 1, "submarine": 1, "transport": 2}, {}),
    (
        {"battleship": 1, "carrier": 1, "fighter": 2},
        {"carrier": 1, "cruiser": 1, "transport": 1},
        {},
    ),
    (
        {"infantry": 3, "artillery": 1, "cruiser": 1, "battleship": 1},
        {"infantry": 4},
        {"amphibious": True},
    ),
]


@pytest.mark.parametrize("edition", NEW_EDITIONS)
@pytest.mark.parametrize("rules", ["dice", "lowluck"])
@pytest.mark.parametrize("battle", range(len(BATTLES)))
def test_exact_odds_agree_with_rolled_battles(edition, rules, battle):
    """``battle_odds`` against 3,000 battles played by ``fight``'s round code with seeded dice:
    every result's share within 3 standard errors (and 0.005, for shares near 0 or 1)."""
    attacker, defender, kwargs = BATTLES[battle]
    units = load_edition(edition).units
    stand_in = {"tactical_bomber": "bomber", "mech_infantry": "infantry", "aaa": "aa_gun"}

    def of_edition(force):
        out: dict[str, int] = {}
        for n, c in force.items():
            name = n if n in units else stand_in[n]
            out[name] = out.get(name, 0) + c
        return out

    attacker, defender = of_edition(attacker), of_edition(defender)
    exact = battle_odds(attacker, defender, edition=edition, rules=rules, **kwargs)
    runs = 3000
    rolled = battle_odds(
        attacker,
        defender,
        edition=edition,
        rules=rules,
        method="monte-carlo",
        runs=runs,
        seed=32,
        **kwargs,
    )
    for name in ("attacker_wins", "defender_wins", "draw", "stalemate"):
        p = min(max(getattr(exact, name), 0.0), 1.0)
        error = sqrt(p * (1 - p) / runs)
        assert abs(getattr(rolled, name) - p) <= 3 * error + 0.005, name
