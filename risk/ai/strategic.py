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
  a border's surplus) to the most threatened border; it also fights wars of attrition (AI12)
  and, moving later, sets up out of the first mover's reach (AI13).

Rule readings taken here (none changes the engine; see risk/RULES.md AI1-AI13):

- The allied army a player plays is the player's tool (rule text "Play Allied Army"): on its
  turn the AI attacks the other players and other allies with it, never the player who plays it.
- A seat's own hand: mobilization reveals every eligible card (a revealed card stays in the hand,
  RULES.md M3; with ``reveal_once`` it still reveals, since a die now beats one later).
- AI5: what an ally takes and captures is the ally's. A declaration is weighed: the allied
  turn's worth (its hits on enemy players, a card for a conquest) against the ally's growth
  times the share of its later turns played against the AI (every enemy player may declare it
  too: against one enemy player refusing stops none of its growth), in full besides when it
  would be the board's largest army. Playing an ally, the AI hurts the leading enemy player and
  does not grow the ally with captures (they count against the attack when it is or would be
  the largest army). Of the allies worth declaring, one whose suit its poker cards hold first
  (a contested ally is played only with a card of its suit in the winning hand).
- AI6: a naval attack is scored for every commitment allowed (a whole crew committed against a
  small ship suffers fewer total defeats, so fewer sink rolls, than a normal attack). The odds
  take the game's options (``min_commitment``, ``defender_dice``: RULES.md C10, C11).
- AI7: a pirate's last ship is an elimination. When only pirates are left, the AI hunts them
  with its ships, and a pirate AI lands to get a territory back.
- AI8: a factory reward when the game should last; factory territories are worth more as
  targets.
- AI9: cruises are started only for what the ship can reach. Ships pick up idle armies and drop
  a load at the front.
- AI10: against one enemy player, an enemy army destroyed is worth a whole army (its loss is all
  ours to gain; ``Side.army_weight``).
- AI11: moving after an enemy player, the set-up gives no deterrence to a territory it could
  flank before our first turn (the armies would be captured).
- AI12 (hard): attrition. A committed or flanking attack from land worth ``ATTRITION`` armies
  now is opened whatever its win chance (what it destroys and captures pays for it), and a
  block that will not win is refilled while the rest of the battle pays an army or more.
- AI13 (hard): moving after an enemy player, no deterrence at all, and the mass goes to the
  base whose attacks pay most once weighed by the chance the first mover takes it
  (``_enemy_reach``, ``_taken_chance``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from risk.ai import odds as exact
from risk.ai import poker_sense
from risk.ai.board_sense import CARD, ENEMY_ARMY, Side, side_for
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
from risk.rules.state import COMMITTED, FLANKING, LAND, NORMAL, PLAYER, GameState, Ship

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
#: Sinking the last ship of a pirate (a player with no territory) eliminates the player.
ELIMINATION = 40.0
#: Sinking any ship of a pirate when only pirates are left to beat.
PIRATE_SHIP = 8.0
#: A landing that gives a pirate (no territory) a territory back: cards to turn in, a base.
LANDFALL = 15.0
#: Boat lengths a cruise is started for: 2d6 reaches 5 or more 5 times in 6 (AI9).
CRUISE_REACH = 5
#: Commitments a naval attack is scored at, besides the whole crew (``_naval_tries``).
TRIED_BLOCKS = 8

#: A stack this many times the defenders counts its losses in proportion (``_score``).
OVERWHELMING = 4

#: A committed or flanking attack from land worth this many armies now (``AttackPlan.base``)
#: is opened by ``hard`` whatever its chance of taking the territory: attrition (AI12).
ATTRITION = 3.0

#: Armies a factory adds each turn (rule text: a factory's 2 armies), over the turns it counts.
FACTORY_TURNS = 4


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
        self.min_commitment = view.state.options.min_commitment
        self._too_strong: dict[str, bool] = {}

    def block(self, available: int, defenders: int, flanking: bool) -> exact.Odds:
        """``odds.block`` at this game's options, with a block of the least commitment."""
        return exact.block(available, defenders, flanking, self.state.options)

    # --- the board at a glance -------------------------------------------------------------

    @cached_property
    def totals(self) -> dict[str, int]:
        """Armies of every live seat, on land and aboard."""
        totals = {seat.id: 0 for seat in self.state.seats if seat.alive}
        for holding in self.state.territories.values():
            totals[holding.owner] = totals.get(holding.owner, 0) + holding.armies
        for ship in self.state.ships.values():
            totals[ship.owner] = totals.get(ship.owner, 0) + ship.armies
        return totals

    def growth(self, seat: str) -> int:
        """About what ``seat`` adds on its next turn: territories / 3 (at least 3), its whole
        continents' bonuses, 2 a factory."""
        terr = self.state.territories
        owned = [t for t, h in terr.items() if h.owner == seat]
        if not owned:
            return 0
        bonus = sum(
            c.bonus
            for c in self.side.bmap.continents.values()
            if all(terr[t].owner == seat for t in c.territories)
        )
        return max(3, len(owned) // 3) + bonus + 2 * sum(1 for t in owned if terr[t].factory)

    @cached_property
    def leader(self) -> str | None:
        """The enemy player with the most armies."""
        enemies = [e for e in self.side.enemies if e in self.totals]
        return max(sorted(enemies), key=lambda e: self.totals[e]) if enemies else None

    @cached_property
    def pirates(self) -> frozenset[str]:
        """Enemy players with no territory, only ships."""
        held = {h.owner for h in self.state.territories.values()}
        return frozenset(e for e in self.side.enemies if e not in held)

    @cached_property
    def hunting(self) -> bool:
        """Only pirates are left to beat: the game is won at sea."""
        return bool(self.side.enemies) and self.pirates == self.side.enemies

    def bounty(self, ship: Ship) -> float:
        """What sinking (or taking) ``ship`` is worth over its armies: a player's elimination
        when it is a pirate's last ship, a step to the win when only pirates are left."""
        if ship.owner not in self.pirates:
            return 0.0
        if len(self.state.ships_of(ship.owner)) == 1:
            return ELIMINATION
        return PIRATE_SHIP if self.hunting else 0.0

    def ally_too_strong(self, ally: str) -> bool:
        """Is ``ally`` the board's largest army, or would it be after its next turn? Its
        captures and reinforcements are its own (AI5)."""
        if ally not in self._too_strong:
            now = self.totals.get(ally, 0)
            others = [v for seat, v in self.totals.items() if seat != ally]
            self._too_strong[ally] = bool(others) and now + self.growth(ally) >= max(others)
        return self._too_strong[ally]

    def ally_gain(self, ally: str) -> float:
        """What playing ``ally`` next is worth to us, in armies: for each of its territories
        with 2 or more armies to attack with, the best hit on a neighbouring enemy player's
        territory (half its spare armies, at most the defenders; an enemy army is worth
        ``ENEMY_ARMY``, the leading enemy's 1.5 times that), and a ``CARD`` when it can take a
        territory (spare armies >= defenders + 2: the player's extra Risk and poker card, A8)."""
        side = Side(self.state, ally, self.side.me)
        terr = self.state.territories
        value, takes = 0.0, False
        for name in sorted(side.mine):
            spare = terr[name].armies - 1
            if spare < 2:
                continue
            best = 0.0
            for n in side.bmap.territories[name].adjacent:
                holding = terr[n]
                if holding.owner not in side.enemies:
                    continue
                weight = ENEMY_ARMY * (1.5 if holding.owner == self.leader else 1.0)
                best = max(best, weight * min(spare / 2, holding.armies))
                takes = takes or spare >= holding.armies + 2
            value += best
        return value + (CARD if takes else 0.0)

    def ally_cost(self, ally: str) -> float:
        """What ``ally``'s growth from the allied turn costs us, in armies: its reinforcements
        (``growth``) weighed by the share of its later turns played against us. Every enemy
        player may declare it too (A1), so with ``m`` of them we play about 1 in ``m + 1`` of
        its turns and the others ``m``: the growth counts ``(m - 1) / (m + 1)`` (nothing with
        one enemy player: refusing stops none of the turns played against us, it only gives up
        ours). An ally that is or would become the board's largest army counts its growth in
        full besides (AI5)."""
        enemies = len(self.side.enemies)
        if enemies == 0:
            return 0.0
        share = (enemies - 1) / (enemies + 1)
        growth = self.growth(ally)
        return growth * share + (growth if self.ally_too_strong(ally) and enemies > 1 else 0.0)

    def ally_net(self, ally: str) -> float:
        return self.ally_gain(ally) - self.ally_cost(ally)

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
        exposed = {
            t
            for t in owned
            if any(
                self.state.territories[n].owner in side.enemies
                for n in side.bmap.territories[t].adjacent
            )
        }
        # Moving after an enemy player, a territory two or more of its territories border is
        # flanked before our first turn: armies there are captured, not a deterrence.
        later = self.p.blocks and self.state.first_seat != self.side.me
        flanked = {
            t
            for t in owned
            if later
            and sum(
                1
                for n in side.bmap.territories[t].adjacent
                if self.state.territories[n].owner in side.enemies
            )
            >= 2
        }
        # ``hard`` moving after an enemy player weighs each base by its chance of being taken
        # first (AI13): no deterrence, which the first mover's flanks capture.
        danger = later and self.p.lookahead
        # Deterrence where an enemy player is next door, then mass the rest where attacks pay.
        for t in owned:
            if not danger and t in exposed and t not in flanked and left >= 2:
                armies[t] += 2
                left -= 2

        def key(t: str) -> float:
            value = self._base_value(side, t, left)
            if danger:
                stack = armies[t] + left
                lost = self._taken_chance(t, stack)
                return -(value * (1.0 - lost) - lost * 2.0 * stack)
            return -self.noisy(value - (left * 0.5 if t in flanked else 0.0))

        base = sorted(owned, key=key)
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

    def _enemy_reach(self, name: str) -> int:
        """The most armies an enemy player moving before our first turn could throw at
        ``name`` (an own territory) in one attack: its two strongest neighbouring territories'
        spare armies (two flanks may come from two territories, RULES.md C7) and its
        reinforcements (``growth``) placed there. One that has not arranged yet may stack all
        its spare armies on one of them (RULES.md S6)."""
        terr = self.state.territories
        before = self._moving_before_me()
        spares: dict[str, list[int]] = {}
        for n in self.side.bmap.territories[name].adjacent:
            owner = terr[n].owner
            if owner in before:
                spares.setdefault(owner, []).append(terr[n].armies - 1)
        best = 0
        for owner, values in spares.items():
            if self.state.seat(owner).set_up:
                spare = sum(sorted(values, reverse=True)[:2])
            else:
                held = [h.armies for h in terr.values() if h.owner == owner]
                spare = sum(held) - len(held)
            best = max(best, spare + self.growth(owner))
        return best

    def _moving_before_me(self) -> frozenset[str]:
        """The enemy players who play their first turn before ours (RULES.md S4: from the first
        player on, in seat order)."""
        players = [s.id for s in self.state.seats if s.kind == PLAYER]
        if self.state.first_seat not in players or self.side.me not in players:
            return frozenset()
        start = players.index(self.state.first_seat)
        order = players[start:] + players[:start]
        return frozenset(order[: order.index(self.side.me)]) & self.side.enemies

    def _taken_chance(self, name: str, armies: int) -> float:
        """The chance an enemy player moving before us takes ``name`` held with ``armies``,
        flanking with the most it could bring (``_enemy_reach``)."""
        reach = self._enemy_reach(name)
        if reach < self.min_commitment:
            return 0.0
        return self.block(reach, armies, reach >= 2 * self.min_commitment).win

    def _base_value(self, side: Side, name: str, armies: int) -> float:
        """How good a base ``name`` is for ``armies`` more armies: its best attacks."""
        best = 0.0
        for target in side.enemy_neighbours(name):
            d = self.state.territories[target].armies
            odds = self.block(armies + self.state.territories[name].armies - 1, d, True)
            value = side.conquest_value(target, took_territory=True)
            best += max(0.0, odds.win * value - odds.attacker_losses)
        return best

    # --- reinforcement ---------------------------------------------------------------------

    def turn_in(self) -> Action | None:
        opts = self.spec("turn_in").options
        seat = self.state.seat(self.side.acting)
        rewards: list[str] = opts["rewards"]
        must = len(seat.risk_cards) >= 5
        # Hunting pirates needs ships: a set buys one at once (AI7).
        crewed = [s for s in self.state.ships_of(self.side.acting) if s.armies >= 2]
        hunt = self.p.ships and self.hunting and "ship" in rewards and len(crewed) < 2
        if not must and not hunt:
            return None
        owned = self.side.mine
        sets: list[list[str]] = opts["sets"]
        best = max(
            sets, key=lambda cards: (sum(2 for c in cards if c in owned), -cards.count("wild"))
        )
        # Armies: 2d6 (7) now. A factory pays 2 a turn from the next: it is taken when the game
        # looks long enough for it to pay (AI8). A ship carries 1d6: only for a hunt.
        reward = "armies"
        if hunt:
            reward = "ship"
        elif not self.p.blocks:
            reward = self.rng.choice([r for r in rewards if r != "ship"] or rewards)
        elif "factory" in rewards and self._factory_pays():
            reward = "factory"
        return TurnIn(self.player, cards=tuple(best), reward=reward)

    def _factory_pays(self) -> bool:
        """A factory (2 armies a turn) beats 2d6 armies now when the game will last: three or
        more players, no enemy player about to fall, and nobody far ahead."""
        if self.side.allied_turn:
            return False
        players = [e for e in self.side.enemies if e in self.totals]
        if len(players) < 2 or self.pirates:
            return False
        mine = self.totals.get(self.side.me, 0)
        strongest = max(self.totals[e] for e in players)
        weakest = min(self.totals[e] for e in players)
        return 0.6 * mine <= strongest <= 1.5 * mine and weakest >= 0.4 * mine

    def place(self) -> Action:
        opts = self.spec("place").options
        count: int = opts["max"]
        territories: list[str] = opts["territories"]
        if not self.p.blocks:  # easy: a border at random, a part of the armies
            borders = [t for t in territories if self.side.is_border(t)] or territories
            armies = count if count <= 3 else self.rng.randint(max(1, count // 2), count)
            return Place(self.player, territory=self.rng.choice(borders), armies=armies)
        if self.hunting and self.p.ships:
            ports = self._ports(territories)
            if ports:
                return Place(self.player, territory=ports[0], armies=count)
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

    def _ports(self, territories: list[str]) -> list[str]:
        """Of ``territories``, the coasts an own ship can load from where it lies, the most
        armies first (else any coast)."""
        bmap = self.side.bmap
        fleet = self.state.ships_of(self.side.acting)
        near = {t for ship in fleet for t in bmap.coasts_within(ship.station, 1)}
        coasts = [t for t in territories if t in near] or [
            t for t in territories if bmap.coastal(t)
        ]
        return sorted(coasts, key=lambda t: (-self.state.territories[t].armies, t))

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
            flanking = available >= 2 * self.min_commitment
            plan = self._score_block(target, available, flanking=flanking, took=took)
            if plan > best:
                best = plan
        return best

    def _score_block(
        self, target: str, available: int, *, flanking: bool, took: bool, depth: int = 0
    ) -> float:
        holding = self.state.territories[target]
        d = holding.armies + self._mobilization_margin(holding.owner)
        odds = self.block(available, d, flanking)
        score = self._score(target, odds, took, available)
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
            flanking = move >= 2 * self.min_commitment
            score = self._score_block(nxt, move, flanking=flanking, took=True, depth=1)
            best = max(best, score)
        return best

    def _mobilization_margin(self, owner: str) -> int:
        turn = self.state.turn
        if turn is None or owner in turn.attacked:
            return 0
        cards = len(self.state.seat(owner).risk_cards)
        return 1 if cards else 0

    def _score(self, target: str, odds: exact.Odds, took: bool, available: int = 0) -> float:
        """The attack's worth: the conquest at its chance, less own losses, plus enemy losses.
        Own losses count less for a stack over ``OVERWHELMING`` times the defenders: a normal
        attack trades about one army for one, so a bounded conquest value never paid for a
        large defender, and a player with 1,982 armies beside 171 never attacked (a game that
        never ended); such a stack loses a small share of itself and wins the war of attrition."""
        side = self.side
        owner = self.state.territories[target].owner
        value = side.conquest_value(target, took_territory=took)
        if self.state.territories[target].factory:
            value += 2.0 * FACTORY_TURNS - 3.0  # its 2 armies a turn change sides (AI8)
        losses, captures = odds.attacker_losses, odds.captures
        defenders = self.state.territories[target].armies
        if available > OVERWHELMING * defenders:
            losses *= OVERWHELMING * defenders / available
        if side.allied_turn:  # AI5: the ally's armies are the ally's
            if owner == self.leader:
                value += 3.0  # the leader hurt is the whole point of playing an ally
            losses *= 0.5
            captures *= -0.5 if self.ally_too_strong(side.acting) else 0.0
        return odds.win * value - losses + captures + side.army_weight(owner) * odds.defender_losses

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
        if self.hunting and self.p.ships and "naval_attack" in self.specs:
            hunt = self.naval_attack()  # AI7: the game is won at sea, before any landing
            if hunt is not None:
                return hunt
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
            least = 0.3 if not self.side.mine else self.p.min_win  # a pirate's landfall (AI7)
            # AI12: hard opens an attack worth ATTRITION now whatever its win chance: the
            # losses and captures it inflicts pay for it even when the territory holds.
            # Attrition is fought with blocks (a normal attack that is losing retreats), from
            # land (a failed landing sinks the ship with its captives).
            ashore = all(src in self.state.territories for src, _ in plan.flanks)
            block = plan.mode != NORMAL
            attrition = self.p.lookahead and block and ashore and plan.base >= ATTRITION
            if (plan.odds.win >= least or attrition) and plan.base + noise >= self.p.min_score:
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
            # The block is the least commitment the game allows (AI6): the defender rolls one
            # fewer die than it, so the smallest block rolls best for each army it risks.
            c = max(
                [self.min_commitment]
                + [room[s][COMMITTED][0] for s in sources if COMMITTED in room[s]]
            )
            wide = sorted(
                ((room[s][COMMITTED][1], s) for s in sources if COMMITTED in room[s]), reverse=True
            )
            wide = [(most, s) for most, s in wide if most >= c]
            if COMMITTED in modes and wide:
                most, s = wide[0]
                options.append((COMMITTED, ((s, c),), self.block(most, d, False), most))
            if FLANKING in modes and wide:
                most, s = wide[0]
                if most >= 2 * c:
                    options.append((FLANKING, ((s, c), (s, c)), self.block(most, d, True), most))
                elif len(wide) >= 2:
                    other = wide[1]
                    both = most + other[0]
                    options.append(
                        (FLANKING, ((s, c), (other[1], c)), self.block(both, d, True), both)
                    )
        best: AttackPlan | None = None
        for mode, flanks, odds, available in options:
            score = self._score(target, odds, took, available)
            ships = [src for src, _ in flanks if src in self.state.ships]
            if ships and mode != NORMAL:  # a committed landing that fails sinks the ship
                score -= (1 - odds.win) * SHIP_VALUE
            if not self.side.mine:  # a pirate: a territory back is cards and a base (AI7)
                score += odds.win * LANDFALL
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
            win = exact.naval(available, d, True, self.state.options, flank.commitment).win
        else:
            win = self.block(available, d, battle.mode == FLANKING and len(live) >= 2).win
        keep = win >= 0.15
        if not keep and not naval and self.p.lookahead and not any(f.ship for f in live):
            # AI12: a battle that will not take the territory is still fed while what it
            # destroys and captures outweighs what it loses by an army or more.
            o = self.block(available, d, battle.mode == FLANKING and len(live) >= 2)
            weight = self.side.army_weight(battle.defender)
            keep = o.captures + weight * o.defender_losses - o.attacker_losses > 1.0
        add = min(max_add, need) if keep else 0
        wiped = self.state.options.defender_dice == "normal" and flank.commitment <= 2
        if keep and wiped and not naval and self.p.lookahead and available > OVERWHELMING * d:
            # AI14: where the defender's two dice can destroy a block of 2 in one roll (C11
            # ``normal``), an overwhelming stack raises its block past the defenders (C3: the
            # commitment may grow before any roll), so the battle is decided in a few rolls.
            # Blocks of 2 were knocked out before they could be refilled, turn after turn:
            # 7,300 armies never took 1,160 in 200 rounds (soak seed 843, domination).
            add = min(max_add, max(need, d + 1 - flank.standing))
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

    def _naval_tries(
        self, crew: int, defenders: int, modes: dict[str, Any]
    ) -> list[tuple[str, int, exact.Odds]]:
        """(mode, armies, odds) of each way one ship with ``crew`` may attack: normal (all
        aboard fight), committed with each commitment the mode allows up to ``TRIED_BLOCKS``
        and the whole crew (AI6; a crew of 1,389 is not tried 1,388 ways, and a committed roll
        has at most ``exact.MAX_BLOCK`` dice)."""
        tries: list[tuple[str, int, exact.Odds]] = []
        if NORMAL in modes:
            tries.append((NORMAL, 0, exact.naval(crew, defenders, False, self.state.options)))
        if COMMITTED in modes:
            least = max(2, int(modes[COMMITTED].get("min_armies") or 2))
            whole = min(crew, exact.MAX_BLOCK)
            for c in sorted({*range(least, min(whole, TRIED_BLOCKS) + 1), whole} - {1}):
                if c < least:
                    continue
                tries.append(
                    (COMMITTED, c, exact.naval(crew, defenders, True, self.state.options, c))
                )
        return tries

    def _pool(self, enemy: Ship) -> int:
        """The armies an attack on ``enemy`` meets: its own and its fleet's in its ocean, who
        may join the defence (RULES.md H10)."""
        ocean = self.side.bmap.ocean_of(enemy.station)
        return enemy.armies + sum(
            s.armies
            for s in self.state.ships_of(enemy.owner)
            if s.id != enemy.id and self.side.bmap.ocean_of(s.station) == ocean
        )

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
                    bounty = self.bounty(enemy)
                    # A hunt takes fair odds: the win is a player out (AI7).
                    least = 0.4 if bounty else 0.7
                    for mode, armies, o in self._naval_tries(
                        crew[ship_id], self._pool(enemy), modes
                    ):
                        score = (
                            o.win * (SHIP_VALUE + 2.0 + bounty)
                            - o.attacker_losses
                            + 0.5 * o.defender_losses
                            - (1 - o.win) * SHIP_VALUE
                        )
                        if o.win >= least and score > 0 and (best is None or score > best[0]):
                            action = NavalAttack(
                                self.player, ships=(ship_id,), target=target, mode=mode,
                                armies=armies,
                            )  # fmt: skip
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
        landless = not self.side.mine  # a pirate: any territory back is worth much (AI7)
        least = 0.3 if landless else self.p.min_win
        for target in bmap.coasts_within(station, 1):
            owner = self.state.territories[target].owner
            if not self.side.hostile(owner):
                continue
            if any(bmap.ocean_of(s.station) == ocean for s in self.state.ships_of(owner)):
                continue  # patrolled (RULES.md H7)
            d = self.state.territories[target].armies + self._mobilization_margin(owner)
            o = self.block(crew, d, crew >= 2 * self.min_commitment)
            score = self._score(target, o, took, crew) - (1 - o.win) * SHIP_VALUE
            if landless:
                score += o.win * LANDFALL
            if o.win >= least and score > best[1]:
                best = (target, score)
        return best

    def _hunt_score(self, station: str, crew: int) -> float:
        """The best naval attack a ship with ``crew`` could open on a ship with a bounty in
        ``station``'s ocean (AI7)."""
        if crew < 1:
            return 0.0
        bmap = self.side.bmap
        ocean = bmap.ocean_of(station)
        best = 0.0
        modes: dict[str, Any] = {NORMAL: {}}
        if crew >= self.min_commitment:
            modes[COMMITTED] = {"min_armies": self.min_commitment}
        for enemy in self.state.ships.values():
            if enemy.owner not in self.side.enemies or bmap.ocean_of(enemy.station) != ocean:
                continue
            bounty = self.bounty(enemy)
            if not bounty:
                continue
            for _, _, o in self._naval_tries(crew, self._pool(enemy), modes):
                if o.win >= 0.4:
                    best = max(best, o.win * (bounty + SHIP_VALUE) - o.attacker_losses)
        return best

    def _ferry_score(self, ship: Ship, station: str) -> float:
        """What a ship could do for the armies at ``station``'s coasts: pick up idle armies
        (a light ship), or drop its load at a front (a loaded one, AI9)."""
        coasts = [t for t in self.side.bmap.coasts_within(station, 1) if t not in ship.ports]
        if ship.armies >= 4 and not self.hunting:
            fronts = [
                t
                for t in coasts
                if self.state.territories[t].owner == self.side.acting and self.side.is_border(t)
            ]
            return 0.3 * (ship.armies - 1) if fronts else 0.0
        idle = max([self._idle(t) for t in coasts] + [0])
        if self.hunting:
            idle = max(
                [self.state.territories[t].armies - 1 for t in coasts if t in self.side.mine] + [0]
            )
        return 0.3 * idle if idle >= 2 else 0.0

    def _station_score(self, ship: Ship, station: str) -> float:
        score = self._landing_score(station, ship.armies)[1]
        score = max(score, self._hunt_score(station, ship.armies))
        if self.p.ferry or self.hunting:
            score = max(score, self._ferry_score(ship, station))
        return score

    def _worth_a_cruise(self, ship: Ship) -> bool:
        """Start a cruise only for something within 5 boat lengths (2d6 reaches that 5 times
        in 6), so a cruise is not ended as soon as it is started (AI9)."""
        bmap = self.side.bmap
        if self._hunt_score(ship.station, ship.armies) > 0:
            return True
        for station in bmap.reachable(ship.station, CRUISE_REACH):
            if self._landing_score(station, ship.armies)[1] > self.p.min_score + 1.0:
                return True
            if self.hunting and self._hunt_score(station, ship.armies) > 0:
                return True
            if (self.p.ferry or self.hunting) and self._ferry_score(ship, station) >= 0.6:
                return True
        if self.hunting:  # the hunted ship is farther: go towards it
            return any(
                self._hunt_score(station, ship.armies) > 0
                for station in bmap.reachable(ship.station, 12)
            )
        return False

    def _idle(self, name: str) -> int:
        """Armies on an own territory that face no enemy (0 if it is not the acting seat's)."""
        holding = self.state.territories[name]
        if holding.owner != self.side.acting or self.side.is_border(name):
            return 0
        return holding.armies - 1

    def cruising(self, ship: Ship) -> Action:
        """A cruising ship with no landing or naval attack open from here: pick up, drop off,
        sail on to something better, or stop."""
        by_ship = lambda kind: next(  # noqa: E731
            (s for s in self.specs.get(kind, []) if s.options["ship"] == ship.id), None
        )
        embark, disembark, sail = by_ship("embark"), by_ship("disembark"), by_ship("sail")
        here = self._station_score(ship, ship.station)
        light = ship.armies < 4 or self.hunting
        if (self.p.ferry or self.hunting) and embark is not None and light:
            if self.hunting:
                able = [(embark.options["max"][t], t) for t in embark.options["territories"]]
            else:
                able = [(self._idle(t), t) for t in embark.options["territories"]]
            able = [(n, t) for n, t in able if n >= 2]
            if able:
                n, t = max(able)
                return Embark(
                    self.player, ship=ship.id, territory=t, armies=min(n, embark.options["max"][t])
                )
        if self.p.ferry and disembark is not None and not self.hunting and ship.armies >= 4:
            fronts = [
                t
                for t in disembark.options["territories"]
                if self.side.is_border(t) and t not in ship.ports
            ]
            if fronts and self._landing_score(ship.station, ship.armies)[1] <= 0:
                t = max(
                    fronts, key=lambda n: self.side.threat(n) + len(self.side.enemy_neighbours(n))
                )
                return Disembark(
                    self.player, ship=ship.id, territory=t, armies=disembark.options["max"]
                )
        if sail is not None:
            stations: dict[str, int] = sail.options["stations"]
            best, best_score = None, here
            for station in sorted(stations):
                score = self._station_score(ship, station)
                if score > best_score + 0.5:
                    best, best_score = station, score
            if best is None and self.hunting:
                best = self._towards_prey(ship, stations)
            if best is not None:
                return Sail(self.player, ship=ship.id, station=best)
        return EndCruise(self.player, ship=ship.id)

    def _towards_prey(self, ship: Ship, stations: dict[str, int]) -> str | None:
        """Of ``stations``, the one nearest a hunted ship (AI7), if nearer than here."""
        bmap = self.side.bmap
        prey = [
            e.station
            for e in self.state.ships.values()
            if e.owner in self.side.enemies and self.bounty(e)
        ]
        if not prey:
            return None

        def gap(station: str) -> int:
            return min(bmap.distance(station, p) or 99 for p in prey)

        best = min(sorted(stations), key=gap)
        return best if gap(best) < gap(ship.station) else None

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
        # AI5: an allied turn is declared when what it does to the other players outweighs
        # what the ally's growth costs us (``ally_gain``, ``ally_cost``).
        best = max(sorted(allies), key=self.ally_net)
        if self.ally_net(best) < 0.0:
            return EndTurn(self.player)
        # A contested declaration plays the ally only with a card of its suit in the winning
        # hand (A6): of the allies worth declaring, one whose suit our stash holds is surer.
        held = {c[1] for c in self.state.seat(self.side.me).poker_cards if c != HIDDEN}
        fit = [a for a in sorted(allies) if self.ally_net(a) >= 0.0]

        def sure(ally: str) -> tuple[float, bool]:
            suited = bool(set(self.state.seat(ally).suits) & held)
            return self.ally_net(ally) * (1.0 if suited else 0.75), suited

        return EndTurn(self.player, ally=max(fit, key=sure))

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
