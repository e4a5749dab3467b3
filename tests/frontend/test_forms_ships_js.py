"""The ship and remaining board-action forms (``forms_ships.js``) against the engine.

Node imports forms_ships.js and runs its pure functions: on the legal actions of seeded random
games, choices a player could make in each form (random, within the spec's bounds) are built
into actions, and the engine must accept every one; choices outside the bounds are refused with
a sentence; one hand-worked case per type checks the exact action. Needs Node.js.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from risk.rules import action_from_dict, apply, game_dice, new_game, pending_decisions, view_for
from risk.rules import board as rules_board
from risk.rules.bots import RandomBot, decide
from risk.rules.state import GameState, clone
from tests.frontend.node import import_line, run_script

TYPES = (
    "arrange",
    "place_ship",
    "place_factory",
    "cruise",
    "sail",
    "embark",
    "disembark",
    "end_cruise",
    "naval_attack",
    "join_defence",
    "prize",
    "transfer",
    "mobilize",
)
PER_TYPE = 12  # cases kept of each type: enough variety, and Node runs them in one go

FUNCTIONS = ("buildShipAction", "shipMarks", "shipPick", "shipDefaultChoice")
RUNNER = (
    import_line("forms_ships.js", *FUNCTIONS)
    + """
const fns = { buildShipAction, shipMarks, shipPick, shipDefaultChoice };
const out = input.map(([fn, args]) => {
  try {
    if (fn === "shipPick") {
      const hit = shipPick(...args);
      return { ok: { hit, choice: args[1] } };
    }
    return { ok: fns[fn](...args) };
  } catch (e) { return { error: String(e.message) }; }
});
process.stdout.write(JSON.stringify(out));
"""
)


def run_forms(cases: list[tuple[str, list]]) -> list:
    """Each (function name, arguments) run in Node on forms_ships.js's exports."""
    out = run_script(RUNNER, cases)
    assert all("ok" in r for r in out), out
    return [r["ok"] for r in out]


def choose(spec: dict, rng: random.Random) -> dict:
    """What a player might pick in the form for ``spec``: any choice within its bounds."""
    o, kind = spec["options"], spec["type"]
    if kind == "arrange":
        ts = o["territories"]
        counts = {t: o["min_each"] for t in ts}
        for _ in range(o["armies"] - o["min_each"] * len(ts)):
            counts[rng.choice(ts)] += 1
        choice: dict[str, Any] = {"arrangement": counts, "factory": rng.choice(ts)}
        if o["ship_stations"]:
            choice["ship_station"] = rng.choice(o["ship_stations"])
        return choice
    if kind == "place_ship":
        return {"station": rng.choice(o["stations"])}
    if kind in ("place_factory",):
        return {"territory": rng.choice(o["territories"])}
    if kind == "cruise":
        return {"ship": rng.choice(o["ships"])}
    if kind == "sail":
        return {"ship": o["ship"], "station": rng.choice(sorted(o["stations"]))}
    if kind == "embark":
        t = rng.choice(o["territories"])
        return {"ship": o["ship"], "territory": t, "armies": rng.randint(1, o["max"][t])}
    if kind == "disembark":
        t = rng.choice(o["territories"])
        return {"ship": o["ship"], "territory": t, "armies": rng.randint(1, o["max"])}
    if kind == "end_cruise":
        return {"ship": o["ship"]}
    if kind == "naval_attack":
        return choose_naval(o, rng)
    if kind == "join_defence":
        ships = [s for s in o["ships"] if rng.random() < 0.7]
        return {"ships": ships, "behind": {s: rng.choice(o["behind"][s]) for s in ships}}
    if kind == "prize":
        boarders = sorted(o["boarders"])
        if boarders and rng.random() < 0.7:
            by = rng.choice(boarders)
            return {
                "ship": rng.choice(o["ships"]),
                "by": by,
                "armies": rng.randint(1, o["boarders"][by]),
            }
        return {"ship": rng.choice(o["ships"]), "by": None}
    if kind == "transfer":
        source = rng.choice(o["sources"])
        return {
            "source": source,
            "destination": rng.choice(o["destinations"][source]),
            "armies": rng.randint(1, o["max"][source]),
        }
    assert kind == "mobilize"
    reveal = [c for c in o["cards"] if rng.random() < 0.5]
    need = o["wild_dice"] + reveal.count("wild")
    return {
        "reveal": reveal,
        "wild_territories": [rng.choice(o["territories"]) for _ in range(need)],
    }


def choose_naval(o: dict, rng: random.Random) -> dict:
    """A grouping the chosen mode allows: normal/committed one ship per target, flanking two or
    more ships on one target; committed and flanking ships commit equal armies."""
    seat = rng.choice(sorted(o["defenders"]))
    fleet = o["defenders"][seat]
    mode = rng.choice(sorted(o["modes"]))
    if mode == "flanking":
        able = [s for s in fleet if o["crew"][s] >= 2]
        shared = [
            t for t in {t for s in able for t in fleet[s]} if sum(t in fleet[s] for s in able) >= 2
        ]
        if not shared:  # flanking is open against another seat's ships
            mode = "normal"
        else:
            target = rng.choice(sorted(shared))
            ships = [s for s in able if target in fleet[s]]
            return {
                "seat": seat,
                "ships": ships,
                "targets": {s: target for s in ships},
                "mode": mode,
                "armies": rng.randint(2, min(o["crew"][s] for s in ships)),
            }
    pool = [s for s in fleet if mode == "normal" or o["crew"][s] >= 2]
    if not pool:
        pool, mode = list(fleet), "normal"
    ships, targets, used = [], {}, set()
    for s in rng.sample(pool, len(pool)):
        free = [t for t in fleet[s] if t not in used]
        if free and (not ships or rng.random() < 0.5):
            ships.append(s)
            targets[s] = rng.choice(free)
            used.add(targets[s])
    armies = rng.randint(2, min(o["crew"][s] for s in ships)) if mode == "committed" else None
    return {"seat": seat, "ships": ships, "targets": targets, "mode": mode, "armies": armies}


def collect(seeds: tuple[str, ...], players: int = 3) -> list[tuple[GameState, str, dict, list]]:
    """(state, actor, spec, all the actor's specs) for each of our types, from random games."""
    rng = random.Random(11)
    names = ["alice", "bob", "carol", "dave", "erin"][:players]
    found: list[tuple[GameState, str, dict, list]] = []
    count: Counter[str] = Counter()
    for seed in seeds:
        state = new_game(names, seed=seed)
        for _ in range(700):
            decisions = pending_decisions(state)
            if not decisions or all(count[t] >= PER_TYPE for t in TYPES if t != "join_defence"):
                break
            for decision in decisions:
                specs = view_for(state, decision.player)["legal_actions"]
                for spec in specs:
                    if spec["type"] in TYPES and count[spec["type"]] < PER_TYPE:
                        count[spec["type"]] += 1
                        found.append((state, decision.player, spec, specs))
            actor = rng.choice(decisions).player
            state, _ = apply(state, decide(RandomBot(rng), state, actor), game_dice(state))
    return found


def join_defence_case() -> tuple[GameState, str, dict, list]:
    """A naval attack on a seat with a second ship in the target's ocean: it may join.

    Random games rarely put two ships of one seat in one ocean, so the position is made from a
    real naval attack position by launching one more defending ship beside the target.
    """
    rng = random.Random(3)
    state = new_game(["alice", "bob", "carol"], seed="forms-ships-join")
    for _ in range(3000):
        decisions = pending_decisions(state)
        actor = decisions[0].player
        naval = [s for s in view_for(state, actor)["legal_actions"] if s["type"] == "naval_attack"]
        if naval and "normal" in naval[0]["options"]["modes"]:
            o = naval[0]["options"]
            seat = sorted(o["defenders"])[0]
            mine, targets = next(iter(o["defenders"][seat].items()))
            posed = clone(state)
            target = posed.ships[targets[0]]
            rules_board.new_ship(posed, seat, target.station, 2)
            attack = {
                "type": "naval_attack",
                "ships": [mine],
                "target": target.id,
                "mode": "normal",
                "player": actor,
            }
            posed, _ = apply(posed, action_from_dict(attack), game_dice(posed))
            for _ in range(3):  # the defender's mobilization comes first, when it has one
                for decision in pending_decisions(posed):
                    specs = view_for(posed, decision.player)["legal_actions"]
                    joins = [s for s in specs if s["type"] == "join_defence"]
                    if joins:
                        return posed, decision.player, joins[0], specs
                who = pending_decisions(posed)[0].player
                posed, _ = apply(posed, decide(RandomBot(rng), posed, who), game_dice(posed))
        state, _ = apply(state, decide(RandomBot(rng), state, actor), game_dice(state))
    raise AssertionError("no naval attack position found in the seeded game")


def test_the_forms_build_actions_the_engine_accepts():
    """Every type of ours is met in random games; each form's choice is applied to its state."""
    rng = random.Random(5)
    # Seeds whose random games reach every type (a prize is rare: "forms-ships-4", played
    # first, reaches five).
    cases = collect(("forms-ships-4", "forms-ships-1", "forms-ships-2", "forms-ships-3"))
    cases.append(join_defence_case())
    choices = [choose(spec, rng) for _, _, spec, _ in cases]
    built = run_forms(
        [
            ("buildShipAction", [spec, choice, specs])
            for (_, _, spec, specs), choice in zip(cases, choices, strict=True)
        ]
    )
    seen: Counter[str] = Counter()
    for (state, actor, spec, _), choice, got in zip(cases, choices, built, strict=True):
        assert "action" in got, (spec, choice, got)
        assert got["action"]["type"] == spec["type"]
        action = action_from_dict({**got["action"], "player": actor})
        apply(state, action, game_dice(state))  # an IllegalAction fails the test
        seen[spec["type"]] += 1
    assert set(seen) == set(TYPES), seen


def test_the_default_choice_of_arrange_is_a_legal_spread_once_a_factory_is_picked():
    state = new_game(["alice", "bob", "carol"], seed="forms-ships-arrange")
    spec = next(s for s in view_for(state, "alice")["legal_actions"] if s["type"] == "arrange")
    o = spec["options"]
    (start,) = run_forms([("shipDefaultChoice", [spec])])
    assert sum(start["arrangement"].values()) == o["armies"]
    assert start["factory"] is None
    choice = {**start, "factory": o["territories"][0]}
    if o["ship_stations"]:
        choice["ship_station"] = o["ship_stations"][-1]
    without, built = run_forms(
        [
            ("buildShipAction", [spec, start, []]),
            ("buildShipAction", [spec, choice, []]),
        ]
    )
    assert without == {"error": "Pick the territory for your factory on the board."}
    apply(state, action_from_dict({**built["action"], "player": "alice"}), game_dice(state))


# Hand-made specs in the engine's shapes (engine.py _turn_specs, _campaign_specs, battles.py).
ARRANGE = {
    "type": "arrange",
    "options": {
        "territories": ["Peru", "Brazil"],
        "armies": 5,
        "min_each": 1,
        "ship_stations": ["Pacific:Peru"],
    },
}
SAIL = {
    "type": "sail",
    "options": {"ship": "S1", "stations": {"Pacific:Argentina": 1, "Atlantic:Argentina": 2}},
}
SAIL2 = {"type": "sail", "options": {"ship": "S4", "stations": {"Indian:Madagascar": 3}}}
EMBARK = {
    "type": "embark",
    "options": {"ship": "S1", "territories": ["Peru", "Chile"], "max": {"Peru": 3, "Chile": 1}},
}
DISEMBARK = {"type": "disembark", "options": {"ship": "S1", "territories": ["Peru"], "max": 2}}
NAVAL = {
    "type": "naval_attack",
    "options": {
        "defenders": {"bob": {"S1": ["S3", "S4"], "S2": ["S3"]}},
        "crew": {"S1": 4, "S2": 3},
        "modes": {
            "normal": {"max_per_target": 1, "min_on_a_target": 1, "min_armies": 0},
            "committed": {"max_per_target": 1, "min_on_a_target": 1, "min_armies": 2},
            "flanking": {"max_per_target": None, "min_on_a_target": 2, "min_armies": 2},
        },
    },
}
JOIN = {
    "type": "join_defence",
    "options": {"ships": ["S5", "S6"], "behind": {"S5": ["S3"], "S6": ["S3", "S4"]}},
}
PRIZE = {"type": "prize", "options": {"ships": ["S3"], "boarders": {"S1": 2}}}
TRANSFER = {
    "type": "transfer",
    "options": {"sources": ["Peru"], "destinations": {"Peru": ["Brazil"]}, "max": {"Peru": 4}},
}
MOBILIZE = {
    "type": "mobilize",
    "options": {"cards": ["Peru", "wild"], "wild_dice": 1, "territories": ["Peru", "Brazil"]},
}


def spec_of(kind: str, **options: Any) -> dict:
    return {"type": kind, "options": options}


def test_hand_worked_choices_make_exactly_these_actions():
    cases = [
        (
            ARRANGE,
            {
                "arrangement": {"Peru": 4, "Brazil": 1},
                "factory": "Brazil",
                "ship_station": "Pacific:Peru",
            },
            {
                "type": "arrange",
                "arrangement": [["Peru", 4], ["Brazil", 1]],
                "factory": "Brazil",
                "ship_station": "Pacific:Peru",
            },
        ),
        (
            spec_of("place_ship", stations=["Pacific:Peru"]),
            {"station": "Pacific:Peru"},
            {"type": "place_ship", "station": "Pacific:Peru"},
        ),
        (
            spec_of("place_factory", territories=["Peru"]),
            {"territory": "Peru"},
            {"type": "place_factory", "territory": "Peru"},
        ),
        (spec_of("cruise", ships=["S1", "S2"]), {"ship": "S2"}, {"type": "cruise", "ship": "S2"}),
        (
            SAIL,
            {"ship": "S1", "station": "Atlantic:Argentina"},
            {"type": "sail", "ship": "S1", "station": "Atlantic:Argentina"},
        ),
        (
            EMBARK,
            {"ship": "S1", "territory": "Peru", "armies": 3},
            {"type": "embark", "ship": "S1", "territory": "Peru", "armies": 3},
        ),
        (
            DISEMBARK,
            {"ship": "S1", "territory": "Peru", "armies": 2},
            {"type": "disembark", "ship": "S1", "territory": "Peru", "armies": 2},
        ),
        (spec_of("end_cruise", ship="S1"), {"ship": "S1"}, {"type": "end_cruise", "ship": "S1"}),
        (
            NAVAL,
            {
                "seat": "bob",
                "ships": ["S2", "S1"],
                "targets": {"S1": "S3", "S2": "S3"},
                "mode": "flanking",
                "armies": 3,
            },
            {
                "type": "naval_attack",
                "ships": ["S2", "S1"],
                "target": "S3",
                "targets": ["S3", "S3"],
                "mode": "flanking",
                "armies": 3,
            },
        ),
        (
            NAVAL,
            {"seat": "bob", "ships": ["S1"], "targets": {"S1": "S4"}, "mode": "normal"},
            {
                "type": "naval_attack",
                "ships": ["S1"],
                "target": "S4",
                "targets": ["S4"],
                "mode": "normal",
                "armies": 0,
            },
        ),
        (
            JOIN,
            {"ships": ["S6", "S5"], "behind": {"S6": "S4"}},
            {"type": "join_defence", "ships": ["S6", "S5"], "behind": ["S4", "S3"]},
        ),
        (JOIN, {"ships": []}, {"type": "join_defence", "ships": []}),
        (
            PRIZE,
            {"ship": "S3", "by": "S1", "armies": 2},
            {"type": "prize", "ship": "S3", "by": "S1", "armies": 2},
        ),
        (
            PRIZE,
            {"ship": "S3", "by": None},
            {"type": "prize", "ship": "S3", "by": None, "armies": 0},
        ),
        (
            TRANSFER,
            {"source": "Peru", "destination": "Brazil", "armies": 4},
            {"type": "transfer", "source": "Peru", "destination": "Brazil", "armies": 4},
        ),
        (
            MOBILIZE,
            {"reveal": ["wild"], "wild_territories": ["Brazil", "Peru"]},
            {"type": "mobilize", "reveal": ["wild"], "wild_territories": ["Brazil", "Peru"]},
        ),
    ]
    got = run_forms([("buildShipAction", [spec, choice, []]) for spec, choice, _ in cases])
    assert got == [{"action": want} for _, _, want in cases]


def test_choices_outside_the_spec_are_refused_with_a_sentence():
    cases = [
        (
            ARRANGE,
            {
                "arrangement": {"Peru": 5, "Brazil": 0},
                "factory": "Peru",
                "ship_station": "Pacific:Peru",
            },
            "Put at least 1 army on Brazil.",
        ),
        (
            ARRANGE,
            {
                "arrangement": {"Peru": 3, "Brazil": 1},
                "factory": "Peru",
                "ship_station": "Pacific:Peru",
            },
            "Arrange 5 armies in all, not 4.",
        ),
        (
            ARRANGE,
            {"arrangement": {"Peru": 4, "Brazil": 1}, "factory": "Peru"},
            "Pick your ship's station (a dot off your coast) on the board.",
        ),
        (
            spec_of("place_ship", stations=["Pacific:Peru"]),
            {"station": "Atlantic:Brazil"},
            "Pick a station off your coast for the new ship.",
        ),
        (
            spec_of("place_factory", territories=["Peru"]),
            {"territory": "Chile"},
            "Pick a territory for the new factory.",
        ),
        (
            spec_of("cruise", ships=["S1"]),
            {"ship": "S9"},
            "Pick one of your ready ships on the board.",
        ),
        (
            SAIL,
            {"ship": "S1", "station": "Indian:Madagascar"},
            "Pick a station ship S1 can reach (highlighted).",
        ),
        (SAIL, {"ship": "S4", "station": "Indian:Madagascar"}, "Ship S4 cannot sail now."),
        (
            EMBARK,
            {"ship": "S1", "territory": "Chile", "armies": 2},
            "Take 1 to 1 armies from Chile.",
        ),
        (
            DISEMBARK,
            {"ship": "S1", "territory": "Peru", "armies": 3},
            "Land 1 to 2 armies (one stays aboard).",
        ),
        (
            NAVAL,
            {
                "seat": "bob",
                "ships": ["S1", "S2"],
                "targets": {"S1": "S3", "S2": "S3"},
                "mode": "normal",
            },
            "A normal attack sends one ship at each target.",
        ),
        (
            NAVAL,
            {
                "seat": "bob",
                "ships": ["S1"],
                "targets": {"S1": "S3"},
                "mode": "committed",
                "armies": 5,
            },
            "Each ship commits 2 to 4 armies.",
        ),
        (
            NAVAL,
            {"seat": "bob", "ships": ["S2"], "targets": {"S2": "S4"}, "mode": "normal"},
            "Pick the target of ship S2: one of S3.",
        ),
        (JOIN, {"ships": ["S5"], "behind": {"S5": "S4"}}, "Ship S5 may back S3."),
        (PRIZE, {"ship": "S3", "by": "S1", "armies": 3}, "Board with 1 to 2 armies from S1."),
        (
            TRANSFER,
            {"source": "Peru", "destination": "Chile", "armies": 1},
            "Pick where to move them to from Peru (outlined).",
        ),
        (
            TRANSFER,
            {"source": "Peru", "destination": "Brazil", "armies": 4.5},
            "Move 1 to 4 armies from Peru.",
        ),
        (
            MOBILIZE,
            {"reveal": ["wild"], "wild_territories": ["Brazil"]},
            "Name one of your territories for each of 2 wild dice.",
        ),
        (
            MOBILIZE,
            {"reveal": ["wild", "wild"], "wild_territories": ["Peru"] * 3},
            "Reveal only cards you may: Peru, wild.",
        ),
    ]
    got = run_forms([("buildShipAction", [spec, choice, [SAIL]]) for spec, choice, _ in cases])
    assert got == [{"error": want} for _, _, want in cases]


def test_a_second_cruising_ship_is_sailed_by_its_own_spec():
    got = run_forms(
        [
            (
                "buildShipAction",
                [SAIL, {"ship": "S4", "station": "Indian:Madagascar"}, [SAIL, SAIL2]],
            ),
            ("shipPick", [SAIL, {"ship": "S1", "station": None}, {"ship": "S4"}, [SAIL, SAIL2]]),
        ]
    )
    assert got[0] == {"action": {"type": "sail", "ship": "S4", "station": "Indian:Madagascar"}}
    assert got[1] == {"hit": True, "choice": {"ship": "S4", "station": None}}


def test_the_marks_show_reachable_stations_with_their_distance_and_the_sources():
    got = run_forms(
        [
            ("shipMarks", [SAIL, {"ship": "S1", "station": "Pacific:Argentina"}, []]),
            ("shipMarks", [TRANSFER, {"source": "Peru"}, []]),
            ("shipMarks", [NAVAL, {"seat": "bob", "ships": ["S2"], "targets": {"S2": "S3"}}, []]),
        ]
    )
    assert got[0] == {
        "territories": {},
        "ships": {"S1": "source"},
        "stations": {"Pacific:Argentina": "picked", "Atlantic:Argentina": "choice"},
        "notes": {"Pacific:Argentina": "1 bl", "Atlantic:Argentina": "2 bl"},
    }
    assert got[1]["territories"] == {"Peru": "source", "Brazil": "choice"}
    assert got[2]["ships"] == {"S1": "choice", "S2": "source", "S3": "picked", "S4": "target"}


def test_board_clicks_fill_the_forms():
    got = run_forms(
        [
            ("shipPick", [TRANSFER, {"source": None}, {"territory": "Peru"}, []]),
            ("shipPick", [TRANSFER, {"source": "Peru", "armies": 2}, {"territory": "Brazil"}, []]),
            ("shipPick", [TRANSFER, {"source": None}, {"territory": "Brazil"}, []]),
            (
                "shipPick",
                [
                    EMBARK,
                    {"ship": "S1", "territory": None, "armies": None},
                    {"territory": "Peru"},
                    [],
                ],
            ),
            ("shipPick", [NAVAL, {"seat": None, "ships": [], "targets": {}}, {"ship": "S1"}, []]),
            (
                "shipPick",
                [
                    NAVAL,
                    {"seat": "bob", "ships": ["S1"], "targets": {"S1": "S3"}},
                    {"ship": "S4"},
                    [],
                ],
            ),
            (
                "shipPick",
                [
                    MOBILIZE,
                    {"reveal": ["wild"], "wild_territories": ["Peru"]},
                    {"territory": "Brazil"},
                    [],
                ],
            ),
        ]
    )
    assert got[0] == {"hit": True, "choice": {"source": "Peru", "destination": None, "armies": 4}}
    assert got[1] == {
        "hit": True,
        "choice": {"source": "Peru", "destination": "Brazil", "armies": 2},
    }
    assert got[2]["hit"] is False  # Brazil is no source, and no source is picked yet
    assert got[3]["choice"] == {"ship": "S1", "territory": "Peru", "armies": 3}
    assert got[4]["choice"] == {"seat": "bob", "ships": ["S1"], "targets": {"S1": "S3"}}
    assert got[5]["choice"]["targets"] == {"S1": "S4"}
    assert got[6]["choice"]["wild_territories"] == ["Peru", "Brazil"]


def test_a_click_on_another_seats_ship_turns_the_naval_attack_on_that_seat():
    """S6 reaches bob's S2 and carol's S5. Picking S6 sets the attack on bob (the first seat it
    reaches) aimed at S2; a click on carol's S5 then turns it on carol, aimed at S5 (before, the
    click was ignored and the page sent the attack on S2: seen in the browser's whole game)."""
    two = {**NAVAL, "options": {**NAVAL["options"], "defenders": {
        "bob": {"S6": ["S2"]}, "carol": {"S6": ["S5"]}}, "crew": {"S6": 3}}}  # fmt: skip
    picked, turned = run_forms(
        [
            ("shipPick", [two, {"seat": None, "ships": [], "targets": {}}, {"ship": "S6"}, []]),
            (
                "shipPick",
                [
                    two,
                    {"seat": "bob", "ships": ["S6"], "targets": {"S6": "S2"}},
                    {"ship": "S5"},
                    [],
                ],
            ),
        ]
    )
    assert picked["choice"] == {"seat": "bob", "ships": ["S6"], "targets": {"S6": "S2"}}
    assert turned == {
        "hit": True,
        "choice": {"seat": "carol", "ships": ["S6"], "targets": {"S6": "S5"}},
    }
