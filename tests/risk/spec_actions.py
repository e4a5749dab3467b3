"""Concrete actions built from ``legal_actions`` specs alone, the way a client would build them.

``actions_from_spec(spec, player)`` reads only the spec's options (never the state): for every
choice the spec offers it builds actions at the edges of each range (least and most) and a few
in between, so a property test can check that ``apply`` accepts every one of them. A spec that
left a client guessing (a choice it does not list, a range it does not bound) shows up as an
action ``apply`` refuses.
"""

from __future__ import annotations

import itertools
from typing import Any

from risk.rules.actions import (
    Action,
    Answer,
    Arrange,
    Attack,
    Challenge,
    Concede,
    Cruise,
    Deploy,
    Discard,
    Disembark,
    Embark,
    EndCampaign,
    EndCruise,
    EndTurn,
    Join,
    JoinDefence,
    Leave,
    Mobilize,
    MoveIn,
    NavalAttack,
    Place,
    PlaceFactory,
    PlaceShip,
    Poker,
    Prefer,
    Prize,
    Retreat,
    Roll,
    Sail,
    Transfer,
    TurnIn,
    VoteDraw,
)
from risk.rules.engine import ActionSpec


def _edges(least: int, most: int) -> list[int]:
    """The ends of a range and its middle, each once."""
    return sorted({least, most, (least + most) // 2})


def actions_from_spec(spec: ActionSpec, player: str) -> list[Action]:
    build = _BUILDERS[spec.type]
    return build(spec.options, player)


def _arrange(o: dict[str, Any], p: str) -> list[Action]:
    territories, armies = o["territories"], o["armies"]
    spare = armies - o["min_each"] * len(territories)
    out: list[Action] = []
    for heavy in {0, len(territories) - 1}:
        counts = [o["min_each"]] * len(territories)
        counts[heavy] += spare
        arrangement = tuple(zip(territories, counts, strict=True))
        for station in o["ship_stations"][:1] + o["ship_stations"][-1:] or [None]:
            out.append(Arrange(p, arrangement, territories[heavy], station))
    return out


def _turn_in(o: dict[str, Any], p: str) -> list[Action]:
    return [TurnIn(p, tuple(cards), reward) for cards in o["sets"] for reward in o["rewards"]]


def _place(o: dict[str, Any], p: str) -> list[Action]:
    out: list[Action] = [
        Place(p, t, n) for t in o["territories"] for n in _edges(o["min"], o["max"])
    ]  # fmt: skip
    ts = o["territories"]
    if len(ts) >= 2 and o["max"] >= 2:  # a draft of two placements, the rest on the first
        out.append(Deploy(p, ((ts[0], o["max"] - 1), (ts[-1], 1))))
    return out


def _place_ship(o: dict[str, Any], p: str) -> list[Action]:
    return [PlaceShip(p, station) for station in o["stations"]]


def _attack(o: dict[str, Any], p: str) -> list[Action]:
    out: list[Action] = []
    room = o["room"]
    for target, sources in o["targets"].items():
        modes = o["modes"][target]
        for source in sources:
            least, most = room[source]["normal"]
            out += [Attack(p, target, "normal", ((source, n),)) for n in _edges(least, most)]
            if "committed" in modes and "committed" in room[source]:
                least, most = room[source]["committed"]
                out += [
                    Attack(p, target, "committed", ((source, n),)) for n in _edges(least, most)
                ]  # fmt: skip
        if "flanking" in modes:
            out += _flanking(p, target, sources, room)
    return out


def _flanking(
    p: str, target: str, sources: list[str], room: dict[str, dict[str, list[int]]]
) -> list[Action]:
    """Two or three equal flanks; flanks from one source share its committed room."""
    able = [s for s in sources if "committed" in room[s]]
    out: list[Action] = []
    for count in (2, 3):
        for flanks in itertools.combinations_with_replacement(able, count):
            uses = {s: flanks.count(s) for s in flanks}
            most = min(room[s]["committed"][1] // n for s, n in uses.items())
            least = max(room[s]["committed"][0] for s in uses)  # the option min_commitment
            if most >= least:
                out += [
                    Attack(p, target, "flanking", tuple((s, k) for s in flanks))
                    for k in _edges(least, most)
                ]  # fmt: skip
    return out


def _naval_attack(o: dict[str, Any], p: str) -> list[Action]:
    out: list[Action] = []
    crew, modes = o["crew"], o["modes"]
    for ships in o["defenders"].values():
        own = sorted(ships)
        for ship in own:  # one ship on each of its targets, normal and committed
            for target in ships[ship]:
                out.append(NavalAttack(p, (ship,), target, "normal"))
                if "committed" in modes and crew[ship] >= modes["committed"]["min_armies"]:
                    out += [
                        NavalAttack(p, (ship,), target, "committed", armies=n)
                        for n in _edges(modes["committed"]["min_armies"], crew[ship])
                    ]  # fmt: skip
        for a, b in itertools.combinations(own, 2):
            shared = [t for t in ships[a] if t in ships[b]]
            most = min(crew[a], crew[b])
            for target in shared[:1]:
                if "flanking" in modes and most >= modes["flanking"]["min_armies"]:
                    out += [
                        NavalAttack(p, (a, b), target, "flanking", armies=n)
                        for n in _edges(modes["flanking"]["min_armies"], most)
                    ]  # fmt: skip
            others = [(x, y) for x in ships[a] for y in ships[b] if x != y]
            for x, y in others[:1]:  # two ships on two targets
                out.append(NavalAttack(p, (a, b), x, "normal", targets=(x, y)))
    return out


def _cruise(o: dict[str, Any], p: str) -> list[Action]:
    return [Cruise(p, ship) for ship in o["ships"]]


def _sail(o: dict[str, Any], p: str) -> list[Action]:
    return [Sail(p, o["ship"], station) for station in o["stations"]]


def _embark(o: dict[str, Any], p: str) -> list[Action]:
    return [
        Embark(p, o["ship"], t, n) for t in o["territories"] for n in _edges(1, o["max"][t])
    ]  # fmt: skip


def _disembark(o: dict[str, Any], p: str) -> list[Action]:
    return [
        Disembark(p, o["ship"], t, n) for t in o["territories"] for n in _edges(1, o["max"])
    ]  # fmt: skip


def _roll(o: dict[str, Any], p: str) -> list[Action]:
    adds = _edges(0, o["max_add"])
    out: list[Action] = [Roll(p, add=a, until_decided=u) for a in adds for u in (False, True)]
    out += [Roll(p, dice=d) for d in o["dice"]]
    out += [Roll(p, until_armies=n) for n in _edges(1, o["armies"])]
    return out


def _move_in(o: dict[str, Any], p: str) -> list[Action]:
    if "min" in o:
        return [MoveIn(p, n) for n in _edges(o["min"], o["max"])]
    out: list[Action] = [MoveIn(p, 0)]
    for source, most in o["extra_from"].items():
        out += [MoveIn(p, n, source) for n in _edges(1, most)] if most >= 1 else []
    return out


def _prize(o: dict[str, Any], p: str) -> list[Action]:
    out: list[Action] = []
    for ship in o["ships"]:
        out.append(Prize(p, ship))
        for boarder, most in o["boarders"].items():
            out += [Prize(p, ship, boarder, n) for n in _edges(1, most)]
    return out


def _mobilize(o: dict[str, Any], p: str) -> list[Action]:
    out: list[Action] = []
    for reveal in {(), tuple(o["cards"])}:
        wilds = o["wild_dice"] + reveal.count("wild")
        for territory in o["territories"][:1] + o["territories"][-1:]:
            out.append(Mobilize(p, reveal, (territory,) * wilds))
    return out


def _join_defence(o: dict[str, Any], p: str) -> list[Action]:
    out: list[Action] = [JoinDefence(p, ())]
    for ship, backable in o["behind"].items():  # each ship alone, backing each target it may
        out += [JoinDefence(p, (ship,), (target,)) for target in backable]
    ships = tuple(o["behind"])
    for pick in (0, -1):  # all of them, each backing its first (last) target
        out.append(JoinDefence(p, ships, tuple(o["behind"][s][pick] for s in ships)))
    return out


def _place_factory(o: dict[str, Any], p: str) -> list[Action]:
    return [PlaceFactory(p, t) for t in o["territories"]]


def _discard(o: dict[str, Any], p: str) -> list[Action]:
    count = o["count"]
    return [Discard(p, tuple(o["cards"][:count])), Discard(p, tuple(o["cards"][-count:]))]


def _transfer(o: dict[str, Any], p: str) -> list[Action]:
    for source in o["sources"]:
        assert o["destinations"][source], f"a transfer offered from {source}, to nowhere"
    return [
        Transfer(p, source, destination, n)
        for source in o["sources"]
        for destination in o["destinations"][source][:1] + o["destinations"][source][-1:]
        for n in _edges(1, o["max"][source])
    ]  # fmt: skip


def _end_turn(o: dict[str, Any], p: str) -> list[Action]:
    return [EndTurn(p)] + [EndTurn(p, ally) for ally in o["allies"]]


def _poker(o: dict[str, Any], p: str) -> list[Action]:
    out: list[Action] = []
    for move in o["moves"]:
        if move == "choose":
            choose = o["choose"]
            out += [
                Poker(p, "choose", tuple(choose["stash"][:n]))
                for n in _edges(choose["min"], choose["max"])
            ]  # fmt: skip
        elif move == "draw":
            draw = o["draw"]
            hand, stash, deck = draw["hand"], draw["stash"], draw["deck"]
            out.append(Poker(p, "draw"))
            keep = draw["keep"] if draw.get("keep_one") else []
            for discard in (hand[:1], hand):
                from_stash = stash[: len(discard)]
                if len(discard) - len(from_stash) <= deck and (
                    from_stash or not keep or set(keep) - set(discard)
                ):
                    out.append(Poker(p, "draw", tuple(discard), tuple(from_stash)))
                if len(discard) <= deck and (not keep or set(keep) - set(discard)):
                    out.append(Poker(p, "draw", tuple(discard)))
                # the most a draw may discard with no stash replacement: all but one stash card
                lean = [c for c in discard if not keep or c != keep[0]]
                if keep and lean and len(lean) <= deck:
                    out.append(Poker(p, "draw", tuple(lean)))
        else:
            out.append(Poker(p, move))
    return out


def _single(action: type[Action]) -> Any:
    return lambda o, p: [action(p)]


_BUILDERS: dict[str, Any] = {
    "arrange": _arrange,
    "turn_in": _turn_in,
    "place": _place,
    "place_ship": _place_ship,
    "attack": _attack,
    "naval_attack": _naval_attack,
    "cruise": _cruise,
    "sail": _sail,
    "embark": _embark,
    "disembark": _disembark,
    "end_cruise": lambda o, p: [EndCruise(p, o["ship"])],
    "end_campaign": _single(EndCampaign),
    "roll": _roll,
    "retreat": _single(Retreat),
    "move_in": _move_in,
    "prize": _prize,
    "mobilize": _mobilize,
    "join_defence": _join_defence,
    "place_factory": _place_factory,
    "discard": _discard,
    "transfer": _transfer,
    "end_turn": _end_turn,
    "challenge": lambda o, p: [Challenge(p, c) for c in o["contest"]],
    "answer": lambda o, p: [Answer(p, d) for d in o["demur"]],
    "poker": _poker,
    "join": lambda o, p: [Join(p, ally) for ally in o["allies"]],
    "leave": _single(Leave),
    "concede": _single(Concede),
    "vote_draw": lambda o, p: [VoteDraw(p, agree) for agree in o["agree"]],
    "prefer": lambda o, p: [Prefer(p, d, r) for d in o["defence_dice"] for r in o["reveal"]],
}
