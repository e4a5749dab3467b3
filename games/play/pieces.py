"""Writing a game's piece rows (``games.models.pieces``) beside its state row.

``create`` writes every row when the game starts; ``save`` writes, after an action, only the
rows of what the engine says the action touched (``risk.rules.touched``, turned into rows by
``risk.rules.pieces.changes``), in the caller's transaction with the state row and the log entry.
On PostgreSQL that is one statement whatever changed: the upserts of the three tables and the
deletions (a ship sunk, a pile that shrank) as data-modifying CTEs of one ``WITH``, and no
statement at all for an action that moved no piece (a cruise, a vote). SQLite has no
data-modifying CTEs: there it is one statement per table and kind of change, up to five
(``bulk_create`` with ``update_conflicts``, and a ``DELETE`` each for ships and cards).

``rows_of`` reads a game's rows back as ``risk.rules.pieces`` rows, which the checks compare
with the state (``verify_game``, the tests).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from django.db import connection
from django.db.models import Model, Q

from games.models import Card, Game, Seat, Ship, TerritoryHolding
from risk.rules import GameState
from risk.rules.pieces import (
    CardRow,
    Changes,
    HoldingRow,
    Pieces,
    ShipRow,
    changes,
    pieces_of,
)
from risk.rules.touched import Touched

#: Rules player name -> the ``Seat`` row's id: how a row's person becomes its ``seat`` link.
Links = dict[str, int]


def links(seats: Iterable[Seat]) -> Links:
    """The seat ids of a game's people, by their name in the rules state (``Seat.player``)."""
    return {seat.player: seat.pk for seat in seats}


def create(game: Game, state: GameState, seats: Iterable[Seat]) -> None:
    """Every row of a game starting now (the caller's transaction writes its state row too)."""
    every = pieces_of(state)
    write(game.pk, Changes(every.holdings, every.ships, [], every.cards, []), links(seats))


def save(
    game: Game, before: GameState, after: GameState, touched: Touched, seats: Iterable[Seat]
) -> Changes:
    """Write what one action changed (at most one statement on PostgreSQL); returns it."""
    done = changes(before, after, touched)
    if done:
        write(game.pk, done, links(seats))
    return done


def write(game_id: int, done: Changes, people: Links) -> None:
    """Apply ``done`` to the game's rows; ``people`` links each row's player to its seat."""
    if connection.vendor == "postgresql":
        sql, params = upsert_statement(game_id, done, people)
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
    else:
        _write_portable(game_id, done, people)


# --- PostgreSQL: one statement ------------------------------------------------------------------


def _table(model: type[Model]) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def _values(rows: list[tuple[Any, ...]], casts: tuple[str, ...]) -> tuple[str, list[Any]]:
    """``VALUES (%s, ...), ...`` for ``rows``; ``casts`` per column ("" or "::jsonb")."""
    one = "(" + ", ".join(f"%s{cast}" for cast in casts) + ")"
    return ", ".join([one] * len(rows)), [value for row in rows for value in row]


def _upsert(
    model: type[Model], columns: tuple[str, ...], unique: tuple[str, ...],
    rows: list[tuple[Any, ...]], casts: tuple[str, ...],
) -> tuple[str, list[Any]]:  # fmt: skip
    values, params = _values(rows, casts)
    updated = ", ".join(f"{c} = EXCLUDED.{c}" for c in columns if c not in unique)
    sql = (
        f"INSERT INTO {_table(model)} ({', '.join(columns)}) VALUES {values} "
        f"ON CONFLICT ({', '.join(unique)}) DO UPDATE SET {updated}"
    )
    return sql, params


_HOLDING_COLUMNS = ("game_id", "territory", "owner", "seat_id", "armies", "factory", "captives")
_SHIP_COLUMNS = ("game_id", "ship", "owner", "seat_id", "station", "armies", "captives")
_CARD_COLUMNS = ("game_id", "kind", "pile", "holder", "seat_id", "position", "card")
_JSON_LAST = ("",) * 6 + ("::jsonb",)


def upsert_statement(game_id: int, done: Changes, people: Links) -> tuple[str, list[Any]]:
    """The one statement that writes ``done``: each part a data-modifying CTE of one ``WITH``
    (the last part is the statement's own). The parts never touch the same row (a ship is
    either afloat or sunk; a pile's rows are written below its length and deleted from it up),
    which PostgreSQL requires of the CTEs of one statement."""
    parts: list[tuple[str, list[Any]]] = []
    rows: list[tuple[Any, ...]]
    if done.holdings:
        rows = [(game_id, r.territory, r.owner, _link(people, r.player), r.armies, r.factory,
                 json.dumps(r.captives)) for r in done.holdings]  # fmt: skip
        parts.append(
            _upsert(TerritoryHolding, _HOLDING_COLUMNS, ("game_id", "territory"), rows, _JSON_LAST)
        )
    if done.ships:
        rows = [(game_id, r.ship, r.owner, _link(people, r.player), r.station, r.armies,
                 json.dumps(r.captives)) for r in done.ships]  # fmt: skip
        parts.append(_upsert(Ship, _SHIP_COLUMNS, ("game_id", "ship"), rows, _JSON_LAST))
    if done.sunk:
        marks = ", ".join(["%s"] * len(done.sunk))
        parts.append((f"DELETE FROM {_table(Ship)} WHERE game_id = %s AND ship IN ({marks})",
                      [game_id, *done.sunk]))  # fmt: skip
    if done.cards:
        rows = [(game_id, r.kind, r.pile, r.holder, _link(people, r.player), r.position, r.card)
                for r in done.cards]  # fmt: skip
        unique = ("game_id", "kind", "pile", "holder", "position")
        parts.append(_upsert(Card, _CARD_COLUMNS, unique, rows, ("",) * 7))
    if done.shrunk:
        values, params = _values(
            [(kind, pile, holder, length) for (kind, pile, holder), length in done.shrunk],
            ("", "", "", "::integer"),
        )
        parts.append((
            f"DELETE FROM {_table(Card)} AS c USING (VALUES {values}) AS v(kind, pile, holder, "
            "length) WHERE c.game_id = %s AND c.kind = v.kind AND c.pile = v.pile "
            "AND c.holder = v.holder AND c.position >= v.length",
            [*params, game_id],
        ))  # fmt: skip
    *ctes, (last, last_params) = parts
    if not ctes:
        return last, last_params
    named = ", ".join(f"piece_{i} AS ({sql})" for i, (sql, _) in enumerate(ctes))
    params = [value for _, cte_params in ctes for value in cte_params] + last_params
    return f"WITH {named} {last}", params


def _link(people: Links, player: str | None) -> int | None:
    return people.get(player) if player is not None else None


# --- SQLite (and any other database): a statement per table and kind ----------------------------


def _write_portable(game_id: int, done: Changes, people: Links) -> None:
    if done.holdings:
        TerritoryHolding.objects.bulk_create(
            [TerritoryHolding(game_id=game_id, territory=r.territory, owner=r.owner,
                              seat_id=_link(people, r.player), armies=r.armies,
                              factory=r.factory, captives=r.captives)
             for r in done.holdings],
            update_conflicts=True, unique_fields=["game", "territory"],
            update_fields=["owner", "seat", "armies", "factory", "captives"],
        )  # fmt: skip
    if done.ships:
        Ship.objects.bulk_create(
            [Ship(game_id=game_id, ship=r.ship, owner=r.owner, seat_id=_link(people, r.player),
                  station=r.station, armies=r.armies, captives=r.captives) for r in done.ships],
            update_conflicts=True, unique_fields=["game", "ship"],
            update_fields=["owner", "seat", "station", "armies", "captives"],
        )  # fmt: skip
    if done.sunk:
        Ship.objects.filter(game_id=game_id, ship__in=done.sunk).delete()
    if done.cards:
        Card.objects.bulk_create(
            [Card(game_id=game_id, kind=r.kind, pile=r.pile, holder=r.holder,
                  seat_id=_link(people, r.player), position=r.position, card=r.card)
             for r in done.cards],
            update_conflicts=True, unique_fields=["game", "kind", "pile", "holder", "position"],
            update_fields=["seat", "card"],
        )  # fmt: skip
    if done.shrunk:
        above = Q()
        for (kind, pile, holder), length in done.shrunk:
            above |= Q(kind=kind, pile=pile, holder=holder, position__gte=length)
        Card.objects.filter(above, game_id=game_id).delete()


# --- reading them back --------------------------------------------------------------------------


def rows_of(game: Game | int) -> Pieces:
    """The game's rows as ``risk.rules.pieces`` rows, in ``pieces_of``'s order (sorted here,
    not by the database's collation), for comparing with a state. Three SELECTs; every card,
    hidden or not: for checks, never for a view."""
    game_id = game if isinstance(game, int) else game.pk
    holdings = TerritoryHolding.objects.filter(game_id=game_id).values_list(
        "territory", "owner", "seat__player", "armies", "factory", "captives"
    )
    ships = Ship.objects.filter(game_id=game_id).values_list(
        "ship", "owner", "seat__player", "station", "armies", "captives"
    )
    cards = Card.objects.filter(game_id=game_id).values_list(
        "kind", "pile", "holder", "seat__player", "position", "card"
    )
    return Pieces(
        sorted(HoldingRow(*row) for row in holdings),
        sorted(ShipRow(*row) for row in ships),
        sorted((CardRow(*row) for row in cards), key=_card_order),
    )


def _card_order(row: CardRow) -> tuple[str, str, str, int]:
    return (row.kind, row.pile, row.holder, row.position)
