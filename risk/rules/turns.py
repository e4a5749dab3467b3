"""A turn from reinforcement to its end, the turn order, joining, leaving and the end of the game.

Rule text "Reënforcing at Start of Turn", "Card Turn-in", "End of Player Turn", "Joining and
Leaving Mid-Game"; decisions in risk/RULES.md.
"""

from __future__ import annotations

from collections import deque

from combat.cards import CardError, turn_in
from combat.dice import Dice
from combat.poker.cards import SUITS
from risk.rules import board, touched
from risk.rules.actions import (
    Deploy,
    Discard,
    EndTurn,
    IllegalAction,
    Join,
    Place,
    PlaceFactory,
    PlaceShip,
    Transfer,
    TurnIn,
)
from risk.rules.board import Event
from risk.rules.campaign import campaign_ready
from risk.rules.endings import settle_unfinished
from risk.rules.state import (
    AI_PREFIX,
    ALLIED,
    ALLY_OWN,
    DOMINATION,
    END,
    PLAYER,
    REINFORCE,
    ROUND_LIMIT,
    STALEMATE,
    WILD,
    GameState,
    Seat,
    Turn,
)
from risk.rules.vocabulary import Refusal

REWARDS = ("armies", "factory", "ship")


# --- starting a turn ----------------------------------------------------------------------------


def start_turn(
    state: GameState, seat_id: str, controller: str, events: list[Event], *,
    for_seat: str | None = None,
) -> None:  # fmt: skip
    """Reinforcements (territories / 3 or the pot, continents, factories) and fresh ships.

    A pirate whose ships can neither land nor fight is out instead (RULES.md J6), and the turn
    passes on: nothing it could ever do would change the game.
    """
    seat = state.seat(seat_id)
    if board.stranded(state, seat_id):
        board.scuttle(state, seat_id, events)
        advance(state, for_seat or seat_id, events)
        return
    if for_seat is None and _landless_out(state, seat, events):
        return
    state.turn_number += 1
    state.turn = Turn(seat=seat_id, controller=controller, for_seat=for_seat)
    for ship in state.ships.values():
        ship.cruises = 1 if ship.owner == seat_id else 0
        ship.moves, ship.cruising, ship.out_of_action, ship.ports = 0, False, False, []
    owned = state.owned(seat_id)
    base, from_pot = 0, False
    if owned:  # a pirate cannot reinforce, not even from poker winnings (pot kept for later)
        if seat.pot is not None:
            base, from_pot, seat.pot = seat.pot, True, None
        else:
            base = board.stake(state, seat_id)
    factory_armies = 0
    for name in owned:
        if state.territories[name].factory:
            state.territories[name].armies += board.FACTORY_ARMIES
            touched.territory(name)
            factory_armies += board.FACTORY_ARMIES
    board.create(state, "factory", factory_armies)
    state.turn.to_place = base
    events.append({"type": "turn_started", "seat": seat_id, "controller": controller,
                   "turn_number": state.turn_number, "round": state.round,
                   "reinforcements": base, "from_pot": from_pot,
                   "factory_armies": factory_armies})  # fmt: skip


def _landless_out(state: GameState, seat: Seat, events: list[Event]) -> bool:
    """RULES.md J10 (revision 2): a player that began its last ``pirate_turns`` turns without a
    territory is out at the start of the next. True when its turn does not happen: scuttled and
    eliminated by nobody (J6), or, when no live player holds land any more, the game ends in a
    stalemate ranked as at the round limit."""
    limit = state.options.pirate_turns
    if state.options.revision < 2 or limit is None or seat.kind != PLAYER:
        return False
    if state.owned(seat.id):
        state.landless.pop(seat.id, None)
        return False
    begun = state.landless.get(seat.id, 0)
    if begun < limit:
        state.landless[seat.id] = begun + 1
        return False
    state.landless.pop(seat.id, None)
    landed = [p for p in board.active_players(state) if p.id != seat.id and state.owned(p.id)]
    if not landed:
        events.append({"type": "landless", "seat": seat.id, "turns": begun, "out": False})
        end_game(state, None, STALEMATE, events)
        return True
    events.append({"type": "landless", "seat": seat.id, "turns": begun, "out": True})
    for ship in state.ships_of(seat.id):
        board.sink(state, ship, "scuttled", events)
    board.check_eliminated(state, seat.id, None, events)
    advance(state, seat.id, events)
    return True


def _turn(state: GameState) -> Turn:
    if state.turn is None:
        raise IllegalAction(Refusal.NO_TURN, "the game has not started")
    return state.turn


# --- reinforcement ------------------------------------------------------------------------------


def turn_in_refusal(state: GameState) -> str | None:
    """Why the seat whose turn it is may not turn in another set now (None: it may).

    Revision 2 (RULES.md R8): one turn-in a turn ("A player gets either: ..."), and a further
    one only while the hand still holds 5 or more cards, which must be turned in before the
    campaign (R4): a hand of 8 turns in twice, a hand of 6 once.
    """
    turn = _turn(state)
    if state.options.revision < 2 or not turn.turned_in:
        return None
    held = len(state.seat(turn.seat).risk_cards)
    if held >= board.MUST_TURN_IN_AT:
        return None
    return (
        f"one card turn-in a turn: a further set only while you hold {board.MUST_TURN_IN_AT} "
        f"or more cards (you hold {held})"
    )


def do_turn_in(state: GameState, action: TurnIn, dice: Dice, events: list[Event]) -> None:
    turn = _require_phase(state, REINFORCE)
    seat = state.seat(turn.seat)
    refusal = turn_in_refusal(state)
    if refusal is not None:
        raise IllegalAction(Refusal.ONE_TURN_IN, refusal, field="cards")
    if action.reward not in REWARDS:
        raise IllegalAction(
            Refusal.REWARD, f"reward is one of {', '.join(REWARDS)}", field="reward"
        )
    owned = state.owned(seat.id)
    if not owned:
        raise IllegalAction(
            Refusal.PIRATE, "a pirate cannot reinforce: no turn-in without a territory"
        )
    if action.reward == "ship" and not board.coastal_stations(state, owned):
        raise IllegalAction(Refusal.NO_COAST, "no shipbuilding without a coastline", field="reward")
    try:
        result = turn_in(
            [board.card_of(state, c) for c in seat.risk_cards],
            [board.card_of(state, c) for c in action.cards],
            reward=action.reward,  # type: ignore[arg-type]
            owned_territories=owned,
            dice=dice,
        )
    except CardError as error:
        raise IllegalAction(Refusal.CARD_SET, error.message, field="cards") from error
    except KeyError as error:
        raise IllegalAction(Refusal.CARD_SET, f"no such card {error}", field="cards") from error
    seat.risk_cards = [c.territory if c.territory is not None else WILD for c in result.hand]
    for card in action.cards:  # a card turned in may be revealed again once drawn (RULES.md M6)
        if card in seat.revealed:
            seat.revealed.remove(card)
    state.risk_deck.discard += list(action.cards)
    touched.pile(touched.RISK, touched.HAND, seat.id)
    touched.pile(touched.RISK, touched.DISCARD)
    turn.turned_in += 1
    turn.to_place += result.armies
    turn.factories_to_place += result.factories
    if result.ship_armies is not None:
        turn.ships_to_place.append(result.ship_armies)
    for name, armies in result.territory_bonus.items():
        state.territories[name].armies += armies
        touched.territory(name)
        board.create(state, "cards", armies)
    events.append({"type": "turned_in", "seat": seat.id, "cards": list(action.cards),
                   "reward": action.reward, "rolls": list(result.rolls),
                   "territory_bonus": dict(result.territory_bonus)})  # fmt: skip


def do_place(state: GameState, action: Place, events: list[Event]) -> None:
    turn = _require_phase(state, REINFORCE)
    _own_territory(state, turn.seat, action.territory, "territory")
    if not 1 <= action.armies <= turn.to_place:
        raise IllegalAction(
            Refusal.ARMIES,
            f"place 1 to {turn.to_place} armies, not {action.armies}",
            field="armies",
        )
    state.territories[action.territory].armies += action.armies
    touched.territory(action.territory)
    turn.to_place -= action.armies
    board.create(state, "reinforcement", action.armies)
    events.append({"type": "placed", "seat": turn.seat, "territory": action.territory,
                   "armies": action.armies})  # fmt: skip


def do_deploy(state: GameState, action: Deploy, events: list[Event]) -> None:
    """Each placement in order, as its own ``Place``; the first refused one refuses the whole
    batch, naming its entry (the engine applies to a copy, so nothing of it stays)."""
    if not action.placements:
        raise IllegalAction(Refusal.ARMIES, "name at least one placement", field="placements")
    for i, (territory, armies) in enumerate(action.placements):
        try:
            do_place(state, Place(action.player, territory, armies), events)
        except IllegalAction as exc:
            raise IllegalAction(
                exc.code, f"placement {i + 1} ({armies} on {territory}): {exc.reason}",
                field=f"placements[{i}]",
            ) from exc  # fmt: skip


def do_place_ship(state: GameState, action: PlaceShip, events: list[Event]) -> None:
    turn = _require_phase(state, REINFORCE)
    if not turn.ships_to_place:
        raise IllegalAction(Refusal.NO_SHIP, "you have no new ship to launch")
    stations = board.coastal_stations(state, state.owned(turn.seat))
    if action.station not in stations:
        raise IllegalAction(Refusal.STATION, f"{action.station!r} is not off one of your coasts",
                            field="station")  # fmt: skip
    crew = turn.ships_to_place.pop(0)
    ship = board.new_ship(state, turn.seat, action.station, crew)
    if state.options.revision >= 2:  # RULES.md H2b: each ship acts at least once a turn
        ship.cruises = 1
    board.create(state, "ship", crew)
    events.append({"type": "ship_launched", "seat": turn.seat, "ship": ship.id,
                   "station": action.station, "armies": crew})  # fmt: skip


# --- end of the turn ----------------------------------------------------------------------------


def do_end_campaign(state: GameState, dice: Dice, events: list[Event]) -> None:
    """Cards for a conquest, captured armies converted; factories, transfer and discards follow."""
    campaign_ready(state)
    turn = _turn(state)
    if state.battle is not None:
        raise IllegalAction(Refusal.BATTLE, "finish the battle first")
    turn.phase = END
    seat = state.seat(turn.seat)
    if turn.took_territory:
        # An allied army's conquest gives its player the additional cards and, unless the option
        # says the declarer alone draws, the ally its own Risk card (RULES.md A8).
        if turn.for_seat is None:
            events.append(board.give_cards(state, seat, 1, 1, dice))
        else:
            if state.options.ally_cards == ALLY_OWN:
                events.append(board.give_cards(state, seat, 1, 0, dice))
            events.append(board.give_cards(state, state.seat(turn.for_seat), 1, 1, dice))
    converted = 0
    for name, holding in state.territories.items():
        if holding.owner == seat.id and holding.captured:
            converted += sum(holding.captured.values())
            holding.armies += sum(holding.captured.values())
            holding.captured = {}
            touched.territory(name)
    for ship in state.ships.values():
        ship.cruising, ship.moves = False, 0
        if ship.owner == seat.id and ship.captured:
            converted += sum(ship.captured.values())
            ship.armies += sum(ship.captured.values())
            ship.captured = {}
            touched.ship(ship.id)
    if not factory_sites(state):
        turn.factories_to_place = 0
    events.append({"type": "campaign_ended", "seat": seat.id, "converted": converted})


def factory_sites(state: GameState) -> list[str]:
    turn = _turn(state)
    return [n for n in state.owned(turn.seat) if not state.territories[n].factory]


def do_place_factory(state: GameState, action: PlaceFactory, events: list[Event]) -> None:
    turn = _require_phase(state, END)
    if not turn.factories_to_place:
        raise IllegalAction(Refusal.NO_FACTORY, "you have no factory to place")
    if action.territory not in factory_sites(state):
        raise IllegalAction(
            Refusal.TERRITORY, "a factory goes on an own territory without one", field="territory"
        )
    state.territories[action.territory].factory = True
    touched.territory(action.territory)
    turn.factories_to_place -= 1
    if not factory_sites(state):
        turn.factories_to_place = 0
    events.append({"type": "factory_built", "seat": turn.seat, "territory": action.territory})


def do_transfer(state: GameState, action: Transfer, events: list[Event]) -> None:
    turn = _require_phase(state, END)
    if turn.transferred:
        raise IllegalAction(Refusal.TRANSFERRED, "one troop transfer per turn")
    _own_territory(state, turn.seat, action.source, "source")
    _own_territory(state, turn.seat, action.destination, "destination")
    if action.destination == action.source:
        raise IllegalAction(
            Refusal.DESTINATION, "transfer to another territory", field="destination"
        )
    if action.destination not in connected(state, action.source):
        raise IllegalAction(
            Refusal.NOT_CONNECTED,
            f"no path of your own territories from {action.source} to {action.destination}",
            field="destination",
        )
    room = state.territories[action.source].armies - 1
    if not 1 <= action.armies <= room:
        raise IllegalAction(Refusal.ARMIES, f"move 1 to {room} armies (one stays)", field="armies")
    state.territories[action.source].armies -= action.armies
    state.territories[action.destination].armies += action.armies
    touched.territory(action.source)
    touched.territory(action.destination)
    turn.transferred = True
    events.append({"type": "transferred", "seat": turn.seat, "source": action.source,
                   "destination": action.destination, "armies": action.armies})  # fmt: skip


def connected(state: GameState, start: str) -> set[str]:
    """Own territories reachable from ``start`` over own territories."""
    owner = state.territories[start].owner
    bmap = board.board_map(state)
    seen, todo = {start}, deque([start])
    while todo:
        for nxt in bmap.territories[todo.popleft()].adjacent:
            if nxt not in seen and state.territories[nxt].owner == owner:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def discard_holder(state: GameState) -> Seat:
    """Whose poker stash the five-card limit applies to at this turn's end: the player's."""
    turn = _turn(state)
    return state.seat(turn.for_seat or turn.seat)


def do_discard(state: GameState, action: Discard, events: list[Event]) -> None:
    _require_phase(state, END)
    seat = discard_holder(state)
    excess = len(seat.poker_cards) - board.POKER_LIMIT
    if excess <= 0:
        raise IllegalAction(Refusal.NO_DISCARD, "you hold five poker cards or fewer")
    if len(action.cards) != excess or not _holds(seat.poker_cards, action.cards):
        raise IllegalAction(
            Refusal.CARDS, f"discard exactly {excess} of your poker cards", field="cards"
        )
    for card in action.cards:
        seat.poker_cards.remove(card)
    state.poker_deck.discard += list(action.cards)
    touched.pile(touched.POKER, touched.HAND, seat.id)
    touched.pile(touched.POKER, touched.DISCARD)
    events.append({"type": "discarded", "seat": seat.id, "count": excess})


def check_end_turn(state: GameState, action: EndTurn) -> None:
    turn = _require_phase(state, END)
    if turn.factories_to_place:
        raise IllegalAction(Refusal.PLACE_FACTORY, "place the factory you won first")
    if len(discard_holder(state).poker_cards) > board.POKER_LIMIT:
        raise IllegalAction(Refusal.DISCARD, "discard down to five poker cards first")
    if action.ally is not None:
        if turn.for_seat is not None or state.seat(turn.seat).kind != PLAYER:
            raise IllegalAction(Refusal.ALLY, "only a player's own turn ends with playing an ally",
                                field="ally")  # fmt: skip
        live = [s.id for s in declarable_allies(state)]
        if action.ally not in live:
            raise IllegalAction(Refusal.ALLY, f"no live allied army {action.ally!r}; live: {live}",
                                field="ally")  # fmt: skip


def declarable_allies(state: GameState) -> list[Seat]:
    """Live allied armies a player may declare: not a stranded pirate army (RULES.md J6)."""
    return [s for s in board.live_allies(state) if not board.stranded(state, s.id)]


def advance(state: GameState, after: str, events: list[Event]) -> None:
    """The next living player after seat ``after`` takes a turn (a new round after the last)."""
    state.turn = None
    if finish_if_over(state, events):
        return
    # Every seat keeps its place in the order, so a player who just left (now an allied army)
    # still marks where the turn passes from; only players' seats take turns.
    order = turn_order(state)
    position = next((i for i, s in enumerate(order) if s.id == after), len(order) - 1)
    for step in range(1, len(order) + 1):
        index = (position + step) % len(order)
        candidate = order[index]
        if candidate.kind == PLAYER and candidate.alive and candidate.set_up:
            if index <= position:
                state.round += 1
                limit = state.options.round_limit
                if state.options.win == ROUND_LIMIT and limit is not None and state.round > limit:
                    end_game(state, None, "round-limit", events)
                    return
            start_turn(state, candidate.id, candidate.actor, events)
            return
    end_game(state, None, "no-players", events)


def turn_order(state: GameState) -> list[Seat]:
    """Every seat, from the first player round the table (seats keep their places)."""
    ids = [s.id for s in state.seats]
    first = ids.index(state.first_seat) if state.first_seat in ids else 0
    return state.seats[first:] + state.seats[:first]


def next_player_after(state: GameState, seat_id: str) -> Seat | None:
    """The next live player in turn order after ``seat_id`` (not that seat itself)."""
    order = turn_order(state)
    position = next((i for i, s in enumerate(order) if s.id == seat_id), len(order) - 1)
    for step in range(1, len(order)):
        candidate = order[(position + step) % len(order)]
        if candidate.kind == PLAYER and candidate.alive and candidate.player is not None:
            return candidate
    return None


def finish_if_over(state: GameState, events: list[Event]) -> bool:
    """The game ends with one player left, one player holding every territory (RULES.md J5:
    under revision 2 only with ``win="domination"``), or every player agreeing to a draw (J8)."""
    if state.over:
        return True
    players = board.active_players(state)
    if len(players) <= 1:
        end_game(state, players[0].id if players else None, "last-standing", events)
        return True
    owners = {h.owner for h in state.territories.values()}
    dominates = state.options.revision < 2 or state.options.win == DOMINATION
    if dominates and len(owners) == 1 and state.seat(next(iter(owners))).kind == PLAYER:
        end_game(state, owners.pop(), "domination", events)
        return True
    if {p.id for p in players} <= set(state.draw_votes):
        end_game(state, None, "draw", events)
        return True
    return False


def end_game(state: GameState, winner: str | None, how: str, events: list[Event]) -> None:
    if state.options.revision >= 2:  # RULES.md J11: nothing in play vanishes with the game
        settle_unfinished(state, events)
    state.over, state.battle, state.contest = True, None, None
    state.turn = None
    state.ranking = ranking(state, winner)
    ranked = how in (ROUND_LIMIT, STALEMATE) and state.ranking
    state.winner = winner if winner is not None else (state.ranking[0] if ranked else None)
    events.append({"type": "game_over", "how": how, "winner": state.winner,
                   "ranking": state.ranking, "seed": state.seed})  # fmt: skip


def ranking(state: GameState, winner: str | None = None) -> list[str]:
    """The finishing order (RULES.md J12): the winner, the other live players by territories
    held, then armies (ships' crews included; design.md: the round-limit ranking), then the
    eliminated players, the last out first. A seat that left or conceded (now an allied army)
    is not ranked."""

    def strength(seat: Seat) -> tuple[bool, int, int]:
        held = state.owned(seat.id)
        armies = sum(state.territories[t].armies for t in held)
        armies += sum(s.armies for s in state.ships_of(seat.id))
        return (seat.id == winner, len(held), armies)

    players = [s for s in state.seats if s.kind == PLAYER]
    live = sorted((s for s in players if s.alive), key=strength, reverse=True)
    dead = {s.id for s in players if not s.alive}
    out = [seat_id for seat_id in reversed(state.eliminated) if seat_id in dead]
    out += [s.id for s in players if s.id in dead and s.id not in out]  # not recorded: seat order
    return [s.id for s in live] + out


# --- joining and leaving ------------------------------------------------------------------------


def do_join(state: GameState, action: Join, dice: Dice, events: list[Event]) -> None:
    current = state.seat_of_actor(action.player)
    if action.player.startswith(AI_PREFIX) or (current is not None and current.kind != PLAYER):
        raise IllegalAction(
            Refusal.PLAYER, f"{action.player!r} cannot join as a person", field="player"
        )
    if current is not None and current.alive:
        raise IllegalAction(Refusal.ALREADY_PLAYING, f"{action.player} already plays {current.id}")
    if state.turn is None and state.contest is None:
        raise IllegalAction(Refusal.SETTING_UP, "join once the set-up is over")
    ally = next((s for s in board.live_allies(state) if s.id == action.ally), None)
    if ally is None:
        live = [s.id for s in board.live_allies(state)]
        raise IllegalAction(Refusal.ALLY, f"no live allied army {action.ally!r}; live: {live}",
                            field="ally")  # fmt: skip
    if _busy(state, ally.id):
        when = "its turn" if state.contest is None else "the declaration"
        raise IllegalAction(
            Refusal.ALLY_BUSY,
            f"{ally.id} is in play right now; join another allied army, or this one after {when}",
            field="ally",
        )
    if current is not None:
        current.player = None  # the eliminated seat keeps its id; the person moves on
        touched.seat(current.id)
    ally.kind, ally.player = PLAYER, action.player
    touched.seat(ally.id)
    state.landless.pop(ally.id, None)
    deal_suits(state)
    events.append({"type": "joined", "player": action.player, "seat": ally.id})
    # While a poker hand is played its deck is on the table: the late-comer's poker card comes
    # when the hand is over (RULES.md J1).
    playing = state.contest is not None and state.contest.hand is not None
    events.append(board.give_cards(state, ally, 2, 0 if playing else 1, dice))
    if playing:
        assert state.contest is not None
        state.contest.owed.append(ally.id)


def leave(state: GameState, seat: Seat, events: list[Event], *, how: str = "left") -> bool:
    """The seat becomes an allied army (its poker cards stay). True if its turn was cut short.
    ``how`` is the event: ``left``, or ``conceded`` for a player giving the game up."""
    refusal = leave_refusal(state, seat)
    if refusal is not None:
        raise IllegalAction(Refusal.BUSY, refusal)
    person = seat.player
    seat.kind, seat.player, seat.set_up = ALLIED, None, True
    touched.seat(seat.id)
    state.landless.pop(seat.id, None)
    if seat.id in state.draw_votes:
        state.draw_votes.remove(seat.id)
    deal_suits(state)
    events.append({"type": how, "player": person, "seat": seat.id})
    return state.turn is not None and state.turn.seat == seat.id


def leave_refusal(state: GameState, seat: Seat) -> str | None:
    """Why the seat cannot leave right now (None: it can)."""
    if _busy(state, seat.id, battle_only=True) or (
        state.contest is not None and seat.id in _contest_seats(state)
    ):
        return "finish the battle or poker hand you are in first"
    if (
        state.turn is not None
        and state.turn.controller == seat.actor
        and state.turn.seat != seat.id
    ):
        return "finish the allied army's turn you are playing first"
    return None


def deal_suits(state: GameState) -> None:
    """Suits dealt round-robin over the live allied armies in seat order (RULES.md A10). While a
    declaration runs the suits stay as they were declared, and are dealt when it ends."""
    if state.contest is not None:
        state.contest.redeal = True
        return
    allies = [s for s in state.seats if s.kind == ALLIED]
    for seat in state.seats:
        seat.suits = []
    live = [s for s in allies if s.alive] or allies
    for i, suit in enumerate(SUITS):
        if live:
            live[i % len(live)].suits.append(suit)


def _busy(state: GameState, seat_id: str, *, battle_only: bool = False) -> bool:
    battle = state.battle
    if battle is not None and seat_id in (battle.attacker, battle.defender):
        return True
    if battle_only:
        return False
    if state.turn is not None and state.turn.seat == seat_id:
        return True
    return state.contest is not None and state.contest.ally == seat_id


def _contest_seats(state: GameState) -> set[str]:
    contest = state.contest
    assert contest is not None
    return {contest.declarer} | {s for s, yes in contest.answers.items() if yes}


# --- small checks -------------------------------------------------------------------------------


def _require_phase(state: GameState, phase: str) -> Turn:
    turn = _turn(state)
    if turn.phase != phase:
        raise IllegalAction(Refusal.WRONG_PHASE, f"not now: the turn is in its {turn.phase} phase")
    return turn


def _own_territory(state: GameState, seat_id: str, name: str, field: str) -> None:
    holding = state.territories.get(name)
    if holding is None:
        raise IllegalAction(Refusal.TERRITORY, f"no territory {name!r}", field=field)
    if holding.owner != seat_id:
        raise IllegalAction(Refusal.NOT_YOURS, f"{name} is held by {holding.owner}", field=field)


def _holds(hand: list[str], cards: tuple[str, ...]) -> bool:
    left = list(hand)
    for card in cards:
        if card not in left:
            return False
        left.remove(card)
    return True
