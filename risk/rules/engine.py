"""``apply(state, action, dice)``: who may act now, and the dispatch to each rule section.

Nothing here mutates the caller's state: ``apply`` clones it, the handlers change the clone, and
the clone and its events are returned (or ``IllegalAction`` is raised and nothing happened).
``pending_decisions`` says who must act now, including defenders and poker players acting during
someone else's turn; ``legal_actions`` lists what one player may do, as ``ActionSpec``s.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from combat.cards import all_sets
from combat.dice import Dice, SeededDice
from combat.poker import allowed as poker_allowed
from combat.poker import to_act
from risk.rules import battles, board, contest, setup, ships, turns
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
    IllegalAction,
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
from risk.rules.board import Event as EventDict
from risk.rules.events import Event
from risk.rules.state import (
    CAMPAIGN,
    END,
    JOIN,
    MOBILIZE,
    NORMAL,
    PLAYER,
    PRIZES,
    REINFORCE,
    ROLLING,
    WILD,
    WON,
    GameState,
    clone,
)


@dataclass(frozen=True)
class Decision:
    """Someone the game is waiting for: ``player`` acts for ``seat``; ``kind`` says on what."""

    player: str
    seat: str
    kind: str


@dataclass(frozen=True)
class ActionSpec:
    """One kind of action a player may take now, with the choices open to them (JSON-ready)."""

    type: str
    options: dict[str, Any] = field(default_factory=dict)


def game_dice(state: GameState) -> SeededDice:
    """The verifiable dice for the next action: HMAC(seed, "action:<n>", counter)."""
    return SeededDice(state.seed, f"action:{state.actions}")


# --- who acts now -------------------------------------------------------------------------------


def pending_decisions(state: GameState) -> list[Decision]:
    if state.over:
        return []
    if state.turn is None and state.contest is None:
        return [Decision(s.actor, s.id, "arrange") for s in state.seats if not s.set_up]
    if state.contest is not None:
        return _contest_decisions(state)
    battle, turn = state.battle, state.turn
    assert turn is not None
    if battle is not None and battle.stage in (MOBILIZE, JOIN):
        defender = state.seat(battle.defender)
        kind = "mobilize" if battle.stage == MOBILIZE else "join_defence"
        return [Decision(defender.actor, defender.id, kind)]
    kind = f"battle:{battle.stage}" if battle is not None else turn.phase
    return [Decision(turn.controller, turn.seat, kind)]


def _contest_decisions(state: GameState) -> list[Decision]:
    c = state.contest
    assert c is not None
    if c.stage == "asking":
        return [Decision(s.actor, s.id, "challenge") for s in contest.asked(state)]
    if c.stage == "answer":
        return [Decision(state.seat(c.declarer).actor, c.declarer, "answer")]
    assert c.hand is not None
    return [Decision(state.seat(s).actor, s, "poker") for s in to_act(c.hand)]


def _acts_now(state: GameState, player: str, kinds: tuple[str, ...] | None = None) -> str:
    """The seat ``player`` acts for in a pending decision (of one of ``kinds``), or refuse."""
    for decision in pending_decisions(state):
        if decision.player == player and (kinds is None or decision.kind in kinds):
            return decision.seat
    waiting = ", ".join(f"{d.player} ({d.kind})" for d in pending_decisions(state)) or "nobody"
    raise IllegalAction("not-your-turn", f"{player} may not do that now; waiting for {waiting}",
                        field="player")  # fmt: skip


# --- apply --------------------------------------------------------------------------------------


Handler = Callable[[GameState, Any, Dice, list[EventDict]], None]


def apply(state: GameState, action: Action, dice: Dice) -> tuple[GameState, list[Event]]:
    """The state after ``action`` and the events it caused; ``IllegalAction`` when not allowed."""
    if state.over:
        raise IllegalAction("game-over", "the game is over")
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise IllegalAction("unknown-action", f"{action!r} is not a Fast Risk action")
    after = clone(state)
    events: list[EventDict] = []
    handler(after, action, dice, events)
    after.actions += 1
    _sweep(after, events)
    return after, [Event.from_dict(e) for e in events]


def _sweep(state: GameState, events: list[EventDict]) -> None:
    """Eliminations, a turn whose army is gone, the end of the set-up, the end of the game."""
    turn = state.turn
    for seat in state.seats:
        if seat.alive and not board.is_alive(state, seat.id):
            by = turn.seat if turn is not None and turn.seat != seat.id else None
            if by is None and state.battle is not None:
                by = state.battle.defender
            board.check_eliminated(state, seat.id, by, events)
    if turns.finish_if_over(state, events):
        return
    if turn is None and state.contest is None and all(s.set_up for s in state.seats):
        if not any(e["type"] == "turn_started" for e in events):
            first = state.seat(state.first_seat)
            if first.kind == PLAYER and first.alive:
                turns.start_turn(state, first.id, first.actor, events)
            else:  # the first player left during the set-up: the next player starts
                turns.advance(state, first.id, events)
        return
    if turn is not None and state.turn is turn and not state.seat(turn.seat).alive:
        state.battle = None
        turns.advance(state, turn.for_seat or turn.seat, events)


def _arrange(state: GameState, action: Arrange, dice: Dice, events: list[EventDict]) -> None:
    seat = state.seat(_acts_now(state, action.player, ("arrange",)))
    setup.arrange(state, action, seat, events)


def _controller(kinds: tuple[str, ...] | None = None) -> Callable[[Handler], Handler]:
    """Wrap a handler that only the turn's controller may call (in one of ``kinds``)."""

    def wrap(handler: Handler) -> Handler:
        def checked(state: GameState, action: Any, dice: Dice, events: list[EventDict]) -> None:
            _acts_now(state, action.player, kinds)
            handler(state, action, dice, events)

        return checked

    return wrap


_TURN = (REINFORCE, CAMPAIGN, END)


def _end_turn(state: GameState, action: EndTurn, dice: Dice, events: list[EventDict]) -> None:
    turns.check_end_turn(state, action)
    turn = state.turn
    assert turn is not None
    events.append({"type": "turn_ended", "seat": turn.seat})
    if action.ally is not None:
        contest.declare(state, turn.seat, action.ally, dice, events)
    else:
        turns.advance(state, turn.for_seat or turn.seat, events)


def _leave(state: GameState, action: Leave, dice: Dice, events: list[EventDict]) -> None:
    seat = board.actor_seat(state, action.player)
    if seat.kind != PLAYER or not seat.alive:
        raise IllegalAction("not-playing", f"{action.player} plays no live army", field="player")
    was_setting_up = state.turn is None and state.contest is None
    unarranged = not seat.set_up
    cut_short = turns.leave(state, seat, events)
    contest.answers_in(state, events)  # the leaver may have been the last one asked
    if unarranged:  # RULES.md J2: set up as an allied army is, its factory at random
        owned = sorted(state.owned(seat.id))
        factory = owned[dice.roll(len(owned)) - 1]
        state.territories[factory].factory = True
        events.append({"type": "factory_built", "seat": seat.id, "territory": factory})
    if cut_short:
        assert state.turn is not None
        turns.advance(state, state.turn.seat, events)
    elif was_setting_up:
        seat.set_up = True


def _join(state: GameState, action: Join, dice: Dice, events: list[EventDict]) -> None:
    turns.do_join(state, action, dice, events)


def _challenge(state: GameState, action: Challenge, dice: Dice, events: list[EventDict]) -> None:
    seat = state.seat(_acts_now(state, action.player, ("challenge",)))
    contest.do_challenge(state, action, seat, dice, events)


def _poker(state: GameState, action: Poker, dice: Dice, events: list[EventDict]) -> None:
    seat = state.seat(_acts_now(state, action.player, ("poker",)))
    contest.do_poker(state, action, seat, events)


def _defender(kind: str, handler: Handler) -> Handler:
    def checked(state: GameState, action: Any, dice: Dice, events: list[EventDict]) -> None:
        _acts_now(state, action.player, (kind,))
        handler(state, action, dice, events)

    return checked


_BATTLE = ("battle:rolling", "battle:won", "battle:prizes")

_HANDLERS: dict[type[Action], Handler] = {
    Arrange: _arrange,
    TurnIn: _controller(_TURN)(lambda s, a, d, e: turns.do_turn_in(s, a, d, e)),
    Place: _controller(_TURN)(lambda s, a, d, e: turns.do_place(s, a, e)),
    PlaceShip: _controller(_TURN)(lambda s, a, d, e: turns.do_place_ship(s, a, e)),
    Attack: _controller(_TURN)(battles.do_attack),
    NavalAttack: _controller(_TURN)(battles.do_naval_attack),
    Roll: _controller(_BATTLE)(battles.do_roll),
    Retreat: _controller(_BATTLE)(lambda s, a, d, e: battles.do_retreat(s, a, e)),
    MoveIn: _controller(_BATTLE)(lambda s, a, d, e: battles.do_move_in(s, a, e)),
    Prize: _controller(_BATTLE)(lambda s, a, d, e: battles.do_prize(s, a, e)),
    Mobilize: _defender("mobilize", battles.do_mobilize),
    JoinDefence: _defender("join_defence", lambda s, a, d, e: battles.do_join_defence(s, a, e)),
    Cruise: _controller(_TURN)(ships.do_cruise),
    Sail: _controller(_TURN)(lambda s, a, d, e: ships.do_sail(s, a, e)),
    Embark: _controller(_TURN)(lambda s, a, d, e: ships.do_embark(s, a, e)),
    Disembark: _controller(_TURN)(lambda s, a, d, e: ships.do_disembark(s, a, e)),
    EndCruise: _controller(_TURN)(lambda s, a, d, e: ships.do_end_cruise(s, a, e)),
    EndCampaign: _controller(_TURN)(lambda s, a, d, e: turns.do_end_campaign(s, d, e)),
    PlaceFactory: _controller(_TURN)(lambda s, a, d, e: turns.do_place_factory(s, a, e)),
    Transfer: _controller(_TURN)(lambda s, a, d, e: turns.do_transfer(s, a, e)),
    Discard: _controller(_TURN)(lambda s, a, d, e: turns.do_discard(s, a, e)),
    EndTurn: _controller(_TURN)(_end_turn),
    Challenge: _challenge,
    Answer: _defender("answer", contest.do_answer),
    Poker: _poker,
    Join: _join,
    Leave: _leave,
}


# --- what a player may do -----------------------------------------------------------------------


def legal_actions(state: GameState, player: str) -> list[ActionSpec]:
    """The kinds of action ``player`` may take now, each with the choices open to them."""
    specs: list[ActionSpec] = []
    if state.over:
        return specs
    for decision in pending_decisions(state):
        if decision.player == player:
            specs += _specs_for(state, decision)
    seat = state.seat_of_actor(player)
    if seat is not None and seat.kind == PLAYER and seat.alive and _may_leave(state, seat.id):
        specs.append(ActionSpec("leave"))
    if (seat is None or not seat.alive) and state.turn is not None:
        allies = [s.id for s in board.live_allies(state) if not turns._busy(state, s.id)]
        if allies:
            specs.append(ActionSpec("join", {"allies": allies}))
    return specs


def _may_leave(state: GameState, seat_id: str) -> bool:
    return turns.leave_refusal(state, state.seat(seat_id)) is None


def _specs_for(state: GameState, decision: Decision) -> list[ActionSpec]:
    kind = decision.kind
    if kind == "arrange":
        return [_arrange_spec(state, decision.seat)]
    if kind == "challenge":
        return [ActionSpec("challenge", {"contest": [True, False]})]
    if kind == "answer":
        return [ActionSpec("answer", {"demur": [True, False]})]
    if kind == "poker":
        c = state.contest
        assert c is not None and c.hand is not None
        return [ActionSpec("poker", {"moves": list(poker_allowed(c.hand, decision.seat))})]
    if kind == "mobilize":
        battle = state.battle
        assert battle is not None and battle.mobilization is not None
        return [ActionSpec("mobilize", {"cards": battles.mobilization_cards(state),
                                        "wild_dice": len(battle.mobilization["wild_rolls"]),
                                        "territories": state.owned(decision.seat)})]  # fmt: skip
    if kind == "join_defence":
        return [ActionSpec("join_defence", battles.join_spec_options(state))]
    if kind.startswith("battle:"):
        return _battle_specs(state)
    return _turn_specs(state)


def _arrange_spec(state: GameState, seat_id: str) -> ActionSpec:
    owned = state.owned(seat_id)
    return ActionSpec("arrange", {
        "territories": owned,
        "armies": sum(state.territories[t].armies for t in owned),
        "ship_stations": board.coastal_stations(state, owned) if state.ships_of(seat_id) else [],
    })  # fmt: skip


def _battle_specs(state: GameState) -> list[ActionSpec]:
    battle = state.battle
    assert battle is not None
    if battle.stage == ROLLING:
        flank = battle.flanks[battle.next_flank]
        reserve = 0 if battle.mode == NORMAL else battles._reserve(state, flank)
        specs = [ActionSpec("roll", {"max_add": reserve, "flank": battle.next_flank})]
        if battle.mode == NORMAL:
            specs.append(ActionSpec("retreat"))
        return specs
    if battle.stage == WON:
        moving = sum(f.standing for f in battle.flanks if not f.out)
        if battle.mode == NORMAL:
            return [ActionSpec("move_in", {"min": min(battle.last_dice, moving), "max": moving})]
        extra = {f.source: state.territories[f.source].armies - 1
                 for f in battle.flanks if not f.ship}  # fmt: skip
        return [ActionSpec("move_in", {"moving": moving, "extra_from": extra})]
    assert battle.stage == PRIZES
    return [ActionSpec("prize", battles.prize_spec_options(state))]


def _turn_specs(state: GameState) -> list[ActionSpec]:
    turn = state.turn
    assert turn is not None
    seat = state.seat(turn.seat)
    owned = state.owned(seat.id)
    specs: list[ActionSpec] = []
    if turn.phase == REINFORCE:
        hand = [board.card_of(state, c) for c in seat.risk_cards]
        sets = [[c.territory or WILD for c in s] for s in all_sets(hand)]
        if sets and owned:
            specs.append(ActionSpec("turn_in", {"sets": sets, "rewards": list(turns.REWARDS)}))
        if turn.to_place:
            specs.append(ActionSpec("place", {"territories": owned, "max": turn.to_place}))
        if turn.ships_to_place:
            specs.append(
                ActionSpec("place_ship", {"stations": board.coastal_stations(state, owned)})
            )
        try:
            turns.campaign_ready(clone(state))
        except IllegalAction:
            return specs
    if turn.phase in (REINFORCE, CAMPAIGN):
        return specs + _campaign_specs(state)
    assert turn.phase == END
    holder = turns.discard_holder(state)
    if turn.factories_to_place:
        specs.append(ActionSpec("place_factory", {"territories": turns.factory_sites(state)}))
    if len(holder.poker_cards) > board.POKER_LIMIT:
        specs.append(ActionSpec("discard", {"count": len(holder.poker_cards) - board.POKER_LIMIT}))
    if not turn.transferred:
        sources = [t for t in owned if state.territories[t].armies > 1]
        if sources:
            specs.append(ActionSpec("transfer", {"sources": sources}))
    if not turn.factories_to_place and len(holder.poker_cards) <= board.POKER_LIMIT:
        own_turn = turn.for_seat is None and seat.kind == PLAYER
        allies = [s.id for s in board.live_allies(state)] if own_turn else []
        specs.append(ActionSpec("end_turn", {"allies": allies}))
    return specs


def _campaign_specs(state: GameState) -> list[ActionSpec]:
    turn = state.turn
    assert turn is not None
    me, bmap = turn.seat, board.board_map(state)
    specs: list[ActionSpec] = []
    attacks: dict[str, list[str]] = {}
    for name in state.owned(me):
        if state.territories[name].armies < 2 or name in turn.locked:
            continue
        for target in bmap.territories[name].adjacent:
            if state.territories[target].owner != me:
                attacks.setdefault(target, []).append(name)
    my_ships = [s for s in state.ships_of(me) if not s.out_of_action]
    cruising = [s for s in my_ships if s.cruising]
    for ship in cruising:
        if ship.armies < 2:
            continue
        for target in bmap.coasts_within(ship.station, 1):
            holding = state.territories[target]
            ocean = bmap.ocean_of(ship.station)
            patrolled = any(
                bmap.ocean_of(s.station) == ocean for s in state.ships_of(holding.owner)
            )
            if holding.owner != me and not patrolled:
                attacks.setdefault(target, []).append(ship.id)
    if attacks:
        specs.append(ActionSpec("attack", {"targets": attacks}))
    naval = battles.naval_attack_spec(state)
    if naval is not None:
        specs.append(naval)
    ready = [s.id for s in my_ships if not s.cruising and s.cruises > 0]
    if ready:
        specs.append(ActionSpec("cruise", {"ships": ready}))
    for ship in cruising:
        stations = {k: d for k, d in bmap.reachable(ship.station, ship.moves).items() if d > 0}
        if stations:
            specs.append(ActionSpec("sail", {"ship": ship.id, "stations": stations}))
        coasts = [t for t in bmap.coasts_within(ship.station, 1)
                  if state.territories[t].owner == me]  # fmt: skip
        pickups = [t for t in coasts
                   if state.territories[t].armies > 1 and t not in turn.locked]  # fmt: skip
        if pickups:
            specs.append(ActionSpec("embark", {"ship": ship.id, "territories": pickups}))
        if coasts and ship.armies > 1:
            specs.append(ActionSpec("disembark", {"ship": ship.id, "territories": coasts}))
        specs.append(ActionSpec("end_cruise", {"ship": ship.id}))
    specs.append(ActionSpec("end_campaign"))
    return specs
