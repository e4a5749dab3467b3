"""Rows <-> ``risk.rules.state.GameState``: save a new game, load one exactly, write what changed.

``load(save_new(state)) == state`` for every state: seat order, the order of every hand and of both
piles of both decks included. The conversion goes through the state's own JSON form
(``to_dict``/``from_dict``), so the per-turn sub-states (turn, battle, poker contest) are stored
exactly as the engine serialises them.

``save(board, before, after)`` compares the two states section by section and writes only the
rows that differ: a changed territory or ship is one bulk update, a sunk ship one delete, a new
ship or factory one insert, a drawn card one card row. Card positions count from the bottom of a
pile, so drawing the top card moves no other card; the two wild cards are interchangeable, so a
wild card keeps its row when some wild card is still where that row says.

Queries are bounded whatever the board's size: ``load`` makes 6 and ``save_new`` 10; ``save`` makes
at most four per kind of row that changed (look up the pks, then update, insert, delete in bulk)
plus one for the Board: 2-10 for the actions of a real game, none when nothing changed.

Nothing here opens its own transaction: the game service runs ``save`` inside its
``transaction.atomic()`` with the Board locked (``select_for_update``). ``atomic(savepoint=False)``
only makes a call from outside any transaction (a shell, a test) all-or-nothing; inside the
caller's transaction it adds nothing, not even a savepoint.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from typing import Any

from django.db import transaction

from combat.dice import commitment_of
from risk.models import (
    Board,
    BoardCard,
    CardLocation,
    Factory,
    Map,
    Player,
    PokerCard,
    RiskCard,
    Ship,
    Station,
    Territory,
    TerritoryState,
)
from risk.rules.state import GameState, from_dict, to_dict

#: Where each part of the state is kept. A test checks these cover every field of the state, so a
#: field the engine adds cannot be dropped silently.
BOARD_COLUMNS = {
    "seed": "seed",
    "version": "version",
    "options": "options",
    "round": "round",
    "turn_number": "turn_number",
    "actions": "actions",
    "next_ship": "next_ship",
    "first_seat": "first_seat",
    "over": "over",
    "winner": "winner",
    "ranking": "ranking",
    "created": "armies_created",
    "lost": "armies_lost",
    "turn": "turn",
    "battle": "battle",
    "contest": "contest",
    "draw_votes": "draw_votes",
}
ROW_SECTIONS = ("seats", "territories", "ships", "risk_deck", "poker_deck")
SEAT_COLUMNS = {
    "id": "seat_id",
    "kind": "kind",
    "player": "person",
    "colour": "colour",
    "suits": "suits",
    "pot": "pot",
    "alive": "alive",
    "set_up": "set_up",
    "defence_dice": "defence_dice",
    "reveal": "reveal",
    "revealed": "revealed",
}
SEAT_HANDS = {"risk_cards": RiskCard, "poker_cards": PokerCard}
HOLDING_COLUMNS = ("armies", "captured")  # plus owner (a Player) and factory (a Factory row)
SHIP_COLUMNS = ("armies", "captured", "cruises", "moves", "cruising", "out_of_action", "ports")
#: (deck in the state, the seat's hand of that deck, card model)
DECKS = (("risk_deck", "risk_cards", RiskCard), ("poker_deck", "poker_cards", PokerCard))

DRAW, DISCARD, HAND = CardLocation.DRAW, CardLocation.DISCARD, CardLocation.HAND

Data = dict[str, Any]
#: Where a card lies: (location, holder Player pk or None, position).
Place = tuple[str, int | None, int]


class BoardMismatch(ValueError):
    """The rows do not hold what the state says (a ``before`` that is not the stored state)."""


# --- create ---------------------------------------------------------------------------------------


def save_new(state: GameState) -> Board:
    """Create the Board and every row of a new game; ``load`` of it gives ``state`` back."""
    data = to_dict(state)
    map_row = Map.objects.filter(name=state.options.map).first()
    if map_row is None:
        name = state.options.map
        raise BoardMismatch(f"map {name!r} is not loaded: run `manage.py load_map {name}`")
    with transaction.atomic(savepoint=False):
        board = Board(map=map_row, **_board_values(data))
        board.save()
        ids = _Ids(board)
        players = [
            Player(board=board, order=order, **_seat_values(seat))
            for order, seat in enumerate(data["seats"])
        ]
        Player.objects.bulk_create(players)
        ids.players = {p.seat_id: p.pk for p in players}
        TerritoryState.objects.bulk_create(
            _territory_row(board, ids, name, holding)
            for name, holding in data["territories"].items()
        )
        Factory.objects.bulk_create(
            Factory(board=board, territory_id=ids.territory(name))
            for name, holding in data["territories"].items()
            if holding["factory"]
        )
        Ship.objects.bulk_create(_ship_row(board, ids, ship) for ship in data["ships"].values())
        for deck, hand, model in DECKS:
            copies: Counter[str] = Counter()
            rows = []
            for card, (location, holder, position) in _places(data, deck, hand, ids):
                rows.append(_card_row(model, board, card, copies[card], location, holder, position))
                copies[card] += 1
            model.objects.bulk_create(rows)
    return board


# --- read -----------------------------------------------------------------------------------------


def load(board: Board) -> GameState:
    """The state the rows hold (6 queries; the Board itself is the caller's, maybe locked)."""
    seats: list[Data] = []
    seat_of: dict[int, str] = {}
    for pk, *values in (
        Player.objects.filter(board=board)
        .order_by("order")
        .values_list("pk", *SEAT_COLUMNS.values())
    ):
        seat = dict(zip(SEAT_COLUMNS, values, strict=True))
        seat.update({hand: [] for hand in SEAT_HANDS})
        seats.append(seat)
        seat_of[pk] = seat["id"]
    territories = {
        name: {"owner": seat_of[owner], "armies": armies, "factory": False, "captured": captured}
        for name, owner, armies, captured in TerritoryState.objects.filter(board=board)
        .order_by("territory_id")
        .values_list("territory__name", "owner_id", "armies", "captured")
    }
    for name in Factory.objects.filter(board=board).values_list("territory__name", flat=True):
        if name not in territories:
            raise BoardMismatch(f"board {board.pk}: a factory on {name!r}, which nobody holds")
        territories[name]["factory"] = True
    ships = {}
    for ship_id, owner, station, *values in (
        Ship.objects.filter(board=board)
        .order_by("pk")
        .values_list("ship_id", "owner_id", "station__key", *SHIP_COLUMNS)
    ):
        ship = {"id": ship_id, "owner": seat_of[owner], "station": station}
        ships[ship_id] = {**ship, **dict(zip(SHIP_COLUMNS, values, strict=True))}
    data = {field: getattr(board, column) for field, column in BOARD_COLUMNS.items()}
    data.update(seats=seats, territories=territories, ships=ships)
    hands = {seat["id"]: seat for seat in seats}
    for deck, hand, model in DECKS:
        data[deck] = _load_deck(model, board, seat_of, hands, hand)
    return from_dict(data)


def _load_deck(
    model: type[BoardCard],
    board: Board,
    seat_of: dict[int, str],
    hands: dict[str, Data],
    hand: str,
) -> Data:
    draw: list[str] = []
    discard: list[str] = []
    rows = model.objects.filter(board=board).order_by("position", "pk")
    for card, location, holder in rows.values_list("card", "location", "holder_id"):
        if location == DRAW:
            draw.append(card)
        elif location == DISCARD:
            discard.append(card)
        else:
            hands[seat_of[holder]][hand].append(card)
    draw.reverse()  # positions count from the bottom; the state lists the top card first
    return {"draw": draw, "discard": discard}


# --- update ---------------------------------------------------------------------------------------


def save(board: Board, before: GameState, after: GameState) -> int:
    """Write the rows where ``after`` differs from ``before`` (the stored state); return how many.

    The Board counts as one row when any of its own fields changed. ``board`` is updated in place.
    """
    old, new = to_dict(before), to_dict(after)
    if old["options"]["map"] != new["options"]["map"]:
        raise BoardMismatch("a game cannot change its map")
    with transaction.atomic(savepoint=False):
        writer = _Writer(board)
        writer.seats(old["seats"], new["seats"])
        writer.territories(old["territories"], new["territories"])
        writer.factories(old["territories"], new["territories"])
        writer.ships(old["ships"], new["ships"])
        for deck, hand, model in DECKS:
            writer.cards(model, old, new, deck, hand)
        writer.removed_seats(old["seats"], new["seats"])
        writer.board_fields(old, new)
    return writer.written


class _Writer:
    """One ``save``: the writes, counted, with the pk look-ups it needed made once."""

    def __init__(self, board: Board):
        self.board = board
        self.ids = _Ids(board)
        self.written = 0

    def seats(self, old: list[Data], new: list[Data]) -> None:
        before = {seat["id"]: (order, _seat_values(seat)) for order, seat in enumerate(old)}
        created, changed = [], []
        for order, seat in enumerate(new):
            values = _seat_values(seat)
            if seat["id"] not in before:
                created.append(Player(board=self.board, order=order, **values))
            elif before[seat["id"]] != (order, values):
                changed.append(Player(pk=self.ids.player(seat["id"]), order=order, **values))
        if changed:
            Player.objects.bulk_update(changed, ["order", *SEAT_COLUMNS.values()])
        if created:
            Player.objects.bulk_create(created)
            if self.ids.players is not None:  # else the first look-up reads them with the rest
                self.ids.players.update({p.seat_id: p.pk for p in created})
        self.written += len(changed) + len(created)

    def removed_seats(self, old: list[Data], new: list[Data]) -> None:
        """Last, once nothing points at them any more (a seat leaving the state entirely)."""
        gone = {seat["id"] for seat in old} - {seat["id"] for seat in new}
        if gone:
            Player.objects.filter(board=self.board, seat_id__in=gone).delete()
            self.written += len(gone)

    def territories(self, old: dict[str, Data], new: dict[str, Data]) -> None:
        changed = [
            name
            for name, holding in new.items()
            if name in old and _holding_values(old[name]) != _holding_values(holding)
        ]
        if changed:
            pks = _pks(
                TerritoryState.objects.filter(board=self.board, territory__name__in=changed),
                "territory__name",
                changed,
            )
            TerritoryState.objects.bulk_update(
                [
                    TerritoryState(
                        pk=pks[name],
                        owner_id=self.ids.player(new[name]["owner"]),
                        **{column: new[name][column] for column in HOLDING_COLUMNS},
                    )
                    for name in changed
                ],
                ["owner", *HOLDING_COLUMNS],
            )
        created = [name for name in new if name not in old]
        if created:
            TerritoryState.objects.bulk_create(
                _territory_row(self.board, self.ids, name, new[name]) for name in created
            )
        gone = [name for name in old if name not in new]
        if gone:
            Factory.objects.filter(board=self.board, territory__name__in=gone).delete()
            TerritoryState.objects.filter(board=self.board, territory__name__in=gone).delete()
        self.written += len(changed) + len(created) + len(gone)

    def factories(self, old: dict[str, Data], new: dict[str, Data]) -> None:
        had = {name for name, holding in old.items() if holding["factory"]}
        has = {name for name, holding in new.items() if holding["factory"]}
        built, razed = sorted(has - had), sorted((had - has) & set(new))
        if built:
            Factory.objects.bulk_create(
                Factory(board=self.board, territory_id=self.ids.territory(name)) for name in built
            )
        if razed:
            Factory.objects.filter(board=self.board, territory__name__in=razed).delete()
        self.written += len(built) + len(razed)

    def ships(self, old: dict[str, Data], new: dict[str, Data]) -> None:
        sunk = [ship_id for ship_id in old if ship_id not in new]
        if sunk:
            Ship.objects.filter(board=self.board, ship_id__in=sunk).delete()
        changed = [
            ship_id for ship_id, ship in new.items() if ship_id in old and old[ship_id] != ship
        ]
        if changed:
            pks = _pks(
                Ship.objects.filter(board=self.board, ship_id__in=changed), "ship_id", changed
            )
            rows = []
            for ship_id in changed:
                row = _ship_row(self.board, self.ids, new[ship_id])
                row.pk = pks[ship_id]
                rows.append(row)
            Ship.objects.bulk_update(rows, ["owner", "station", *SHIP_COLUMNS])
        built = [ship for ship_id, ship in new.items() if ship_id not in old]
        if built:
            Ship.objects.bulk_create(_ship_row(self.board, self.ids, ship) for ship in built)
        self.written += len(sunk) + len(changed) + len(built)

    def cards(self, model: type[BoardCard], old: Data, new: Data, deck: str, hand: str) -> None:
        """Move the card rows to where ``after`` has the cards, keeping every row already right.

        Cards with the same face (the wild cards) are interchangeable: a row stays put when any
        card of its face is wanted where it is; the rest move to the free places.
        """
        if old[deck] == new[deck] and [s[hand] for s in old["seats"]] == [
            s[hand] for s in new["seats"]
        ]:
            return
        rows: dict[str, list[tuple[int, int, Place]]] = defaultdict(list)
        for pk, card, copy, location, holder, position in model.objects.filter(
            board=self.board
        ).values_list("pk", "card", "copy", "location", "holder_id", "position"):
            rows[card].append((pk, copy, (location, holder, position)))
        wanted: dict[str, list[Place]] = defaultdict(list)
        for card, place in _places(new, deck, hand, self.ids):
            wanted[card].append(place)
        moved, created, deleted = [], [], []
        for card in sorted(set(rows) | set(wanted)):
            free = Counter(wanted[card])
            kept = {pk for pk, _copy, place in rows[card] if _take(free, place)}
            movers = [(pk, copy) for pk, copy, _place in rows[card] if pk not in kept]
            places = list(free.elements())
            for (pk, _copy), (location, holder, position) in zip(movers, places, strict=False):
                moved.append(model(pk=pk, location=location, holder_id=holder, position=position))
            deleted += [pk for pk, _copy in movers[len(places) :]]
            copies = {copy for _pk, copy, _place in rows[card]}
            new_copies = (n for n in range(len(copies) + len(places)) if n not in copies)
            for place, copy in zip(places[len(movers) :], new_copies, strict=False):
                created.append(_card_row(model, self.board, card, copy, *place))
        if deleted:
            model.objects.filter(pk__in=deleted).delete()
        if moved:
            model.objects.bulk_update(moved, ["location", "holder", "position"])
        if created:
            model.objects.bulk_create(created)
        self.written += len(moved) + len(created) + len(deleted)

    def board_fields(self, old: Data, new: Data) -> None:
        values = _board_values(new)
        changed = [column for field, column in BOARD_COLUMNS.items() if old[field] != new[field]]
        if not changed:
            return
        if "seed" in changed:
            changed.append("seed_commitment")
        for column in changed:
            setattr(self.board, column, values[column])
        self.board.save(update_fields=[*changed, "updated_at"])
        self.written += 1


# --- rows and values ------------------------------------------------------------------------------


class _Ids:
    """Primary keys by the names the state uses, each kind fetched once and only when needed."""

    def __init__(self, board: Board):
        self.board = board
        self.players: dict[str, int] | None = None
        self._territories: dict[str, int] | None = None
        self._stations: dict[str, int] | None = None

    def player(self, seat_id: str) -> int:
        if self.players is None:
            self.players = dict(
                Player.objects.filter(board=self.board).values_list("seat_id", "pk")
            )
        return _found(self.players, seat_id, "seat")

    def territory(self, name: str) -> int:
        if self._territories is None:
            self._territories = dict(
                Territory.objects.filter(map_id=self.board.map_id).values_list("name", "pk")
            )
        return _found(self._territories, name, "territory")

    def station(self, key: str) -> int:
        if self._stations is None:
            self._stations = dict(
                Station.objects.filter(map_id=self.board.map_id).values_list("key", "pk")
            )
        return _found(self._stations, key, "station")


def _found(pks: dict[str, int], name: str, kind: str) -> int:
    try:
        return pks[name]
    except KeyError:
        raise BoardMismatch(f"unknown {kind} {name!r} on this board") from None


def _pks(queryset: Any, name_field: str, names: list[str]) -> dict[str, int]:
    pks = dict(queryset.values_list(name_field, "pk"))
    missing = [name for name in names if name not in pks]
    if missing:
        raise BoardMismatch(f"no row for {', '.join(map(repr, missing))}: is `before` stored?")
    return pks


def _take(free: Counter[Place], place: Place) -> bool:
    if free[place] > 0:
        free[place] -= 1
        return True
    return False


def _board_values(data: Data) -> Data:
    values = {column: data[field] for field, column in BOARD_COLUMNS.items()}
    values["seed_commitment"] = commitment_of(data["seed"])
    return values


def _seat_values(seat: Data) -> Data:
    return {column: seat[field] for field, column in SEAT_COLUMNS.items()}


def _holding_values(holding: Data) -> tuple[Any, ...]:
    return (holding["owner"], *(holding[column] for column in HOLDING_COLUMNS))


def _territory_row(board: Board, ids: _Ids, name: str, holding: Data) -> TerritoryState:
    return TerritoryState(
        board=board,
        territory_id=ids.territory(name),
        owner_id=ids.player(holding["owner"]),
        **{column: holding[column] for column in HOLDING_COLUMNS},
    )


def _ship_row(board: Board, ids: _Ids, ship: Data) -> Ship:
    return Ship(
        board=board,
        ship_id=ship["id"],
        owner_id=ids.player(ship["owner"]),
        station_id=ids.station(ship["station"]),
        **{column: ship[column] for column in SHIP_COLUMNS},
    )


def _places(data: Data, deck: str, hand: str, ids: _Ids) -> Iterable[tuple[str, Place]]:
    """Every card of one deck and where it lies: the piles counted from the bottom, then hands."""
    draw = data[deck]["draw"]
    for index, card in enumerate(draw):
        yield card, (DRAW, None, len(draw) - 1 - index)
    for index, card in enumerate(data[deck]["discard"]):
        yield card, (DISCARD, None, index)
    for seat in data["seats"]:
        for index, card in enumerate(seat[hand]):
            yield card, (HAND, ids.player(seat["id"]), index)


def _card_row(
    model: type[BoardCard],
    board: Board,
    card: str,
    copy: int,
    location: str,
    holder: int | None,
    position: int,
) -> BoardCard:
    return model(
        board=board,
        card=card,
        copy=copy,
        location=location,
        holder_id=holder,
        position=position,
    )
