"""A game's state is one row, written with its log entry."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.urls import reverse

from games.models import ActionLog, GameSnapshot
from games.play import snapshots, submit
from games.play.reads import fetch
from games.web.exceptions import ApplicationError
from risk.rules import to_dict
from tests.games.helpers import person_step, start_game

pytestmark = pytest.mark.django_db


def test_the_start_writes_the_state_row_and_each_action_replaces_it(alice):
    with time_machine.travel(datetime(2030, 1, 1, 12, 0, tzinfo=UTC), tick=False) as clock:
        game = start_game(alice, 3)
        row = GameSnapshot.objects.get(pk=game.pk)
        assert (row.schema_version, row.state["version"]) == (4, 4)
        state = fetch.game_state(game)
        clock.shift(timedelta(minutes=3))
        person_step(game, alice, state)
    game.refresh_from_db()
    row.refresh_from_db()
    last = ActionLog.objects.filter(game=game).order_by("-sequence").first()
    assert row.version == game.version == last.sequence  # written with the log entry
    assert row.state == to_dict(snapshots.load(game)) != to_dict(state)
    assert row.updated_at == datetime(2030, 1, 1, 12, 3, tzinfo=UTC)  # stamped by the UPDATE


def test_a_refused_action_leaves_the_row_as_it_was(alice):
    game = start_game(alice, 3)
    before = GameSnapshot.objects.get(pk=game.pk)
    with pytest.raises(ApplicationError):
        submit.action_submit(
            game_id=game.pk, user=alice, action={"type": "nonsense"}, expected_version=game.version
        )
    after = GameSnapshot.objects.get(pk=game.pk)
    assert (after.version, after.state) == (before.version, before.state)


def test_a_lobby_game_has_no_state_yet(alice):
    from games.play import lobby

    game = lobby.game_create(creator=alice, seats=3)
    assert snapshots.load_if_started(game) is None
    with pytest.raises(ApplicationError, match="has not started"):
        snapshots.load(game)


def test_the_admin_board_is_the_public_view_while_the_game_runs(alice, client, django_user_model):
    game = start_game(alice, 3)
    state = fetch.game_state(game)
    root = django_user_model.objects.create_superuser("root", "root@example.org", "x" * 20)
    client.force_login(root)
    html = client.get(reverse("admin:games_gamesnapshot_change", args=[game.pk])).content.decode()
    assert "seed_commitment" in html and state.seed not in html
    hand = state.seat("alice").risk_cards
    assert hand and "&quot;risk_hand&quot;" not in html and "risk_hand" not in html


def test_an_action_reads_and_writes_the_state_row_once_and_never_selects_the_log(alice):
    """The action path's statements: BEGIN, the state row and the game row
    locked in one SELECT, the seats, the log INSERT with its response, the piece rows the
    action changed, one UPDATE of the state row (state, version, whether the server is to
    move), COMMIT (inside the test's own transaction, a SAVEPOINT and its RELEASE); the game
    row is not written, and idempotency needs no SELECT (the unique index answers a repeat).
    The piece rows are one statement on PostgreSQL (``test_pieces_postgresql``), one per table
    on SQLite: this arrangement rewrote alice's territories and moved her ship."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from risk.rules.bots import RandomBot, decide

    game = start_game(alice, 3)
    action = decide(RandomBot(random.Random(1)), fetch.game_state(game), "alice")
    body = {k: v for k, v in action.to_dict().items() if k != "player"}
    with CaptureQueriesContext(connection) as queries:
        first = submit.action_submit(
            game_id=game.pk, user=alice, action=body, expected_version=0, idempotency_key="k"
        )
    statements = [q["sql"].split()[0] + " " + _table(q["sql"]) for q in queries.captured_queries]
    assert statements == [
        "SAVEPOINT -",
        "SELECT games_gamesnapshot",  # FOR UPDATE of it and of the game row (joined)
        "SELECT games_seat",
        "INSERT games_actionlog",
        *PIECE_STATEMENTS[connection.vendor],
        "UPDATE games_gamesnapshot",
        "RELEASE -",
    ]
    again = submit.action_submit(
        game_id=game.pk, user=alice, action=body, expected_version=0, idempotency_key="k"
    )
    assert again == first and ActionLog.objects.filter(game=game).count() == 1


#: The piece rows of the arrangement above: one statement on PostgreSQL (a ``WITH`` whose
#: CTEs upsert the holdings and the ship), one per table on SQLite (``INSERT ... ON CONFLICT``).
PIECE_STATEMENTS = {
    "postgresql": ["WITH games_territoryholding"],
    "sqlite": ["INSERT games_territoryholding", "INSERT games_ship"],
}


def _table(sql: str) -> str:
    for word in ("FROM", "UPDATE", "INTO"):
        parts = sql.split(f"{word} ", 1)
        if len(parts) == 2 and parts[1].startswith('"'):
            return parts[1].split('"')[1]
    return "-"


@pytest.mark.parametrize(
    ("body", "field", "code"),
    [
        ({}, "action", "required"),
        ({"action": [], "expected_version": 0}, "action", "not_a_dict"),
        ({"action": {"type": "end_turn"}}, "expected_version", "required"),
        ({"action": {}, "expected_version": "3"}, "expected_version", "invalid"),
        ({"action": {}, "expected_version": True}, "expected_version", "invalid"),
        ({"action": {}, "expected_version": -1}, "expected_version", "min_value"),
        ({"action": {}, "expected_version": 0, "idempotency_key": ""}, "idempotency_key",
         "invalid"),
        ({"action": {}, "expected_version": 0, "idempotency_key": "k" * 101}, "idempotency_key",
         "max_length"),
        ({"action": {}, "expected_version": 0, "invite": 7}, "invite", "invalid"),
        ({"action": {}, "expected_version": 0, "invite": "t" * 101}, "invite", "invalid"),
    ],
)  # fmt: skip
def test_one_parser_names_the_field_at_fault_for_both_transports(body, field, code):
    from games.play.submit import parse_submission

    with pytest.raises(ApplicationError) as refused:
        parse_submission(body)
    assert (refused.value.field, refused.value.code) == (field, code)
    ok = parse_submission({"action": {"type": "end_turn"}, "expected_version": 4})
    assert ok.as_kwargs() == {
        "action": {"type": "end_turn"}, "expected_version": 4, "idempotency_key": None,
        "invite": None,
    }  # fmt: skip
    invited = parse_submission({"action": {"type": "join"}, "expected_version": 4, "invite": "t"})
    assert invited.invite == "t"
