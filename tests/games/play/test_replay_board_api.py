"""``GET /api/games/{id}/replay/board``: a finished game on the board, step by step.

One game (alice, bob with a client seed, and a bot) is played to the end once for the module,
inside an outer transaction rolled back at the end (as tests/games/play/test_verify.py does). The
answer must start at the spectator's view of the game as dealt, carry one patch per log entry,
and end exactly on what ``GET /api/games/{id}`` shows a spectator of the finished game.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest
from django.core.cache import cache
from django.db import transaction
from rest_framework.test import APIClient

from games.models import ActionLog, Game
from games.play import lobby, replay
from games.play.seeds import engine_seed
from risk.rules import Options, apply_patch, new_game, view_for
from tests.games.conftest import client_for, make_user
from tests.games.helpers import past_setup, play_out

OPTIONS = {"win": "round-limit", "round_limit": 1}
NOT_FOUND = {"error": "not_found", "message": "no such game", "field": "id", "allowed": None}


@dataclass(frozen=True)
class Finished:
    game_id: int
    alice: Any
    bob: Any


@pytest.fixture(scope="module")
def finished(django_db_setup, django_db_blocker) -> Finished:
    with django_db_blocker.unblock(), transaction.atomic():
        alice, bob = make_user("rb-alice"), make_user("rb-bob")
        game = lobby.game_create(creator=alice, seats=3, options=OPTIONS)
        lobby.game_join(game_id=game.pk, user=bob, client_seed="bob's replay socks")
        lobby.game_fill_with_bots(game_id=game.pk, user=alice)
        game = lobby.game_start(game_id=game.pk, user=alice)
        game = play_out(game, [alice, bob])
        assert game.status == Game.Status.FINISHED
        yield Finished(game.pk, alice, bob)
        transaction.set_rollback(True)


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()
    yield
    cache.clear()


def url(game_id: int) -> str:
    return f"/api/games/{game_id}/replay/board"


def test_a_finished_game_steps_from_the_deal_to_the_final_spectator_view(finished, db):
    game = Game.objects.get(pk=finished.game_id)
    answer = APIClient().get(url(game.pk))  # anyone, after the end
    assert answer.status_code == 200
    body = answer.json()
    assert set(body) == {"start", "steps"}

    sequences = list(ActionLog.objects.filter(game=game).order_by("sequence")
                     .values_list("sequence", flat=True))  # fmt: skip
    assert [s["sequence"] for s in body["steps"]] == sequences == list(range(1, game.version + 1))

    seats = list(game.seats.filter(position__lt=game.seat_count).order_by("position"))
    seed = engine_seed(game.server_seed, [s.client_seed for s in seats])
    dealt = new_game([s.player for s in seats], seed=seed, options=Options.from_dict(OPTIONS))
    assert body["start"] == json.loads(json.dumps(view_for(dealt, None)))

    view = body["start"]
    for step in body["steps"]:
        view = apply_patch(view, step["patch"])
    spectator = APIClient().get(f"/api/games/{game.pk}").json()["view"]
    assert view == spectator
    assert view["over"] is True and view["you"] is None


def test_the_answer_is_cached_by_game_and_final_version(finished, db, monkeypatch):
    game = Game.objects.get(pk=finished.game_id)
    first = APIClient().get(url(game.pk)).json()
    assert cache.get(replay.cache_key(game)) == first

    def no_second_replay(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a cached replay was computed again")

    monkeypatch.setattr(replay, "board_replay", no_second_replay)
    again = APIClient().get(url(game.pk))
    assert again.status_code == 200 and again.json() == first
    assert replay.cache_key(game) == f"replay-board:1:{game.pk}:{game.version}"


def test_a_second_replay_while_one_is_prepared_is_told_to_come_back(finished, db, monkeypatch):
    """One replay is computed at a time per process: while the slot is held (another viewer's
    first request), a request for an uncached replay gets 503 replays_busy with Retry-After."""
    monkeypatch.setattr(replay, "SLOT_WAIT", 0.01)
    game = Game.objects.get(pk=finished.game_id)
    assert replay._computing.acquire(timeout=1)
    try:
        busy = APIClient().get(url(game.pk))
    finally:
        replay._computing.release()
    assert busy.status_code == 503
    assert busy.json()["error"] == "replays_busy"
    assert busy["Retry-After"] == "1"
    assert APIClient().get(url(game.pk)).status_code == 200  # the slot is free again


def test_a_running_game_is_refused_until_the_end(alice, bob):
    game = lobby.game_create(creator=alice, seats=2)
    lobby.game_join(game_id=game.pk, user=bob)
    lobby.game_start(game_id=game.pk, user=alice)
    answer = client_for(alice).get(url(game.pk))
    assert answer.status_code == 409
    assert answer.json()["error"] == "not_over"


def test_a_private_game_reads_as_a_missing_one_to_others(alice, bob, carol):
    game = lobby.game_create(creator=alice, seats=2, public=False)
    lobby.game_join(game_id=game.pk, user=bob, invite=game.invite_token)
    lobby.game_start(game_id=game.pk, user=alice)
    play_out(game, [alice, bob], until=past_setup)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)  # the replay opens

    for client in (APIClient(), client_for(carol)):
        hidden = client.get(url(game.pk))
        assert hidden.status_code == 404 and hidden.json() == NOT_FOUND
    assert client_for(bob).get(url(game.pk)).status_code == 200
    invited = APIClient().get(url(game.pk), {"invite": game.invite_token})
    assert invited.status_code == 200
    assert len(invited.json()["steps"]) == Game.objects.get(pk=game.pk).version
