"""Set-up (rule text "Set-Up", "Allied Armies Set-up", "Player Set-up"; design.md section 5).

The territory cards are dealt into six equal piles (the classic map's 42 into piles of 7; every map
deals evenly, ``board_map.PILES``); players take piles in seat order, the rest become allied
armies. Allied armies are placed at once, at random (2 armies per card territory
plus 3 on each of 3 random ones = 23, a factory, a ship with a die of armies, poker suits dealt
round-robin). Players get 3 armies per territory (21), a ship with a die of armies and 2 Risk
cards + 1 poker card; then each sends one ``Arrange``: the free rearrangement, the factory and
the ship's station. The first player is decided by die roll before that, so everyone knows.
Every roll comes from ``SeededDice(seed, "setup")``: the whole set-up replays from the seed.
"""

from __future__ import annotations

from collections.abc import Sequence

from combat.dice import SeededDice, shuffle
from combat.poker.cards import DECK as POKER_DECK
from combat.poker.cards import SUITS
from risk.rules import board, board_map, touched
from risk.rules.actions import Arrange, IllegalAction
from risk.rules.board import Event
from risk.rules.board_map import load_map
from risk.rules.state import (
    AI_PREFIX,
    ALLIED,
    COLOURS,
    PLAYER,
    WILD,
    Deck,
    GameState,
    Holding,
    Options,
    Seat,
)
from risk.rules.vocabulary import Refusal

PILES = board_map.PILES
PLAYER_ARMIES_PER_TERRITORY = 3
ALLY_ARMIES_PER_TERRITORY = 2
ALLY_EXTRA_TERRITORIES, ALLY_EXTRA_ARMIES = board_map.ALLY_EXTRA, 3
START_RISK_CARDS, START_POKER_CARDS = 2, 1
MIN_PLAYERS, MAX_PLAYERS = board_map.MIN_SEATS, board_map.MAX_SEATS


DEFAULT_OPTIONS = Options()


def new_game(players: Sequence[str], *, seed: str, options: Options = DEFAULT_OPTIONS) -> GameState:
    """A game dealt and placed from ``seed``, waiting for each player's ``Arrange``."""
    bmap = load_map(options.map, options.map_version)
    _check_players(players, bmap.min_seats, bmap.max_seats)
    dice = SeededDice(seed, "setup")
    piles = _deal_piles(sorted(bmap.territories), dice)
    seats = [Seat(id=p, kind=PLAYER, player=p, colour=COLOURS[i], set_up=False)
             for i, p in enumerate(players)]  # fmt: skip
    allies = [
        Seat(id=f"ally-{k + 1}", kind=ALLIED, player=None, colour=COLOURS[len(players) + k])
        for k in range(PILES - len(players))
    ]
    for i, suit in enumerate(SUITS):
        if allies:
            allies[i % len(allies)].suits.append(suit)
    state = GameState(
        seed=seed,
        options=options,
        seats=seats + allies,
        territories={},
        ships={},
        risk_deck=Deck(),
        poker_deck=Deck(),
        turn=None,
        first_seat=players[0],
    )
    for seat, pile in zip(state.seats, piles, strict=True):
        if seat.kind == ALLIED:
            _place_ally(state, seat, pile, dice)
        else:
            _place_player(state, seat, pile, dice)
    state.first_seat = _first_player(list(players), dice)
    state.risk_deck = Deck(
        draw=list(shuffle(sorted(bmap.territories) + [WILD] * bmap.wild_cards, dice))
    )
    state.poker_deck = Deck(draw=list(shuffle(POKER_DECK, dice)))
    order = _rotation_from(state, state.first_seat)
    for count, deck_name in ((START_RISK_CARDS, "risk"), (START_POKER_CARDS, "poker")):
        for seat in order:
            for _ in range(count):
                deck = state.risk_deck if deck_name == "risk" else state.poker_deck
                card = board.draw_card(deck, dice, deck_name)
                assert card is not None  # a fresh deck holds enough for six players
                (seat.risk_cards if deck_name == "risk" else seat.poker_cards).append(card)
    return state


def _check_players(
    players: Sequence[str], least: int = MIN_PLAYERS, most: int = MAX_PLAYERS
) -> None:
    """Names the game can tell apart, as many as the map allows (its ``seats``)."""
    if not least <= len(players) <= most:
        raise IllegalAction(
            Refusal.PLAYER_COUNT, f"{least}-{most} players, got {len(players)}", field="players",
        )  # fmt: skip
    if any(not isinstance(p, str) or not p or p.startswith(("ally-", AI_PREFIX)) for p in players):
        raise IllegalAction(
            Refusal.PLAYER_NAME,
            "names must be non-empty, not starting 'ally-' or 'ai:'",
            field="players",
        )
    if len(set(players)) != len(players):
        raise IllegalAction(Refusal.PLAYER_NAME, "player names must differ", field="players")


def _deal_piles(territories: list[str], dice: SeededDice) -> list[list[str]]:
    cards = shuffle(territories, dice)
    size = len(cards) // PILES
    return [sorted(cards[k * size : (k + 1) * size]) for k in range(PILES)]


def _place_ally(state: GameState, seat: Seat, pile: list[str], dice: SeededDice) -> None:
    for name in pile:
        state.territories[name] = Holding(owner=seat.id, armies=ALLY_ARMIES_PER_TERRITORY)
    for name in shuffle(pile, dice)[:ALLY_EXTRA_TERRITORIES]:
        state.territories[name].armies += ALLY_EXTRA_ARMIES
    state.territories[pile[dice.roll(len(pile)) - 1]].factory = True
    board.create(state, "setup", sum(state.territories[n].armies for n in pile))
    coasts = [n for n in pile if board.board_map(state).coastal(n)]
    if coasts:
        coast = coasts[dice.roll(len(coasts)) - 1] if len(coasts) > 1 else coasts[0]
        stations = board.board_map(state).stations_of(coast)
        station = stations[dice.roll(len(stations)) - 1] if len(stations) > 1 else stations[0]
        crew = dice.roll(6)
        board.new_ship(state, seat.id, station, crew)
        board.create(state, "setup", crew)


def _place_player(state: GameState, seat: Seat, pile: list[str], dice: SeededDice) -> None:
    for name in pile:
        state.territories[name] = Holding(owner=seat.id, armies=PLAYER_ARMIES_PER_TERRITORY)
    board.create(state, "setup", PLAYER_ARMIES_PER_TERRITORY * len(pile))
    stations = board.coastal_stations(state, pile)
    if stations:  # provisionally at the first station; Arrange may move it
        crew = dice.roll(6)
        board.new_ship(state, seat.id, stations[0], crew)
        board.create(state, "setup", crew)


def _first_player(players: list[str], dice: SeededDice) -> str:
    """Everyone rolls a die; the highest plays first; a tie for highest rolls again."""
    rolling = players
    while True:
        rolls = {p: dice.roll(6) for p in rolling}
        best = max(rolls.values())
        rolling = [p for p in rolling if rolls[p] == best]
        if len(rolling) == 1:
            return rolling[0]


def _rotation_from(state: GameState, first: str) -> list[Seat]:
    players = [s for s in state.seats if s.kind == PLAYER]
    start = next(i for i, s in enumerate(players) if s.id == first)
    return players[start:] + players[:start]


def arrange(state: GameState, action: Arrange, seat: Seat, events: list[Event]) -> None:
    """Apply one player's set-up choices (the state is the engine's clone)."""
    if seat.set_up or seat.kind != PLAYER:
        raise IllegalAction(Refusal.ALREADY_SET_UP, f"{seat.id} has already arranged their armies")
    owned = set(state.owned(seat.id))
    arrangement = dict(action.arrangement)
    if len(arrangement) != len(action.arrangement) or set(arrangement) != owned:
        raise IllegalAction(
            Refusal.ARRANGEMENT, "list each of your territories once: " + ", ".join(sorted(owned)),
            field="arrangement",
        )  # fmt: skip
    total = sum(state.territories[t].armies for t in owned)
    if any(n < 1 for n in arrangement.values()) or sum(arrangement.values()) != total:
        raise IllegalAction(
            Refusal.ARRANGEMENT, f"at least 1 army on each territory and {total} in all",
            field="arrangement",
        )  # fmt: skip
    if action.factory not in owned:
        raise IllegalAction(
            Refusal.FACTORY, "the factory goes on one of your territories", field="factory"
        )
    ships = state.ships_of(seat.id)
    if action.ship_station is not None:
        if not ships:
            raise IllegalAction(
                Refusal.SHIP_STATION, "you have no ship (no coast)", field="ship_station"
            )
        stations = board.coastal_stations(state, sorted(owned))
        if action.ship_station not in stations:
            raise IllegalAction(
                Refusal.SHIP_STATION, f"{action.ship_station!r} is not off one of your coasts",
                field="ship_station",
            )  # fmt: skip
        ships[0].station = action.ship_station
        touched.ship(ships[0].id)
    for name, armies in arrangement.items():
        state.territories[name].armies = armies
        touched.territory(name)
    state.territories[action.factory].factory = True
    touched.territory(action.factory)
    seat.set_up = True
    events.append({"type": "arranged", "seat": seat.id, "factory": action.factory,
                   "ship_station": ships[0].station if ships else None})  # fmt: skip
