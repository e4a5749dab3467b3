"""The piece rows on PostgreSQL: one statement an action, and the tables still equal the state.

On PostgreSQL the write path writes an action's piece rows in one statement (the upserts and
deletions of the three tables as data-modifying CTEs of one ``WITH``,
``games.play.pieces.upsert_statement``) and none for an action that moved no piece. Needs the
real server (marker ``services``: the second pass of ``make test``, with ``DATABASE_URL``).
"""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.play import pieces, submit
from games.play.reads import fetch
from risk.rules.bots import RandomBot, decide
from risk.rules.pieces import Changes, pieces_of
from tests.games.helpers import play_out, start_game
from tests.games.pieces_check import watch_pieces
from tests.games.play.test_snapshots import _table

pytestmark = [pytest.mark.services, pytest.mark.django_db]


@pytest.fixture(autouse=True)
def _postgresql() -> None:
    if connection.vendor != "postgresql":
        pytest.fail("these tests need PostgreSQL: run them with DATABASE_URL set (make test)")


def test_each_action_writes_its_pieces_in_one_statement_and_the_tables_follow_the_state(
    monkeypatch, alice, bob, carol
):
    """Three people and three allied armies, four rounds: after every action the tables equal
    the state, and the write took exactly one statement when a piece moved, none otherwise."""
    seen = watch_pieces(monkeypatch)
    game = start_game(alice, 3, others=[bob, carol])
    game = play_out(game, [alice, bob, carol], until=lambda g, s: s.round > 4)
    assert seen.actions == game.version > 100
    assert {"holdings", "ships", "sunk", "cards", "shrunk"} <= seen.kinds
    assert seen.statements == [1 if n else 0 for n in seen.statements]
    assert 0 < sum(seen.statements) == seen.moved < seen.actions  # some actions move nothing


def test_an_action_is_one_statement_more_than_the_state_row_and_the_log(alice):
    """The action path's statements (``test_snapshots``: SAVEPOINT, the locked state and game
    rows, the seats, the log INSERT, the state row UPDATE, RELEASE), and the piece rows' one
    statement between the log and the state row: here an arrangement, which moves armies (an
    upsert of the holdings) and the ship (of the ships) in one ``WITH``."""
    game = start_game(alice, 3)
    action = decide(RandomBot(random.Random(1)), fetch.game_state(game), "alice")
    body = {k: v for k, v in action.to_dict().items() if k != "player"}
    with CaptureQueriesContext(connection) as queries:
        submit.action_submit(game_id=game.pk, user=alice, action=body, expected_version=0)
    statements = [q["sql"].split()[0] + " " + _table(q["sql"]) for q in queries.captured_queries]
    assert statements == [
        "SAVEPOINT -",
        "SELECT games_gamesnapshot",
        "SELECT games_seat",
        "INSERT games_actionlog",
        "WITH games_territoryholding",  # piece_0 AS (INSERT INTO it ...) INSERT INTO games_ship
        "UPDATE games_gamesnapshot",
        "RELEASE -",
    ]
    sql = queries.captured_queries[4]["sql"]
    assert 'INSERT INTO "games_territoryholding"' in sql and 'INSERT INTO "games_ship"' in sql
    game.refresh_from_db()
    assert pieces.rows_of(game) == pieces_of(fetch.game_state(game))


def test_one_statement_writes_and_deletes_in_all_three_tables_at_once(alice, bob):
    """Every part at once (what no single action does): holdings and ships upserted, a ship
    sunk, cards written and a pile cut short, in one statement."""
    game = start_game(alice, 2, others=[bob])
    rows = pieces.rows_of(game)
    holding, ship = rows.holdings[0], rows.ships[0]
    draw = [c for c in rows.cards if (c.kind, c.pile) == ("risk", "draw")]
    under, top = draw[-2], draw[-1]
    people = pieces.links(game.seats.all())
    moved = Changes(
        [holding._replace(armies=holding.armies + 5, factory=True, captives={"ally-1": 2})],
        [],
        [ship.ship],
        [under._replace(card="wild")],
        [(("risk", "draw", ""), top.position)],
    )
    sql, _ = pieces.upsert_statement(game.pk, moved, people)
    assert sql.startswith("WITH piece_0 AS (INSERT") and sql.count(" AS (") == 3
    with CaptureQueriesContext(connection) as queries:
        pieces.write(game.pk, moved, people)
    assert len(queries.captured_queries) == 1
    after = pieces.rows_of(game)
    assert after.holdings[0] == moved.holdings[0]
    assert ship.ship not in {s.ship for s in after.ships}
    pile = [c for c in after.cards if (c.kind, c.pile) == ("risk", "draw")]
    assert pile == [*draw[:-2], under._replace(card="wild")]  # the top card's row deleted
