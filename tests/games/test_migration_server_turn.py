"""games migration 0005 sets ``server_turn`` on the state rows of running and paused games,
which 0004 added as False everywhere (a game waiting on a lost bot task would never have been
found by the sweep); finished games keep False."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("games", "0004_server_turn")]
AFTER = [("games", "0005_server_turn_of_running_games")]


@pytest.mark.django_db(transaction=True)
def test_running_and_paused_games_are_flagged_finished_ones_not():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    user = old.get_model("auth", "User").objects.create(username="alice")
    game_model, snapshot_model = (
        old.get_model("games", "Game"),
        old.get_model("games", "GameSnapshot"),
    )
    for status in ("running", "paused", "finished", "open"):
        game = game_model.objects.create(
            creator=user, status=status, name=status, seat_count=2, server_seed="s" * 64
        )
        if status != "open":
            snapshot_model.objects.create(game=game, version=7, schema_version=1, state={})

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps
    flags = dict(
        new.get_model("games", "GameSnapshot").objects.values_list("game__name", "server_turn")
    )
    assert flags == {"running": True, "paused": True, "finished": False}

    # Their states are stand-ins ({}), which no later migration could read (0016 fills the
    # piece rows from each state): gone before the database is left as it was.
    new.get_model("games", "Game").objects.all().delete()
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())  # leave the database as it was
