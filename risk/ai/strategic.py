"""``StrategicBot``: the AI that plays Nautical-but-Nice Fast Risk at three levels.

It decides from the ``BotView`` (the redacted state) and the legal ``ActionSpec``s only, and
builds every action from a spec's options, as ``risk.rules.sampler`` does, so ``apply`` accepts
it; a kind it does not weigh falls back to ``sample_action`` (still legal by construction).

The rules make one way of attacking far better than the others (``risk.ai.odds``): a block of 2
refilled before every roll makes the defender roll a single die, and two such flanks add the +1
and capture every army the defender loses. The levels:

- ``easy``: normal attacks only (3 dice against 2), at fair odds picked with noise; spreads its
  reinforcements over random borders; no ships, no poker sense (challenges and bets at random),
  rewards for cards at random.
- ``normal``: refilled committed and flanking blocks with exact odds, attacks at >= 60% win
  odds scored by a board evaluation (territory, continent progress towards a goal continent,
  cards, enemy armies destroyed and captured, eliminations); reinforcements massed where they
  attack best; landings and naval attacks; poker from hand equity; challenges with a good stash;
  declares an allied army every turn and plays it against the other players.
- ``hard``: ``normal`` plus planning: it contests every declaration and answers every challenge
  (an allied turn is a second turn), opens attacks at >= 65%, scores each attack with the best
  attack on an enemy player it opens next (a one-step lookahead over its own campaign with the
  exact odds as the chance of each step) and places reinforcements for that chain; its ships
  ferry idle armies to the front and pick up crews for landings; it transfers idle armies (and
  a border's surplus) to the most threatened border.

Rule readings taken here (none changes the engine; see risk/RULES.md AI1-AI3):

- The allied army a player plays is the player's tool (rule text "Play Allied Army"): on its
  turn the AI attacks the other players and other allies with it, never the player who plays it.
- A seat's own hand: mobilization reveals every eligible card (a revealed card stays in the hand,
  RULES.md M3; with ``reveal_once`` it still reveals, since a die now beats one later).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from risk.ai import odds as exact
from risk.ai import poker_sense
from risk.ai.board_sense import Side, side_for
from risk.rules.actions import (
    Action,
    ActionSpec,
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
    JoinDefence,
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
from risk.rules.bots import HIDDEN, BotView
from risk.rules.sampler import sample_action
from risk.rules.state import COMMITTED, FLANKING, LAND, NORMAL, GameState, Ship

LEVELS = ("easy", "normal", "hard")

#: Kinds that are people's own business: the AI takes them only when nothing else is legal.
PEOPLE_ONLY = ("join", "leave", "concede", "vote_draw", "prefer")


@dataclass(frozen=True)
class Profile:
    """What a level does. ``min_win``: least chance of winning an attack it opens;
    ``keep_rolling``: least chance to go on with a normal attack; ``noise``: random spread added
    to each score (easy); ``blocks``: committed and flanking blocks; ``lookahead``: follow-up
    attacks in the score; ``ships``: landings and naval attacks; ``ferry``: embark idle armies;
    ``poker``: poker from hand equity (else at random); ``allies``: declare an allied army."""

    min_win: float
    min_score: float
    keep_rolling: float
    noise: float
    blocks: bool
    lookahead: bool
    goals: bool
    ships: bool
    ferry: bool
    poker: bool
    allies: bool
    deny_allies: bool
    enemy_paths: bool = False  # the lookahead follows only attacks on the other players


PROFILES = {
    "easy": Profile(
        min_win=0.55,
        min_score=0.0,
        keep_rolling=0.3,
        noise=3.0,
        blocks=False,
        lookahead=False,
        goals=False,
        ships=False,
        ferry=False,
        poker=False,
        allies=False,
        deny_allies=False,
    ),
    "normal": Profile(
        min_win=0.6,
        min_score=0.5,
        keep_rolling=0.35,
        noise=0.0,
        blocks=True,
        lookahead=False,
        goals=True,
        ships=True,
        ferry=False,
        poker=True,
        allies=True,
        deny_allies=False,
    ),
    "hard": Profile(
        min_win=0.65,
        min_score=0.5,
        keep_rolling=0.4,
        noise=0.0,
        blocks=True,
        lookahead=True,
        goals=True,
        ships=True,
        ferry=True,
        poker=True,
        allies=True,
        deny_allies=True,
        enemy_paths=True,
    ),
}

#: A ship lost with its crew, over and above the armies aboard.
SHIP_VALUE = 3.0


@dataclass(frozen=True)
class AttackPlan:
    target: str
    mode: str
    flanks: tuple[tuple[str, int], ...]
    odds: exact.Odds
    score: float  # what it is worth now, with the follow-up it opens (lookahead): the ranking
    base: float = 0.0  # what it is worth now: whether to attack at all


class StrategicBot:
    """The AI (``risk.rules.bots.Bot``): ``decide(view, legal) -> Action``."""

    def __init__(self, rng: random.Random, level: str = "hard") -> None:
        if level not in LEVELS:
            raise ValueError(f"level must be one of {', '.join(LEVELS)}, not {level!r}")
        self.rng = rng
        self.level = level
        self.profile = PROFILES[level]

    def decide(self, view: BotView, legal: list[ActionSpec]) -> Action:
        specs: dict[str, list[ActionSpec]] = {}
        for spec in legal:
            specs.setdefault(spec.type, []).append(spec)
        play = [k for k in specs if k not in PEOPLE_ONLY]
        if not play:
            return _people_default(view, specs)
        action = _Turn(self, view, specs).choose()
        if action is not None:
            return action
        return sample_action(view.state, view.player, self.rng)


def _people_default(view: BotView, specs: dict[str, list[ActionSpec]]) -> Action:
    """Only people's actions are legal (nothing is asked of this seat): the least harmful."""
    from risk.rules.actions import Join, Leave, Prefer, VoteDraw

    if "prefer" in specs:
        return Prefer(view.player)
    if "vote_draw" in specs:
        return VoteDraw(view.player, agree=False)
    if "join" in specs:
        return Join(view.player, ally=specs["join"][0].options["allies"][0])
    return Leave(view.player)


class _Turn:
    """One decision: the state, the side, the specs, and the bot's level."""

    def __init__(self, bot: StrategicBot, view: BotView, specs: dict[str, list[ActionSpec]]):
        self.bot = bot
        self.p = bot.profile
        self.rng = bot.rng
        self.player = view.player
        self.state: GameState = view.state
        self.specs = specs
        self.side: Side = side_for(view.state, view.player)
        self.side.goals = self.p.goals

    def spec(self, kind: str) -> ActionSpec:
        return self.specs[kind][0]

    def noisy(self, value: float) -> float:
        return value + (self.rng.uniform(-self.p.noise, self.p.noise) if self.p.noise else 0.0)

    # --- dispatch --------------------------------------------------------------------------

    def choose(self) -> Action | None:
        s = self.specs
        for kind, handler in (
            ("arrange", self.arrange),
            ("mobilize", self.mobilize),
            ("join_defence", self.join_defence),
            ("challenge", self.challenge),
            ("answer", self.answer),
            ("poker", self.poker),
            ("prize", self.prize),
            ("move_in", self.move_in),
            ("roll", self.roll),
            ("place_ship", self.place_ship),
        ):
            if kind in s:
                return handler()
        if "turn_in" in s:
            action = self.turn_in()
            if action is not None:
                return action
        if "place" in s:
            return self.place()
        if "place_factory" in s:
            return self.place_factory()
        if "discard" in s:
            return self.discard()
        if "end_turn" in s or "transfer" in s:
            if "transfer" in s:
                action = self.transfer()
                if action is not None:
                    return action
            if "end_turn" in s:
                return self.end_turn()
            return None
        if "end_campaign" in s:
            return self.campaign()
        return None

    # --- set-up ----------------------------------------------------------------------------

    def arrange(self) -> Action:
        opts = self.spec("arrange").options
        owned: list[str] = list(opts["territories"])
        total: int = opts["armies"]
        side = Side(self.state, self.side.me, self.side.me)
        armies = {t: 1 for t in owned}
        left = total - len(owned)
        # Deterrence where an enemy player is next door, then mass the rest where attacks pay.
        for t in owned:
            if (
                any(
                    self.state.territories[n].owner in side.enemies
                    for n in side.bmap.territories[t].adjacent
                )
                and left >= 2
            ):
                armies[t] += 2
                left -= 2
        base = sorted(owned, key=lambda t: -self.noisy(self._base_value(side, t, left)))
        if self.p.noise:
            share = [left // 3, left // 3, left - 2 * (left // 3)]
            for t, n in zip(base, share, strict=False):
                armies[t] += n
            left -= sum(share[: len(base)])
        else:
            armies[base[0]] += left
            left = 0
        if left:
            armies[base[0]] += left
        factory = base[0] if self.p.blocks else self.rng.choice(owned)
        stations: list[str] = opts["ship_stations"]
        station = self._best_station(side, stations, 3) if stations else None
        return Arrange(
            self.player,
            arrangement=tuple((t, armies[t]) for t in owned),
            factory=factory,
            ship_station=station,
        )

    def _base_value(self, side: Side, name: str, armies: int) -> float:
        """How good a base ``name`` is for ``armies`` more armies: its best attacks."""
        best = 0.0
        for target in side.enemy_neighbours(name):
            d = self.state.territories[target].armies
            odds = exact.block(
                armies + self.state.territories[name].armies - 1, d, True, self.state.options
            )
            value = side.conquest_value(target, took_territory=True)
            best += max(0.0, odds.win * value - odds.attacker_losses)
        return best

    # --- reinforcement ---------------------------------------------------------------------

    def turn_in(self) -> Action | None:
        opts = self.spec("turn_in").options
        seat = self.state.seat(self.side.acting)
        must = len(seat.risk_cards) >= 5
        if not must:
            return None
        owned = self.side.mine
        sets: list[list[str]] = opts["sets"]
        best = max(
            sets, key=lambda cards: (sum(2 for c in cards if c in owned), -cards.count("wild"))
        )
        rewards: list[str] = opts["rewards"]
        # Armies: 2d6 now. A factory pays 2 a turn and a ship carries 1d6: games between these
        # bots last a median of 4-5 rounds (bench/ai_strength.py), too short for either to
        # pay back 7 armies (a factory tried for the first 15 rounds lost games to one that
        # took armies).
        reward = "armies"
        if not self.p.blocks:
            reward = self.rng.choice([r for r in rewards if r != "ship"] or rewards)
        return TurnIn(self.player, cards=tuple(best), reward=reward)

    def place(self) -> Action:
        opts = self.spec("place").options
        count: int = opts["max"]
        territories: list[str] = opts["territories"]
        if not self.p.blocks:  # easy: a border at random, a part of the armies
            borders = [t for t in territories if self.side.is_border(t)] or territories
            armies = count if count <= 3 else self.rng.randint(max(1, count // 2), count)
            return Place(self.player, territory=self.rng.choice(borders), armies=armies)
        best, best_score = territories[0], float("-inf")
        for t in territories:
            score = self._source_score(t, count)
            if score > best_score:
                best, best_score = t, score
        if best_score <= 0.5:  # nothing worth attacking from anywhere: defend
            best = max(
                territories, key=lambda t: self.side.threat(t) - self.state.territories[t].armies
            )
        return Place(self.player, territory=best, armies=count)

    def _source_score(self, name: str, extra: int) -> float:
        """The best attack from ``name`` with ``extra`` armies more, for placing reinforcements."""
        side = self.side
        holding = self.state.territories[name]
        available = holding.armies - 1 + extra
        took = self.state.turn.took_territory if self.state.turn is not None else False
        best = 0.0
        for target in side.enemy_neighbours(name):
            owner = self.state.territories[target].owner
            if not side.hostile(owner):
                continue
            plan = self._score_block(target, available, flanking=available >= 4, took=took)
            if plan > best:
                best = plan
        return best

    def _score_block(
        self, target: str, available: int, *, flanking: bool, took: bool, depth: int = 0
    ) -> float:
        holding = self.state.territories[target]
        d = holding.armies + self._mobilization_margin(holding.owner)
        odds = exact.block(available, d, flanking, self.state.options)
        score = self._score(target, odds, took)
        if depth == 0 and self.p.lookahead:
            score += 0.5 * odds.win * self._follow_up(target, available - odds.attacker_losses)
        return score

    def _follow_up(self, target: str, armies: float) -> float:
        """The best next attack from ``target`` once taken with ``armies`` (lookahead)."""
        move = int(armies) - 1
        if move < 2:
            return 0.0
        best = 0.0
        for nxt in self.side.bmap.territories[target].adjacent:
            owner = self.state.territories[nxt].owner
            if owner == self.side.acting or not self.side.hostile(owner):
                continue
            if self.p.enemy_paths and owner not in self.side.enemies:
                continue
            score = self._score_block(nxt, move, flanking=move >= 4, took=True, depth=1)
            best = max(best, score)
        return best

    def _mobilization_margin(self, owner: str) -> int:
        turn = self.state.turn
        if turn is None or owner in turn.attacked:
            return 0
        cards = len(self.state.seat(owner).risk_cards)
        return 1 if cards else 0

    def _score(self, target: str, odds: exact.Odds, took: bool) -> float:
        side = self.side
        owner = self.state.territories[target].owner
        value = side.conquest_value(target, took_territory=took)
        return (
            odds.win * value
            - odds.attacker_losses
            + odds.captures
            + side.army_weight(owner) * odds.defender_losses
        )

    def place_ship(self) -> Action:
        stations: list[str] = self.spec("place_ship").options["stations"]
        turn = self.state.turn
        crew = 3
        if turn is not None and turn.ships_to_place:
            crew = turn.ships_to_place[0]
        return PlaceShip(self.player, station=self._best_station(self.side, stations, crew))

    def _best_station(self, side: Side, stations: list[str], crew: int) -> str:
        if not self.p.ships:
            return stations[0]
        best, best_score = stations[0], float("-inf")
        for station in stations:
            score = self._landing_score(station, crew)[1]
            if score > best_score:
                best, best_score = station, score
        return best

    # --- the campaign ----------------------------------------------------------------------

    def campaign(self) -> Action:
        took = self.state.turn.took_territory if self.state.turn is not None else False
        plans = self.attack_plans(took) if "attack" in self.specs else []
        if plans:
            best = max(plans, key=lambda p: p.score)
            return Attack(self.player, target=best.target, mode=best.mode, flanks=best.flanks)
        if self.p.ships:
            action = self.ships()
            if action is not None:
                return action
        else:
            for spec in self.specs.get("end_cruise", []):
                return EndCruise(self.player, ship=spec.options["ship"])
        return EndCampaign(self.player)

    def attack_plans(self, took: bool) -> list[AttackPlan]:
        opts = self.spec("attack").options
        targets: dict[str, list[str]] = opts["targets"]
        room: dict[str, dict[str, list[int]]] = opts["room"]
        modes: dict[str, list[str]] = opts["modes"]
        plans = []
        for target, sources in targets.items():
            owner = self.state.territories[target].owner
            if not self.side.hostile(owner):
                continue
            if not self.p.ships:
                sources = [s for s in sources if s in self.state.territories]
                if not sources:
                    continue
            plan = self._best_plan(target, sources, room, modes[target], took)
            if plan is None:
                continue
            noise = self.noisy(0.0)
            if plan.odds.win >= self.p.min_win and plan.base + noise >= self.p.min_score:
                plans.append(
                    AttackPlan(plan.target, plan.mode, plan.flanks, plan.odds, plan.score + noise)
                )
        return plans

    def _best_plan(
        self,
        target: str,
        sources: list[str],
        room: dict[str, dict[str, list[int]]],
        modes: list[str],
        took: bool,
    ) -> AttackPlan | None:
        holding = self.state.territories[target]
        d = holding.armies + self._mobilization_margin(holding.owner)
        options: list[tuple[str, tuple[tuple[str, int], ...], exact.Odds, int]] = []
        for s in sources:
            most = room[s][NORMAL][1]
            if most >= 1:
                options.append((NORMAL, ((s, most),), exact.normal(most, d), most))
        if self.p.blocks:
            least = self.state.options.min_commitment  # 2 unless a host option raises it
            wide = sorted(
                ((room[s][COMMITTED][1], s) for s in sources if COMMITTED in room[s]), reverse=True
            )
            if COMMITTED in modes and wide:
                most, s = wide[0]
                options.append(
                    (
                        COMMITTED,
                        ((s, least),),
                        exact.block(most, d, False, self.state.options),
                        most,
                    )
                )
            if FLANKING in modes and wide:
                most, s = wide[0]
                if most >= 2 * least:
                    odds = exact.block(most, d, True, self.state.options)
                    options.append((FLANKING, ((s, least), (s, least)), odds, most))
                elif len(wide) >= 2 and wide[1][0] >= least:
                    other = wide[1]
                    both = most + other[0]
                    options.append(
                        (
                            FLANKING,
                            ((s, least), (other[1], least)),
                            exact.block(both, d, True, self.state.options),
                            both,
                        )
                    )
        best: AttackPlan | None = None
        for mode, flanks, odds, available in options:
            score = self._score(target, odds, took)
            ships = [src for src, _ in flanks if src in self.state.ships]
            if ships and mode != NORMAL:  # a committed landing that fails sinks the ship
                score -= (1 - odds.win) * SHIP_VALUE
            base = score
            if self.p.lookahead:
                left = available - odds.attacker_losses
                score += 0.5 * odds.win * self._follow_up(target, left)
            if best is None or score > best.score:
                best = AttackPlan(target, mode, flanks, odds, score, base)
        return best

    # --- battles ---------------------------------------------------------------------------

    def _defenders(self) -> int:
        battle = self.state.battle
        assert battle is not None
        if battle.kind == LAND:
            return self.state.territories[battle.target].armies
        flank = battle.flanks[battle.next_flank]
        target = flank.target or battle.target
        pool = [target] + [s for s, t in battle.support.items() if t == target]
        return sum(self.state.ships[s].armies for s in pool if s in self.state.ships)

    def roll(self) -> Action:
        battle = self.state.battle
        assert battle is not None
        flank = battle.flanks[battle.next_flank]
        d = self._defenders()
        naval = battle.kind != LAND
        if battle.mode == NORMAL:
            win = (
                exact.naval(flank.standing, d, False, self.state.options)
                if naval
                else exact.normal(flank.standing, d)
            ).win
            if "retreat" in self.specs and win < self.p.keep_rolling:
                return Retreat(self.player)
            return Roll(self.player)
        max_add: int = self.spec("roll").options["max_add"]
        need = max(0, flank.commitment - flank.standing)
        live = [f for f in battle.flanks if not f.out]
        reserves = sum(self._reserve(f) for f in {f.source: f for f in live}.values())
        available = sum(f.standing for f in live) + reserves
        if naval:
            win = exact.naval(available, d, True, self.state.options).win
        else:
            win = exact.block(
                available, d, battle.mode == FLANKING and len(live) >= 2, self.state.options
            ).win
        add = min(max_add, need) if win >= 0.15 else 0
        return Roll(self.player, add=add)

    def _reserve(self, flank: Any) -> int:
        if flank.ship:
            ship = self.state.ships.get(flank.source)
            return ship.armies if ship is not None else 0
        return max(0, self.state.territories[flank.source].armies - 1)

    def move_in(self) -> Action:
        opts = self.spec("move_in").options
        battle = self.state.battle
        assert battle is not None
        target = battle.target
        land_sources = [f.source for f in battle.flanks if not f.ship]
        if "min" in opts:
            least, most = opts["min"], opts["max"]
            source = battle.flanks[0].source
            share = self._forward_share(source, target) if not battle.flanks[0].ship else 1.0
            armies = least + round(share * (most - least))
            return MoveIn(self.player, armies=max(least, min(most, armies)))
        extra: dict[str, int] = opts["extra_from"]
        able = [s for s in land_sources if extra.get(s, 0) > 0]
        if not able:
            return MoveIn(self.player, armies=0)
        source = max(able, key=lambda s: extra[s])
        share = self._forward_share(source, target)
        armies = round(share * extra[source])
        if armies <= 0:
            return MoveIn(self.player, armies=0)
        return MoveIn(self.player, armies=min(extra[source], armies), source=source)

    def _forward_share(self, source: str, target: str) -> float:
        """How much of ``source``'s strength goes on to ``target``: all when ``source`` has no
        other enemy to face, else in proportion to what each will face and can attack."""
        side = self.side
        src_others = [n for n in side.enemy_neighbours(source) if n != target]
        if not src_others:
            return 1.0
        tgt_others = [
            n
            for n in side.bmap.territories[target].adjacent
            if self.state.territories[n].owner != side.acting and n != source
        ]
        if not tgt_others:
            return 0.0
        src_weight = 1.0 + side.threat(source, besides=target) + 1.5 * len(src_others)
        tgt_weight = 1.0 + sum(self.state.territories[n].armies for n in tgt_others) * 0.5
        tgt_weight += 2.0 * len(tgt_others)
        return tgt_weight / (tgt_weight + src_weight)

    def prize(self) -> Action:
        opts = self.spec("prize").options
        ship = opts["ships"][0]
        able: dict[str, int] = opts["boarders"]
        if not able or not self.p.ships:
            return Prize(self.player, ship=ship, by=None)
        by = max(sorted(able), key=lambda s: able[s])
        return Prize(self.player, ship=ship, by=by, armies=max(1, able[by] // 2))

    def mobilize(self) -> Action:
        opts = self.spec("mobilize").options
        cards = tuple(opts["cards"])
        wilds = opts["wild_dice"] + cards.count("wild")
        owned: list[str] = opts["territories"]
        battle = self.state.battle
        spot = owned[0]
        if battle is not None and battle.kind == LAND and battle.target in owned:
            spot = battle.target
        elif battle is not None:
            defender = Side(self.state, battle.defender, battle.defender)
            spot = max(owned, key=lambda t: defender.threat(t) - self.state.territories[t].armies)
        return Mobilize(self.player, reveal=cards, wild_territories=(spot,) * wilds)

    def join_defence(self) -> Action:
        opts = self.spec("join_defence").options
        if not self.p.ships:
            return JoinDefence(self.player)
        ships: list[str] = opts["ships"]
        behind: dict[str, list[str]] = opts["behind"]
        return JoinDefence(
            self.player, ships=tuple(ships), behind=tuple(behind[s][0] for s in ships)
        )

    # --- ships -----------------------------------------------------------------------------

    def ships(self) -> Action | None:
        if "naval_attack" in self.specs:
            action = self.naval_attack()
            if action is not None:
                return action
        mine = {s.id: s for s in self.state.ships_of(self.side.acting)}
        for spec in self.specs.get("end_cruise", []):
            ship = mine.get(spec.options["ship"])
            if ship is None:
                continue
            return self.cruising(ship)
        if "cruise" in self.specs:
            for ship_id in self.spec("cruise").options["ships"]:
                if self._worth_a_cruise(mine[ship_id]):
                    return Cruise(self.player, ship=ship_id)
        return None

    def naval_attack(self) -> Action | None:
        opts = self.spec("naval_attack").options
        crew: dict[str, int] = opts["crew"]
        modes: dict[str, Any] = opts["modes"]
        best: tuple[float, NavalAttack] | None = None
        for seat, fleet in opts["defenders"].items():
            if seat not in self.side.enemies:
                continue  # sinking an allied army's ships gains little
            for ship_id, choices in fleet.items():
                for target in choices:
                    enemy = self.state.ships[target]
                    backers = sum(
                        s.armies
                        for s in self.state.ships_of(seat)
                        if s.id != target
                        and self.side.bmap.ocean_of(s.station)
                        == self.side.bmap.ocean_of(enemy.station)
                    )
                    d = enemy.armies + backers
                    for mode in (NORMAL, COMMITTED):
                        least = self.state.options.min_commitment
                        if mode not in modes or (mode == COMMITTED and crew[ship_id] < least):
                            continue
                        o = exact.naval(crew[ship_id], d, mode == COMMITTED, self.state.options)
                        score = (
                            o.win * (SHIP_VALUE + 2.0)
                            - o.attacker_losses
                            + 0.5 * o.defender_losses
                            - (1 - o.win) * SHIP_VALUE
                        )
                        if o.win >= 0.7 and score > 0 and (best is None or score > best[0]):
                            action = NavalAttack(
                                self.player,
                                ships=(ship_id,),
                                target=target,
                                mode=mode,
                                armies=least if mode == COMMITTED else 0,
                            )
                            best = (score, action)
        return best[1] if best is not None else None

    def _landing_score(self, station: str, crew: int) -> tuple[str | None, float]:
        """The best landing a ship with ``crew`` could make from ``station``, and its score."""
        bmap = self.side.bmap
        ocean = bmap.ocean_of(station)
        took = self.state.turn.took_territory if self.state.turn is not None else True
        best: tuple[str | None, float] = (None, 0.0)
        if crew < 2:
            return best
        for target in bmap.coasts_within(station, 1):
            owner = self.state.territories[target].owner
            if not self.side.hostile(owner):
                continue
            if any(bmap.ocean_of(s.station) == ocean for s in self.state.ships_of(owner)):
                continue  # patrolled (RULES.md H7)
            d = self.state.territories[target].armies + self._mobilization_margin(owner)
            o = exact.block(crew, d, crew >= 4, self.state.options)
            score = self._score(target, o, took) - (1 - o.win) * SHIP_VALUE
            if o.win >= self.p.min_win and score > best[1]:
                best = (target, score)
        return best

    def _worth_a_cruise(self, ship: Ship) -> bool:
        bmap = self.side.bmap
        if any(
            seat in self.side.enemies
            for seat in {
                s.owner
                for s in self.state.ships.values()
                if bmap.ocean_of(s.station) == bmap.ocean_of(ship.station)
            }
        ):
            enemies = [
                s
                for s in self.state.ships.values()
                if s.owner in self.side.enemies
                and bmap.ocean_of(s.station) == bmap.ocean_of(ship.station)
            ]
            if any(
                exact.naval(ship.armies, e.armies, ship.armies >= 2, self.state.options).win >= 0.7
                for e in enemies
            ):
                return True
        for station in bmap.reachable(ship.station, 7):
            if self._landing_score(station, ship.armies)[1] > self.p.min_score + 1.0:
                return True
        if self.p.ferry:
            for station in bmap.reachable(ship.station, 5):
                for t in bmap.coasts_within(station, 1):
                    if self._idle(t) >= 3 and t not in ship.ports:
                        return True
        return False

    def _idle(self, name: str) -> int:
        """Armies on an own territory that face no enemy (0 if it is not the acting seat's)."""
        holding = self.state.territories[name]
        if holding.owner != self.side.acting or self.side.is_border(name):
            return 0
        return holding.armies - 1

    def cruising(self, ship: Ship) -> Action:
        """A cruising ship with no landing open from here: pick up, sail on, drop off, or stop."""
        by_ship = lambda kind: next(  # noqa: E731
            (s for s in self.specs.get(kind, []) if s.options["ship"] == ship.id), None
        )
        embark, disembark, sail = by_ship("embark"), by_ship("disembark"), by_ship("sail")
        here = self._landing_score(ship.station, ship.armies)[1]
        if self.p.ferry and embark is not None:
            idle = [(self._idle(t), t) for t in embark.options["territories"]]
            idle = [(n, t) for n, t in idle if n >= 2]
            if idle:
                n, t = max(idle)
                return Embark(
                    self.player, ship=ship.id, territory=t, armies=min(n, embark.options["max"][t])
                )
        if sail is not None:
            stations: dict[str, int] = sail.options["stations"]
            best, best_score = None, here
            for station in sorted(stations):
                score = self._landing_score(station, ship.armies)[1]
                if score > best_score + 0.5:
                    best, best_score = station, score
            if best is not None:
                return Sail(self.player, ship=ship.id, station=best)
        if self.p.ferry and disembark is not None and here <= 0:
            fronts = [
                t
                for t in disembark.options["territories"]
                if self.side.is_border(t) and t not in ship.ports
            ]
            if fronts and ship.armies > 3:
                t = max(
                    fronts, key=lambda n: self.side.threat(n) + len(self.side.enemy_neighbours(n))
                )
                return Disembark(
                    self.player, ship=ship.id, territory=t, armies=disembark.options["max"]
                )
        return EndCruise(self.player, ship=ship.id)

    # --- end of the turn -------------------------------------------------------------------

    def place_factory(self) -> Action:
        sites: list[str] = self.spec("place_factory").options["territories"]
        side = self.side

        def score(t: str) -> float:
            own = sum(
                1
                for n in side.bmap.territories[t].adjacent
                if self.state.territories[n].owner == side.acting
            )
            return 2.0 * side.is_border(t) - 0.1 * side.threat(t) + 0.5 * own

        return PlaceFactory(self.player, territory=max(sites, key=score))

    def discard(self) -> Action:
        opts = self.spec("discard").options
        red = self.state.options.red_queens_high
        return Discard(
            self.player, cards=poker_sense.worst_cards(opts["cards"], opts["count"], red)
        )

    def transfer(self) -> Action | None:
        opts = self.spec("transfer").options
        if not self.p.blocks:
            return None
        side = self.side
        best: tuple[float, Transfer] | None = None
        for source in opts["sources"]:
            spare: int = opts["max"][source]
            if side.is_border(source):
                if self.p.lookahead is False:
                    continue
                need_here = side.threat(source) - (spare + 1)
                if need_here > -3:
                    continue
                spare = min(spare, int(-need_here) - 3)
                if spare < 1:
                    continue
            for dest in opts["destinations"][source]:
                if not side.is_border(dest):
                    continue
                gain = side.threat(dest) + 2.0 * len(side.enemy_neighbours(dest))
                gain -= 0.2 * self.state.territories[dest].armies
                value = gain * min(1.0, spare / 5) + spare * 0.1
                if best is None or value > best[0]:
                    best = (
                        value,
                        Transfer(self.player, source=source, destination=dest, armies=spare),
                    )
        return best[1] if best is not None else None

    def end_turn(self) -> Action:
        allies: list[str] = self.spec("end_turn").options["allies"]
        if not allies:
            return EndTurn(self.player)
        if not self.p.allies:
            ally = self.rng.choice(allies) if self.rng.random() < 0.3 else None
            return EndTurn(self.player, ally=ally)
        return EndTurn(self.player, ally=max(allies, key=self._ally_value))

    def _ally_value(self, ally: str) -> float:
        """What playing ``ally`` next could do to the other players: its armies next to
        theirs, its reinforcements, and any territory it could take."""
        side = Side(self.state, ally, self.side.me)
        value = 0.0
        for name in side.mine:
            armies = self.state.territories[name].armies - 1
            for n in side.bmap.territories[name].adjacent:
                holding = self.state.territories[n]
                if holding.owner in side.enemies and armies >= 2:
                    value += min(armies, 10) / (1 + holding.armies)
        return value + len(side.mine) / 3

    # --- declarations and poker ------------------------------------------------------------

    def _my_seat_id(self) -> str:
        return self.side.me

    def challenge(self) -> Action:
        """Contest another player's declaration? An allied turn is a second turn against us,
        and a contest stops it unless the declarer wins the hand *and* holds a card of the
        ally's suit (rule text "Playing Poker"): ``hard`` always contests (the stake is a few
        armies of its next bonus, won back as often as lost); ``normal`` with a good stash."""
        if not self.p.poker:
            return Challenge(self.player, contest=self.rng.random() < 0.3)
        if self.p.deny_allies:
            return Challenge(self.player, contest=True)
        seat = self.state.seat(self._my_seat_id())
        cards = [c for c in seat.poker_cards if c != HIDDEN]
        strength = poker_sense.stash_strength(cards, self.state.options.red_queens_high)
        danger = 0.0
        contest = self.state.contest
        if contest is not None:
            ally = Side(self.state, contest.ally, contest.declarer)
            danger = sum(
                1
                for name in ally.mine
                for n in ally.bmap.territories[name].adjacent
                if self.state.territories[n].owner == seat.id
            )
        return Challenge(self.player, contest=strength >= 0.45 or (danger >= 3 and strength >= 0.3))

    def answer(self) -> Action:
        """Play the hand or demur: demurring gives the allied turn up for certain."""
        if not self.p.poker:
            return Answer(self.player, demur=self.rng.random() < 0.2)
        if self.p.deny_allies:
            return Answer(self.player, demur=False)
        seat = self.state.seat(self._my_seat_id())
        strength = poker_sense.stash_strength(seat.poker_cards, self.state.options.red_queens_high)
        return Answer(self.player, demur=strength < 0.2)

    def poker(self) -> Action:
        opts = self.spec("poker").options
        moves: list[str] = opts["moves"]
        contest = self.state.contest
        assert contest is not None and contest.hand is not None
        hand = contest.hand
        me = self._my_seat_id()
        seat = hand.seats[hand.seat_of(me)]
        red = self.state.options.red_queens_high
        if not self.p.poker:
            return self._random_poker(opts, moves)
        if "choose" in moves:
            choose = opts["choose"]
            suits = self.state.seat(contest.ally).suits if contest.declarer == me else []
            cards = poker_sense.keep_for_choice(
                choose["stash"], choose["min"], choose["max"], suits, red
            )
            return Poker(self.player, move="choose", cards=cards)
        if "draw" in moves:
            draw = opts["draw"]
            discard, from_stash = poker_sense.plan_draw(
                draw["hand"], draw["stash"], draw["deck"], red,
                keep=draw["keep"] if draw.get("keep_one") else (),
            )  # fmt: skip
            return Poker(self.player, move="draw", cards=discard, from_stash=from_stash)
        live = [s for s in hand.seats if s.live and s.player != me]
        shown = [s.hand for s in live if s.shown]
        seen = list(seat.hand) + list(seat.stash) + list(seat.discards)
        eq = poker_sense.equity(
            seat.hand, seen, len(live), self.rng, red_queens_high=red, shown=shown
        )
        if "show" in moves:
            return Poker(self.player, move="show" if eq > 0 else "muck")
        owed = hand.live_bet - seat.round_bet
        if eq >= 0.75 and "raise" in moves and seat.round_bet < 4:
            return Poker(self.player, move="raise")
        if eq >= 0.6 and "bet" in moves:
            return Poker(self.player, move="bet")
        if "check" in moves:
            return Poker(self.player, move="check")
        if "call" in moves and (eq >= 0.45 or (eq >= 0.3 and owed <= 1)):
            return Poker(self.player, move="call")
        return Poker(self.player, move="fold")

    def _random_poker(self, opts: dict[str, Any], moves: list[str]) -> Action:
        move = self.rng.choice(moves)
        if move == "choose":
            choose = opts["choose"]
            count = self.rng.randint(choose["min"], choose["max"])
            return Poker(
                self.player, move="choose", cards=tuple(self.rng.sample(choose["stash"], count))
            )
        if move == "draw":
            return Poker(self.player, move="draw")
        if move == "fold" and len(moves) > 1:
            move = next(m for m in moves if m != "fold")
        return Poker(self.player, move=move)
