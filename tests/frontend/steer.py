"""The full-game test's steering: which not-yet-covered kind of action a player takes instead of
the server's hint, built only from the ``legal_actions`` specs the player's page shows.

The browser test plays each person's decisions by the hint (``GET /api/games/<id>/hint``, the
player's "intention") but must cover a list of kinds of action (the issue's: a normal, a
committed and a flanking attack, a cruise and a landing, a naval battle, a card turn-in, an
allied-army declaration with its poker hand). ``steer`` returns a valid instance of an uncovered
kind whenever the specs open one, and the kind it covers; ``None`` leaves the decision to the
hint. Pure: spec dicts in, an action dict out (no ``player``; the page adds the person).

Readings of the specs (``risk/rules/engine.py``, RULES.md L1): an attack source that is not a
territory of the view is a ship (a landing, H-rules); a committed block takes 2 to ``room``'s
most; a flanking attack is two equal blocks of 2 or more, from two sources or one source with
room for both (``engine._attack_spec``); a naval attack names one defending seat's ship as
target for one own ship, mode normal with every army aboard (``armies`` 0,
``battles.naval_attack_spec``).
"""

from __future__ import annotations

from typing import Any

#: The kinds the full game must cover, in the order the issue names them.
KINDS = (
    "place",
    "normal",
    "committed",
    "flanking",
    "cruise",
    "sail",
    "landing",
    "naval",
    "turn_in",
    "ally",
    "poker",
)

Spec = dict[str, Any]
Action = dict[str, Any]


def spec_of(specs: list[Spec], kind: str) -> Spec | None:
    return next((s for s in specs if s["type"] == kind), None)


def kind_of(action: Action, territories: set[str]) -> str | None:
    """The coverage kind an action performed counts for (None: none of the list)."""
    t = action["type"]
    if t == "attack":
        if any(source not in territories for source, _ in action["flanks"]):
            return "landing"
        return str(action["mode"])
    if t == "naval_attack":
        return "naval"
    if t == "end_turn" and action.get("ally"):
        return "ally"
    if t in ("place", "cruise", "sail", "turn_in", "poker"):  # poker: the caller checks whose
        return t
    return None


def steer(
    specs: list[Spec], covered: set[str], territories: set[str], person_declared: bool = False
) -> Action | None:
    """A valid action of an uncovered kind open in ``specs``, or None (follow the hint).

    ``territories``: the board's territory names, to tell a ship source from a land one;
    ``person_declared``: whether the declaration being challenged is one of the people's.

    Until a person's declaration has been played out at the poker table, a person contests
    only the other person's declarations: playing a hand spends one's poker cards (RULES.md
    A5), and a declarer without one cannot answer a challenge (A3), so contesting the bots'
    declarations would leave nobody able to play the hand that counts.
    """
    turn_in = spec_of(specs, "turn_in")
    if turn_in and "turn_in" not in covered:
        o = turn_in["options"]
        return {"type": "turn_in", "cards": list(o["sets"][0]), "reward": o["rewards"][0]}
    attack = spec_of(specs, "attack")
    if attack:
        chosen = _attack(attack["options"], covered, territories)
        if chosen:
            return chosen
    naval = spec_of(specs, "naval_attack")
    if naval and "naval" not in covered:
        fleets = naval["options"]["defenders"]
        seat = sorted(fleets)[0]
        ship = sorted(fleets[seat])[0]
        return {"type": "naval_attack", "ships": [ship], "target": fleets[seat][ship][0],
                "mode": "normal", "armies": 0}  # fmt: skip
    cruise = spec_of(specs, "cruise")
    if cruise and not {"cruise", "sail", "landing", "naval"} <= covered:
        return {"type": "cruise", "ship": cruise["options"]["ships"][0]}
    sail = spec_of(specs, "sail")
    if sail and "sail" not in covered:
        stations = sail["options"]["stations"]
        farthest = max(sorted(stations), key=lambda k: stations[k])
        return {"type": "sail", "ship": sail["options"]["ship"], "station": farthest}
    embark = spec_of(specs, "embark")
    if embark and "landing" not in covered:
        o = embark["options"]
        where = o["territories"][0]
        return {"type": "embark", "ship": o["ship"], "territory": where,
                "armies": o["max"][where]}  # fmt: skip
    end_turn = spec_of(specs, "end_turn")
    if end_turn and end_turn["options"].get("allies") and not {"ally", "poker"} <= covered:
        return {"type": "end_turn", "ally": end_turn["options"]["allies"][0]}
    if spec_of(specs, "challenge") and "poker" not in covered:
        return {"type": "challenge", "contest": person_declared}
    if spec_of(specs, "answer") and "poker" not in covered:
        return {"type": "answer", "demur": False}
    return None


def _attack(o: dict[str, Any], covered: set[str], territories: set[str]) -> Action | None:
    targets: dict[str, list[str]] = o["targets"]
    room: dict[str, dict[str, list[int]]] = o["room"]
    modes: dict[str, list[str]] = o["modes"]
    for target in sorted(targets):
        ships = [s for s in targets[target] if s not in territories]
        if ships and "landing" not in covered:
            ship = ships[0]
            return {"type": "attack", "target": target, "mode": "normal",
                    "flanks": [[ship, room[ship]["normal"][1]]]}  # fmt: skip
    # the strongest land source per target: the attack most likely to win
    land = {t: [s for s in srcs if s in territories] for t, srcs in targets.items()}
    if "flanking" not in covered:
        for target in sorted(targets):
            if "flanking" not in modes[target]:
                continue
            wide = sorted((room[s].get("committed", [0, 0])[1], s) for s in land[target])
            wide = [(most, s) for most, s in wide if most >= 2]
            if len(wide) >= 2:
                (a_most, a), (b_most, b) = wide[-1], wide[-2]
                each = min(a_most, b_most)
                return {"type": "attack", "target": target, "mode": "flanking",
                        "flanks": [[a, each], [b, each]]}  # fmt: skip
            if wide and wide[-1][0] >= 4:
                most, a = wide[-1]
                return {"type": "attack", "target": target, "mode": "flanking",
                        "flanks": [[a, most // 2], [a, most // 2]]}  # fmt: skip
    for mode in ("committed", "normal"):
        if mode in covered:
            continue
        best = [(room[s][mode][1], s, t) for t in sorted(targets) for s in land[t]
                if mode in modes[t] and mode in room[s]]  # fmt: skip
        if best:
            most, source, target = max(best)
            return {"type": "attack", "target": target, "mode": mode,
                    "flanks": [[source, most]]}  # fmt: skip
    return None
