"""The game page's action forms (``buildAction`` in actions.js) against the engine.

Node imports actions.js and runs it on the legal actions of random games with choices a player
could make in the forms: every action it builds must be one the engine accepts, and choices
outside a spec's bounds are refused with a sentence. Needs Node.js (tests/frontend/node.py).
"""

from __future__ import annotations

import random

import pytest

from risk.rules import action_from_dict, apply, game_dice, new_game, pending_decisions, view_for
from risk.rules.bots import RandomBot, decide
from tests.frontend.node import call_each


def run_actions(cases: list[tuple[str, list]]) -> list:
    out = call_each("actions.js", ["buildAction", "oddsRequest", "flankMost"], cases)
    assert all("ok" in r for r in out), out
    return [r["ok"] for r in out]


def _flank_most(room: dict, a: str, b: str) -> int:
    def most(s: str) -> int:
        return room.get(s, {}).get("committed", [0, 0])[1]

    return most(a) // 2 if a == b else min(most(a), most(b))


def choose(spec: dict, rng: random.Random) -> dict | None:
    """What a player might pick in the form for ``spec`` (None: a type without a form here)."""
    o = spec["options"]
    kind = spec["type"]
    if kind == "place":
        if o["max"] >= 2 and rng.random() < 0.5:  # a draft of two clicks
            first = rng.randint(1, o["max"] - 1)
            return {"draft": [[rng.choice(o["territories"]), first],
                              [rng.choice(o["territories"]), o["max"] - first]]}  # fmt: skip
        return {"territory": rng.choice(o["territories"]), "armies": rng.randint(1, o["max"])}
    if kind == "attack":
        target = rng.choice(sorted(o["targets"]))
        sources = o["targets"][target]
        source = rng.choice(sources)
        if "flanking" in o["modes"][target] and rng.random() < 0.4:
            pairs = [(a, b) for a in sources for b in sources if _flank_most(o["room"], a, b) >= 2]
            if pairs:
                a, b = rng.choice(pairs)
                armies = rng.randint(2, _flank_most(o["room"], a, b))
                return {
                    "target": target,
                    "mode": "flanking",
                    "source": a,
                    "source2": b,
                    "armies": armies,
                }
        modes = [m for m in o["modes"][target] if m in o["room"][source] and m != "flanking"]
        mode = rng.choice(modes)
        lo, hi = o["room"][source][mode]
        return {"target": target, "mode": mode, "source": source, "armies": rng.randint(lo, hi)}
    if kind == "roll":
        until = rng.choice(["once", "decided", "armies"])
        return {"add": rng.randint(0, o["max_add"] or 0), "until": until,
                "until_armies": rng.randint(1, max(1, o["armies"] - 1))}  # fmt: skip
    if kind == "move_in":
        if "max" in o:
            return {"armies": rng.randint(o["min"], o["max"])}
        extra = {k: v for k, v in o["extra_from"].items() if v > 0}
        if extra and rng.random() < 0.5:
            source = rng.choice(sorted(extra))
            return {"source": source, "armies": rng.randint(1, extra[source])}
        return {}
    if kind == "turn_in":
        cards = list(rng.choice(o["sets"]))
        rng.shuffle(cards)  # picked from the hand in any order
        return {"cards": cards, "reward": rng.choice(o["rewards"])}
    if kind in ("end_turn", "retreat", "end_campaign"):
        return {}
    return None


def test_the_forms_build_actions_the_engine_accepts():
    """Random games; at each step a form's choice is built in Node and applied to that state."""
    players = ["alice", "bob", "carol"]
    rng = random.Random(7)
    cases = []  # (state, actor, spec, choice)
    for seed in ("forms-1", "forms-2"):
        state = new_game(players, seed=seed)
        for _ in range(300):
            decisions = pending_decisions(state)
            if not decisions:
                break
            actor = rng.choice(decisions).player
            for spec in view_for(state, actor)["legal_actions"]:
                choice = choose(spec, rng)
                if choice is not None:
                    cases.append((state, actor, spec, choice))
            state, _ = apply(state, decide(RandomBot(rng), state, actor), game_dice(state))
    built = run_actions([("buildAction", [spec, choice]) for _, _, spec, choice in cases])
    seen: dict[str, int] = {}
    for (state, actor, spec, choice), got in zip(cases, built, strict=True):
        assert "action" in got, (spec, choice, got)
        action = action_from_dict({**got["action"], "player": actor})
        apply(state, action, game_dice(state))  # an IllegalAction fails the test
        seen[spec["type"]] = seen.get(spec["type"], 0) + 1
    assert {"place", "attack", "roll", "move_in", "end_turn"} <= set(seen), seen


def test_choices_outside_the_spec_are_refused_with_a_sentence():
    place = {"type": "place", "options": {"territories": ["Peru"], "max": 3}}
    attack = {
        "type": "attack",
        "options": {
            "targets": {"Brazil": ["Peru", "S1"]},
            "room": {"Peru": {"normal": [1, 4], "committed": [2, 4]}, "S1": {"normal": [1, 2]}},
            "modes": {"Brazil": ["normal", "committed", "flanking"]},
        },
    }

    def hit(source: str, mode: str, armies: int) -> dict:
        return {"target": "Brazil", "source": source, "mode": mode, "armies": armies}

    got = run_actions([
        ("buildAction", [place, {"territory": "Chile", "armies": 1}]),
        ("buildAction", [place, {"territory": "Peru", "armies": 4}]),
        ("buildAction", [place, {"territory": "Peru", "armies": 3}]),
        ("buildAction", [attack, hit("Peru", "normal", 5)]),
        ("buildAction", [attack, hit("S1", "committed", 2)]),
        ("buildAction", [attack, hit("Peru", "flanking", 2)]),
        ("buildAction", [attack, hit("Peru", "flanking", 3)]),
        ("oddsRequest", [{"mode": "flanking", "flanks": [["Peru", 2], ["Peru", 2]]}, 6]),
        ("oddsRequest", [{"mode": "normal", "flanks": [["Peru", 4]]}, 6]),
    ])  # fmt: skip
    assert [sorted(g) for g in got[:2]] == [["error"], ["error"]]
    assert got[2] == {"action": {"type": "place", "territory": "Peru", "armies": 3}}
    assert "error" in got[3] and "1 to 4" in got[3]["error"]
    assert "error" in got[4]  # a ship with 2 aboard and no committed room here
    assert got[5]["action"]["flanks"] == [["Peru", 2], ["Peru", 2]]
    assert "error" in got[6]  # one source: two flanks of at most 4 // 2
    assert got[7] == {"defenders": 6, "mode": "flanking", "max_outcomes": 1, "flanks": [2, 2]}
    assert got[8] == {"defenders": 6, "mode": "normal", "max_outcomes": 1, "attackers": 4}


def test_a_placement_draft_and_the_roll_on_choice_build_one_action_each():
    place = {"type": "place", "options": {"territories": ["Peru", "Chile"], "min": 1, "max": 5}}
    roll = {"type": "roll", "options": {"max_add": 2, "flank": 0, "dice": [], "armies": 6}}
    got = run_actions([
        ("buildAction", [place, {"draft": [["Peru", 2], ["Chile", 1], ["Peru", 2]]}]),
        ("buildAction", [place, {"draft": [["Peru", 2], ["Peru", 3]]}]),
        ("buildAction", [place, {"draft": [["Peru", 4], ["Chile", 2]]}]),
        ("buildAction", [place, {"draft": []}]),
        ("buildAction", [roll, {"add": 1, "until": "armies", "until_armies": 3}]),
        ("buildAction", [roll, {"add": 0, "until": "decided", "until_armies": 3}]),
        ("buildAction", [roll, {"add": 0, "until": "once"}]),
        ("buildAction", [roll, {"add": 0, "until": "armies", "until_armies": 0}]),
    ])  # fmt: skip
    # the clicks on one territory added up, in the order first clicked
    assert got[0] == {"action": {"type": "deploy", "placements": [["Peru", 4], ["Chile", 1]]}}
    assert got[1] == {"action": {"type": "place", "territory": "Peru", "armies": 5}}
    assert got[2] == {"error": "Place 1 to 1 armies on Chile."}  # 6 of 5: the last is refused
    assert "error" in got[3]
    assert got[4] == {"action": {"type": "roll", "add": 1, "until_armies": 3}}
    assert got[5] == {"action": {"type": "roll", "add": 0, "until_decided": True}}
    assert got[6] == {"action": {"type": "roll", "add": 0, "until_decided": False}}
    assert "error" in got[7]


@pytest.mark.django_db
def test_the_odds_api_answers_the_bodies_the_attack_form_sends(client):
    bodies = run_actions([
        ("oddsRequest", [{"mode": "normal", "flanks": [["Peru", 4]]}, 6]),
        ("oddsRequest", [{"mode": "committed", "flanks": [["S1", 5]]}, 3]),
        ("oddsRequest", [{"mode": "flanking", "flanks": [["Peru", 3], ["Chile", 3]]}, 4]),
    ])  # fmt: skip
    for body in bodies:
        response = client.post("/api/combat/risk/odds", body, content_type="application/json")
        assert response.status_code == 200, (body, response.content)
        assert 0 < response.json()["attacker_wins"] < 1
