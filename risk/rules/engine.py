"""``apply(state, action, dice)``: who may act now, and the dispatch to each rule section.

Nothing here mutates the caller's state: ``apply`` clones it, the handlers change the clone, and
the clone and its events are returned (or ``IllegalAction`` is raised and nothing happened).
``pending_decisions`` says who must act now, including defenders and poker players acting during
someone else's turn; ``legal_actions`` lists what one player may do, as ``ActionSpec``s.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from combat.cards import all_sets
from combat.dice import Dice, SeededDice
from combat.poker import allowed as poker_allowed
from combat.poker import to_act
from combat.poker.draw import HAND_SIZE, HandState
from risk.rules import battles, board, contest, setup, ships, touched, turns
from risk.rules.actions import (
    Action,
    ActionSpec,
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
    Prefer,
    Prize,
    Retreat,
    Roll,
    Sail,
    Transfer,
    TurnIn,
    VoteDraw,
)
from risk.rules.board import Event as EventDict
from risk.rules.events import Event
from risk.rules.state import (
    AI,
    ASK,
    CAMPAIGN,
    COMMITTED,
    END,
    FLANKING,
    JOIN,
    MOBILIZE,
    NORMAL,
    PLAYER,
    PRIZES,
    REINFORCE,
    REVEAL_ALL,
    ROLLING,
    WILD,
    WON,
    GameState,
    Seat,
    clone,
)
from risk.rules.vocabulary import DecisionKind, Refusal


@dataclass(frozen=True)
class Decision:
    """Someone the game is waiting for: ``player`` acts for ``seat``; ``kind`` says on what."""

    player: str
    seat: str
    kind: DecisionKind


def game_dice(state: GameState) -> SeededDice:
    """The verifiable dice for the next action: HMAC(seed, "action:<n>", counter)."""
    return SeededDice(state.seed, f"action:{state.actions}")


# --- who acts now -------------------------------------------------------------------------------


def pending_decisions(state: GameState) -> list[Decision]:
    if state.over:
        return []
    if state.turn is None and state.contest is None:
        return [Decision(s.actor, s.id, DecisionKind.ARRANGE) for s in state.seats if not s.set_up]
    if state.contest is not None:
        return _contest_decisions(state)
    battle, turn = state.battle, state.turn
    assert turn is not None
    if battle is not None and battle.stage in (MOBILIZE, JOIN):
        kind = DecisionKind.MOBILIZE if battle.stage == MOBILIZE else DecisionKind.JOIN_DEFENCE
        return [Decision(defending_actor(state, battle.defender), battle.defender, kind)]
    kind = DecisionKind(f"battle:{battle.stage}" if battle is not None else turn.phase)
    return [Decision(turn.controller, turn.seat, kind)]


def defending_actor(state: GameState, seat_id: str) -> str:
    """Who takes an attacked seat's choices (its mobilization, its ships joining a naval battle).

    A player decides for itself. For an allied army, "the player rolling the defending dice in
    the case of an allied army" does: the next player in turn order after the attacking person
    (RULES.md M4); with the option ``ally_defender="ai"``, or with no such player, its AI.
    """
    seat = state.seat(seat_id)
    if seat.kind == PLAYER or state.options.ally_defender == AI or state.turn is None:
        return seat.actor
    attacker = state.turn.for_seat or state.turn.seat
    person = turns.next_player_after(state, attacker)
    return person.actor if person is not None else seat.actor


def _contest_decisions(state: GameState) -> list[Decision]:
    c = state.contest
    assert c is not None
    if c.stage == "asking":
        return [Decision(s.actor, s.id, DecisionKind.CHALLENGE) for s in contest.asked(state)]
    if c.stage == "answer":
        return [Decision(state.seat(c.declarer).actor, c.declarer, DecisionKind.ANSWER)]
    assert c.hand is not None
    return [Decision(state.seat(s).actor, s, DecisionKind.POKER) for s in to_act(c.hand)]


def _acts_now(state: GameState, player: str, kinds: tuple[DecisionKind, ...] | None = None) -> str:
    """The seat ``player`` acts for in a pending decision (of one of ``kinds``), or refuse."""
    for decision in pending_decisions(state):
        if decision.player == player and (kinds is None or decision.kind in kinds):
            return decision.seat
    waiting = ", ".join(f"{d.player} ({d.kind})" for d in pending_decisions(state)) or "nobody"
    raise IllegalAction(
        Refusal.NOT_YOUR_TURN,
        f"{player} may not do that now; waiting for {waiting}",
        field="player",
    )


# --- apply --------------------------------------------------------------------------------------


Handler = Callable[[GameState, Any, Dice, list[EventDict]], None]


def apply(state: GameState, action: Action, dice: Dice) -> tuple[GameState, list[Event]]:
    """The state after ``action`` and the events it caused; ``IllegalAction`` when not allowed."""
    if state.over:
        raise IllegalAction(Refusal.GAME_OVER, "the game is over")
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise IllegalAction(Refusal.UNKNOWN_ACTION, f"{action!r} is not a Fast Risk action")
    after = clone(state)
    events: list[EventDict] = []
    handler(after, action, dice, events)
    after.actions += 1
    _sweep(after, events)
    return after, [Event.from_dict(e) for e in events]


def apply_recorded(
    state: GameState, action: Action, dice: Dice
) -> tuple[GameState, list[Event], touched.Touched]:
    """``apply``, and the pieces it touched (``risk.rules.touched``): the territories, ships
    and card piles the server rewrites the rows of."""
    with touched.recording() as record:
        after, events = apply(state, action, dice)
    return after, events, record


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
    seat = state.seat(_acts_now(state, action.player, (DecisionKind.ARRANGE,)))
    setup.arrange(state, action, seat, events)


def _controller(kinds: tuple[DecisionKind, ...] | None = None) -> Callable[[Handler], Handler]:
    """Wrap a handler that only the turn's controller may call (in one of ``kinds``)."""

    def wrap(handler: Handler) -> Handler:
        def checked(state: GameState, action: Any, dice: Dice, events: list[EventDict]) -> None:
            _acts_now(state, action.player, kinds)
            handler(state, action, dice, events)

        return checked

    return wrap


_TURN = (DecisionKind.REINFORCE, DecisionKind.CAMPAIGN, DecisionKind.END)


def _end_turn(state: GameState, action: EndTurn, dice: Dice, events: list[EventDict]) -> None:
    turns.check_end_turn(state, action)
    turn = state.turn
    assert turn is not None
    events.append({"type": "turn_ended", "seat": turn.seat})
    if action.ally is not None:
        contest.declare(state, turn.seat, action.ally, dice, events)
    else:
        turns.advance(state, turn.for_seat or turn.seat, events)


def _leave(state: GameState, action: Leave | Concede, dice: Dice, events: list[EventDict]) -> None:
    """Leaving, or conceding (RULES.md J2, J7): the army becomes an allied army either way."""
    seat = _live_player(state, action.player)
    was_setting_up = state.turn is None and state.contest is None
    unarranged = not seat.set_up
    how = "conceded" if isinstance(action, Concede) else "left"
    cut_short = turns.leave(state, seat, events, how=how)
    contest.answers_in(state, dice, events)  # the leaver may have been the last one asked
    if unarranged:  # RULES.md J2: set up as an allied army is, its factory at random
        owned = sorted(state.owned(seat.id))
        factory = owned[dice.roll(len(owned)) - 1]
        state.territories[factory].factory = True
        touched.territory(factory)
        events.append({"type": "factory_built", "seat": seat.id, "territory": factory})
    if cut_short:
        assert state.turn is not None
        turns.advance(state, state.turn.seat, events)
    elif was_setting_up:
        seat.set_up = True


def _live_player(state: GameState, player: str) -> Seat:
    seat = board.actor_seat(state, player)
    if seat.kind != PLAYER or not seat.alive:
        raise IllegalAction(Refusal.NOT_PLAYING, f"{player} plays no live army", field="player")
    return seat


def _vote_draw(state: GameState, action: VoteDraw, dice: Dice, events: list[EventDict]) -> None:
    """RULES.md J8: a draw when every player agrees; a refusal declines the offer for all."""
    seat = _live_player(state, action.player)
    if action.agree and seat.id not in state.draw_votes:
        state.draw_votes.append(seat.id)
    elif not action.agree:
        state.draw_votes = []
    events.append({"type": "draw_vote", "seat": seat.id, "agree": action.agree,
                   "votes": list(state.draw_votes)})  # fmt: skip


def _prefer(state: GameState, action: Prefer, dice: Dice, events: list[EventDict]) -> None:
    """A player's standing preferences (RULES.md C1b, M3); public like the rest of the seat."""
    seat = _live_player(state, action.player)
    if action.defence_dice is not None:
        if action.defence_dice not in (1, 2):
            raise IllegalAction(
                Refusal.DEFENCE_DICE, "defend with 1 or 2 dice", field="defence_dice"
            )
        seat.defence_dice = action.defence_dice
    if action.reveal is not None:
        if action.reveal not in (ASK, REVEAL_ALL):
            raise IllegalAction(
                Refusal.REVEAL, f"reveal is {ASK!r} or {REVEAL_ALL!r}", field="reveal"
            )
        seat.reveal = action.reveal
    events.append({"type": "preferences", "seat": seat.id, "defence_dice": seat.defence_dice,
                   "reveal": seat.reveal})  # fmt: skip


def _join(state: GameState, action: Join, dice: Dice, events: list[EventDict]) -> None:
    turns.do_join(state, action, dice, events)


def _challenge(state: GameState, action: Challenge, dice: Dice, events: list[EventDict]) -> None:
    seat = state.seat(_acts_now(state, action.player, (DecisionKind.CHALLENGE,)))
    contest.do_challenge(state, action, seat, dice, events)


def _poker(state: GameState, action: Poker, dice: Dice, events: list[EventDict]) -> None:
    seat = state.seat(_acts_now(state, action.player, (DecisionKind.POKER,)))
    contest.do_poker(state, action, seat, dice, events)


def _defender(kind: DecisionKind, handler: Handler) -> Handler:
    def checked(state: GameState, action: Any, dice: Dice, events: list[EventDict]) -> None:
        _acts_now(state, action.player, (kind,))
        handler(state, action, dice, events)

    return checked


_BATTLE = (DecisionKind.BATTLE_ROLLING, DecisionKind.BATTLE_WON, DecisionKind.BATTLE_PRIZES)

_HANDLERS: dict[type[Action], Handler] = {
    Arrange: _arrange,
    TurnIn: _controller(_TURN)(lambda s, a, d, e: turns.do_turn_in(s, a, d, e)),
    Place: _controller(_TURN)(lambda s, a, d, e: turns.do_place(s, a, e)),
    Deploy: _controller(_TURN)(lambda s, a, d, e: turns.do_deploy(s, a, e)),
    PlaceShip: _controller(_TURN)(lambda s, a, d, e: turns.do_place_ship(s, a, e)),
    Attack: _controller(_TURN)(battles.do_attack),
    NavalAttack: _controller(_TURN)(battles.do_naval_attack),
    Roll: _controller(_BATTLE)(battles.do_roll),
    Retreat: _controller(_BATTLE)(lambda s, a, d, e: battles.do_retreat(s, a, e)),
    MoveIn: _controller(_BATTLE)(lambda s, a, d, e: battles.do_move_in(s, a, e)),
    Prize: _controller(_BATTLE)(lambda s, a, d, e: battles.do_prize(s, a, e)),
    Mobilize: _defender(DecisionKind.MOBILIZE, battles.do_mobilize),
    JoinDefence: _defender(
        DecisionKind.JOIN_DEFENCE, lambda s, a, d, e: battles.do_join_defence(s, a, e)
    ),
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
    Answer: _defender(DecisionKind.ANSWER, contest.do_answer),
    Poker: _poker,
    Join: _join,
    Leave: _leave,
    Concede: _leave,
    VoteDraw: _vote_draw,
    Prefer: _prefer,
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
    if seat is not None and seat.kind == PLAYER and seat.alive:
        if _may_leave(state, seat.id):
            specs += [ActionSpec("leave"), ActionSpec("concede")]
        specs.append(ActionSpec("vote_draw", {"agree": [True, False],
                                              "votes": list(state.draw_votes)}))  # fmt: skip
        specs.append(ActionSpec("prefer", {"defence_dice": [1, 2], "reveal": [ASK, REVEAL_ALL],
                                           "now": {"defence_dice": seat.defence_dice,
                                                   "reveal": seat.reveal}}))  # fmt: skip
    if (seat is None or not seat.alive) and (state.turn is not None or state.contest is not None):
        allies = [s.id for s in board.live_allies(state) if not turns._busy(state, s.id)]
        if allies:
            specs.append(ActionSpec("join", {"allies": allies}))
    return specs


def _may_leave(state: GameState, seat_id: str) -> bool:
    return turns.leave_refusal(state, state.seat(seat_id)) is None


def specs_for(state: GameState, decision: Decision) -> list[ActionSpec]:
    """The actions open for one pending decision (``legal_actions`` without the anytime ones)."""
    return _specs_for(state, decision)


def _specs_for(state: GameState, decision: Decision) -> list[ActionSpec]:
    kind = decision.kind
    if kind == DecisionKind.ARRANGE:
        return [_arrange_spec(state, decision.seat)]
    if kind == DecisionKind.CHALLENGE:
        return [ActionSpec("challenge", {"contest": [True, False]})]
    if kind == DecisionKind.ANSWER:
        return [ActionSpec("answer", {"demur": [True, False]})]
    if kind == DecisionKind.POKER:
        c = state.contest
        assert c is not None and c.hand is not None
        return [poker_spec(c.hand, decision.seat)]
    if kind == DecisionKind.MOBILIZE:
        battle = state.battle
        assert battle is not None and battle.mobilization is not None
        may_reveal = battle.mobilization.get("may_reveal", True)
        return [ActionSpec("mobilize", {
            "cards": battles.mobilization_cards(state) if may_reveal else [],
            "wild_dice": len(battle.mobilization["wild_rolls"]),
            "territories": state.owned(decision.seat),
        })]  # fmt: skip
    if kind == DecisionKind.JOIN_DEFENCE:
        return [ActionSpec("join_defence", battles.join_spec_options(state))]
    if kind in _BATTLE:
        return _battle_specs(state)
    return _turn_specs(state)


def _arrange_spec(state: GameState, seat_id: str) -> ActionSpec:
    owned = state.owned(seat_id)
    return ActionSpec("arrange", {
        "territories": owned,
        "armies": sum(state.territories[t].armies for t in owned),
        "min_each": 1,
        "ship_stations": board.coastal_stations(state, owned) if state.ships_of(seat_id) else [],
    })  # fmt: skip


def _battle_specs(state: GameState) -> list[ActionSpec]:
    battle = state.battle
    assert battle is not None
    if battle.stage == ROLLING:
        flank = battle.flanks[battle.next_flank]
        reserve = 0 if battle.mode == NORMAL else battles._reserve(state, flank)
        dice = list(range(1, min(3, flank.standing) + 1)) if battle.mode == NORMAL else []
        specs = [ActionSpec("roll", {"max_add": reserve, "flank": battle.next_flank,
                                     "dice": dice,
                                     "armies": battles.attacker_armies(battle)})]  # fmt: skip
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
        if sets and owned and turns.turn_in_refusal(state) is None:
            coast = board.coastal_stations(state, owned)
            rewards = [r for r in turns.REWARDS if r != "ship" or coast]  # RULES.md R6
            specs.append(ActionSpec("turn_in", {"sets": sets, "rewards": rewards}))
        if turn.to_place:
            specs.append(
                ActionSpec("place", {"territories": owned, "min": 1, "max": turn.to_place})
            )
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
        specs.append(ActionSpec("discard", {"count": len(holder.poker_cards) - board.POKER_LIMIT,
                                            "cards": list(holder.poker_cards)}))  # fmt: skip
    if not turn.transferred:
        transfer = _transfer_spec(state, owned)
        if transfer is not None:
            specs.append(transfer)
    if not turn.factories_to_place and len(holder.poker_cards) <= board.POKER_LIMIT:
        own_turn = turn.for_seat is None and seat.kind == PLAYER
        allies = [s.id for s in turns.declarable_allies(state)] if own_turn else []
        specs.append(ActionSpec("end_turn", {"allies": allies}))
    return specs


def _campaign_specs(state: GameState) -> list[ActionSpec]:
    turn = state.turn
    assert turn is not None
    me, bmap = turn.seat, board.board_map(state)
    specs: list[ActionSpec] = []
    attack = _attack_spec(state)
    if attack is not None:
        specs.append(attack)
    my_ships = [s for s in state.ships_of(me) if not s.out_of_action]
    cruising = [s for s in my_ships if s.cruising]
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
            most = {t: state.territories[t].armies - 1 for t in pickups}
            specs.append(ActionSpec("embark", {"ship": ship.id, "territories": pickups,
                                               "max": most}))  # fmt: skip
        if coasts and ship.armies > 1:
            specs.append(ActionSpec("disembark", {"ship": ship.id, "territories": coasts,
                                                  "max": ship.armies - 1}))  # fmt: skip
        specs.append(ActionSpec("end_cruise", {"ship": ship.id}))
    specs.append(ActionSpec("end_campaign"))
    return specs


def _attack_spec(state: GameState) -> ActionSpec | None:
    """Land attacks and landings open now, with every choice a client needs to build one.

    ``targets``: target -> the sources (own territories, cruising ships) that can attack it.
    ``room``: source -> per mode the armies one flank may commit from it, ``[least, most]``
    (``normal`` 1..all but one; ``committed`` from the option ``min_commitment`` (2) to all but
    one on land, all aboard a ship; flanks share their source's ``committed`` room). ``modes``:
    target -> the modes possible: ``flanking`` needs two flanks of equal size from the sources
    (two sources, or one source with room for two flanks of ``min_commitment``). During an
    allied turn, the territories of the player playing the ally are no target (RULES.md A11).
    """
    turn = state.turn
    assert turn is not None
    me, bmap = turn.seat, board.board_map(state)
    spared, least = battles.protected_seat(state), battles.least_commitment(state)
    targets: dict[str, list[str]] = {}
    room: dict[str, dict[str, list[int]]] = {}
    for name in state.owned(me):
        spare = state.territories[name].armies - 1
        if spare < 1 or name in turn.locked:
            continue
        for target in bmap.territories[name].adjacent:
            if state.territories[target].owner not in (me, spared):
                targets.setdefault(target, []).append(name)
                room[name] = _modes_room(spare, spare, least)
    for ship in state.ships_of(me):
        if not ship.cruising or ship.out_of_action or ship.armies < 2:
            continue
        ocean = bmap.ocean_of(ship.station)
        for target in bmap.coasts_within(ship.station, 1):
            owner = state.territories[target].owner
            patrolled = any(bmap.ocean_of(s.station) == ocean for s in state.ships_of(owner))
            if owner not in (me, spared) and not patrolled:
                targets.setdefault(target, []).append(ship.id)
                room[ship.id] = _modes_room(ship.armies - 1, ship.armies, least)
    if not targets:
        return None
    modes = {}
    for target, sources in targets.items():
        wide = [room[s][COMMITTED][1] for s in sources if COMMITTED in room[s]]
        modes[target] = [NORMAL] + ([COMMITTED] if wide else [])
        if len(wide) >= 2 or any(most >= 2 * least for most in wide):
            modes[target].append(FLANKING)
    return ActionSpec("attack", {"targets": targets, "room": room, "modes": modes})


def _modes_room(normal: int, committed: int, least: int = 2) -> dict[str, list[int]]:
    """A source's room per mode; a committed block (or flank) commits ``least`` or more."""
    room: dict[str, list[int]] = {NORMAL: [1, normal]}
    if committed >= least:
        room[COMMITTED] = [least, committed]
    return room


def _transfer_spec(state: GameState, owned: list[str]) -> ActionSpec | None:
    """The end-of-turn transfer: only sources that reach another own territory (RULES.md E3)."""
    destinations, most = {}, {}
    for source in owned:
        if state.territories[source].armies > 1:
            reach = sorted(turns.connected(state, source) - {source})
            if reach:
                destinations[source] = reach
                most[source] = state.territories[source].armies - 1
    if not destinations:
        return None
    return ActionSpec("transfer", {"sources": list(destinations), "destinations": destinations,
                                   "max": most})  # fmt: skip


def poker_spec(hand: HandState, seat_id: str) -> ActionSpec:
    """The poker moves open to a seat, with the cards and counts each may use.

    ``choose``: 1-5 cards from the stash, at least ``min`` so the deck can fill every hand.
    ``draw``: discard any cards of the hand; each may be replaced from the stash (at most as many
    as discarded) or from the deck (``deck`` cards left). With ``keep_one`` (rule revision 2,
    RULES.md A12) the hand keeps a stash card: not every card of ``keep`` (the hand's stash
    cards) may be discarded unless a replacement comes from the stash. Bets and raises are one
    army each.
    """
    moves = list(poker_allowed(hand, seat_id))
    seat = hand.seats[hand.seat_of(seat_id)]
    options: dict[str, Any] = {"moves": moves, "amount": 1, "pot": seat.pot}
    if "choose" in moves:
        others = sum(
            HAND_SIZE - (len(s.hand) if s.chosen else min(HAND_SIZE, len(s.stash)))
            for s in hand.seats if s.player != seat_id
        )  # fmt: skip
        least = max(1, HAND_SIZE - (len(hand.deck) - others))
        options["choose"] = {"stash": list(seat.stash), "min": least,
                             "max": min(HAND_SIZE, len(seat.stash))}  # fmt: skip
    if "draw" in moves:
        options["draw"] = {"hand": list(seat.hand), "stash": list(seat.stash),
                           "deck": len(hand.deck)}  # fmt: skip
        if hand.keep_stash:  # RULES.md A12: not every card of ``keep`` discarded, unless
            # a replacement is taken from the stash
            options["draw"] |= {"keep": list(seat.stash_cards), "keep_one": True}
    return ActionSpec("poker", options)
