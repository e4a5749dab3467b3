"""``sample_action``: one random legal concrete action, for property tests, benchmarks and bots.

It builds each action from ``legal_actions`` so that it is legal by construction (the property
test applies every sampled action and fails on any ``IllegalAction``). The weights push a game
forward (attack often, end the campaign sometimes) so random games finish; they are not a
strategy.
"""

from __future__ import annotations

import random
from typing import Any

from risk.rules.actions import (
    Action,
    Answer,
    Arrange,
    Attack,
    Challenge,
    Cruise,
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
    Prize,
    Retreat,
    Roll,
    Sail,
    Transfer,
    TurnIn,
)
from risk.rules.engine import ActionSpec, legal_actions
from risk.rules.state import COMMITTED, FLANKING, NORMAL, GameState

#: How keen the sampler is on each kind of action (leave and join are left to the caller).
WEIGHTS = {
    "arrange": 1, "turn_in": 6, "place": 10, "place_ship": 10, "attack": 12, "naval_attack": 3,
    "cruise": 3, "sail": 3, "embark": 2, "disembark": 2, "end_cruise": 1, "end_campaign": 2,
    "roll": 10, "retreat": 1, "move_in": 10, "prize": 10, "mobilize": 10, "join_defence": 10,
    "place_factory": 10, "transfer": 3, "discard": 20, "end_turn": 3, "challenge": 10,
    "answer": 10, "poker": 10,
}  # fmt: skip


class NoAction(LookupError):
    """The player has nothing to do now."""


def sample_action(state: GameState, player: str, rng: random.Random) -> Action:
    specs = [s for s in legal_actions(state, player) if s.type in WEIGHTS]
    if not specs:
        raise NoAction(f"{player} has nothing to do now")
    spec = rng.choices(specs, weights=[WEIGHTS[s.type] for s in specs])[0]
    return _BUILD[spec.type](state, player, spec, rng)


def _arrange(state: GameState, player: str, spec: ActionSpec, rng: random.Random) -> Action:
    territories = list(spec.options["territories"])
    armies = [1] * len(territories)
    for _ in range(spec.options["armies"] - len(territories)):
        armies[rng.randrange(len(territories))] += 1
    stations = spec.options["ship_stations"]
    return Arrange(
        player,
        arrangement=tuple(zip(territories, armies, strict=True)),
        factory=rng.choice(territories),
        ship_station=rng.choice(stations) if stations else None,
    )


def _turn_in(state: GameState, player: str, spec: ActionSpec, rng: random.Random) -> Action:
    return TurnIn(player, cards=tuple(rng.choice(spec.options["sets"])),
                  reward=rng.choice(spec.options["rewards"]))  # fmt: skip


def _place(state: GameState, player: str, spec: ActionSpec, rng: random.Random) -> Action:
    most = spec.options["max"]
    armies = most if rng.random() < 0.6 else rng.randint(1, most)
    return Place(player, territory=rng.choice(spec.options["territories"]), armies=armies)


def _place_ship(state: GameState, player: str, spec: ActionSpec, rng: random.Random) -> Action:
    return PlaceShip(player, station=rng.choice(spec.options["stations"]))


def _attack(state: GameState, player: str, spec: ActionSpec, rng: random.Random) -> Action:
    target = rng.choice(sorted(spec.options["targets"]))
    sources = spec.options["targets"][target]
    room = {s: _room(state, s) for s in sources}
    least = state.options.min_commitment  # a committed block's least (RULES.md C10)
    mode = rng.choice([NORMAL, NORMAL, COMMITTED, FLANKING])
    if mode == FLANKING:
        pairs = [
            (a, b)
            for a in sources
            for b in sources
            if (a != b and min(room[a][1], room[b][1]) >= least)
            or (a == b and room[a][1] >= 2 * least)
        ]
        if pairs:
            a, b = rng.choice(pairs)
            most = room[a][1] // 2 if a == b else min(room[a][1], room[b][1])
            armies = rng.randint(least, most)
            return Attack(player, target=target, mode=FLANKING, flanks=((a, armies), (b, armies)))
        mode = COMMITTED
    if mode == COMMITTED:
        able = [s for s in sources if room[s][1] >= least]
        if able:
            source = rng.choice(able)
            armies = rng.randint(least, room[source][1])
            return Attack(player, target=target, mode=COMMITTED, flanks=((source, armies),))
    able = [s for s in sources if room[s][0] >= 1]
    source = rng.choice(able)
    return Attack(player, target=target, mode=NORMAL, flanks=((source, room[source][0]),))


def _room(state: GameState, source: str) -> tuple[int, int]:
    """Armies a source can send: (normal attack, committed attack)."""
    if source in state.territories:
        spare = state.territories[source].armies - 1
        return spare, spare
    aboard = state.ships[source].armies
    return aboard - 1, aboard


def _naval_attack(state: GameState, player: str, spec: ActionSpec, rng: random.Random) -> Action:
    """One defender; then a flanking group (two or more ships on one target, others anywhere),
    or ships on distinct targets (normal or committed), all built from the spec's lists."""
    options = spec.options
    least = state.options.min_commitment  # a committed block's least (RULES.md C10)
    seat = rng.choice(sorted(options["defenders"]))
    fleet: dict[str, list[str]] = options["defenders"][seat]
    crew: dict[str, int] = options["crew"]
    ships = sorted(fleet)
    rng.shuffle(ships)
    several = rng.random() < 0.4
    if FLANKING in options["modes"] and rng.random() < 0.5:
        strong = [s for s in ships if crew[s] >= least]
        shared = sorted({t for s in strong for t in fleet[s]
                         if sum(t in fleet[o] for o in strong) >= 2})  # fmt: skip
        if shared:
            lead = rng.choice(shared)
            group = [s for s in strong if lead in fleet[s]]
            group = group[: rng.randint(2, len(group))]
            pairs = [(s, lead) for s in group]
            if several:
                pairs += [(s, rng.choice(fleet[s])) for s in strong if s not in group]
            most = min(crew[s] for s, _ in pairs)
            return _naval(player, pairs, FLANKING, rng.randint(least, most))
    mode = NORMAL
    strong = [s for s in ships if crew[s] >= least]
    if COMMITTED in options["modes"] and strong and rng.random() < 0.3:
        mode, ships = COMMITTED, strong  # the modes are for all defenders: this fleet may have none
    pairs, used = [], set()
    for ship in ships:
        free = [t for t in fleet[ship] if t not in used]
        if free:
            pairs.append((ship, rng.choice(free)))
            used.add(pairs[-1][1])
        if not several:
            break
    if mode == NORMAL:
        return _naval(player, pairs, NORMAL, 0)
    return _naval(player, pairs, COMMITTED, rng.randint(least, min(crew[s] for s, _ in pairs)))


def _naval(player: str, pairs: list[tuple[str, str]], mode: str, armies: int) -> NavalAttack:
    ships = tuple(s for s, _ in pairs)
    targets = tuple(t for _, t in pairs)
    if len(set(targets)) == 1 and len(targets) % 2:  # sometimes leave the default to ``target``
        targets = ()
    return NavalAttack(player, ships=ships, target=pairs[0][1], mode=mode, armies=armies,
                       targets=targets)  # fmt: skip


def _cruise(state: GameState, player: str, spec: ActionSpec, rng: random.Random) -> Action:
    return Cruise(player, ship=rng.choice(spec.options["ships"]))


def _sail(state: GameState, player: str, spec: ActionSpec, rng: random.Random) -> Action:
    return Sail(
        player, ship=spec.options["ship"], station=rng.choice(sorted(spec.options["stations"]))
    )


def _embark(state: GameState, player: str, spec: ActionSpec, rng: random.Random) -> Action:
    territory = rng.choice(spec.options["territories"])
    spare = state.territories[territory].armies - 1
    return Embark(
        player, ship=spec.options["ship"], territory=territory, armies=rng.randint(1, spare)
    )


def _disembark(state: GameState, player: str, spec: ActionSpec, rng: random.Random) -> Action:
    spare = state.ships[spec.options["ship"]].armies - 1
    return Disembark(player, ship=spec.options["ship"],
                     territory=rng.choice(spec.options["territories"]),
                     armies=rng.randint(1, spare))  # fmt: skip


def _end_cruise(state: GameState, player: str, spec: ActionSpec, rng: random.Random) -> Action:
    return EndCruise(player, ship=spec.options["ship"])


def _end_campaign(state: GameState, player: str, spec: ActionSpec, rng: random.Random) -> Action:
    return EndCampaign(player)


def _roll(state: GameState, player: str, spec: ActionSpec, rng: random.Random) -> Action:
    most = spec.options["max_add"]
    add = rng.randint(1, most) if most and rng.random() < 0.2 else 0
    return Roll(player, add=add, until_decided=rng.random() < 0.7)


def _retreat(state: GameState, player: str, spec: ActionSpec, rng: random.Random) -> Action:
    return Retreat(player)


def _move_in(state: GameState, player: str, spec: ActionSpec, rng: random.Random) -> Action:
    if "min" in spec.options:
        return MoveIn(player, armies=rng.randint(spec.options["min"], spec.options["max"]))
    extra: dict[str, int] = spec.options["extra_from"]
    sources = [s for s, room in extra.items() if room > 0]
    if sources and rng.random() < 0.3:
        source = rng.choice(sources)
        return MoveIn(player, armies=rng.randint(1, extra[source]), source=source)
    return MoveIn(player, armies=0)


def _prize(state: GameState, player: str, spec: ActionSpec, rng: random.Random) -> Action:
    ship = rng.choice(spec.options["ships"])
    able: dict[str, int] = spec.options["boarders"]
    if not able or rng.random() < 0.5:
        return Prize(player, ship=ship, by=None)
    by = rng.choice(sorted(able))
    return Prize(player, ship=ship, by=by, armies=rng.randint(1, able[by]))


def _mobilize(state: GameState, player: str, spec: ActionSpec, rng: random.Random) -> Action:
    cards = [c for c in spec.options["cards"] if rng.random() < 0.7]
    wilds = spec.options["wild_dice"] + cards.count("wild")
    owned = spec.options["territories"]
    return Mobilize(player, reveal=tuple(cards),
                    wild_territories=tuple(rng.choice(owned) for _ in range(wilds)))  # fmt: skip


def _join_defence(state: GameState, player: str, spec: ActionSpec, rng: random.Random) -> Action:
    ships = tuple(s for s in spec.options["ships"] if rng.random() < 0.5)
    behind: dict[str, list[str]] = spec.options["behind"]
    return JoinDefence(player, ships=ships, behind=tuple(rng.choice(behind[s]) for s in ships))


def _place_factory(state: GameState, player: str, spec: ActionSpec, rng: random.Random) -> Action:
    return PlaceFactory(player, territory=rng.choice(spec.options["territories"]))


def _transfer(state: GameState, player: str, spec: ActionSpec, rng: random.Random) -> Action:
    source = rng.choice(spec.options["sources"])
    return Transfer(player, source=source,
                    destination=rng.choice(spec.options["destinations"][source]),
                    armies=rng.randint(1, spec.options["max"][source]))  # fmt: skip


def _discard(state: GameState, player: str, spec: ActionSpec, rng: random.Random) -> Action:
    return Discard(player, cards=tuple(rng.sample(spec.options["cards"], spec.options["count"])))


def _end_turn(state: GameState, player: str, spec: ActionSpec, rng: random.Random) -> Action:
    allies = spec.options["allies"]
    ally = rng.choice(allies) if allies and rng.random() < 0.4 else None
    return EndTurn(player, ally=ally)


def _challenge(state: GameState, player: str, spec: ActionSpec, rng: random.Random) -> Action:
    return Challenge(player, contest=rng.random() < 0.5)


def _answer(state: GameState, player: str, spec: ActionSpec, rng: random.Random) -> Action:
    return Answer(player, demur=rng.random() < 0.2)


def _poker(state: GameState, player: str, spec: ActionSpec, rng: random.Random) -> Action:
    contest = state.contest
    assert contest is not None and contest.hand is not None
    hand = contest.hand
    seat = hand.seats[hand.seat_of(_poker_seat(state, player))]
    move = rng.choice(spec.options["moves"])
    if move == "choose":
        # Take enough from the stash that the deck can fill every hand (draw.py decision 3).
        others = sum(5 - min(5, len(s.stash)) for s in hand.seats if s.player != seat.player
                     and not s.chosen)  # fmt: skip
        chosen_short = sum(5 - len(s.hand) for s in hand.seats if s.chosen)
        room = len(hand.deck) - others - chosen_short
        least = max(1, 5 - room)
        most = min(5, len(seat.stash))
        count = rng.randint(least, most) if least <= most else most
        return Poker(player, move="choose", cards=tuple(rng.sample(list(seat.stash), count)))
    if move == "draw":
        discard = [c for c in seat.hand if rng.random() < 0.3]
        from_stash = [c for c in seat.stash if rng.random() < 0.3][: len(discard)]
        while len(discard) - len(from_stash) > len(hand.deck):
            discard.pop()
        if hand.keep_stash and not from_stash and set(seat.stash_cards) <= set(discard):
            discard.remove(seat.stash_cards[0])  # a stash card stays in the hand (RULES.md A12)
        return Poker(player, move="draw", cards=tuple(discard), from_stash=tuple(from_stash))
    return Poker(player, move=move)


def _poker_seat(state: GameState, player: str) -> str:
    seat = state.seat_of_actor(player)
    assert seat is not None
    return seat.id


def join_or_leave(state: GameState, person: str, rng: random.Random) -> Action | None:
    """A late-comer joining, or a player leaving, when the rules allow it now (for tests)."""
    specs = {s.type: s for s in legal_actions(state, person)}
    if "join" in specs:
        return Join(person, ally=rng.choice(specs["join"].options["allies"]))
    if "leave" in specs:
        return Leave(person)
    return None


_BUILD: dict[str, Any] = {
    "arrange": _arrange, "turn_in": _turn_in, "place": _place, "place_ship": _place_ship,
    "attack": _attack, "naval_attack": _naval_attack, "cruise": _cruise, "sail": _sail,
    "embark": _embark, "disembark": _disembark, "end_cruise": _end_cruise,
    "end_campaign": _end_campaign, "roll": _roll, "retreat": _retreat, "move_in": _move_in,
    "prize": _prize, "mobilize": _mobilize, "join_defence": _join_defence,
    "place_factory": _place_factory, "transfer": _transfer, "discard": _discard,
    "end_turn": _end_turn, "challenge": _challenge, "answer": _answer, "poker": _poker,
}  # fmt: skip

__all__ = ["NoAction", "join_or_leave", "sample_action"]
