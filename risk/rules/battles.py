"""Battles: land attacks and opposed landings, naval battles, the mobilization bonus, prizes.

Rule text "How to Campaign" (normal, committed, flanking attacks), "Opposed Landings", "Patrol",
"Naval Battles", "Sinking and Capturing Ships", "Mobilization Bonus"; design.md section 5. One
die roll at a time goes through ``combat.risk_dice.resolve_roll`` (the +1 of a flanking roll is
placed there); the battle's bookkeeping is here. Every army of a battle is held in its flanks
while it fights, so the army ledger always balances. Decisions in risk/RULES.md.
"""

from __future__ import annotations

from combat.dice import Dice
from combat.risk_dice import roll_dice
from risk.rules import board
from risk.rules.actions import (
    Attack,
    IllegalAction,
    JoinDefence,
    Mobilize,
    MoveIn,
    NavalAttack,
    Prize,
    Retreat,
    Roll,
)
from risk.rules.board import Event
from risk.rules.state import (
    FLANKING,
    JOIN,
    LAND,
    MOBILIZE,
    MODES,
    NAVAL,
    NORMAL,
    PLAYER,
    PRIZES,
    REVEAL_ALL,
    ROLLING,
    WILD,
    WON,
    Battle,
    Flank,
    GameState,
    Seat,
    Ship,
)
from risk.rules.turns import campaign_ready

MAX_ROLLS_PER_ACTION = 10_000  # ``until_decided`` always ends (each roll destroys an army)


# --- opening a land attack ----------------------------------------------------------------------


def do_attack(state: GameState, action: Attack, dice: Dice, events: list[Event]) -> None:
    campaign_ready(state)
    _no_battle(state)
    assert state.turn is not None
    me = state.turn.seat
    target = state.territories.get(action.target)
    if target is None:
        raise IllegalAction("target", f"no territory {action.target!r}", field="target")
    if target.owner == me:
        raise IllegalAction("target", f"{action.target} is yours already", field="target")
    _check_mode(action.mode, len(action.flanks), "flanks")
    flanks = [_land_flank(state, action, source, armies) for source, armies in action.flanks]
    _check_room(state, flanks, action.mode)
    if action.mode == FLANKING and len({f.commitment for f in flanks}) != 1:
        raise IllegalAction(
            "unequal-flanks", "flanks start the same size (rule text: 'initially of equal size')",
            field="flanks",
        )  # fmt: skip
    _check_patrol(state, flanks, target.owner)
    for flank in flanks:
        _take_from_source(state, flank, flank.standing)
    battle = Battle(kind=LAND, mode=action.mode, attacker=me, defender=target.owner,
                    target=action.target, flanks=flanks)  # fmt: skip
    state.battle = battle
    events.append({"type": "attack", "attacker": me, "defender": target.owner,
                   "target": action.target, "mode": action.mode,
                   "flanks": [[f.source, f.standing] for f in flanks]})  # fmt: skip
    _open(state, dice, events)


def _check_mode(mode: str, count: int, field: str) -> None:
    if mode not in MODES:
        raise IllegalAction("mode", f"mode is one of {', '.join(MODES)}", field="mode")
    if mode == FLANKING and count < 2:
        raise IllegalAction("flanks", "a flanking attack needs two or more flanks", field=field)
    if mode != FLANKING and count != 1:
        raise IllegalAction(
            "flanks", f"a {mode} attack comes from one place; several only when flanking",
            field=field,
        )  # fmt: skip


def _land_flank(state: GameState, action: Attack, source: str, armies: int) -> Flank:
    assert state.turn is not None
    me, bmap = state.turn.seat, board.board_map(state)
    least = 1 if action.mode == NORMAL else 2
    if armies < least:
        raise IllegalAction("armies", f"a {action.mode} flank commits at least {least} armies",
                            field="flanks")  # fmt: skip
    if source in state.territories:
        holding = state.territories[source]
        if holding.owner != me:
            raise IllegalAction("not-yours", f"{source} is not yours", field="flanks")
        if source in state.turn.locked:
            raise IllegalAction(
                "locked", f"a committed attack from {source} failed: no more action from it",
                field="flanks",
            )  # fmt: skip
        if action.target not in bmap.territories[source].adjacent:
            raise IllegalAction("not-adjacent", f"{source} does not border {action.target}",
                                field="flanks")  # fmt: skip
        return Flank(source=source, ship=False, commitment=armies, standing=armies)
    ship = state.ships.get(source)
    if ship is None:
        raise IllegalAction("flanks", f"{source!r} is neither a territory nor a ship",
                            field="flanks")  # fmt: skip
    _ready_ship(state, ship)
    if action.target not in bmap.coasts_within(ship.station, 1):
        raise IllegalAction(
            "out-of-reach", f"{ship.id} at {ship.station} is not within one boat length of "
            f"{action.target}", field="flanks",
        )  # fmt: skip
    return Flank(source=source, ship=True, commitment=armies, standing=armies)


def _ready_ship(state: GameState, ship: Ship) -> None:
    assert state.turn is not None
    if ship.owner != state.turn.seat:
        raise IllegalAction("not-yours", f"{ship.id} is not yours", field="ships")
    if ship.out_of_action:
        raise IllegalAction("out-of-action", f"{ship.id} took a prize and is out of action",
                            field="ships")  # fmt: skip
    if not ship.cruising:
        raise IllegalAction("not-cruising", f"{ship.id} acts on a cruise: cruise first",
                            field="ships")  # fmt: skip


def _check_room(state: GameState, flanks: list[Flank], mode: str) -> None:
    """Land sources keep one army; a ship keeps one in a normal landing (the rest may all go)."""
    wanted: dict[str, int] = {}
    for flank in flanks:
        wanted[flank.source] = wanted.get(flank.source, 0) + flank.standing
    for source, armies in wanted.items():
        if source in state.territories:
            room = state.territories[source].armies - 1
        else:
            room = state.ships[source].armies - (1 if mode == NORMAL else 0)
        if armies > room:
            raise IllegalAction(
                "armies", f"{source} can send {room} armies, not {armies}", field="flanks"
            )


def _check_patrol(state: GameState, flanks: list[Flank], defender: str) -> None:
    """Rule text "Patrol": the defender's ships in the ocean must be beaten before a landing."""
    bmap = board.board_map(state)
    for flank in flanks:
        if not flank.ship:
            continue
        ocean = bmap.ocean_of(state.ships[flank.source].station)
        patrol = sorted(s.id for s in state.ships_of(defender) if bmap.ocean_of(s.station) == ocean)
        if patrol:
            raise IllegalAction(
                "patrol", f"{defender}'s ships {', '.join(patrol)} patrol the {ocean}: beat them "
                "in a naval battle before landing", field="flanks",
            )  # fmt: skip


def _take_from_source(state: GameState, flank: Flank, armies: int) -> None:
    if flank.ship:
        state.ships[flank.source].armies -= armies
    else:
        state.territories[flank.source].armies -= armies


def _reserve(state: GameState, flank: Flank) -> int:
    if flank.ship:
        ship = state.ships.get(flank.source)
        return ship.armies if ship is not None else 0
    return state.territories[flank.source].armies - 1


# --- opening a naval battle ---------------------------------------------------------------------


def do_naval_attack(state: GameState, action: NavalAttack, dice: Dice, events: list[Event]) -> None:
    campaign_ready(state)
    _no_battle(state)
    assert state.turn is not None
    me, bmap = state.turn.seat, board.board_map(state)
    target = state.ships.get(action.target)
    if target is None:
        raise IllegalAction("target", f"no ship {action.target!r}", field="target")
    if target.owner == me:
        raise IllegalAction("target", f"{target.id} is your own ship", field="target")
    _check_mode(action.mode, len(action.ships), "ships")
    if len(set(action.ships)) != len(action.ships):
        raise IllegalAction("ships", "each ship once", field="ships")
    ocean = bmap.ocean_of(target.station)
    flanks = []
    for ship_id in action.ships:
        ship = state.ships.get(ship_id)
        if ship is None:
            raise IllegalAction("ships", f"no ship {ship_id!r}", field="ships")
        _ready_ship(state, ship)
        if ship.armies < 1:  # captives aboard are no crew (rule text "Flanking Attacks")
            raise IllegalAction("no-crew", f"{ship_id} has no crew aboard to fight", field="ships")
        if bmap.ocean_of(ship.station) != ocean:
            raise IllegalAction("other-ocean", f"{ship_id} is not in the {ocean}", field="ships")
        armies = ship.armies if action.mode == NORMAL or action.armies == 0 else action.armies
        if action.mode != NORMAL and not 2 <= armies <= ship.armies:
            raise IllegalAction(
                "armies", f"{ship_id} commits 2 to {ship.armies} armies, not {armies}",
                field="armies",
            )  # fmt: skip
        flanks.append(Flank(source=ship_id, ship=True, commitment=armies, standing=armies))
    if action.mode == FLANKING and len({f.commitment for f in flanks}) != 1:
        raise IllegalAction("unequal-flanks", "flanking ships commit equal numbers (armies)",
                            field="armies")  # fmt: skip
    for flank in flanks:
        _take_from_source(state, flank, flank.standing)
    state.battle = Battle(kind=NAVAL, mode=action.mode, attacker=me, defender=target.owner,
                          target=target.id, flanks=flanks, defending_ships=[target.id])  # fmt: skip
    events.append({"type": "naval_attack", "attacker": me, "defender": target.owner,
                   "target": target.id, "mode": action.mode,
                   "ships": [[f.source, f.standing] for f in flanks]})  # fmt: skip
    _open(state, dice, events)


def join_candidates(state: GameState) -> list[str]:
    """The defender's unattacked ships in the battle's ocean."""
    battle = state.battle
    assert battle is not None and battle.kind == NAVAL
    bmap = board.board_map(state)
    ocean = bmap.ocean_of(state.ships[battle.target].station)
    return sorted(
        s.id for s in state.ships_of(battle.defender)
        if s.id not in battle.defending_ships and bmap.ocean_of(s.station) == ocean
    )  # fmt: skip


def do_join_defence(state: GameState, action: JoinDefence, events: list[Event]) -> None:
    battle = _battle(state, JOIN)
    allowed = join_candidates(state)
    unknown = [s for s in action.ships if s not in allowed]
    if unknown or len(set(action.ships)) != len(action.ships):
        raise IllegalAction("ships", f"ships that may join: {allowed}", field="ships")
    battle.defending_ships += list(action.ships)
    battle.stage = ROLLING
    events.append({"type": "defence_joined", "defender": battle.defender,
                   "ships": list(action.ships)})  # fmt: skip


# --- the mobilization bonus ---------------------------------------------------------------------


def _open(state: GameState, dice: Dice, events: list[Event]) -> None:
    """The first attack on a seat this turn gives it the mobilization bonus, then the battle.

    Whether the game then waits on the defender depends on public facts only (RULES.md M3): the
    cut, the defender's standing ``reveal`` preference and the size of its hand, never on which
    cards it holds. An allied army, and a player whose preference is ``reveal-all``, reveal every
    eligible card at once (in public); the defender is asked where wild dice go, and a player who
    answers each time is asked whenever it holds a card it might reveal.
    """
    battle = state.battle
    assert battle is not None and state.turn is not None
    defender = state.seat(battle.defender)
    if defender.id in state.turn.attacked:
        _after_mobilization(state)
        return
    state.turn.attacked.append(defender.id)
    owned = state.owned(defender.id)
    if not owned:  # a pirate has nowhere to put a bonus
        _after_mobilization(state)
        return
    card = board.cut_card(state.risk_deck, dice)
    hit = card is not None and (card == WILD or card in owned)
    wild_rolls: list[int] = []
    placed = None
    if hit:
        roll = dice.roll(6)
        if card == WILD:
            wild_rolls.append(roll)
        else:
            _mobilize(state, str(card), roll)
            placed = roll
    events.append({"type": "cut", "seat": defender.id, "card": card, "armies": placed})
    may_reveal = hit or not state.options.reveal_needs_cut  # RULES.md M5 (an option)
    automatic = defender.kind != PLAYER or defender.reveal == REVEAL_ALL
    if may_reveal and automatic and mobilization_cards(state):
        cards = mobilization_cards(state)
        rolls, placed = _reveal(state, defender, cards, dice)
        wild_rolls += rolls
        events.append({"type": "revealed", "seat": defender.id, "cards": cards,
                       "placed": placed, "wild_rolls": rolls})  # fmt: skip
    asks = may_reveal and not automatic and bool(defender.risk_cards)
    if wild_rolls or asks:
        battle.stage = MOBILIZE
        battle.mobilization = {"cut": card, "wild_rolls": wild_rolls, "may_reveal": asks}
        return
    _after_mobilization(state)


def _reveal(
    state: GameState, seat: Seat, cards: list[str], dice: Dice
) -> tuple[list[int], dict[str, int]]:
    """Reveal hand cards for a die each: owned territories get theirs at once (returned as
    placed); the wild cards' dice are returned, to be placed where the defender chooses."""
    wild_rolls: list[int] = []
    placed: dict[str, int] = {}
    for card in cards:
        roll = dice.roll(6)
        if card == WILD:
            wild_rolls.append(roll)
        else:
            _mobilize(state, card, roll)
            placed[card] = placed.get(card, 0) + roll
    if state.options.reveal_once:
        seat.revealed += cards
    return wild_rolls, placed


def _mobilize(state: GameState, territory: str, armies: int) -> None:
    state.territories[territory].armies += armies
    board.create(state, "mobilization", armies)


def mobilization_cards(state: GameState) -> list[str]:
    """The defender's hand cards it may reveal: wild cards and cards of territories it owns
    (with the option ``reveal_once``, not those shown before and not yet turned in)."""
    battle = state.battle
    assert battle is not None
    seat = state.seat(battle.defender)
    owned = set(state.owned(battle.defender))
    shown = list(seat.revealed) if state.options.reveal_once else []
    cards = []
    for card in seat.risk_cards:
        if card in shown:
            shown.remove(card)
        elif card == WILD or card in owned:
            cards.append(card)
    return cards


def do_mobilize(state: GameState, action: Mobilize, dice: Dice, events: list[Event]) -> None:
    battle = _battle(state, MOBILIZE)
    mobilization = battle.mobilization
    assert mobilization is not None
    eligible = list(mobilization_cards(state)) if mobilization.get("may_reveal", True) else []
    for card in action.reveal:
        if card not in eligible:
            raise IllegalAction(
                "reveal", f"{card!r}: reveal only wild cards and cards of your own territories "
                "from your hand, each once", field="reveal",
            )  # fmt: skip
        eligible.remove(card)
    wilds = len(mobilization["wild_rolls"]) + action.reveal.count(WILD)
    owned = set(state.owned(battle.defender))
    if len(action.wild_territories) != wilds or not set(action.wild_territories) <= owned:
        raise IllegalAction(
            "wild_territories", f"name one of your territories for each of {wilds} wild dice",
            field="wild_territories",
        )  # fmt: skip
    revealed_rolls, placed = _reveal(state, state.seat(battle.defender), list(action.reveal), dice)
    rolls = list(mobilization["wild_rolls"]) + revealed_rolls
    for territory, roll in zip(action.wild_territories, rolls, strict=True):
        _mobilize(state, territory, roll)
        placed[territory] = placed.get(territory, 0) + roll
    events.append({"type": "mobilized", "seat": battle.defender, "revealed": list(action.reveal),
                   "placed": placed})  # fmt: skip
    battle.mobilization = None
    _after_mobilization(state)


def _after_mobilization(state: GameState) -> None:
    battle = state.battle
    assert battle is not None
    battle.stage = JOIN if battle.kind == NAVAL and join_candidates(state) else ROLLING


# --- rolling ------------------------------------------------------------------------------------


def do_roll(state: GameState, action: Roll, dice: Dice, events: list[Event]) -> None:
    battle = _battle(state, ROLLING)
    flank = battle.flanks[battle.next_flank]
    if action.add:
        if battle.mode == NORMAL:
            raise IllegalAction("add", "only committed and flanking blocks take more armies",
                                field="add")  # fmt: skip
        reserve = _reserve(state, flank)
        if not 0 < action.add <= reserve:
            raise IllegalAction("add", f"{flank.source} can add 1 to {reserve} armies",
                                field="add")  # fmt: skip
        _take_from_source(state, flank, action.add)
        flank.standing += action.add
        flank.commitment = max(flank.commitment, flank.standing)  # raising, never lowering
    if action.dice and (battle.mode != NORMAL or not 1 <= action.dice <= 3):
        raise IllegalAction(
            "dice", "a normal attack rolls 1 to 3 dice; a committed block rolls one per army",
            field="dice",
        )  # fmt: skip
    for _ in range(MAX_ROLLS_PER_ACTION):
        _roll_once(state, dice, events, action.dice)
        if not action.until_decided or state.battle is None or state.battle.stage != ROLLING:
            return


def defender_armies(state: GameState) -> int:
    battle = state.battle
    assert battle is not None
    if battle.kind == LAND:
        return state.territories[battle.target].armies
    return sum(state.ships[s].armies for s in battle.defending_ships if s in state.ships)


def _roll_once(state: GameState, dice: Dice, events: list[Event], chosen: int = 0) -> None:
    """One roll of the flank whose turn it is. A normal attack rolls the dice the attacker chose
    (``chosen``, 0 = as many as allowed) against the defender's standing choice (RULES.md C1b)."""
    battle = state.battle
    assert battle is not None
    flank = battle.flanks[battle.next_flank]
    standing = [f for f in battle.flanks if not f.out]
    pool = defender_armies(state)
    if battle.mode == NORMAL:
        a_dice = min(chosen or 3, 3, flank.standing)
        d_dice = min(state.seat(battle.defender).defence_dice, 2, pool)
    else:  # the defender rolls one fewer than the commitment, every time
        a_dice, d_dice = flank.standing, min(max(flank.commitment - 1, 1), pool)
    bonus = battle.mode == FLANKING and len(standing) >= 2
    front = _front_ship(state) if battle.kind == NAVAL else None
    report = roll_dice(a_dice, d_dice, bonus=bonus, dice=dice)
    compared = len(report.comparisons)
    captured = 1 if bonus and report.attacker_losses == 0 and report.defender_losses else 0
    flank.standing -= report.attacker_losses
    flank.captured += captured
    board.destroy(state, "battle", report.attacker_losses + report.defender_losses - captured)
    _defender_loses(state, report.defender_losses)
    battle.last_dice, battle.rolls = a_dice, battle.rolls + 1
    event: Event = {"type": "roll", "flank": battle.next_flank, **report.as_dict(),
                    "captured": captured}  # fmt: skip
    events.append(event)
    if battle.kind == NAVAL:  # rule text: a total defeat risks the ship itself
        if report.attacker_losses == compared and flank.standing > 0:
            event["attacker_sink_roll"] = _sink_roll(state, state.ships.get(flank.source), dice,
                                                     events, flank)  # fmt: skip
        elif report.defender_losses == compared and front is not None:
            ship = state.ships.get(front)
            if ship is not None and ship.armies > 0:
                event["defender_sink_roll"] = _sink_roll(state, ship, dice, events, None)
    if flank.standing == 0 and not flank.out:
        _flank_destroyed(state, flank, events)
    _next_flank(battle)
    _maybe_decided(state, events)


def _front_ship(state: GameState) -> str | None:
    battle = state.battle
    assert battle is not None
    afloat = [s for s in battle.defending_ships if s in state.ships]
    return next((s for s in afloat if state.ships[s].armies > 0), None)


def _defender_loses(state: GameState, losses: int) -> None:
    battle = state.battle
    assert battle is not None
    if battle.kind == LAND:
        state.territories[battle.target].armies -= losses
        return
    for ship_id in battle.defending_ships:  # the front ship first, then the joiners in order
        ship = state.ships.get(ship_id)
        if ship is None:
            continue
        taken = min(ship.armies, losses)
        ship.armies -= taken
        losses -= taken


def _sink_roll(
    state: GameState, ship: Ship | None, dice: Dice, events: list[Event], flank: Flank | None
) -> list[int] | None:
    """Both sides roll; the defeated ship sinks if its die is lower (ties: it survives)."""
    if ship is None:
        return None
    mine, theirs = dice.roll(6), dice.roll(6)
    if mine < theirs:
        if flank is not None:  # the attacking ship goes down with its whole block
            board.destroy(state, "sunk", flank.standing + flank.captured)
            flank.standing, flank.captured, flank.out = 0, 0, True
        board.sink(state, ship, "sunk", events)
    return [mine, theirs]


def _flank_destroyed(state: GameState, flank: Flank, events: list[Event]) -> None:
    """A block with no army left: captured armies stay behind, an empty ship is lost."""
    battle = state.battle
    assert battle is not None
    flank.out = True
    captured, flank.captured = flank.captured, 0
    if not flank.ship:
        _keep_captured(state.territories[flank.source].captured, battle.defender, captured)
        return
    ship = state.ships.get(flank.source)
    if ship is None:  # already sunk: the captured armies went down with it
        board.destroy(state, "sunk", captured)
        return
    crewed = any(f.source == ship.id and not f.out for f in battle.flanks)
    if ship.armies > 0 or crewed:  # the ship still has a crew (aboard, or in another flank)
        _keep_captured(ship.captured, battle.defender, captured)
    elif captured:  # rule text: the captured armies commandeer the ship for the defender
        ship.owner, ship.armies = battle.defender, captured + ship.captured.pop(battle.defender, 0)
        ship.cruises, ship.moves, ship.cruising = 0, 0, False
        events.append({"type": "commandeered", "ship": ship.id, "by": battle.defender,
                       "armies": ship.armies})  # fmt: skip
    else:
        board.sink(state, ship, "sunk", events)


def _keep_captured(where: dict[str, int], owner: str, armies: int) -> None:
    if armies:
        where[owner] = where.get(owner, 0) + armies


def _next_flank(battle: Battle) -> None:
    count = len(battle.flanks)
    for step in range(1, count + 1):
        index = (battle.next_flank + step) % count
        if not battle.flanks[index].out:
            battle.next_flank = index
            return


def _maybe_decided(state: GameState, events: list[Event]) -> None:
    battle = state.battle
    assert battle is not None and state.turn is not None
    if defender_armies(state) == 0:
        if battle.kind == LAND:
            battle.stage = WON
            events.append({"type": "battle_won", "target": battle.target})
        else:
            _naval_won(state, events)
    elif all(f.out for f in battle.flanks):
        events.append({"type": "battle_lost", "target": battle.target, "mode": battle.mode})
        if battle.mode != NORMAL:  # rule text: no more action from a failed committed attack
            for flank in battle.flanks:
                if not flank.ship and flank.source not in state.turn.locked:
                    state.turn.locked.append(flank.source)
        _close(state, success=False, events=events)


# --- ending a battle ----------------------------------------------------------------------------


def do_retreat(state: GameState, action: Retreat, events: list[Event]) -> None:
    battle = _battle(state, ROLLING)
    if battle.mode != NORMAL:
        raise IllegalAction("committed", "a committed or flanking attack is won or lost, "
                            "never broken off")  # fmt: skip
    events.append({"type": "retreat", "target": battle.target})
    _close(state, success=False, events=events)


def do_move_in(state: GameState, action: MoveIn, events: list[Event]) -> None:
    battle = _battle(state, WON)
    target = state.territories[battle.target]
    standing = [f for f in battle.flanks if not f.out]
    moving = sum(f.standing for f in standing)
    extra = 0
    if battle.mode == NORMAL:
        least = min(battle.last_dice, moving)
        if not least <= action.armies <= moving:
            raise IllegalAction("armies", f"move in {least} to {moving} armies", field="armies")
        extra = action.armies - moving  # <= 0: the rest go back
    else:
        extra = action.armies
        if extra:
            sources = [f.source for f in battle.flanks if not f.ship]
            if action.source not in sources:
                raise IllegalAction("source", f"extra armies come from {sources}", field="source")
            room = state.territories[action.source].armies - 1
            if not 0 <= extra <= room:
                raise IllegalAction("armies", f"{action.source} can send 0 to {room} more",
                                    field="armies")  # fmt: skip
            state.territories[action.source].armies -= extra
    occupying = moving + extra
    if battle.mode == NORMAL and extra < 0:
        _return(state, standing[0], -extra)
    for flank in standing:  # a ship keeps one army as crew when its whole crew fought
        ship = state.ships.get(flank.source) if flank.ship else None
        if ship is not None and ship.armies == 0 and occupying > 1:
            ship.armies, occupying = 1, occupying - 1
    # A ship whose last army went ashore is abandoned, unless it holds captives (this battle's
    # are still in the flank): they become its crew at the end of the turn.
    for flank in standing:
        ship = state.ships.get(flank.source) if flank.ship else None
        if ship is not None and ship.armies == 0 and not ship.captured and not flank.captured:
            board.sink(state, ship, "abandoned", events)
    for flank in battle.flanks:
        flank.standing = 0
    loser = target.owner
    target.owner, target.armies = battle.attacker, occupying
    assert state.turn is not None
    state.turn.took_territory = True
    events.append({"type": "conquered", "territory": battle.target, "by": battle.attacker,
                   "from": loser, "armies": occupying})  # fmt: skip
    _close(state, success=True, events=events)
    board.check_eliminated(state, loser, battle.attacker, events)


def _return(state: GameState, flank: Flank, armies: int) -> None:
    if flank.ship:
        state.ships[flank.source].armies += armies
    else:
        state.territories[flank.source].armies += armies


def _naval_won(state: GameState, events: list[Event]) -> None:
    battle = state.battle
    assert battle is not None
    for flank in battle.flanks:
        if not flank.out:
            _return(state, flank, flank.standing)
            _keep_captured(state.ships[flank.source].captured, battle.defender, flank.captured)
            flank.standing, flank.captured, flank.out = 0, 0, True
    battle.prizes = [s for s in battle.defending_ships if s in state.ships]
    events.append({"type": "battle_won", "target": battle.target, "prizes": list(battle.prizes)})
    battle.stage = PRIZES
    _settle_prizes(state, events)


def boarders(state: GameState) -> list[str]:
    """Attacking ships able to board a prize: two or more armies aboard, still in action."""
    battle = state.battle
    assert battle is not None
    return [
        f.source for f in battle.flanks
        if f.source in state.ships and state.ships[f.source].owner == battle.attacker
        and state.ships[f.source].armies >= 2 and not state.ships[f.source].out_of_action
    ]  # fmt: skip


def _settle_prizes(state: GameState, events: list[Event]) -> None:
    """Prizes nobody can board sink; with none left the battle is over."""
    battle = state.battle
    assert battle is not None
    if not boarders(state):
        for ship_id in battle.prizes:
            board.sink(state, state.ships[ship_id], "sunk", events)
        battle.prizes = []
    if not battle.prizes:
        defender = battle.defender
        _close(state, success=True, events=events)
        board.check_eliminated(state, defender, battle.attacker, events)


def do_prize(state: GameState, action: Prize, events: list[Event]) -> None:
    battle = _battle(state, PRIZES)
    if action.ship not in battle.prizes:
        raise IllegalAction("ship", f"prizes to decide: {battle.prizes}", field="ship")
    prize = state.ships[action.ship]
    if action.by is None:
        board.sink(state, prize, "sunk", events)
    else:
        if action.by not in boarders(state):
            raise IllegalAction("by", f"ships that can board: {boarders(state)}", field="by")
        capturer = state.ships[action.by]
        if not 1 <= action.armies <= capturer.armies - 1:
            raise IllegalAction("armies", f"board with 1 to {capturer.armies - 1} armies",
                                field="armies")  # fmt: skip
        capturer.armies -= action.armies
        prize.owner, prize.armies = battle.attacker, action.armies
        for ship in (capturer, prize):  # rule text: out of action for the rest of the turn
            ship.out_of_action, ship.cruising, ship.moves, ship.cruises = True, False, 0, 0
        events.append({"type": "ship_captured", "ship": prize.id, "by": capturer.id,
                       "armies": action.armies})  # fmt: skip
    battle.prizes.remove(action.ship)
    _settle_prizes(state, events)


def _close(state: GameState, *, success: bool, events: list[Event]) -> None:
    """End the battle: blocks go home, empty defending ships sink, ships' cruises end or chain."""
    battle = state.battle
    assert battle is not None
    for flank in battle.flanks:
        if flank.out:
            continue
        if flank.standing or flank.captured:
            if flank.ship and flank.source in state.ships:
                _return(state, flank, flank.standing)
                _keep_captured(state.ships[flank.source].captured, battle.defender, flank.captured)
            elif not flank.ship:
                _return(state, flank, flank.standing)
                _keep_captured(state.territories[flank.source].captured, battle.defender,
                               flank.captured)  # fmt: skip
        flank.standing, flank.captured = 0, 0
    if battle.kind == NAVAL:
        for ship_id in battle.defending_ships:
            ship = state.ships.get(ship_id)
            if ship is not None and ship.armies == 0 and ship.owner == battle.defender:
                board.sink(state, ship, "sunk", events)
    for flank in battle.flanks:
        ship = state.ships.get(flank.source) if flank.ship else None
        if ship is not None and ship.owner == battle.attacker and not ship.out_of_action:
            ship.cruising, ship.moves = False, 0
            if success:  # rule text: a successful landing or battle earns another cruise
                ship.cruises += 1
    state.battle = None
    events.append({"type": "battle_over", "success": success})


# --- small checks -------------------------------------------------------------------------------


def _no_battle(state: GameState) -> None:
    if state.battle is not None:
        raise IllegalAction("battle", "a battle is in progress")


def _battle(state: GameState, stage: str) -> Battle:
    battle = state.battle
    if battle is None:
        raise IllegalAction("no-battle", "no battle is in progress")
    if battle.stage != stage:
        raise IllegalAction("battle-stage", f"the battle is at its {battle.stage} stage")
    return battle
