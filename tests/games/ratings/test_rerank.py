"""``manage.py rerate --rerank``: finished games ranked again (RULES.md J12), then rated.

A four-player game is played to its end by the engine (seeded random play, as a stored game of
before revision 2 plays: options without ``revision``) and stored as the server stores a game:
seats, one log entry per action, the final board, the result. Then the rows are made what the
server wrote before J12: the eliminated ranked in seat order, no elimination order on the board.
"""

from __future__ import annotations

import random
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone
from openskill.models import PlackettLuce

from combat.dice import commitment_of
from games.models import ActionLog, Game, GameSnapshot, Rating, Seat
from games.play import pieces
from games.play.seeds import engine_seed
from games.play.verify import game_verify
from risk.rules import apply, game_dice, new_game, pending_decisions, sample_action, to_dict
from risk.rules.state import SCHEMA_VERSION
from risk.rules.upcast import stored_options
from tests.games.conftest import make_user

pytestmark = pytest.mark.django_db

PLAYERS = ["alice", "bob", "carol", "dave"]
SEED = 6  # bob is out first, then dave, then carol; alice wins (found by trying seeds 0-19)


def stored_finished_game(*, until_out: int | None = None) -> Game:
    """The game of ``SEED`` as the server stores it; with ``until_out``, still running once
    that many players are out."""
    users = [make_user(name) for name in PLAYERS]
    server_seed = f"{SEED:064x}"
    game = Game.objects.create(
        creator=users[0], seat_count=4, options={"win": "last-standing"}, rated=True,
        server_seed=server_seed, seed_commitment=commitment_of(server_seed),
        status=Game.Status.FINISHED, started_at=timezone.now(), finished_at=timezone.now(),
    )  # fmt: skip
    for i, user in enumerate(users):
        Seat.objects.create(game=game, position=i, user=user, player=PLAYERS[i], client_seed="")
    seed = engine_seed(server_seed, [""] * 4)
    state = new_game(PLAYERS, seed=seed, options=stored_options(game.options))
    rng = random.Random(SEED)
    entries = []
    while not state.over:
        if until_out is not None and sum(s in PLAYERS for s in state.eliminated) >= until_out:
            game.status = Game.Status.RUNNING
            break
        actor = pending_decisions(state)[0].player
        action = sample_action(state, actor, rng)
        dice = game_dice(state)
        state, events = apply(state, action, dice)
        entries.append(ActionLog(
            game=game, sequence=len(entries) + 1, actor=actor, action=action.to_dict(),
            events=[e.to_dict() for e in events], context=dice.context,
            rolls=[r.as_dict() for r in dice.log],
        ))  # fmt: skip
    ActionLog.objects.bulk_create(entries)
    GameSnapshot.objects.create(
        game=game, version=len(entries), schema_version=SCHEMA_VERSION, state=to_dict(state)
    )
    pieces.create(game, state, game.seats.all())  # the piece rows, as the server keeps them
    if state.over:
        game.result = {"winner": state.winner, "ranking": list(state.ranking)}
    game.save()
    return game


def as_stored_before_the_fix(game: Game, ranking: list[str]) -> None:
    """The rows the server wrote before RULES.md J12 for the same game."""
    game.result = {**game.result, "ranking": ranking}
    game.save()
    snapshot = GameSnapshot.objects.get(pk=game.pk)
    del snapshot.state["eliminated"], snapshot.state["landless"]
    snapshot.state["ranking"] = ranking
    snapshot.save()
    last = ActionLog.objects.filter(game=game).order_by("-sequence").first()
    last.events = [{**e, "ranking": ranking} if e["type"] == "game_over" else e
                   for e in last.events]  # fmt: skip
    last.save()


def test_rerank_corrects_a_stored_ranking_and_rerate_rates_the_corrected_places():
    """RULES.md J12: bob went out first, then dave, then carol ('the player is out of the game');
    alice won. Stored before the fix the ranking read alice, bob, carol, dave (the beaten by
    seat order); ranked again it is alice, carol, dave, bob, the game still verifies (log,
    result and board agree with a replay), and OpenSkill rates places 1, 4, 2, 3."""
    game = stored_finished_game()
    log = ActionLog.objects.filter(game=game).order_by("sequence")
    out = [e["seat"] for entry in log for e in entry.events if e["type"] == "eliminated"]
    assert [s for s in out if s in PLAYERS] == ["bob", "dave", "carol"]
    assert game.result == {"winner": "alice", "ranking": ["alice", "carol", "dave", "bob"]}
    assert game_verify(game).ok

    as_stored_before_the_fix(game, ["alice", "bob", "carol", "dave"])
    report = game_verify(game)
    assert not report.ok and "events differ" in str(report.mismatch)
    output = StringIO()
    call_command("rerate", "--rerank", stdout=output)
    assert output.getvalue().splitlines() == [
        f"game {game.pk}: ranking ['alice', 'bob', 'carol', 'dave'] -> "
        "['alice', 'carol', 'dave', 'bob']",
        "reranked 1 game(s)",
        "rerated 1 result(s)",
    ]
    game.refresh_from_db()
    assert game.result == {"winner": "alice", "ranking": ["alice", "carol", "dave", "bob"]}
    snapshot = GameSnapshot.objects.get(pk=game.pk).state
    assert snapshot["ranking"] == ["alice", "carol", "dave", "bob"]
    assert [s for s in snapshot["eliminated"] if s in PLAYERS] == ["bob", "dave", "carol"]
    report = game_verify(game)
    assert report.ok, report.lines()
    assert report.final_state_equal is True

    model = PlackettLuce()
    expected = model.rate([[model.rating()] for _ in PLAYERS], ranks=[1, 4, 2, 3])
    for name, (team,) in zip(PLAYERS, expected, strict=True):
        got = Rating.objects.get(user__username=name, kind="fast_risk_multi")
        assert (got.rating, got.deviation) == (team.mu, team.sigma)

    again = StringIO()
    call_command("rerate", "--rerank", stdout=again)
    assert "reranked 0 game(s)" in again.getvalue()  # a second run changes nothing


def test_without_rerank_rerate_rates_the_stored_ranking():
    """``rerate`` alone keeps each stored ranking (the correction is asked for, not implied)."""
    game = stored_finished_game()
    as_stored_before_the_fix(game, ["alice", "bob", "carol", "dave"])
    output = StringIO()
    call_command("rerate", stdout=output)
    assert output.getvalue().splitlines() == ["rerated 1 result(s)"]
    game.refresh_from_db()
    assert game.result["ranking"] == ["alice", "bob", "carol", "dave"]


def test_rerank_records_the_order_on_the_board_of_a_running_game():
    """RULES.md J12: bob and dave are out of a game still running; its board, saved before the
    order was recorded, loads with the seat-order guess (bob, dave happens to be right; here it
    is stored wrongly as dave, bob). ``--rerank`` writes the order of the log, so the game will
    finish ranked by it; the result stays empty."""
    game = stored_finished_game(until_out=2)
    snapshot = GameSnapshot.objects.get(pk=game.pk)
    true_order = list(snapshot.state["eliminated"])
    assert [s for s in true_order if s in PLAYERS] == ["bob", "dave"]
    snapshot.state["eliminated"] = ["dave", "bob"]
    snapshot.save()
    output = StringIO()
    call_command("rerate", "--rerank", stdout=output)
    assert output.getvalue().splitlines()[:2] == [
        f"game {game.pk}: elimination order recorded (still running)",
        "reranked 1 game(s)",
    ]
    assert GameSnapshot.objects.get(pk=game.pk).state["eliminated"] == true_order
    game.refresh_from_db()
    assert (game.status, game.result) == (Game.Status.RUNNING, {})


@pytest.mark.django_db(transaction=True)
def test_the_deploy_migration_ranks_stored_games_again():
    """Migration 0013 runs the same correction with its historical models, so a deploy
    serves no game whose stored ranking differs from its replay's."""
    before, after = [("games", "0012_tournaments")], [("games", "0013_rerank_by_elimination_order")]
    game = stored_finished_game()
    as_stored_before_the_fix(game, ["alice", "bob", "carol", "dave"])
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    executor = MigrationExecutor(connection)
    executor.migrate(after)
    game.refresh_from_db()
    assert game.result["ranking"] == ["alice", "carol", "dave", "bob"]
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())  # the rest of a deploy (piece rows)
    assert game_verify(game).ok
