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
from risk.rules import board, touched
from risk.rules.actions import (
    ActionSpec,
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
from risk.rules.campaign import campaign_ready
from risk.rules.state import (
    AS_NORMAL,
    COMMITTED,
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
from risk.rules.vocabulary import AttackMode, Refusal

MAX_ROLLS_PER_ACTION = 10_000  # rolling on always ends (each roll destroys an army)


# --- opening a land attack ----------------------------------------------------------------------


def do_attack(state: GameState, action: Attack, dice: Dice, events: list[Event]) -> None:
    campaign_ready(state)
    _no_battle(state)
    assert state.turn is not None
    me = state.turn.seat
    target = state.territories.get(action.target)
    if target is None:
        raise IllegalAction(Refusal.TARGET, f"no territory {action.target!r}", field="target")
    if target.owner == me:
        raise IllegalAction(Refusal.TARGET, f"{action.target} is yours already", field="target")
    _not_the_controller(state, target.owner, action.target, "target")
    _check_mode(action.mode, len(action.flanks), "flanks")
    flanks = [_land_flank(state, action, source, armies) for source, armies in action.flanks]
    _check_room(state, flanks, action.mode)
    if action.mode == FLANKING and len({f.commitment for f in flanks}) != 1:
        raise IllegalAction(
            Refusal.UNEQUAL_FLANKS,
            "flanks start the same size (rule text: 'initially of equal size')",
            field="flanks",
        )
    _check_patrol(state, flanks, target.owner)
    for flank in flanks:
        _take_from_source(state, flank, flank.standing)
    battle = Battle(kind=LAND, mode=AttackMode(action.mode), attacker=me, defender=target.owner,
                    target=action.target, flanks=flanks)  # fmt: skip
    state.battle = battle
    events.append({"type": "attack", "attacker": me, "defender": target.owner,
                   "target": action.target, "mode": action.mode,
                   "flanks": [[f.source, f.standing] for f in flanks]})  # fmt: skip
    _open(state, dice, events)


def protected_seat(state: GameState) -> str | None:
    """The seat an allied army may not attack this turn: the player playing it (RULES.md A11,
    revision 2). None on a player's own turn, and in games of revision 1."""
    turn = state.turn
    if turn is None or turn.for_seat is None or state.options.revision < 2:
        return None
    return turn.for_seat


def _not_the_controller(state: GameState, owner: str, what: str, field: str) -> None:
    """Rule text "Play Allied Army": the player uses the ally against the others, never itself."""
    if owner == protected_seat(state):
        raise IllegalAction(
            Refusal.CONTROLLER,
            f"{what} belongs to {owner}, who plays this allied army this turn: an allied army "
            "does not attack the player playing it",
            field=field,
        )


def least_commitment(state: GameState) -> int:
    """The fewest armies a committed block or flank commits (RULES.md C2; option C10)."""
    return state.options.min_commitment


def defender_dice(state: GameState, commitment: int, pool: int) -> int:
    """The defender's dice against a committed block of ``commitment``: one fewer, every time
    (RULES.md C2); with the option ``defender_dice="normal"`` never fewer than a normal attack's
    2 (C11). At most the armies it has (``pool``)."""
    dice = max(commitment - 1, 1)
    if state.options.defender_dice == AS_NORMAL:
        dice = max(dice, 2)
    return min(dice, pool)


def _check_mode(mode: str, count: int, field: str) -> None:
    if mode not in MODES:
        raise IllegalAction(Refusal.MODE, f"mode is one of {', '.join(MODES)}", field="mode")
    if mode == FLANKING and count < 2:
        raise IllegalAction(
            Refusal.FLANKS, "a flanking attack needs two or more flanks", field=field
        )
    if mode != FLANKING and count != 1:
        raise IllegalAction(
            Refusal.FLANKS, f"a {mode} attack comes from one place; several only when flanking",
            field=field,
        )  # fmt: skip


def _land_flank(state: GameState, action: Attack, source: str, armies: int) -> Flank:
    assert state.turn is not None
    me, bmap = state.turn.seat, board.board_map(state)
    least = 1 if action.mode == NORMAL else least_commitment(state)
    if armies < least:
        raise IllegalAction(
            Refusal.ARMIES, f"a {action.mode} flank commits at least {least} armies", field="flanks"
        )
    if source in state.territories:
        holding = state.territories[source]
        if holding.owner != me:
            raise IllegalAction(Refusal.NOT_YOURS, f"{source} is not yours", field="flanks")
        if source in state.turn.locked:
            raise IllegalAction(
                Refusal.LOCKED, f"a committed attack from {source} failed: no more action from it",
                field="flanks",
            )  # fmt: skip
        if action.target not in bmap.territories[source].adjacent:
            raise IllegalAction(Refusal.NOT_ADJACENT, f"{source} does not border {action.target}",
                                field="flanks")  # fmt: skip
        return Flank(source=source, ship=False, commitment=armies, standing=armies)
    ship = state.ships.get(source)
    if ship is None:
        raise IllegalAction(Refusal.FLANKS, f"{source!r} is neither a territory nor a ship",
                            field="flanks")  # fmt: skip
    _ready_ship(state, ship)
    if action.target not in bmap.coasts_within(ship.station, 1):
        raise IllegalAction(
            Refusal.OUT_OF_REACH, f"{ship.id} at {ship.station} is not within one boat length of "
            f"{action.target}", field="flanks",
        )  # fmt: skip
    return Flank(source=source, ship=True, commitment=armies, standing=armies)


def _ready_ship(state: GameState, ship: Ship) -> None:
    assert state.turn is not None
    if ship.owner != state.turn.seat:
        raise IllegalAction(Refusal.NOT_YOURS, f"{ship.id} is not yours", field="ships")
    if ship.out_of_action:
        raise IllegalAction(Refusal.OUT_OF_ACTION, f"{ship.id} took a prize and is out of action",
                            field="ships")  # fmt: skip
    if not ship.cruising:
        raise IllegalAction(Refusal.NOT_CRUISING, f"{ship.id} acts on a cruise: cruise first",
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
                Refusal.ARMIES, f"{source} can send {room} armies, not {armies}", field="flanks"
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
                Refusal.PATROL,
                f"{defender}'s ships {', '.join(patrol)} patrol the {ocean}: beat them "
                "in a naval battle before landing",
                field="flanks",
            )


def _take_from_source(state: GameState, flank: Flank, armies: int) -> None:
    if flank.ship:
        state.ships[flank.source].armies -= armies
        touched.ship(flank.source)
    else:
        state.territories[flank.source].armies -= armies
        touched.territory(flank.source)


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
    targets = action.targets or (action.target,) * len(action.ships)
    if action.targets and (len(targets) != len(action.ships) or targets[0] != action.target):
        raise IllegalAction(
            Refusal.TARGETS,
            "name one target for each ship, in order; the first is the lead target",
            field="targets",
        )
    seats = set()
    for ship_id in dict.fromkeys(targets):
        where = "target" if ship_id == action.target else "targets"
        target = state.ships.get(ship_id)
        if target is None:
            raise IllegalAction(Refusal.TARGET, f"no ship {ship_id!r}", field=where)
        if target.owner == me:
            raise IllegalAction(Refusal.TARGET, f"{target.id} is your own ship", field=where)
        _not_the_controller(state, target.owner, target.id, where)
        seats.add(target.owner)
    if len(seats) != 1:
        raise IllegalAction(Refusal.TARGETS, "one naval battle engages the ships of one seat only",
                            field="targets")  # fmt: skip
    if action.mode not in MODES:
        raise IllegalAction(Refusal.MODE, f"mode is one of {', '.join(MODES)}", field="mode")
    if not action.ships or len(set(action.ships)) != len(action.ships):
        raise IllegalAction(Refusal.SHIPS, "each ship once", field="ships")
    per_target: dict[str, int] = {}
    for ship_id in targets:
        per_target[ship_id] = per_target.get(ship_id, 0) + 1
    if action.mode == FLANKING and max(per_target.values()) < 2:
        raise IllegalAction(
            Refusal.FLANKS, "a flanking attack needs two or more ships on one target", field="ships"
        )
    if action.mode != FLANKING and max(per_target.values()) > 1:
        raise IllegalAction(
            Refusal.FLANKS,
            f"a {action.mode} attack has one ship on each target; several only when flanking",
            field="ships",
        )
    flanks = []
    for ship_id, target_id in zip(action.ships, targets, strict=True):
        ship = state.ships.get(ship_id)
        if ship is None:
            raise IllegalAction(Refusal.SHIPS, f"no ship {ship_id!r}", field="ships")
        _ready_ship(state, ship)
        if ship.armies < 1:  # captives aboard are no crew (rule text "Flanking Attacks")
            raise IllegalAction(
                Refusal.NO_CREW, f"{ship_id} has no crew aboard to fight", field="ships"
            )
        ocean = bmap.ocean_of(state.ships[target_id].station)
        if bmap.ocean_of(ship.station) != ocean:
            raise IllegalAction(
                Refusal.OTHER_OCEAN,
                f"{ship_id} is not in the {ocean} of {target_id}",
                field="ships",
            )
        armies = ship.armies if action.mode == NORMAL or action.armies == 0 else action.armies
        least = least_commitment(state)
        if action.mode != NORMAL and not least <= armies <= ship.armies:
            raise IllegalAction(
                Refusal.ARMIES, f"{ship_id} commits {least} to {ship.armies} armies, not {armies}",
                field="armies",
            )  # fmt: skip
        flanks.append(Flank(source=ship_id, ship=True, commitment=armies, standing=armies,
                            target=target_id))  # fmt: skip
    if action.mode != NORMAL and len({f.commitment for f in flanks}) != 1:
        raise IllegalAction(Refusal.UNEQUAL_FLANKS, "flanking ships commit equal numbers (armies)",
                            field="armies")  # fmt: skip
    for flank in flanks:
        _take_from_source(state, flank, flank.standing)
    defender = seats.pop()
    state.battle = Battle(kind=NAVAL, mode=AttackMode(action.mode), attacker=me, defender=defender,
                          target=action.target, flanks=flanks,
                          defending_ships=list(dict.fromkeys(targets)))  # fmt: skip
    events.append({"type": "naval_attack", "attacker": me, "defender": defender,
                   "target": action.target, "mode": action.mode,
                   "ships": [[f.source, f.standing] for f in flanks],
                   "targets": list(targets)})  # fmt: skip
    _open(state, dice, events)


def naval_attack_spec(state: GameState) -> ActionSpec | None:
    """The ``naval_attack`` choices of the seat whose campaign it is, or None when it has none.

    Options (JSON-ready)::

        {"defenders": {seat: {ship_id: [target ship ids of that seat in the ship's ocean]}},
         "crew": {ship_id: armies aboard},
         "modes": {mode: {"max_per_target": int | None, "min_on_a_target": int,
                          "min_armies": int}}}

    Only ships that may fight are listed: own, cruising, in action, with a crew of their own.
    To build an action: pick one defender seat; pick ships of ``defenders[seat]`` and for each a
    target from its list (``NavalAttack.ships``/``targets``, ``target`` = the first target);
    pick a mode whose limits the grouping meets: no target has more than ``max_per_target``
    ships (None: any number) and some target has at least ``min_on_a_target``. ``min_armies``
    0 means every army aboard fights (``armies`` 0); otherwise every ship commits the same
    ``armies``, from ``min_armies`` to the least ``crew`` of the chosen ships. A mode is listed
    only when some grouping of the listed ships allows it.
    """
    assert state.turn is not None
    me, bmap = state.turn.seat, board.board_map(state)
    spared, least = protected_seat(state), least_commitment(state)
    defenders: dict[str, dict[str, list[str]]] = {}
    crew: dict[str, int] = {}
    for ship in state.ships_of(me):
        if not ship.cruising or ship.out_of_action or ship.armies < 1:
            continue
        ocean = bmap.ocean_of(ship.station)
        for enemy in sorted(state.ships.values(), key=lambda s: s.id):
            if enemy.owner not in (me, spared) and bmap.ocean_of(enemy.station) == ocean:
                defenders.setdefault(enemy.owner, {}).setdefault(ship.id, []).append(enemy.id)
                crew[ship.id] = ship.armies
    if not defenders:
        return None
    modes: dict[str, dict[str, int | None]] = {
        NORMAL: {"max_per_target": 1, "min_on_a_target": 1, "min_armies": 0}
    }
    if any(armies >= least for armies in crew.values()):
        modes[COMMITTED] = {"max_per_target": 1, "min_on_a_target": 1, "min_armies": least}
    for fleet in defenders.values():
        able: dict[str, int] = {}
        for ship_id, choices in fleet.items():
            if crew[ship_id] >= least:
                for target in choices:
                    able[target] = able.get(target, 0) + 1
        if any(count >= 2 for count in able.values()):
            modes[FLANKING] = {"max_per_target": None, "min_on_a_target": 2, "min_armies": least}
    return ActionSpec("naval_attack", {"defenders": defenders, "crew": crew, "modes": modes})


def _engagements(battle: Battle) -> list[str]:
    """The targets of a naval battle, in order: each is engaged by the flanks naming it."""
    return list(dict.fromkeys(f.target for f in battle.flanks if f.target is not None))


def _pool(state: GameState, target: str) -> list[Ship]:
    """An engagement's defenders still fighting for the defender: the target, then its backers."""
    battle = state.battle
    assert battle is not None
    names = [target] + [s for s in battle.defending_ships if battle.support.get(s) == target]
    return [
        state.ships[s] for s in names
        if s in state.ships and state.ships[s].owner == battle.defender
    ]  # fmt: skip


def _backable(state: GameState, ship_id: str) -> list[str]:
    """The attacked ships a joining ship may back: those afloat in its own ocean."""
    battle = state.battle
    assert battle is not None
    bmap = board.board_map(state)
    ocean = bmap.ocean_of(state.ships[ship_id].station)
    return [t for t in _engagements(battle)
            if t in state.ships and bmap.ocean_of(state.ships[t].station) == ocean]  # fmt: skip


def join_candidates(state: GameState) -> list[str]:
    """The defender's ships that nobody attacked, in the ocean of an attacked ship."""
    battle = state.battle
    assert battle is not None and battle.kind == NAVAL
    return sorted(
        s.id for s in state.ships_of(battle.defender)
        if s.id not in battle.defending_ships and _backable(state, s.id)
    )  # fmt: skip


def join_spec_options(state: GameState) -> dict[str, object]:
    """``join_defence`` choices: the ships that may join, and the targets each may back."""
    ships = join_candidates(state)
    return {"ships": ships, "behind": {s: _backable(state, s) for s in ships}}


def do_join_defence(state: GameState, action: JoinDefence, events: list[Event]) -> None:
    battle = _battle(state, JOIN)
    allowed = join_candidates(state)
    unknown = [s for s in action.ships if s not in allowed]
    if unknown or len(set(action.ships)) != len(action.ships):
        raise IllegalAction(Refusal.SHIPS, f"ships that may join: {allowed}", field="ships")
    if action.behind and len(action.behind) != len(action.ships):
        raise IllegalAction(
            Refusal.BEHIND,
            "name the attacked ship each joining ship backs, in order",
            field="behind",
        )
    behind = action.behind or (battle.target,) * len(action.ships)
    for ship_id, target in zip(action.ships, behind, strict=True):
        if target not in _backable(state, ship_id):
            raise IllegalAction(Refusal.BEHIND, f"{ship_id} may back {_backable(state, ship_id)}",
                                field="behind")  # fmt: skip
    battle.defending_ships += list(action.ships)
    battle.support.update(zip(action.ships, behind, strict=True))
    battle.stage = ROLLING
    events.append({"type": "defence_joined", "defender": battle.defender,
                   "ships": list(action.ships), "behind": list(behind)})  # fmt: skip
    _naval_progress(state, events)


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
        _after_mobilization(state, events)
        return
    state.turn.attacked.append(defender.id)
    owned = state.owned(defender.id)
    if not owned:  # a pirate has nowhere to put a bonus
        _after_mobilization(state, events)
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
        rolls, placed_on = _reveal(state, defender, cards, dice)
        wild_rolls += rolls
        events.append({"type": "revealed", "seat": defender.id, "cards": cards,
                       "placed": placed_on, "wild_rolls": rolls})  # fmt: skip
    asks = may_reveal and not automatic and bool(defender.risk_cards)
    if wild_rolls or asks:
        battle.stage = MOBILIZE
        battle.mobilization = {"cut": card, "wild_rolls": wild_rolls, "may_reveal": asks}
        return
    _after_mobilization(state, events)


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
    touched.territory(territory)
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
                Refusal.REVEAL,
                f"{card!r}: reveal only wild cards and cards of your own territories "
                "from your hand, each once",
                field="reveal",
            )
        eligible.remove(card)
    wilds = len(mobilization["wild_rolls"]) + action.reveal.count(WILD)
    owned = set(state.owned(battle.defender))
    if len(action.wild_territories) != wilds or not set(action.wild_territories) <= owned:
        raise IllegalAction(
            Refusal.WILD_TERRITORIES, f"name one of your territories for each of {wilds} wild dice",
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
    _after_mobilization(state, events)


def _after_mobilization(state: GameState, events: list[Event]) -> None:
    battle = state.battle
    assert battle is not None
    battle.stage = JOIN if battle.kind == NAVAL and join_candidates(state) else ROLLING
    if battle.kind == NAVAL and battle.stage == ROLLING:
        _naval_progress(state, events)  # a target with no army aboard is a prize at once


# --- rolling ------------------------------------------------------------------------------------


def do_roll(state: GameState, action: Roll, dice: Dice, events: list[Event]) -> None:
    battle = _battle(state, ROLLING)
    flank = battle.flanks[battle.next_flank]
    if action.add:
        if battle.mode == NORMAL:
            raise IllegalAction(Refusal.ADD, "only committed and flanking blocks take more armies",
                                field="add")  # fmt: skip
        reserve = _reserve(state, flank)
        if not 0 < action.add <= reserve:
            raise IllegalAction(Refusal.ADD, f"{flank.source} can add 1 to {reserve} armies",
                                field="add")  # fmt: skip
        _take_from_source(state, flank, action.add)
        flank.standing += action.add
        flank.commitment = max(flank.commitment, flank.standing)  # raising, never lowering
    if action.dice and (battle.mode != NORMAL or not 1 <= action.dice <= 3):
        raise IllegalAction(
            Refusal.DICE, "a normal attack rolls 1 to 3 dice; a committed block rolls one per army",
            field="dice",
        )  # fmt: skip
    if action.until_armies < 0:
        raise IllegalAction(Refusal.UNTIL, "roll until 1 or more armies are left (0: not set)",
                            field="until_armies")  # fmt: skip
    rolling_on = action.until_decided or action.until_armies > 0
    for _ in range(MAX_ROLLS_PER_ACTION):
        _roll_once(state, dice, events, action.dice)
        if not rolling_on or state.battle is None or state.battle.stage != ROLLING:
            return
        if action.until_armies and attacker_armies(state.battle) <= action.until_armies:
            return


def attacker_armies(battle: Battle) -> int:
    """The attacker's armies still fighting in the battle (every flank's block)."""
    return sum(f.standing for f in battle.flanks if not f.out)


def defender_armies(state: GameState) -> int:
    """The armies defending: the territory's, or all defending ships' (naval)."""
    battle = state.battle
    assert battle is not None
    if battle.kind == LAND:
        return state.territories[battle.target].armies
    return sum(sum(s.armies for s in _pool(state, t)) for t in _engagements(battle))


def _roll_once(state: GameState, dice: Dice, events: list[Event], chosen: int = 0) -> None:
    """One roll of the flank whose turn it is. A normal attack rolls the dice the attacker chose
    (``chosen``, 0 = as many as allowed) against the defender's standing choice (RULES.md C1b)."""
    battle = state.battle
    assert battle is not None
    flank = battle.flanks[battle.next_flank]
    mates = [f for f in battle.flanks if not f.out and f.target == flank.target]
    if battle.kind == LAND:
        pool = state.territories[battle.target].armies
    else:  # the defender rolls from the pool of this flank's engagement only
        assert flank.target is not None
        pool = sum(s.armies for s in _pool(state, flank.target))
    if battle.mode == NORMAL:
        a_dice = min(chosen or 3, 3, flank.standing)
        d_dice = min(state.seat(battle.defender).defence_dice, 2, pool)
    else:  # the defender rolls one fewer than the commitment, every time (or an option's)
        a_dice, d_dice = flank.standing, defender_dice(state, flank.commitment, pool)
    bonus = battle.mode == FLANKING and len(mates) >= 2  # one flank left: a committed attack
    front = _front_ship(state, flank.target) if flank.target is not None else None
    report = roll_dice(a_dice, d_dice, bonus=bonus, dice=dice)
    compared = len(report.comparisons)
    captured = 1 if bonus and report.attacker_losses == 0 and report.defender_losses else 0
    flank.standing -= report.attacker_losses
    flank.captured += captured
    board.destroy(state, "battle", report.attacker_losses + report.defender_losses - captured)
    _defender_loses(state, flank.target, report.defender_losses)
    battle.last_dice, battle.rolls = a_dice, battle.rolls + 1
    event: Event = {"type": "roll", "flank": battle.next_flank, **report.as_dict(),
                    "captured": captured}  # fmt: skip
    if flank.target is not None:
        event["target"] = flank.target
    events.append(event)
    if battle.kind == NAVAL and compared:  # rule text: a total defeat risks the ship itself
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
    if battle.kind == NAVAL:
        _naval_progress(state, events)
    else:
        _maybe_decided(state, events)


def _front_ship(state: GameState, target: str) -> str | None:
    """The engagement's first defending ship with armies aboard: the target, then its backers."""
    return next((s.id for s in _pool(state, target) if s.armies > 0), None)


def _defender_loses(state: GameState, target: str | None, losses: int) -> None:
    battle = state.battle
    assert battle is not None
    if target is None:
        state.territories[battle.target].armies -= losses
        touched.territory(battle.target)
        return
    for ship in _pool(state, target):  # the target first, then its backers in order
        taken = min(ship.armies, losses)
        if taken:
            ship.armies -= taken
            touched.ship(ship.id)
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
        touched.territory(flank.source)
        return
    ship = state.ships.get(flank.source)
    if ship is None:  # already sunk: the captured armies went down with it
        board.destroy(state, "sunk", captured)
        return
    crewed = any(f.source == ship.id and not f.out for f in battle.flanks)
    touched.ship(ship.id)
    if ship.armies > 0 or crewed:  # the ship still has a crew (aboard, or in another flank)
        _keep_captured(ship.captured, battle.defender, captured)
    elif captured or (state.options.revision >= 2 and ship.captured.get(battle.defender)):
        # Rule text: captured armies on the ship commandeer it for the defender: those taken in
        # this battle, and (revision 2) the defender's armies already held captive aboard.
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
        battle.stage = WON
        events.append({"type": "battle_won", "target": battle.target})
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
        raise IllegalAction(Refusal.COMMITTED, "a committed or flanking attack is won or lost, "
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
            raise IllegalAction(
                Refusal.ARMIES, f"move in {least} to {moving} armies", field="armies"
            )
        extra = action.armies - moving  # <= 0: the rest go back
    else:
        extra = action.armies
        if extra:
            sources = [f.source for f in battle.flanks if not f.ship]
            if action.source not in sources:
                raise IllegalAction(
                    Refusal.SOURCE, f"extra armies come from {sources}", field="source"
                )
            room = state.territories[action.source].armies - 1
            if not 0 <= extra <= room:
                raise IllegalAction(Refusal.ARMIES, f"{action.source} can send 0 to {room} more",
                                    field="armies")  # fmt: skip
            state.territories[action.source].armies -= extra
            touched.territory(action.source)
    occupying = moving + extra
    if battle.mode == NORMAL and extra < 0:
        _return(state, standing[0], -extra)
    for flank in standing:  # a ship keeps one army as crew when its whole crew fought
        ship = state.ships.get(flank.source) if flank.ship else None
        if ship is not None and ship.armies == 0 and occupying > 1:
            ship.armies, occupying = 1, occupying - 1
            touched.ship(ship.id)
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
    touched.territory(battle.target)
    assert state.turn is not None
    state.turn.took_territory = True
    events.append({"type": "conquered", "territory": battle.target, "by": battle.attacker,
                   "from": loser, "armies": occupying})  # fmt: skip
    _close(state, success=True, events=events)
    board.check_eliminated(state, loser, battle.attacker, events)


def _return(state: GameState, flank: Flank, armies: int) -> None:
    if flank.ship:
        state.ships[flank.source].armies += armies
        touched.ship(flank.source)
    else:
        state.territories[flank.source].armies += armies
        touched.territory(flank.source)


def _naval_progress(state: GameState, events: list[Event]) -> None:
    """After each change to a naval battle: emptied defending ships become prizes at once,
    engagements are decided, pending prizes wait for ``Prize`` (or sink when nobody can board),
    and the battle closes once every engagement is decided."""
    battle = state.battle
    assert battle is not None and battle.kind == NAVAL
    for ship_id in battle.defending_ships:
        ship = state.ships.get(ship_id)
        emptied = ship is not None and ship.owner == battle.defender and ship.armies == 0
        if emptied and ship_id not in battle.prizes:
            battle.prizes.append(ship_id)
    for target in _engagements(battle):
        if target in battle.decided:
            continue
        flanks = [f for f in battle.flanks if f.target == target]
        pool = _pool(state, target)
        if sum(s.armies for s in pool) == 0:  # won: the flanks go back aboard
            for flank in flanks:
                if not flank.out:
                    _back_aboard(state, flank)
            battle.decided[target] = "won"
            named = [target] + [s for s, t in battle.support.items() if t == target]
            events.append({"type": "battle_won", "target": target,
                           "prizes": [p for p in battle.prizes if p in named]})  # fmt: skip
        elif all(f.out for f in flanks):
            battle.decided[target] = "lost"
            events.append({"type": "battle_lost", "target": target, "mode": battle.mode})
    if battle.prizes and not boarders(state):  # rule text: insufficient armies, the ship sinks
        for ship_id in battle.prizes:
            board.sink(state, state.ships[ship_id], "sunk", events)
        battle.prizes = []
    if battle.prizes:
        battle.stage = PRIZES
        return
    if all(t in battle.decided for t in _engagements(battle)):
        defender = battle.defender
        _close(state, success=True, events=events)
        board.check_eliminated(state, defender, battle.attacker, events)
        return
    battle.stage = ROLLING
    if battle.flanks[battle.next_flank].out:
        _next_flank(battle)


def _back_aboard(state: GameState, flank: Flank) -> None:
    """A naval flank's fight is over: its armies go back aboard, its captives stay aboard."""
    battle = state.battle
    assert battle is not None
    if flank.source in state.ships:
        _return(state, flank, flank.standing)  # (touches the ship)
        _keep_captured(state.ships[flank.source].captured, battle.defender, flank.captured)
    flank.standing, flank.captured, flank.out = 0, 0, True


def boarders(state: GameState) -> dict[str, int]:
    """Attacking ships able to board a prize, each with the most armies it may board with: still
    afloat, the attacker's, in action, with two or more armies aboard and fighting (one stays)."""
    battle = state.battle
    assert battle is not None
    able: dict[str, int] = {}
    for flank in battle.flanks:
        ship = state.ships.get(flank.source)
        if ship is None or ship.owner != battle.attacker or ship.out_of_action:
            continue
        armies = ship.armies + (0 if flank.out else flank.standing)
        if armies >= 2:
            able[ship.id] = armies - 1
    return able


def prize_spec_options(state: GameState) -> dict[str, object]:
    """``prize`` choices: the prizes to decide, and each boarder's most armies (at least 1)."""
    battle = state.battle
    assert battle is not None
    return {"ships": list(battle.prizes), "boarders": boarders(state)}


def do_prize(state: GameState, action: Prize, events: list[Event]) -> None:
    battle = _battle(state, PRIZES)
    if action.ship not in battle.prizes:
        raise IllegalAction(Refusal.SHIP, f"prizes to decide: {battle.prizes}", field="ship")
    prize = state.ships[action.ship]
    if action.by is None:
        board.sink(state, prize, "sunk", events)
    else:
        able = boarders(state)
        if action.by not in able:
            raise IllegalAction(Refusal.BY, f"ships that can board: {sorted(able)}", field="by")
        if not 1 <= action.armies <= able[action.by]:
            raise IllegalAction(Refusal.ARMIES, f"board with 1 to {able[action.by]} armies",
                                field="armies")  # fmt: skip
        capturer = state.ships[action.by]
        for flank in battle.flanks:  # a ship still fighting leaves its fight to board
            if flank.source == capturer.id and not flank.out:
                _back_aboard(state, flank)
                target = flank.target
                if (
                    target is not None
                    and target not in battle.decided
                    and all(f.out for f in battle.flanks if f.target == target)
                ):
                    battle.decided[target] = "left"
        capturer.armies -= action.armies
        prize.owner, prize.armies = battle.attacker, action.armies
        touched.ship(capturer.id)
        touched.ship(prize.id)
        for ship in (capturer, prize):  # rule text: out of action for the rest of the turn
            ship.out_of_action, ship.cruising, ship.moves, ship.cruises = True, False, 0, 0
        events.append({"type": "ship_captured", "ship": prize.id, "by": capturer.id,
                       "armies": action.armies})  # fmt: skip
    battle.prizes.remove(action.ship)
    _naval_progress(state, events)


def _close(state: GameState, *, success: bool, events: list[Event]) -> None:
    """End the battle: blocks go home, empty defending ships sink, ships' cruises end or chain."""
    battle = state.battle
    assert battle is not None
    for flank in battle.flanks:
        if flank.out:
            continue
        if flank.standing or flank.captured:  # (``_return`` touches the source)
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
    if battle.kind == NAVAL:  # each engagement won earns its ships a cruise (RULES.md H4)
        success = any(result == "won" for result in battle.decided.values())
    for flank in battle.flanks:
        ship = state.ships.get(flank.source) if flank.ship else None
        if ship is not None and ship.owner == battle.attacker and not ship.out_of_action:
            ship.cruising, ship.moves = False, 0
            if battle.kind == LAND:
                won = success
            else:  # a naval flank always names its target
                won = flank.target is not None and battle.decided.get(flank.target) == "won"
            if won:  # rule text: a successful landing or battle earns another cruise
                ship.cruises += 1
    state.battle = None
    events.append({"type": "battle_over", "success": success})


# --- small checks -------------------------------------------------------------------------------


def _no_battle(state: GameState) -> None:
    if state.battle is not None:
        raise IllegalAction(Refusal.BATTLE, "a battle is in progress")


def _battle(state: GameState, stage: str) -> Battle:
    battle = state.battle
    if battle is None:
        raise IllegalAction(Refusal.NO_BATTLE, "no battle is in progress")
    if battle.stage != stage:
        raise IllegalAction(Refusal.BATTLE_STAGE, f"the battle is at its {battle.stage} stage")
    return battle
